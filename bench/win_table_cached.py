"""Issue 46: the cached two-player win table, ``gamenight solve decathlon --two-player-win``
as a whole process, paired with an older checkout in the same run.

    .venv/bin/python bench/win_table_cached.py --old /tmp/winbound-base [--rounds 7]
        [--cache DIR] [--profile] [--instructions]

``--old`` is a tree holding the older ``src`` (``git archive main src | tar -x -C DIR``).
Both sides read the table from ``--cache`` (default: ``$GAMENIGHT_CACHE_DIR``, else a
folder of this run): the old side its format-1 file, the new side its format-2 file
(the stored bound). A missing format-1 file is built first by the old side (the full
decathlon: minutes); a missing format-2 file is made by the new side's first run, which
reads the format-1 file and computes the bound once (reported as "upgrade, once").

A bare interpreter (``python -c pass``) is measured alongside as the yardstick of the
machine's load. Every measure is a fresh process, the sides alternating round by round,
so both see the same machine. Reported: min and median CPU seconds (user + sys, from
``wait4``), min and median wall seconds, and the median peak RSS (MiB). Both sides'
sources are byte-compiled first, as an installed copy is. The outputs are checked: ``--json`` byte
for byte, the table without its last line (the time it took). ``--profile`` prints the
new side's cProfile top entries (cumulative), in process.
"""

from __future__ import annotations

import argparse
import compileall
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
NEW = HERE.parent
GAMENIGHT = "from gamenight.cli.main import run; run()"
COMMAND = ["solve", "decathlon", "--two-player-win"]
MEASURES = {
    "python -c pass (the yardstick: this machine's load)": [],
    "solve decathlon --two-player-win": COMMAND,
    "solve decathlon --two-player-win --json": [*COMMAND, "--json"],
}
PROFILE = """
import cProfile, pstats, sys
sys.argv = ["gamenight", *sys.argv[1:]]
from gamenight.cli.main import run
profile = cProfile.Profile()
profile.enable()
try:
    run()
except SystemExit:
    pass
profile.disable()
sys.stdout = sys.__stderr__
pstats.Stats(profile, stream=sys.stderr).sort_stats("cumulative").print_stats(25)
"""


def run_once(src: Path, argv: list[str], cache: Path) -> tuple[float, float, float, str]:
    """(CPU s, wall s, peak RSS MiB, stdout) of one child process."""
    env = {
        **os.environ,
        "PYTHONPATH": str(src / "src"),
        "COLUMNS": "100",
        "GAMENIGHT_CACHE_DIR": str(cache),
    }
    began = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-c", GAMENIGHT, *argv] if argv else [sys.executable, "-c", "pass"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert child.stdout is not None
    out = child.stdout.read().decode()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - began
    if status != 0:
        raise SystemExit(f"{src}: {' '.join(argv)} failed with status {status}")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024, out


def instructions(src: Path, argv: list[str], cache: Path) -> int:
    """The instructions one run executes (valgrind's callgrind)."""
    env = {
        **os.environ,
        "PYTHONPATH": str(src / "src"),
        "COLUMNS": "100",
        "GAMENIGHT_CACHE_DIR": str(cache),
    }
    code = GAMENIGHT if argv else "pass"
    grind = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    done = subprocess.run(
        [*grind, sys.executable, "-c", code, *argv],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"refs:\s*([\d,]+)", done.stderr)
    assert found is not None, done.stderr[-500:]
    return int(found.group(1).replace(",", ""))


def without_time(out: str) -> str:
    """The table without its last line ("solved in 0.04 s")."""
    lines = out.rstrip("\n").splitlines()
    assert lines[-1].startswith("solved in"), lines[-1]
    return "\n".join(lines[:-1])


def cell(values: list[float], digits: int = 3) -> str:
    return f"{min(values):.{digits}f} / {statistics.median(values):.{digits}f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, required=True, help="the older tree (with src/)")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--cache", type=Path, default=None, help="the tables' folder")
    parser.add_argument("--profile", action="store_true", help="the new side's top entries")
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="also count each side's instructions once (callgrind: load-proof, slow)",
    )
    args = parser.parse_args()
    sides = {"new": NEW, "old": args.old.resolve()}
    cache = args.cache or Path(
        os.environ.get("GAMENIGHT_CACHE_DIR") or tempfile.mkdtemp(prefix="win-table-cached-")
    )
    cache.mkdir(parents=True, exist_ok=True)
    for src in sides.values():
        compileall.compile_dir(src / "src", quiet=1)

    have = {p.name.split("-")[2] for p in cache.glob("decathlon-win2p-v*.npz")}
    print(f"cache {cache}: {sorted(have) or 'empty'}; load average before {os.getloadavg()}")
    if "v1" not in have:
        print("building the format-1 table with the old side (cold: minutes) ...", flush=True)
        cpu, wall, rss, _ = run_once(sides["old"], [*COMMAND, "--json"], cache)
        print(f"  cold build (old): {cpu:.1f} CPU-s, {wall:.1f} s wall, {rss:.0f} MiB")
    if "v2" not in have:
        cpu, wall, rss, _ = run_once(sides["new"], [*COMMAND, "--json"], cache)
        print(f"  upgrade, once (new, format 1 -> 2): {cpu:.2f} CPU-s, {rss:.0f} MiB")

    rows = []
    for name, argv in MEASURES.items():
        runs: dict[str, list[tuple[float, float, float, str]]] = {s: [] for s in sides}
        for _ in range(args.rounds):
            for side, src in sides.items():
                runs[side].append(run_once(src, argv, cache))
        outs = {s: {r[3] for r in runs[s]} for s in sides}
        if not argv or "--json" in argv:
            same = outs["new"] == outs["old"] and len(outs["new"]) == 1
        else:
            same = {without_time(o) for o in outs["new"]} == {without_time(o) for o in outs["old"]}
        for side in sides:
            cpus = [r[0] for r in runs[side]]
            walls = [r[1] for r in runs[side]]
            peak = statistics.median(r[2] for r in runs[side])
            rows.append((name, side, cell(cpus), cell(walls), f"{peak:.1f}", same))
        new_cpu = statistics.median(r[0] for r in runs["new"])
        old_cpu = statistics.median(r[0] for r in runs["old"])
        print(f"{name}: old/new median CPU {old_cpu / max(new_cpu, 1e-6):.1f}x", flush=True)

    print(f"\nload average after {os.getloadavg()}; {args.rounds} rounds\n")
    print("| command | side | CPU s min / median | wall s min / median | peak RSS MiB | same |")
    print("|---|---|---|---|---|---|")
    for name, side, cpu_cell, wall_cell, rss_cell, same in rows:
        print(f"| `{name}` | {side} | {cpu_cell} | {wall_cell} | {rss_cell} | {same} |")
    if not all(r[5] for r in rows):
        raise SystemExit("the outputs differ")
    if args.instructions:
        print("\n| command | side | instructions (callgrind) |\n|---|---|---:|")
        for name, argv in MEASURES.items():
            for side, src in sides.items():
                print(f"| `{name}` | {side} | {instructions(src, argv, cache):,} |", flush=True)
    if args.profile:
        env = {**os.environ, "PYTHONPATH": str(NEW / "src"), "GAMENIGHT_CACHE_DIR": str(cache)}
        subprocess.run(
            [sys.executable, "-c", PROFILE, *COMMAND],
            env=env,
            check=True,
            stdout=subprocess.DEVNULL,
        )


if __name__ == "__main__":
    main()
