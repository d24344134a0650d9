"""The table layer's price: random games through ``play_match`` (the table, its steps
and frames, agents observing) against the bare rules loop of bench/engine_throughput.py,
for every game, in one process (issue 29: at most 25% more CPU than the rules).

Both sides play the same number of games on the same dice seeds with random agents;
the figure is CPU seconds per game (``time.process_time``, so a busy machine hides
less), best of ``--rounds`` interleaved rounds. Run it against an older checkout with
``PYTHONPATH=old/src`` to pair the two.

    .venv/bin/python bench/table_overhead.py [--games 60] [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from engine_throughput import play

from gamenight.core import registry
from gamenight.core.agents import RandomAgent
from gamenight.core.runner import play_match

CONFIGS: tuple[tuple[str, int], ...] = (
    ("decathlon", 1),
    ("dice-duel", 2),
    ("wurfeltod", 1),
    ("decades", 2),
)


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
        agents = [RandomAgent(seed * 8 + i) for i in range(players)]
        play_match(game, agents, seed=seed)
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
        bare(game, players, 2), tabled(game, players, 2)  # warm imports and caches
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
