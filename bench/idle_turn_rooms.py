"""Issue 44's idle figure: a server's memory (RSS) and CPU while it holds ``--rooms``
turn-based rooms that nobody is playing right now.

The rooms are written once, in this process, through the app's own code (``Hub.create``
and ``Room.claim``, as ``POST /api/rooms`` and two claims do: faster than 30,000 HTTP
requests, the same rows): each a turn-based ``--game`` room of two people, both seats
claimed with their part of the dice seed, so the game has begun; and each room's
``turns`` row (seat 1 to act, a day on its clock), as a turn-based move writes it.
Each side then gets its own copy of that SQLite file and a real server process
(``python -m gamenight.server``, its ``src`` first on ``PYTHONPATH``) started on it;
once ``/readyz`` answers (every room it holds is up) the run waits ``--settle`` seconds
and then measures over ``--seconds``: the server's RSS (``VmRSS``, /proc) and the CPU it
used (user + system ticks of /proc/<pid>/stat) while no request comes. Beside it, the
same server on an empty database (its RSS with no room) and the time from spawning the
process to ready.

``--old DIR`` measures another checkout the same way in the same run (``git archive
main src | tar -x -C DIR``); both sides read the same rooms.

    .venv/bin/python bench/idle_turn_rooms.py --old /tmp/base --rooms 10000 --seconds 60

Bounded: the build, each start (``--start-timeout``) and each measurement end by themselves.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from gamenight.server.testing import ProcessServer

NEW = Path(__file__).resolve().parent.parent
TICK = os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of the process so far (its own threads included)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime (fields 14, 15)


async def build(url: str, rooms: int, game: str, move_time: int) -> float:
    """Write ``rooms`` begun turn-based rooms into the database at ``url``; seconds taken."""
    from sqlalchemy import insert, select

    from gamenight.server.config import Config, CreateRoom, RoomOptions
    from gamenight.server.rooms import Hub
    from gamenight.server.storage.schema import ROOMS, TURNS, migrate
    from gamenight.server.storage.store import Store

    began = time.monotonic()
    await asyncio.to_thread(migrate, url)
    store = Store(url)
    hub = Hub(store, Config(db_url=url, build_tables=False, bot_workers=1))
    await hub.start()
    options = RoomOptions(pace="turn-based", move_time=move_time, bot_pace=0)
    request = CreateRoom(game=game, seats=["human", "human"], room=options)

    async def one(i: int) -> None:
        room, _host = await hub.create(request)
        await room.claim(0, f"Ann {i}", f"ann-{i}")
        await room.claim(1, f"Bob {i}", f"bob-{i}")
        hub.rooms.pop(room.code, None)  # this process need not keep them

    for start in range(0, rooms, 50):
        await asyncio.gather(*(one(i) for i in range(start, min(rooms, start + 50))))
        if start % 1000 == 0:
            print(f"  built {start} rooms", flush=True)
    now = time.time()
    async with store.engine.begin() as conn:
        # a room's start writes its own turns row since turn-based rooms run (h-turnroom);
        # the rows are written here only for rooms without one (an older checkout's)
        has_row = select(TURNS.c.room_id)
        ids = [
            r[0] for r in await conn.execute(select(ROOMS.c.id).where(ROOMS.c.id.not_in(has_row)))
        ]
        rows = [
            {"room_id": i, "seat": 1, "seq": 0, "since": now, "deadline": now + move_time}
            for i in ids
        ]
        if rows:
            await conn.execute(insert(TURNS), rows)
        playing = (await conn.execute(select(ROOMS.c.status).distinct())).all()
    await hub.stop()
    await store.close()
    print(f"  statuses: {sorted(r[0] for r in playing)}", flush=True)
    return time.monotonic() - began


def wait_ready(server: ProcessServer, timeout: float) -> float:
    """Seconds from now until ``/readyz`` answers 200 (every room the server holds up)."""
    began = time.monotonic()
    while True:
        try:
            with urllib.request.urlopen(server.url + "/readyz", timeout=5) as answer:
                if answer.status == 200:
                    return time.monotonic() - began
        except (urllib.error.URLError, OSError):
            pass
        if time.monotonic() - began > timeout:
            raise RuntimeError("the server was not ready in time")
        time.sleep(0.2)


def measure(source: Path, db: Path, args: argparse.Namespace) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(source / "src")}
    spawned = time.monotonic()
    server = ProcessServer(f"sqlite:///{db}", env=env, args=("--log-level", "warning")).start()
    try:
        assert server.proc is not None
        pid = server.proc.pid
        wait_ready(server, args.start_timeout)
        ready = time.monotonic() - spawned
        held = rooms_held(server.url)
        time.sleep(args.settle)
        cpu0, t0, rss0 = cpu_seconds(pid), time.monotonic(), rss_mib(pid)
        time.sleep(args.seconds)
        cpu1, t1, rss1 = cpu_seconds(pid), time.monotonic(), rss_mib(pid)
        return {
            "ready_s": ready,
            "rss_start": rss0,
            "rss_end": rss1,
            "cpu_pct": 100 * (cpu1 - cpu0) / (t1 - t0),
            "cpu_s": cpu1 - cpu0,
            "held": held,
        }
    finally:
        server.stop()


def rooms_held(base: str) -> int:
    """The rooms the server holds in memory (its ``gamenight_rooms`` gauges, summed)."""
    with urllib.request.urlopen(base + "/metrics", timeout=60) as answer:
        text = answer.read().decode()
    return int(
        sum(
            float(line.rsplit(" ", 1)[1])
            for line in text.splitlines()
            if line.startswith("gamenight_rooms{")
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=60, help="idle time measured")
    parser.add_argument("--settle", type=float, default=10, help="seconds after ready first")
    parser.add_argument("--game", default="dice-duel")
    parser.add_argument("--move-time", type=int, default=24 * 3600)
    parser.add_argument("--start-timeout", type=float, default=1800)
    parser.add_argument("--old", type=Path, help="another checkout, measured the same way")
    args = parser.parse_args()
    sides = [("this checkout", NEW)] + ([("old", args.old)] if args.old else [])
    with tempfile.TemporaryDirectory(prefix="idle-turn-rooms-") as tmp:
        built = Path(tmp) / "built.sqlite3"
        seconds = asyncio.run(build(f"sqlite:///{built}", args.rooms, args.game, args.move_time))
        print(f"built {args.rooms} turn-based {args.game} rooms in {seconds:.0f} s", flush=True)
        for name, source in sides:
            for label, rooms in (("empty", 0), (f"{args.rooms} rooms", args.rooms)):
                db = Path(tmp) / f"{name.replace(' ', '-')}-{rooms}.sqlite3"
                if rooms:
                    shutil.copy(built, db)
                result = measure(source, db, args)
                print(
                    f"{name:14s} {label:12s} ready in {result['ready_s']:.1f} s, "
                    f"{result['held']} rooms in memory; idle over "
                    f"{args.seconds:.0f} s: RSS {result['rss_start']:.0f} -> "
                    f"{result['rss_end']:.0f} MiB, CPU {result['cpu_s']:.2f} s "
                    f"({result['cpu_pct']:.2f} % of a core)",
                    flush=True,
                )
    print(f"load average: {os.getloadavg()}")


if __name__ == "__main__":
    main()
