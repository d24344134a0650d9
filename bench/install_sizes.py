"""Installed sizes (issue 39): the core, each extra and the development venv, and the
same for a base commit (``--base``: its everything-lock venv and its ``pip install .``).

Each is a fresh venv in a temporary folder: ``du`` of the whole venv (pip included) and
its package count. The current tree installs from ``requirements/*.lock`` and its own
wheel; an extra is the core lock plus ``wheel[extra]`` pinned by the dev lock. Needs the
network (or pip's cache). ``python bench/install_sizes.py --base 5c25129``.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str | Path, cwd: Path | None = None) -> str:
    done = subprocess.run(
        [str(a) for a in args], cwd=cwd, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        sys.exit(f"failed: {' '.join(map(str, args))}\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return done.stdout


def wheel_of(tree: Path, out: Path) -> Path:
    run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", out, tree)
    return next(out.glob("gamenight-*.whl"))


def measure(label: str, work: Path, *installs: list[str | Path]) -> tuple[str, int, int]:
    venv = work / re.sub(r"\W+", "-", label)
    run(sys.executable, "-m", "venv", venv)
    for args in installs:
        run(venv / "bin" / "python", "-m", "pip", "install", "--quiet", *args)
    kib = int(run("du", "-sk", venv).split()[0])
    count = len(run(venv / "bin" / "python", "-m", "pip", "list", "--format=freeze").split())
    print(f"| {label} | {kib / 1024:,.0f} MB | {count} |", flush=True)
    return label, kib, count


def pins_only(lock: Path, out: Path) -> Path:
    """A constraints file from a hashed lock (pins only, no index lines)."""
    lines = [m.group(0) for m in re.finditer(r"^[A-Za-z0-9_.-]+==\S+", lock.read_text(), re.M)]
    out.write_text("\n".join(lines) + "\n")
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", help="a commit to measure too (its lock and `pip install .`)")
    args = parser.parse_args()
    print("| Install | Size | Packages |\n|---|---:|---:|")
    with tempfile.TemporaryDirectory(prefix="gamenight-sizes-") as tmp:
        work = Path(tmp)
        if args.base:
            base = work / "base"
            base.mkdir()
            archive = subprocess.run(
                ["git", "-C", str(ROOT), "archive", args.base], capture_output=True, check=True
            ).stdout
            subprocess.run(["tar", "-x", "-C", str(base)], input=archive, check=True)
            wheels = work / "base-wheel"
            whl = wheel_of(base, wheels)
            lock = base / "requirements.lock"
            measure(f"{args.base}: make's venv (requirements.lock)", work,
                    ["--require-hashes", "-r", lock], ["--no-deps", whl])  # fmt: skip
            pins = pins_only(lock, work / "base-pins.txt")
            measure(f"{args.base}: pip install gamenight", work, ["-c", pins, whl])
        whl = wheel_of(ROOT, work / "wheel")
        core, dev = ROOT / "requirements" / "core.lock", ROOT / "requirements" / "dev.lock"
        pins = pins_only(dev, work / "pins.txt")
        measure("core (requirements/core.lock)", work,
                ["--require-hashes", "-r", core], ["--no-deps", whl])  # fmt: skip
        for extra in ("postgres", "sim", "ray", "rl"):
            measure(f"core + [{extra}]", work,
                    ["--require-hashes", "-r", core], ["-c", pins, f"{whl}[{extra}]"])  # fmt: skip
        measure("dev (requirements/dev.lock: every extra and the tools)", work,
                ["--require-hashes", "-r", dev], ["--no-deps", whl])  # fmt: skip


if __name__ == "__main__":
    main()
