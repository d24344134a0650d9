"""kill -9 of one of two server processes under load (issue 21).

Two ``gamenight serve`` processes (A and B) on one throwaway PostgreSQL cluster. Each of
``--rooms`` Kniffel Dice Duel rooms has two human seats, one client on A and one on B,
which play random legal actions at a quick human pace (a random pause of up to
``--pace`` seconds before each); ``--bot-rooms`` more rooms of two paced random bots are
created on A (only A plays them until B adopts them). After ``--kill-after`` seconds of
play, A is killed with SIGKILL, requests in flight. Its clients reconnect to B with their
seat token and the last seq they saw, and every game is played to its end.

It reports:

* the actions acknowledged (before and after the kill) and **lost**: acknowledged
  actions missing from the log afterwards, or logged for another seat or action (must
  be 0); and the snapshots after reconnecting that were behind an ack (must be 0);
* the time from the kill until every client of A is back in its room on B, until
  every human game is finished, and until every bot room is finished;
* the refusals (``stale`` is normal for a crossed action).

    .venv/bin/python bench/kill9_under_load.py                    # 40 + 10 rooms
    .venv/bin/python bench/kill9_under_load.py --rooms 100 --bot-rooms 20 --kill-after 5

Bounded: it gives up after ``--timeout`` seconds (default 300).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import psycopg
import websockets

from gamenight.server.testing import PgCluster, ProcessServer


@dataclass
class Seat:
    code: str
    seat: int
    token: str
    server: int  # 0: A, 1: B
    home: int = 0  # where it began
    connected: bool = False  # got its first snapshot
    seq: int = -1
    acked: list[tuple[int, Any, float]] = field(default_factory=list)  # seq, action, when
    moved_at: float | None = None  # when it was back on B after the kill
    finished_at: float | None = None


@dataclass
class Run:
    killed: asyncio.Event = field(default_factory=asyncio.Event)
    seats: int = 0
    connected: int = 0  # seats that got their first snapshot
    everyone: asyncio.Event = field(default_factory=asyncio.Event)
    kill_time: float = 0.0
    errors: collections.Counter[str] = field(default_factory=collections.Counter)
    behind: int = 0  # snapshots after a reconnect older than an ack
    reconnects: list[float] = field(default_factory=list)  # seconds from kill to snapshot


async def play_seat(seat: Seat, servers: list[ProcessServer], run: Run, pace: float) -> None:
    rng = random.Random(f"{seat.code}/{seat.seat}")
    ident = 0
    while True:
        url = servers[seat.server].url.replace("http://", "ws://") + f"/ws/{seat.code}"
        try:
            async with websockets.connect(url, open_timeout=30) as ws:
                hello = {"type": "hello", "protocol": 1, "token": seat.token}
                await ws.send(json.dumps({**hello, "last_seq": seat.seq}))
                pending: Any = None
                legal: list[Any] = []
                async for raw in ws:
                    frame = json.loads(raw)
                    kind = frame["type"]
                    if kind in ("snapshot", "events"):
                        seat.seq, legal = frame["seq"], frame["legal"]
                        if kind == "snapshot" and not seat.connected:
                            seat.connected = True
                            run.connected += 1
                            if run.connected == run.seats:
                                run.everyone.set()
                        moved = seat.home == 0 and run.killed.is_set()
                        if kind == "snapshot" and moved and seat.moved_at is None:
                            seat.moved_at = time.monotonic()
                            run.reconnects.append(seat.moved_at - run.kill_time)
                            if seat.acked and frame["seq"] < max(a[0] for a in seat.acked):
                                run.behind += 1
                        if frame["finished"]:
                            seat.finished_at = time.monotonic()
                            return
                    elif kind == "ack" and pending is not None:
                        seat.acked.append((frame["seq"], pending, time.monotonic()))
                        pending = None
                    elif kind == "error":
                        run.errors[frame["code"]] += 1
                        if pending is None:  # the hello was refused: try again
                            raise SystemExit(f"hello refused: {frame}")
                        pending = None
                        if frame["code"] == "unavailable":
                            await asyncio.sleep(frame.get("retry_after", 1))
                    if pending is None and legal:
                        await asyncio.sleep(rng.uniform(0, pace))
                        pending = rng.choice(legal)
                        ident += 1
                        message = {"type": "act", "action": pending, "id": ident}
                        await ws.send(json.dumps({**message, "expected_seq": seat.seq}))
        except (OSError, websockets.ConnectionClosed, TimeoutError) as exc:
            if not run.killed.is_set():
                print(f"connection of {seat.code}/{seat.seat} lost: {exc!r}")
        if seat.server == 0 and run.killed.is_set():
            seat.server = 1  # A is gone: to the other process
        else:
            await asyncio.sleep(0.2)


async def wait_bots(server: ProcessServer, codes: list[str], timeout: float) -> float:
    deadline = time.monotonic() + timeout
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        for code in codes:
            while (await http.get(f"/api/rooms/{code}")).json()["status"] != "finished":
                if time.monotonic() > deadline:
                    raise SystemExit(f"bot room {code} did not finish")
                await asyncio.sleep(0.1)
    return time.monotonic()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=40, help="human rooms (two seats each)")
    parser.add_argument("--bot-rooms", type=int, default=10)
    parser.add_argument(
        "--kill-after", type=float, default=4.0, help="seconds of play (all connected)"
    )
    parser.add_argument("--pace", type=float, default=0.2, help="max pause before an act")
    parser.add_argument("--timeout", type=float, default=300.0)
    args = parser.parse_args()

    cluster = PgCluster().start()
    url = cluster.new_database()
    servers = [ProcessServer(url).start(), ProcessServer(url).start()]
    a, b = servers
    try:
        seats: list[Seat] = []
        with httpx.Client(timeout=60) as http:
            for _ in range(args.rooms):
                body = {"game": "dice-duel", "seats": ["human", "human"]}
                code = http.post(f"{a.url}/api/rooms", json=body).json()["code"]
                for i, server in enumerate(servers):
                    claim = f"{server.url}/api/rooms/{code}/seats/{i}/claim"
                    token = http.post(
                        claim, json={"name": f"P{i}", "contribution": f"p{i}"}
                    ).json()["token"]
                    seats.append(Seat(code, i, token, i, i))
            bot_body = {"game": "dice-duel", "seats": ["bot:random"] * 2, "room": {"bot_pace": 0.1}}
            bots = [
                http.post(f"{a.url}/api/rooms", json=bot_body).json()["code"]
                for _ in range(args.bot_rooms)
            ]
        run = Run(seats=len(seats))

        async def go() -> tuple[float, float]:
            tasks = [asyncio.create_task(play_seat(s, servers, run, args.pace)) for s in seats]
            try:
                await asyncio.wait_for(run.everyone.wait(), args.timeout)
            except TimeoutError:
                late = [(x.code, x.seat, x.server) for x in seats if not x.connected]
                dead = [t.exception() for t in tasks if t.done()]
                raise SystemExit(f"not connected: {late[:5]} ({len(late)}); {dead[:3]}") from None
            await asyncio.sleep(args.kill_after)  # of play, every seat connected
            a.kill()
            run.kill_time = time.monotonic()
            run.killed.set()
            done, _ = await asyncio.wait(tasks, timeout=args.timeout)
            if len(done) < len(tasks):
                raise SystemExit(f"{len(tasks) - len(done)} seats did not finish")
            for task in done:
                task.result()
            humans_done = max(s.finished_at or 0.0 for s in seats)
            bots_done = await wait_bots(b, bots, args.timeout)
            return humans_done, bots_done

        humans_done, bots_done = asyncio.run(go())
        with psycopg.connect(url) as conn:
            rows = conn.execute(
                "SELECT r.code, a.seq, a.seat, a.action FROM actions a "
                "JOIN rooms r ON r.id = a.room_id"
            ).fetchall()
        log = {(code, seq): (seat, json.loads(action)) for code, seq, seat, action in rows}
        acked = [(s.code, seq, s.seat, action) for s in seats for seq, action, _ in s.acked]
        lost = sum(log.get((code, seq)) != (seat, action) for code, seq, seat, action in acked)
        before = sum(1 for s in seats for *_, at in s.acked if at < run.kill_time)
        moved = [s for s in seats if s.moved_at is not None]
        # Each room's pause: from the kill until its first action acknowledged after it.
        after: dict[str, float] = {}
        for s in seats:
            for *_, at in s.acked:
                if at >= run.kill_time:
                    after[s.code] = min(after.get(s.code, at), at)
        pauses = sorted(at - run.kill_time for at in after.values())
        print(f"rooms: {args.rooms} human (one seat on each process) + {args.bot_rooms} bots")
        print(f"kill -9 of A after {args.kill_after:g} s of play")
        print(f"acknowledged: {len(acked)} ({before} before the kill), lost: {lost}")
        print(f"snapshots behind an ack after reconnecting: {run.behind}")
        if run.reconnects:
            print(
                f"A's {len(moved)} clients back on B: median "
                f"{statistics.median(run.reconnects):.2f} s, last {max(run.reconnects):.2f} s "
                "after the kill"
            )
        if pauses:
            print(
                f"first ack after the kill, per room: median {statistics.median(pauses):.2f} s, "
                f"max {pauses[-1]:.2f} s ({len(pauses)} rooms)"
            )
        print(f"every human game finished {humans_done - run.kill_time:.1f} s after the kill")
        print(f"every bot room finished {bots_done - run.kill_time:.1f} s after the kill")
        print(f"refusals: {dict(run.errors) or 'none'}")
        print(f"A alive: {a.alive()}, B alive: {b.alive()}")
        if lost or run.behind or not b.alive():
            raise SystemExit(1)
    finally:
        for server in servers:
            server.stop()
        cluster.stop()


if __name__ == "__main__":
    main()
