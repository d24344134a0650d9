"""Issue 29's server-start figure: time from spawning the server to its first HTTP 200.

Three sides, each a fresh process started the same way (``python -c ...`` running
``uvicorn.run`` with the same options), interleaved round by round:

- ``litestar``: the yardstick, a one-route Litestar app (``GET /`` returns a text);
- ``new``: this checkout's ``python -m gamenight.server`` on an SQLite database that
  an earlier start already migrated (``restart``, the usual case; the server still
  checks the schema before serving), and/or on a new file every start (``new-db``);
- ``old``: the same for an older checkout (``--old``, a ``git worktree`` or
  ``git archive main src | tar -x -C DIR``), if given.

``--kinds new-db,restart`` times both kinds of start in one run, interleaved (``--fresh``
is ``--kinds new-db``; the default ``restart``). The yardstick is the same for both.

"First 200" is the first ``GET PATH`` (default ``/``, the page a player opens) that
answers 200, polled every 2 ms from the moment the process is spawned; the process is
then stopped with SIGTERM and its CPU time (user + sys, from ``wait4``) recorded too.
The yardstick is always asked for ``/``; ``--path /api/rooms`` times gamenight's first
answer that needs the rooms and the storage (they come up after the server listens).
Both checkouts are byte-compiled first, as an installed copy is.

``--callgrind`` adds one start per side and kind under ``valgrind --tool=callgrind``:
the instructions the process ran from its spawn to the first 200 (``callgrind_control
--dump`` at that moment; every thread counted), which load does not move.

    .venv/bin/python bench/server_start.py [--old ../wt-base] [--rounds 7] [--path /]
        [--kinds new-db,restart] [--callgrind]
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


def start_once(
    side: str, src: Path | None, path: str, db: Path, callgrind: Path | None = None
) -> tuple[float, float]:
    """(seconds to the first 200, CPU seconds of the child until then and its stop).
    With ``callgrind`` (an output file), the child runs under callgrind, which dumps its
    counts when the first 200 comes."""
    port = free_port()
    env = dict(os.environ)
    if src is None:
        argv = [sys.executable, "-c", YARDSTICK, str(port)]
    else:
        env["PYTHONPATH"] = str(src / "src")
        argv = [sys.executable, "-c", GAMENIGHT, "--port", str(port), "--db", f"sqlite:///{db}"]
        argv += ["--no-table-build"]
    if callgrind is not None:
        argv = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={callgrind}", *argv]
    began = time.perf_counter()
    child = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if src is None:
        path = "/"  # the yardstick has that route only
    limit = 60 if callgrind is None else 1200
    while not answered_200(port, path):
        if child.poll() is not None:
            err = child.stderr.read().decode() if child.stderr else ""
            raise SystemExit(f"{side}: the server exited: {err[-400:]}")
        if time.perf_counter() - began > limit:
            child.kill()
            raise SystemExit(f"{side}: no 200 from {path} within {limit} s")
        time.sleep(0.002 if callgrind is None else 0.05)
    first = time.perf_counter() - began
    if callgrind is not None:
        subprocess.run(["callgrind_control", "--dump", str(child.pid)], capture_output=True)
    child.send_signal(signal.SIGTERM)
    _, _, usage = os.wait4(child.pid, 0)
    return first, usage.ru_utime + usage.ru_stime


def instructions(out: Path) -> int:
    """The instructions in callgrind's dump made at the first 200 (``out``.1: every
    thread's, callgrind's default; the dump at the exit, ``out``, is left out)."""
    for line in out.with_name(out.name + ".1").read_text(errors="replace").splitlines():
        if line.startswith(("summary:", "totals:")):
            return int(line.split()[1])
    raise SystemExit(f"no totals in {out}.1")


def cell(values: list[float]) -> str:
    return f"{min(values):.3f} / {statistics.median(values):.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, help="an older checkout to pair with")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--path", default="/", help="the GET whose first 200 is timed")
    parser.add_argument("--fresh", action="store_true", help="a new database every start")
    parser.add_argument("--kinds", default="restart", help="new-db, restart or both (a,b)")
    parser.add_argument("--callgrind", action="store_true", help="count instructions too")
    args = parser.parse_args()
    kinds = ["new-db"] if args.fresh else args.kinds.split(",")
    if not set(kinds) <= {"new-db", "restart"}:
        parser.error("--kinds: new-db and/or restart")
    sides: dict[str, Path | None] = {"litestar": None, "new": NEW}
    if args.old is not None:
        sides["old"] = args.old.resolve()
    for root in sides.values():
        if root is not None:
            compileall.compile_dir(root / "src", quiet=1)
    # the yardstick has no database: it runs once a round, whatever the kinds
    cases = [("litestar", "-")] + [(s, k) for k in kinds for s in sides if s != "litestar"]
    got: dict[tuple[str, str], list[tuple[float, float]]] = {case: [] for case in cases}
    counts: dict[tuple[str, str], int] = {}
    loads = [os.getloadavg()[0]]
    print(f"load average before: {loads[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        for side, root in sides.items():
            if root is not None and "restart" in kinds:  # migrated once, by that side's code
                url = f"sqlite:///{Path(tmp) / side}.sqlite"
                code = f"from gamenight.server.db import migrate; migrate({url!r})"
                env = {**os.environ, "PYTHONPATH": str(root / "src")}
                subprocess.run([sys.executable, "-c", code], env=env, check=True)
        for i in range(args.rounds):
            order = cases if i % 2 == 0 else cases[::-1]
            for side, kind in order:
                name = f"{side}-{i}" if kind == "new-db" else side
                db = Path(tmp) / f"{name}.sqlite"
                got[side, kind].append(start_once(side, sides[side], args.path, db))
            loads.append(os.getloadavg()[0])
        if args.callgrind:
            for side, kind in cases:
                out = Path(tmp) / f"cg-{side}-{kind}.out"
                db = Path(tmp) / (f"cg-{side}.sqlite" if kind == "new-db" else f"{side}.sqlite")
                start_once(side, sides[side], args.path, db, callgrind=out)
                counts[side, kind] = instructions(out)
    floor = statistics.median(r[0] for r in got["litestar", "-"])
    floor_cpu = statistics.median(r[1] for r in got["litestar", "-"])
    print(f"first 200 of GET {args.path} (the yardstick: GET /), {args.rounds} rounds")
    print(
        "| start | side | first 200, s min / median | CPU s min / median "
        "| median / yardstick | CPU / yardstick |" + (" instructions, M |" if counts else "")
    )
    print("|---|---|---:|---:|---:|---:|" + ("---:|" if counts else ""))
    for (side, kind), runs in got.items():
        firsts, cpus = [r[0] for r in runs], [r[1] for r in runs]
        ratio = statistics.median(firsts) / floor
        cpu_ratio = statistics.median(cpus) / floor_cpu
        row = f"| {kind} | {side} | {cell(firsts)} | {cell(cpus)} | {ratio:.2f} | {cpu_ratio:.2f} |"
        if counts:
            row += f" {counts[side, kind] / 1e6:,.0f} |"
        print(row)
    loads.append(os.getloadavg()[0])
    print(f"load average (1 min) over the run: {min(loads):.1f}–{max(loads):.1f}")


if __name__ == "__main__":
    main()
