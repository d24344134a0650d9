"""A fresh clone's `make serve`, timed to the first 200 on / (issue 39): for each commit
given, ``git clone`` this repository at it into a temporary folder, run ``make serve``
there (it builds .venv from the commit's lock), and time from the start of make to the
first 200. Pip's cache is whatever this machine's is (say so with the figures: a warm
cache measures the install, not the download). Paired: the commits run one after the
other in the same run. ``python bench/fresh_clone_serve.py 5c25129 HEAD``.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def first_200(commit: str) -> tuple[float, int]:
    with tempfile.TemporaryDirectory(prefix="gamenight-clone-") as tmp:
        clone = Path(tmp) / "gamenight"
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
        subprocess.run(["git", "-C", str(clone), "checkout", "--quiet", commit], check=True)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = int(s.getsockname()[1])
        env = {k: v for k, v in os.environ.items() if not k.startswith(("MAKE", "VIRTUAL"))}
        env["XDG_DATA_HOME"] = str(Path(tmp) / "data")
        started = time.monotonic()
        make = subprocess.Popen(
            ["make", "serve", f"PORT={port}"],
            cwd=clone,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        try:
            while True:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
                        if r.status == 200:
                            break
                except OSError:
                    pass
                if make.poll() is not None:
                    sys.exit(f"{commit}: make serve ended: {make.stderr.read()[-2000:]!r}")  # type: ignore[union-attr]
                time.sleep(0.1)
            seconds = time.monotonic() - started
        finally:
            os.killpg(make.pid, signal.SIGINT)
            make.wait(timeout=60)
        size = int(subprocess.run(["du", "-sk", str(clone / ".venv")], capture_output=True,
                                  text=True, check=True).stdout.split()[0])  # fmt: skip
        return seconds, size


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("commits", nargs="+")
    args = parser.parse_args()
    print("| Commit | `make serve` to the first 200 | .venv |\n|---|---:|---:|")
    for commit in args.commits:
        seconds, kib = first_200(commit)
        print(f"| {commit} | {seconds:.1f} s | {kib / 1024:,.0f} MB |", flush=True)


if __name__ == "__main__":
    main()
