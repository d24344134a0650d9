"""The table layer's price: random games through ``play_match`` (the table, its steps
and frames, agents observing) against the bare rules loop of bench/engine_throughput.py,
for every game, in one process (issue 29: at most 25% more CPU than the rules).

Both sides play the same games: game i has dice seed i and one ``random.Random(i)``
makes every choice, the bare loop's directly and the table's through agents that share
it (:class:`SharedRandom`), in the bare loop's order (a simultaneous position: one
acting seat drawn at random, as the bare loop does). The warm-up checks that both end
in the same final states. The figure is CPU seconds per game (``time.process_time``,
so a busy machine hides less), best of ``--rounds`` interleaved rounds. Run it against
an older checkout with ``PYTHONPATH=old/src`` to pair the two.

    .venv/bin/python bench/table_overhead.py [--games 60] [--rounds 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from engine_throughput import play

from gamenight.core import registry
from gamenight.core.agents import Decision
from gamenight.core.dice import SeededDice
from gamenight.core.record import RecordSeat
from gamenight.core.runner import Match, play_match

CONFIGS: tuple[tuple[str, int], ...] = (
    ("decathlon", 1),
    ("dice-duel", 2),
    ("wurfeltod", 1),
    ("decades", 2),
)


class SharedRandom:
    """A random agent drawing from a generator it shares with the other seats: the
    bare loop's one ``rng.choice(legal)`` per decision."""

    label = "random"
    observes = False  # as RandomAgent: it never looks at events

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def act(self, decision: Decision[Any, Any]) -> Any:
        return self._rng.choice(decision.legal)

    def observe(self, seat: int, events: Any) -> None:
        return None


class BareOrder(Match[Any, Any, Any, Any]):
    """A match that, where several seats may act, asks one drawn at random (the bare
    loop's order) instead of each in turn; everything else is :class:`Match`'s."""

    rng: random.Random

    def step(self) -> None:
        table = self._table()
        acting = table.to_act()
        seat = acting[0] if len(acting) == 1 else self.rng.choice(acting)
        if hasattr(table, "decision"):  # Match.step's own way to ask
            decision = table.decision(seat)
        else:  # an older checkout (before issue 29's lean table)
            snap = table.position(seat)
            decision = Decision(self.game.info.id, seat, snap.view, snap.legal)
        table.submit(seat, self.agents[seat].act(decision))


def tabled_game(game: Any, players: int, seed: int) -> Any:
    """One game through the table with the bare loop's choices; its final state."""
    rng = random.Random(seed)
    agents: list[Any] = [SharedRandom(rng) for _ in range(players)]
    if not game.info.simultaneous:
        return play_match(game, agents, seed=seed)[1]
    seats = [RecordSeat(f"random {i + 1}", "bot:random") for i in range(players)]
    match = BareOrder(game, game.parse_options(), seed, seats, agents)
    match.rng = rng
    match.begin(SeededDice(seed=seed))
    match.run()
    return match.state


def bare_game(game: Any, players: int, seed: int) -> Any:
    """The bare loop's game (engine_throughput.play, replayed): its final state."""
    rng = random.Random(seed)
    state = game.start(players, game.parse_options(), SeededDice(seed=seed)).state
    while acting := game.to_act(state):
        seat = acting[0] if len(acting) == 1 else rng.choice(acting)
        game.view(state, seat)
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat))).state
    return state


def bare(game: Any, players: int, games: int) -> float:
    """CPU seconds per game of the bare rules loop."""
    began = time.process_time()
    for seed in range(games):
        play(game, players, seed)
    return (time.process_time() - began) / games


def tabled(game: Any, players: int, games: int) -> float:
    """CPU seconds per game through play_match and the table."""
    began = time.process_time()
    for seed in range(games):
        tabled_game(game, players, seed)
    return (time.process_time() - began) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games per side and round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--only", default="", help="only games whose id contains this")
    args = parser.parse_args()
    print("| game | players | rules ms/game (min, median) | table ms/game (min, median) | ratio |")
    print("|---|---:|---:|---:|---:|")
    for game_id, players in CONFIGS:
        if args.only not in game_id:
            continue
        game = registry.get(game_id).game
        for seed in range(5):  # warm imports and caches, and check the games are the same
            if bare_game(game, players, seed) != tabled_game(game, players, seed):
                raise SystemExit(f"{game_id}: the table played another game for seed {seed}")
        rules: list[float] = []
        table: list[float] = []
        for i in range(args.rounds):
            pair = (bare, tabled) if i % 2 == 0 else (tabled, bare)
            for side in pair:
                (rules if side is bare else table).append(side(game, players, args.games))
        ratio = min(table) / min(rules)
        cells = [f"{min(x) * 1e3:.2f}, {statistics.median(x) * 1e3:.2f}" for x in (rules, table)]
        print(f"| {game_id} | {players} | {cells[0]} | {cells[1]} | {ratio:.2f} |", flush=True)


if __name__ == "__main__":
    main()
