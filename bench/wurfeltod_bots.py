"""Mean solitaire scores of the Wurfeltod bots over seeded games.

Run: .venv/bin/python bench/wurfeltod_bots.py [--games 2000]
Game ``i`` uses dice seed ``i`` and bot seed ``i``; the figures are reproducible.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from gamenight.core.agents import RandomAgent
from gamenight.core.runner import play_match
from gamenight.games.wurfeltod.bots import GreedyBot
from gamenight.games.wurfeltod.categories import CATEGORIES
from gamenight.games.wurfeltod.game import GAME
from gamenight.games.wurfeltod.turn_plan import turn_plan

BOTS: dict[str, Callable[[int], Any]] = {"random": RandomAgent, "greedy": GreedyBot}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    print(f"Wurfeltod solitaire, {args.games} games per bot (dice seed = bot seed = game index)")
    print(
        f"greedy's exact expected score of a first turn, all boxes open: "
        f"{turn_plan(frozenset(CATEGORIES)).expected:.1f}"
    )
    for name, factory in BOTS.items():
        started = time.perf_counter()
        scores, points, wurfeltods = [], [], []
        for seed in range(args.games):
            results, state = play_match(GAME, [factory(seed)], seed=seed)
            scores.append(results.scores[0])
            points.append(state.cards[0].points)
            wurfeltods.append(state.cards[0].wurfeltods)
        elapsed = time.perf_counter() - started
        error = statistics.stdev(scores) / len(scores) ** 0.5
        print(
            f"{name:>7}: mean score {statistics.fmean(scores):8.1f} ± {error:5.1f} (s.e.), "
            f"sd {statistics.stdev(scores):6.1f}, min {min(scores):6.0f}, max {max(scores):6.0f}; "
            f"mean points {statistics.fmean(points):7.1f}, "
            f"mean Wurfeltods {statistics.fmean(wurfeltods):5.2f}; "
            f"{elapsed:5.1f} s ({1000 * elapsed / args.games:.1f} ms/game)"
        )


if __name__ == "__main__":
    main()
