"""Issue 44's idle figure: a server process on an SQLite database holding N turn-based
rooms being played (every seat away, each clock within its time): its RSS and the CPU
it uses while idle, beside the same database with no rooms.

The rooms are written straight into a migrated database (a room row ``playing`` with
``pace: turn-based``, two human seats with their banks, the ``turns`` row of the seat
to act), then ``python -m gamenight.server`` starts on it (this checkout, or ``--old``:
another checkout's ``src``, e.g. ``git archive main src | tar -x -C /tmp/base``). After
``--settle`` seconds its CPU time (user + sys, /proc) is read over ``--seconds`` and its
RSS (VmRSS) at the end.

    .venv/bin/python bench/turn_rooms_idle.py [--rooms 10000] [--old /tmp/base/src]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
NEW = HERE.parent / "src"
DAY = 24 * 3600


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def make_db(path: Path, rooms: int) -> str:
    """A migrated SQLite database with ``rooms`` turn-based rooms in play; its URL."""
    from gamenight.server.storage.schema import migrate

    url = f"sqlite:///{path}"
    migrate(url)
    now = time.time()
    options = json.dumps({"pace": "turn-based", "move_time": DAY, "time_bank": DAY // 2})
    with sqlite3.connect(path) as conn:
        for i in range(rooms):
            room = conn.execute(
                "INSERT INTO rooms (code, game, options, room_options, public, status, seed,"
                " commitment, entropy, host_token_hash, seq, note, created_at, updated_at)"
                " VALUES (?, 'dice-duel', '{}', ?, 0, 'playing', ?, 'x', 'server', 'h', 0, '',"
                " ?, ?)",
                (f"tb{i:06d}", options, str(1000 + i), now, now),
            ).lastrowid
            for seat in (0, 1):
                conn.execute(
                    "INSERT INTO seats (room_id, seat, kind, bot, name, token_hash, bank)"
                    " VALUES (?, ?, 'human', '', ?, ?, ?)",
                    (room, seat, f"P{seat}", f"{i:032d}{seat:032d}", DAY // 2),
                )
            conn.execute(
                "INSERT INTO turns (room_id, seat, seq, since, deadline) VALUES (?, 0, 0, ?, ?)",
                (room, now, now + DAY + DAY // 2),
            )
    return url


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def measure(src: Path, url: str, settle: float, seconds: float) -> tuple[float, float]:
    """(RSS MiB, CPU seconds per minute idle) of a server on ``url``."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(src)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "gamenight.server", "--port", str(port), "--db", url,
         "--no-table-build", "--log-level", "warning"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 300
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/rooms", timeout=60):
                    break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise RuntimeError("the server did not come up") from None
                time.sleep(0.2)
        time.sleep(settle)
        before = cpu_seconds(proc.pid)
        time.sleep(seconds)
        used = cpu_seconds(proc.pid) - before
        return rss_mib(proc.pid), used / seconds * 60
    finally:
        proc.terminate()
        proc.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=10_000)
    parser.add_argument("--old", type=Path, help="another checkout's src folder")
    parser.add_argument("--settle", type=float, default=20.0)
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    sides = [("new", NEW)] + ([("old", args.old)] if args.old else [])
    with tempfile.TemporaryDirectory() as folder:
        empty = make_db(Path(folder) / "empty.sqlite3", 0)
        full = make_db(Path(folder) / "full.sqlite3", args.rooms)
        print(f"load average before: {os.getloadavg()}")
        print("| side | rooms | RSS (MiB) | CPU idle (s per minute) |")
        print("|---|---:|---:|---:|")
        for name, src in sides:
            for rooms, url in ((0, empty), (args.rooms, full)):
                rss, cpu = measure(src, url, args.settle, args.seconds)
                print(f"| {name} | {rooms:,} | {rss:.1f} | {cpu:.2f} |", flush=True)
        print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
