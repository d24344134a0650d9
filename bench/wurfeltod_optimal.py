"""The optimal Wurfeltod bot: decision latency, solitaire strength and head-to-head vs greedy.

Run: ``.venv/bin/python bench/wurfeltod_optimal.py [--games 2000] [--duels 1000] [--table FILE]``

Without ``--table`` the full value table is built in a temporary directory first
(a few seconds), so the user's cache is left alone. Every game goes through the real
engine (``core.runner.play_match``).

* Solitaire: game ``i`` uses dice seed ``i`` for both bots, so the difference of
  the means is paired (its standard error is that of the per-game differences).
* Head-to-head: two players, game ``i`` uses dice seed ``i``; optimal sits in seat
  ``i % 2``. Wins, ties and losses are counted for optimal.
* Latency: every ``act`` call of the optimal bot, after its factory's warm-up.
"""

from __future__ import annotations

import argparse
import math
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from gamenight.core.agents import Decision
from gamenight.core.events import Event
from gamenight.core.runner import play_match
from gamenight.games.wurfeltod.bots import GreedyBot, OptimalBot
from gamenight.games.wurfeltod.game import GAME
from gamenight.games.wurfeltod.solver import ValueTable, build_table, expected_score, require_table

MC_TEST_GAMES = 1200  # tests/games/wurfeltod/test_optimal.py plays seeds 0..1199


class Timed:
    """Wraps an agent and records how long each decision takes, split by first roll: wall
    time, and the CPU time of the thread (which leaves out time the process sat preempted
    on a busy machine)."""

    def __init__(self, agent: Any) -> None:
        self.agent = agent
        self.label = agent.label
        self.first_roll: list[tuple[float, float]] = []
        self.later: list[tuple[float, float]] = []

    def act(self, decision: Decision[Any, Any]) -> Any:
        wall, cpu = time.perf_counter(), time.thread_time()
        action = self.agent.act(decision)
        taken = (time.perf_counter() - wall, time.thread_time() - cpu)
        (self.first_roll if decision.view.first_roll else self.later).append(taken)
        return action

    def observe(self, seat: int, events: Sequence[Event]) -> None:
        self.agent.observe(seat, events)


def mean_error(values: Sequence[float]) -> tuple[float, float]:
    return statistics.fmean(values), statistics.stdev(values) / math.sqrt(len(values))


def latency_lines(name: str, taken: Sequence[tuple[float, float]]) -> list[str]:
    lines = []
    for clock, ms in zip(("wall", "cpu"), np.array(taken).T * 1e3, strict=True):
        p50, p99 = np.percentile(ms, [50, 99])
        lines.append(
            f"  {name:<22} {clock:<4} {len(ms):>7} decisions: p50 {p50:.3f} ms, "
            f"p99 {p99:.3f} ms, max {ms.max():.2f} ms"
        )
    return lines


def solitaire(table: ValueTable, games: int) -> None:
    timed = Timed(OptimalBot(0, table=table))
    scores: dict[str, list[float]] = {"optimal": [], "greedy": []}
    seconds: dict[str, float] = {}
    for name in scores:
        started = time.perf_counter()
        for seed in range(games):
            agent = timed if name == "optimal" else GreedyBot(seed)
            results, _ = play_match(GAME, [agent], seed=seed)
            scores[name].append(results.scores[0])
        seconds[name] = time.perf_counter() - started
    exact = expected_score(table)
    print(f"Solitaire, {games} games per bot (game i: dice seed i)")
    for name, values in scores.items():
        mean, error = mean_error(values)
        z = f", z vs exact {(mean - exact) / error:+.2f}" if name == "optimal" else ""
        print(
            f"  {name:<8} mean {mean:8.1f} ± {error:5.1f} (s.e.), "
            f"sd {statistics.stdev(values):6.1f}, min {min(values):6.0f}, "
            f"max {max(values):6.0f}{z}; "
            f"{seconds[name]:5.1f} s ({1e3 * seconds[name] / games:.1f} ms/game)"
        )
    print(f"  exact expectation under optimal play: {exact:.4f}")
    gain = [o - g for o, g in zip(scores["optimal"], scores["greedy"], strict=True)]
    mean, error = mean_error(gain)
    better = sum(d > 0 for d in gain)
    print(
        f"  optimal - greedy, paired by seed: {mean:+.1f} ± {error:.1f} (s.e.); optimal "
        f"scored more in {better} games, less in {sum(d < 0 for d in gain)}"
    )
    if games >= MC_TEST_GAMES:
        mean, error = mean_error(scores["optimal"][:MC_TEST_GAMES])
        print(
            f"  seeds 0..{MC_TEST_GAMES - 1} (the Monte-Carlo test): mean {mean:.1f} ± "
            f"{error:.1f}, z {(mean - exact) / error:+.2f}"
        )
    print("Decision latency of the optimal bot (warmed up by its factory)")
    for name, taken in (
        ("first roll (new state)", timed.first_roll),
        ("later rolls", timed.later),
        ("all", timed.first_roll + timed.later),
    ):
        print("\n".join(latency_lines(name, taken)))


def head_to_head(table: ValueTable, games: int) -> None:
    wins = ties = losses = 0
    margins = []
    started = time.perf_counter()
    for seed in range(games):
        seat = seed % 2
        agents: list[Any] = [GreedyBot(seed), GreedyBot(seed)]
        agents[seat] = OptimalBot(seed, table=table)
        results, _ = play_match(GAME, agents, seed=seed)
        mine, theirs = results.scores[seat], results.scores[1 - seat]
        wins += mine > theirs
        ties += mine == theirs
        losses += mine < theirs
        margins.append(mine - theirs)
    elapsed = time.perf_counter() - started
    rate = (wins + ties / 2) / games
    error = math.sqrt(rate * (1 - rate) / games)
    mean, margin_error = mean_error(margins)
    print(f"Two players, optimal vs greedy, {games} games (dice seed i, optimal in seat i % 2)")
    print(
        f"  optimal wins {wins}, ties {ties}, loses {losses}: win rate {100 * rate:.1f}% "
        f"± {100 * error:.1f}% (ties count half); mean margin {mean:+.1f} ± {margin_error:.1f}; "
        f"{elapsed:.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000, help="solitaire games per bot")
    parser.add_argument("--duels", type=int, default=1000, help="two-player games")
    parser.add_argument("--table", type=Path, help="an existing value table to use")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.table
        if path is None:
            started = time.perf_counter()
            path = build_table(Path(tmp) / "wurfeltod-values.bin")
            print(f"built the value table in {time.perf_counter() - started:.1f} s")
        table = require_table(path)
    started = time.perf_counter()
    OptimalBot(0, table=table)
    print(f"first OptimalBot of the process (warm-up query): {time.perf_counter() - started:.2f} s")
    if args.games:
        solitaire(table, args.games)
    if args.duels:
        head_to_head(table, args.duels)


if __name__ == "__main__":
    main()
