"""Decathlon bots: mean result per event and over a full decathlon, greedy vs random.

Single-player games; game i uses dice seed i and bot seed i.

    .venv/bin/python bench/decathlon_bots.py [--games N]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from gamenight.core.agents import Agent, RandomAgent
from gamenight.core.runner import play_match
from gamenight.games.decathlon.bots import GreedyAgent
from gamenight.games.decathlon.disciplines import EVENT_IDS, NAMES
from gamenight.games.decathlon.game import GAME


def run(
    make: Callable[[int], Agent[Any, Any, Any]], games: int, events: list[str]
) -> tuple[list[float], float]:
    options = GAME.parse_options({"events": events})
    start = time.perf_counter()
    scores = [
        play_match(GAME, [make(i)], seed=i, options=options)[0].scores[0] for i in range(games)
    ]
    return scores, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    games = parser.parse_args().games
    bots: dict[str, Callable[[int], Agent[Any, Any, Any]]] = {
        "random": RandomAgent,
        "greedy": GreedyAgent,
    }
    print(f"| Event | {' | '.join(bots)} |")
    print("|---|" + "---:|" * len(bots))
    for event in EVENT_IDS:
        means = [statistics.mean(run(make, games, [event])[0]) for make in bots.values()]
        print(f"| {NAMES[event]} | " + " | ".join(f"{m:.2f}" for m in means) + " |")
    cells = []
    for make in bots.values():
        scores, seconds = run(make, games, list(EVENT_IDS))
        se = statistics.stdev(scores) / len(scores) ** 0.5
        cells.append(
            f"{statistics.mean(scores):.1f} ± {se:.1f} ({1000 * seconds / games:.1f} ms/game)"
        )
    print("| Full decathlon (mean ± s.e.) | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
