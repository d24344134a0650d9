"""Issue 29's server-start figure: time from spawning the server to its first HTTP 200.

Three sides, each a fresh process started the same way (``python -c ...`` running
``uvicorn.run`` with the same options), interleaved round by round:

- ``litestar``: the yardstick, a one-route Litestar app (``GET /`` returns a text);
- ``new``: this checkout's ``python -m gamenight.server`` on an SQLite database that
  an earlier start already migrated (a restart, the usual case; the server still
  checks the schema before serving), or with ``--fresh`` on a new file every round;
- ``old``: the same for an older checkout (``--old``, a ``git worktree``), if given.

"First 200" is the first ``GET PATH`` (default ``/``, the page a player opens) that
answers 200, polled every 2 ms from the moment the process is spawned; the process is
then stopped with SIGTERM and its CPU time (user + sys, from ``wait4``) recorded too.
The yardstick is always asked for ``/``; ``--path /api/rooms`` times gamenight's first
answer that needs the rooms and the storage (they come up after the server listens).
Both checkouts are byte-compiled first, as an installed copy is.

    .venv/bin/python bench/server_start.py [--old ../wt-base] [--rounds 7] [--path /] [--fresh]
"""

from __future__ import annotations

import argparse
import compileall
import http.client
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
NEW = HERE.parent

YARDSTICK = """
import sys
import uvicorn
from litestar import Litestar, get

@get("/", media_type="text/plain")
async def index() -> str:
    return "hello"

uvicorn.run(Litestar([index]), host="127.0.0.1", port=int(sys.argv[1]), log_level="warning",
            lifespan="on")
"""

GAMENIGHT = "from gamenight.server.__main__ import main; main()"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def answered_200(port: int, path: str) -> bool:
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
        conn.request("GET", path)
        ok = conn.getresponse().status == 200
        conn.close()
        return ok
    except OSError:
        return False


def start_once(side: str, src: Path | None, path: str, db: Path) -> tuple[float, float]:
    """(seconds to the first 200, CPU seconds of the child until then and its stop)."""
    port = free_port()
    env = dict(os.environ)
    if src is None:
        argv = [sys.executable, "-c", YARDSTICK, str(port)]
    else:
        env["PYTHONPATH"] = str(src / "src")
        argv = [sys.executable, "-c", GAMENIGHT, "--port", str(port), "--db", f"sqlite:///{db}"]
        argv += ["--no-table-build"]
    began = time.perf_counter()
    child = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if src is None:
        path = "/"  # the yardstick has that route only
    while not answered_200(port, path):
        if child.poll() is not None:
            err = child.stderr.read().decode() if child.stderr else ""
            raise SystemExit(f"{side}: the server exited: {err[-400:]}")
        if time.perf_counter() - began > 60:
            child.kill()
            raise SystemExit(f"{side}: no 200 from {path} within 60 s")
        time.sleep(0.002)
    first = time.perf_counter() - began
    child.send_signal(signal.SIGTERM)
    _, _, usage = os.wait4(child.pid, 0)
    return first, usage.ru_utime + usage.ru_stime


def cell(values: list[float]) -> str:
    return f"{min(values):.3f} / {statistics.median(values):.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, help="an older checkout to pair with")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--path", default="/", help="the GET whose first 200 is timed")
    parser.add_argument("--fresh", action="store_true", help="a new database every start")
    args = parser.parse_args()
    sides: dict[str, Path | None] = {"litestar": None, "new": NEW}
    if args.old is not None:
        sides["old"] = args.old.resolve()
    for root in sides.values():
        if root is not None:
            compileall.compile_dir(root / "src", quiet=1)
    got: dict[str, list[tuple[float, float]]] = {side: [] for side in sides}
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        for side, root in sides.items():
            if root is not None and not args.fresh:  # migrated once, by that side's code
                url = f"sqlite:///{Path(tmp) / side}.sqlite"
                code = f"from gamenight.server.db import migrate; migrate({url!r})"
                env = {**os.environ, "PYTHONPATH": str(root / "src")}
                subprocess.run([sys.executable, "-c", code], env=env, check=True)
        for i in range(args.rounds):
            order = list(sides) if i % 2 == 0 else list(sides)[::-1]
            for side in order:
                name = f"{side}-{i}" if args.fresh else side
                db = Path(tmp) / f"{name}.sqlite"
                got[side].append(start_once(side, sides[side], args.path, db))
    floor = statistics.median(r[0] for r in got["litestar"])
    kind = "a new database each start" if args.fresh else "an already migrated database"
    print(f"first 200 of GET {args.path}, {args.rounds} rounds, {kind}")
    print("| side | first 200, s min / median | CPU s min / median | median / yardstick |")
    print("|---|---:|---:|---:|")
    for side, runs in got.items():
        firsts = [r[0] for r in runs]
        ratio = statistics.median(firsts) / floor
        print(f"| {side} | {cell(firsts)} | {cell([r[1] for r in runs])} | {ratio:.2f} |")
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
