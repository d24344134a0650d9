"""Issue 29's figures, each paired with an older checkout in the same run.

Every measure runs as a fresh process, alternating between this checkout and the old
one (``--old``, a ``git worktree`` of the commit before the work) round by round, so
both sides see the same machine. Reported: min and median of the child's CPU time
(user + sys, from ``wait4``: robust on a shared machine), min and median wall time,
and the peak RSS. Throughput rows print their own in-process rate (CPU seconds). Both
sides' sources are byte-compiled first, as an installed copy is (with
``PYTHONDONTWRITEBYTECODE`` set, a fresh checkout would compile every module each run).

    .venv/bin/python bench/startup_paired.py --old ../wt-base [--rounds 7] [--only TEXT]

Measures: a bare interpreter (the yardstick of the start-up targets), ``gamenight
--help`` and ``gamenight list`` as the console script runs them (through its replay
cache) and as the real command without it ("no replay", issue 46; ``--help`` also in
German), ``gamenight solve
decathlon --json`` (whole process),
Wurfeltod engine games per CPU second (``bench/engine_throughput.py``'s loop) and
``gamenight/Wurfeltod-v0`` steps per CPU second. ``--check`` also compares the two
sides' ``solve decathlon --json`` output number by number.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
NEW = HERE.parent
GAMENIGHT = "from gamenight.cli.main import run; run()"
# The real command, never the replay cache (issue 46's target is for this path).
REAL = "import gamenight.cli.main as cli; cli.run()"

ENGINE = """
import sys, time
sys.path.insert(0, sys.argv[1])
from engine_throughput import play
from gamenight.core import registry
game = registry.get("wurfeltod").game
play(game, 1, -1)
began, games = time.process_time(), 0
while time.process_time() - began < 1.5:
    play(game, 1, games)
    games += 1
print(games / (time.process_time() - began))
"""

ENV = """
import random, time
import gymnasium as gym
import gamenight.envs
env = gym.make("gamenight/Wurfeltod-v0").unwrapped
rng = random.Random(0)
def episode(seed):
    obs, info = env.reset(seed=seed)
    steps, done = 0, False
    while not done:
        legal = info["action_mask"].nonzero()[0]
        obs, reward, term, trunc, info = env.step(int(legal[int(rng.random() * len(legal))]))
        done = term or trunc
        steps += 1
    return steps
episode(10**6)
began, steps, seed = time.process_time(), 0, 0
while time.process_time() - began < 1.5:
    steps += episode(seed)
    seed += 1
print(steps / (time.process_time() - began))
"""

MEASURES: dict[str, list[str]] = {
    "bare interpreter": ["-c", "pass"],
    "gamenight --help": ["-c", GAMENIGHT, "--help"],
    "gamenight list": ["-c", GAMENIGHT, "list"],
    "gamenight --help, no replay": ["-c", REAL, "--help"],
    # its catalogue read too (issue 46: the group's help without click, in every language)
    "gamenight --lang de --help, no replay": ["-c", REAL, "--lang", "de", "--help"],
    "gamenight list, no replay": ["-c", REAL, "list"],
    "gamenight solve decathlon --json": ["-c", GAMENIGHT, "solve", "decathlon", "--json"],
    "wurfeltod engine games/CPU-s": ["-c", ENGINE, str(HERE)],
    "Wurfeltod-v0 steps/CPU-s": ["-c", ENV],
}
RATES = {"wurfeltod engine games/CPU-s", "Wurfeltod-v0 steps/CPU-s"}


def console_script(src: Path) -> str:
    """``gamenight`` as the checkout's console script runs it (``[project.scripts]``):
    since issue 29 the replay cache ``gamenight.cli.quick`` comes first."""
    target = tomllib.loads((src / "pyproject.toml").read_text())["project"]["scripts"]
    module, function = target["gamenight"].split(":")
    return f"from {module} import {function}; {function}()"


def run_once(src: Path, argv: list[str]) -> tuple[float, float, float, str]:
    """(CPU s, wall s, peak RSS MiB, stdout) of one child process."""
    env = {**os.environ, "PYTHONPATH": str(src / "src"), "COLUMNS": "100"}
    if argv[:2] == ["-c", GAMENIGHT]:
        argv = ["-c", console_script(src), *argv[2:]]
    began = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, *argv], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert child.stdout is not None
    out = child.stdout.read().decode()
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - began
    if status != 0:
        raise SystemExit(f"{src}: {argv[:3]} failed with status {status}")
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024, out


def cell(values: list[float], digits: int = 3) -> str:
    return f"{min(values):.{digits}f} / {statistics.median(values):.{digits}f}"


def compare_json(old: Any, new: Any, path: str = "") -> float:
    """The largest absolute difference between two JSON trees of the same shape."""
    if isinstance(old, dict):
        assert isinstance(new, dict) and old.keys() == new.keys(), path
        return max((compare_json(old[k], new[k], f"{path}/{k}") for k in old), default=0.0)
    if isinstance(old, list):
        assert isinstance(new, list) and len(old) == len(new), path
        pairs = enumerate(zip(old, new, strict=True))
        return max((compare_json(a, b, f"{path}[{i}]") for i, (a, b) in pairs), default=0.0)
    if isinstance(old, float) or isinstance(new, float):
        return abs(float(old) - float(new))
    assert old == new, (path, old, new)
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, required=True, help="the older checkout")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument(
        "--only",
        default="",
        help="only measures whose name contains this (or, comma-separated, one of)",
    )
    parser.add_argument("--check", action="store_true", help="compare the solve's JSON")
    args = parser.parse_args()
    sides = {"new": NEW, "old": args.old.resolve()}
    # The replay cache of --help and list in a fresh folder: the first round stores, the
    # later ones replay (a user's second run onwards).
    os.environ["GAMENIGHT_CACHE_DIR"] = tempfile.mkdtemp(prefix="gamenight-startup-")
    for root in sides.values():  # an installed copy has its bytecode: so must both sides
        compileall.compile_dir(root / "src", quiet=1)
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    print("| measure | side | CPU s min / median | wall s min / median | peak RSS MiB | rate |")
    print("|---|---|---:|---:|---:|---:|")
    for name, argv in MEASURES.items():
        if not any(part in name for part in args.only.split(",")):
            continue
        got: dict[str, list[tuple[float, float, float, str]]] = {s: [] for s in sides}
        for i in range(args.rounds):
            for side in list(sides) if i % 2 == 0 else list(sides)[::-1]:
                got[side].append(run_once(sides[side], argv))
        for side, runs in got.items():
            rate = ""
            if name in RATES:
                rates = [float(r[3]) for r in runs]
                rate = f"{max(rates):,.0f} (median {statistics.median(rates):,.0f})"
            print(
                f"| {name} | {side} | {cell([r[0] for r in runs])} | "
                f"{cell([r[1] for r in runs])} | {max(r[2] for r in runs):.1f} | {rate} |",
                flush=True,
            )
        if args.check and name.startswith("gamenight solve"):
            diff = compare_json(json.loads(got["old"][0][3]), json.loads(got["new"][0][3]))
            print(f"\nsolve decathlon --json, largest difference old/new: {diff:.3g}\n")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
