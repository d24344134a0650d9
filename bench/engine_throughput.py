"""Engine throughput: random-play games/s and decisions/s for every registered game.

A decision is one acting seat's turn as an agent sees it: ``to_act``, the seat's
``view``, ``legal_actions``, a uniformly random choice and ``apply``. Game i uses
dice seed i. Every configuration runs for about ``--seconds`` of wall time (whole
games), all in one run, so the figures compare. Targets (issue 9 section 7):
at least 1,000 one-player random Decathlon games/s, and Decathlon decisions/s at
8 players at least half of those at 1 player.

    .venv/bin/python bench/engine_throughput.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from gamenight.core import registry
from gamenight.core.dice import SeededDice

# (game id, seats): one and eight players for the Decathlon, sensible counts elsewhere.
CONFIGS: tuple[tuple[str, int], ...] = (
    ("decathlon", 1),
    ("decathlon", 8),
    ("dice-duel", 2),
    ("wurfeltod", 1),
    ("wurfeltod", 4),
    ("decades", 2),
)


def play(game: Any, players: int, seed: int) -> int:
    """One random game; returns the number of decisions taken."""
    rng = random.Random(seed)
    state = game.start(players, game.parse_options(), SeededDice(seed=seed)).state
    decisions = 0
    while True:
        acting = game.to_act(state)
        if not acting:
            return decisions
        seat = acting[0] if len(acting) == 1 else rng.choice(acting)
        game.view(state, seat)  # what an agent is shown at every decision
        legal = game.legal_actions(state, seat)
        state = game.apply(state, seat, rng.choice(legal)).state
        decisions += 1


def measure(game_id: str, players: int, seconds: float) -> tuple[int, int, float]:
    """(games, decisions, wall seconds) of random play for about ``seconds``."""
    game = registry.get(game_id).game
    play(game, players, -1)  # warm imports and caches
    games = decisions = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        decisions += play(game, players, games)
        games += 1
    return games, decisions, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="wall time per row")
    args = parser.parse_args()
    print("| game | players | games | games/s | decisions/s | decisions/game |")
    print("|---|---:|---:|---:|---:|---:|")
    rates: dict[tuple[str, int], float] = {}
    for game_id, players in CONFIGS:
        games, decisions, wall = measure(game_id, players, args.seconds)
        rates[game_id, players] = decisions / wall
        print(
            f"| {game_id} | {players} | {games} | {games / wall:,.1f} | "
            f"{decisions / wall:,.0f} | {decisions / games:.1f} |",
            flush=True,
        )
    ratio = rates["decathlon", 8] / rates["decathlon", 1]
    print(f"\nDecathlon decisions/s, 8 players / 1 player: {ratio:.2f}")


if __name__ == "__main__":
    main()
