"""Simulation throughput: games/s with --jobs 1 and --jobs 2 for each game's strongest line-up.

Each run plays the same seeded series (game i from derive(seed, "game", i)); the
bots are warmed up in this process first, so both runs measure play, and the
pool's workers (forked) start with the tables loaded. The scaling ratio is
(games/s with 2 workers) / (games/s with 1). The machine's load average is
printed: on a shared machine the ratio is only meaningful when it is quiet. CPU
milliseconds per game (this process and the joined workers) show the pool's own
overhead whatever the load: equal figures for both runs mean the work is the same
and only the cores available limit the ratio.

    .venv/bin/python bench/sim_throughput.py [--seconds 8] [--game decathlon ...]
"""

from __future__ import annotations

import argparse
import os
import resource
import time

from gamenight.core import registry
from gamenight.sim import run_series
from gamenight.sim.engine import warm_up

# The strongest line-up of each game (two seats, its best bots).
LINEUPS: dict[str, list[str]] = {
    "decathlon": ["optimal", "competitive"],
    "dice-duel": ["turn-optimal", "turn-optimal"],
    "wurfeltod": ["optimal", "optimal"],
    "decades": ["expert", "expert"],
}


def cpu_seconds() -> float:
    """CPU time of this process and its finished (joined) children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure(game: str, bots: list[str], jobs: int, games: int) -> tuple[float, float]:
    """Games per wall second, and CPU milliseconds per game (all processes)."""
    entry = registry.get(game)
    cpu = cpu_seconds()
    started = time.perf_counter()
    report = run_series(entry, bots, games=games, seed=1, jobs=jobs)
    assert report.games == games
    wall = time.perf_counter() - started
    return games / wall, (cpu_seconds() - cpu) * 1000 / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=8.0, help="target time per run")
    parser.add_argument("--game", action="append", help="only these games")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f} (cores: {os.cpu_count()})")
    print(
        "| Game | Line-up | Games | jobs 1 (games/s) | jobs 2 (games/s) | Ratio | "
        "CPU ms/game j1 | CPU ms/game j2 | Load |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for game, bots in LINEUPS.items():
        if args.game and game not in args.game:
            continue
        try:
            warm_up(game, bots)
        except Exception as exc:  # e.g. the Wurfeltod value table is not built yet
            print(f"| {game} | {', '.join(bots)} | — | skipped: {exc} | | | |")
            continue
        probe, _ = measure(game, bots, 1, 4)
        games = max(64, int(probe * args.seconds) // 8 * 8)  # short runs measure start-up
        one, cpu_one = measure(game, bots, 1, games)
        two, cpu_two = measure(game, bots, 2, games)
        load = os.getloadavg()[0]
        cells = [
            game,
            ", ".join(bots),
            str(games),
            f"{one:.1f}",
            f"{two:.1f}",
            f"{two / one:.2f}×",
            f"{cpu_one:.1f}",
            f"{cpu_two:.1f}",
            f"{load:.1f}",
        ]
        print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
