"""Full Wurfeltod solitaire solve: wall time, peak RSS, expected score, load and query times.

Run: ``.venv/bin/python bench/wurfeltod_solve.py [--path FILE] [--quiet]``. The table
is written to a temporary directory unless ``--path`` is given, so the user's cache
is left alone.
"""

from __future__ import annotations

import time

_START = time.perf_counter()

import argparse  # noqa: E402 - the clock starts before the imports on purpose
import resource  # noqa: E402
import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
from rich.console import Console  # noqa: E402

from gamenight.core.threads import usable_cores  # noqa: E402
from gamenight.games.wurfeltod.booking import evaluate  # noqa: E402
from gamenight.games.wurfeltod.categories import Category  # noqa: E402
from gamenight.games.wurfeltod.solver import (  # noqa: E402
    Book,
    Scratch,
    SetAside,
    ValueTable,
    best_option,
    build_table,
    expected_score,
    require_table,
)
from gamenight.terminal.wurfeltod import solve_progress  # noqa: E402


def play_one_game(table: ValueTable, rng: np.random.Generator) -> int:
    """Play a solitaire game with the optimal policy; return the final score (W2-W5)."""
    used: dict[Category, int] = {}
    score = 0
    for _ in range(table.boxes.turns):
        aside: tuple[int, ...] = ()
        rolled = tuple(int(d) for d in rng.integers(1, 7, size=6))
        while True:
            option, _ = best_option(table, used, aside, rolled, first_roll=not aside)
            if isinstance(option, SetAside):
                aside += option.dice
                rolled = tuple(int(d) for d in rng.integers(1, 7, size=6 - len(aside)))
                continue
            if isinstance(option, Book):
                score += evaluate(aside, rolled)[option.category].score
            assert isinstance(option, Book | Scratch)
            used[option.category] = used.get(option.category, 0) + 1
            break
    return score


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--path", type=Path, help="where to write the table")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument(
        "--simulate", type=int, default=0, metavar="N", help="also play N games optimally"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.path or Path(tmp) / "wurfeltod-values.bin"
        imported = time.perf_counter()
        if args.quiet:
            build_table(path, force=True)
        else:
            bar, progress = solve_progress(Console(stderr=True))
            with bar:
                build_table(path, force=True, progress=progress)
        built = time.perf_counter()
        peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

        loads = []
        for _ in range(5):
            t = time.perf_counter()
            table = require_table(path)
            loads.append(time.perf_counter() - t)

        rng = np.random.default_rng(1)
        states = rng.integers(0, table.boxes.state_count - 1, size=200)
        first, cached = [], []
        for state in states.tolist():
            used = table.boxes.used_of(state)
            dice = tuple(int(d) for d in rng.integers(1, 7, size=6))
            t = time.perf_counter()
            best_option(table, used, (), dice, first_roll=True)
            first.append(time.perf_counter() - t)
            t = time.perf_counter()
            best_option(table, used, dice[:2], dice[2:], first_roll=False)
            cached.append(time.perf_counter() - t)

        print(f"threads                   {usable_cores()}")
        print(f"imports                   {imported - _START:.2f} s")
        print(f"build (solve + save)      {built - imported:.2f} s")
        print(f"whole process so far      {built - _START:.2f} s")
        print(f"peak RSS                  {peak_mib:.0f} MiB")
        print(f"table file                {path.stat().st_size / 2**20:.1f} MiB")
        print(f"expected score, new game  {expected_score(table):.4f}")
        print(f"load (first, best of 5)   {loads[0] * 1e3:.0f} ms, {min(loads) * 1e3:.0f} ms")
        print(
            f"best_option, new state    median {np.median(first[1:]) * 1e3:.2f} ms, "
            f"max {max(first[1:]) * 1e3:.2f} ms (first call {first[0] * 1e3:.0f} ms)"
        )
        print(
            f"best_option, same state   median {np.median(cached) * 1e3:.3f} ms, "
            f"max {max(cached) * 1e3:.2f} ms"
        )
        if args.simulate:
            t = time.perf_counter()
            scores = np.array([play_one_game(table, rng) for _ in range(args.simulate)])
            sem = scores.std(ddof=1) / np.sqrt(len(scores))
            print(
                f"simulated optimal play    {len(scores)} games: mean {scores.mean():.1f} "
                f"+- {sem:.1f} (1 s.e.), sd {scores.std(ddof=1):.0f}, "
                f"{time.perf_counter() - t:.1f} s"
            )


if __name__ == "__main__":
    main()
