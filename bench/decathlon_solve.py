"""Time the exact Decathlon solvers (``solve_all``: EV + every target, with PMFs).

Usage::

    .venv/bin/python bench/decathlon_solve.py            # timings
    .venv/bin/python bench/decathlon_solve.py --verify   # + slow brute-force checks

Figures printed:

* whole process, cold: a new interpreter running ``solve_all()`` after the
  solver's bytecode caches are deleted (start-up, imports and compile included);
* whole process, warm: the same with bytecode cached (median of several runs);
* in-process breakdown: import time, first solve per event, a cached second call.

``--verify`` runs the full 3-attempt Long Jump and Javelin against the
independent brute force of ``tests/games/decathlon/solver/decathlon_brute.py``
(about a minute; too slow for the test suite).
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OWN_CACHES = [
    ROOT / "src/gamenight/games/decathlon/solver/__pycache__",
    ROOT / "src/gamenight/solve/__pycache__",
]
SOLVE_ALL = "from gamenight.games.decathlon.solver import solve_all; solve_all()"


def whole_process() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", SOLVE_ALL], check=True)
    return time.perf_counter() - start


def in_process() -> None:
    code = """
import time
t0 = time.perf_counter()
from gamenight.games.decathlon.solver import EVENTS, solve_all, solve_event
t1 = time.perf_counter()
print(f"  import solver package        {1000 * (t1 - t0):7.1f} ms")
for event in EVENTS:
    s = time.perf_counter()
    solve_event(event)
    print(f"  solve {event:<22} {1000 * (time.perf_counter() - s):7.1f} ms")
t2 = time.perf_counter()
print(f"  all ten events               {1000 * (t2 - t1):7.1f} ms")
s = time.perf_counter()
solve_all()
print(f"  solve_all() again (cached)   {1000 * (time.perf_counter() - s):7.1f} ms")
"""
    subprocess.run([sys.executable, "-c", code], check=True)


def verify() -> None:
    sys.path.insert(0, str(ROOT / "tests/games/decathlon/solver"))
    brute = importlib.import_module("decathlon_brute")  # the tests' independent oracle

    from gamenight.games.decathlon.solver import solve_event

    def javelin(reward: Callable[[int | None], float]) -> float:
        return float(brute.freeze_event(6, (1, 3, 5), reward))

    for event, single in (("long-jump", brute.long_jump), ("javelin", javelin)):
        start = time.perf_counter()
        expected = float(brute.best_of_attempts(single, 3))
        got = solve_event(event).ev
        took = time.perf_counter() - start
        print(
            f"  {event:<10} solver {got:.12f} brute {expected:.12f} "
            f"diff {abs(got - expected):.1e} ({took:.0f} s)"
        )
        assert abs(got - expected) < 1e-9, event


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="warm whole-process runs")
    parser.add_argument("--verify", action="store_true", help="slow brute-force checks")
    args = parser.parse_args()
    for cache in OWN_CACHES:
        shutil.rmtree(cache, ignore_errors=True)
    cold = whole_process()
    warm = [whole_process() for _ in range(args.runs)]
    print(f"whole process, cold (no solver bytecode): {cold:.3f} s")
    print(
        f"whole process, warm: median {statistics.median(warm):.3f} s, "
        f"min {min(warm):.3f} s over {args.runs} runs"
    )
    print("in-process breakdown (warm bytecode):")
    in_process()
    if args.verify:
        print("brute-force verification, full 3 attempts:")
        verify()


if __name__ == "__main__":
    main()
