"""Load benchmark of ``gamenight serve``: N concurrent rooms over real WebSockets.

The server runs as a separate process on loopback (SQLite file or a throwaway
PostgreSQL cluster). Each room is a solitaire Wurfeltod with one client that
plays a random legal action once a second (a fast human pace), with a random
phase so the load is spread. Reports p50/p99 ack latency (send -> ack),
errors, the server's RSS per room and whether every acknowledged action is in
the log afterwards. Bounded: a fixed number of seconds per run, then it stops.

    .venv/bin/python bench/server_load.py                       # N=100 on SQLite
    .venv/bin/python bench/server_load.py --rooms 100 1000 --db sqlite postgresql

The client runs in this process: on a 2-core machine it competes with the
server for CPU, so the figures are pessimistic.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from gamenight.server.testing import PgCluster, ProcessServer

ADDRESS = "127.0.0.1"  # loopback only


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    acked: dict[str, int] = field(default_factory=dict)  # room -> highest acked seq
    slow: list[tuple[float, float]] = field(default_factory=list)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def make_rooms(base: str, n: int) -> list[tuple[str, str]]:
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as http:
        sem = asyncio.Semaphore(20)

        async def one() -> tuple[str, str]:
            async with sem:
                created = await http.post(
                    "/api/rooms", json={"game": "wurfeltod", "seats": ["human"]}
                )
                code = created.json()["code"]
                claimed = await http.post(
                    f"/api/rooms/{code}/seats/0/claim", json={"name": "bench"}
                )
                return code, claimed.json()["token"]

        return list(await asyncio.gather(*(one() for _ in range(n))))


@dataclass
class Start:
    """Every client connects first; then the measured seconds begin for all."""

    ready: int = 0
    go: asyncio.Event = field(default_factory=asyncio.Event)
    measure_from: float = 0.0  # perf_counter: acks of actions sent before are not counted
    stop_at: float = 0.0


async def player(
    base: str, code: str, token: str, stats: Stats, start: Start, rng: random.Random
) -> None:
    url = base.replace("http://", "ws://") + f"/ws/{code}"
    async with websockets.connect(url, open_timeout=120, max_queue=None) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
        state = json.loads(await ws.recv())
        start.ready += 1
        await start.go.wait()
        stop_at, measure_from = start.stop_at, start.measure_from
        await asyncio.sleep(rng.random())  # spread the rooms over the second
        next_at = time.monotonic()
        while time.monotonic() < stop_at and not state.get("finished"):
            if not state.get("legal"):
                break
            action = rng.choice(state["legal"])
            sent = time.perf_counter()
            wall_sent = time.time()
            await ws.send(
                json.dumps({"type": "act", "action": action, "expected_seq": state["seq"], "id": 1})
            )
            while True:
                frame = json.loads(await ws.recv())
                if frame["type"] == "events":
                    state = frame
                elif frame["type"] == "ack":
                    stats.acked[code] = frame["seq"]
                    if sent >= measure_from:
                        stats.latencies.append(time.perf_counter() - sent)
                        stats.slow.append((wall_sent, time.perf_counter() - sent))
                    break
                elif frame["type"] == "error":
                    stats.errors.append(frame["code"])
                    break
            next_at += 1.0
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))


async def run_load(
    base: str, pid: int, rooms: int, seconds: float, warmup: float, profile: bool = False
) -> dict[str, Any]:
    baseline = rss_kib(pid)
    pairs = await make_rooms(base, rooms)
    stats = Stats()
    start = Start()
    rng = random.Random(rooms)
    players = asyncio.gather(
        *(player(base, c, t, stats, start, random.Random(rng.random())) for c, t in pairs),
        return_exceptions=True,
    )
    while start.ready < rooms and not players.done():
        await asyncio.sleep(0.1)
    # Every client starts within a second, plays `warmup` seconds unmeasured (first-use
    # costs: lazily built rule tables, the first garbage collections), then `seconds`.
    start.measure_from = time.perf_counter() + 1 + warmup
    start.stop_at = time.monotonic() + 1 + warmup + seconds
    start.go.set()
    await asyncio.sleep(1 + warmup)
    server_cpu0, client_cpu0, wall0 = cpu_seconds(pid), time.process_time(), time.monotonic()
    if profile:
        os.kill(pid, signal.SIGUSR1)
    results = await players
    if profile:
        os.kill(pid, signal.SIGUSR2)
    server_cpu = cpu_seconds(pid) - server_cpu0
    client_cpu = time.process_time() - client_cpu0
    wall = time.monotonic() - wall0
    loaded = rss_kib(pid)
    stats.errors.extend(type(r).__name__ for r in results if isinstance(r, BaseException))
    lost = 0
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        for code, seq in stats.acked.items():
            logged = (await http.get(f"/api/rooms/{code}")).json()["seq"]
            lost += max(0, seq - logged)
    lat = sorted(stats.latencies)
    if os.environ.get("BENCH_DEBUG"):
        t0 = min(t for t, _ in stats.slow)
        buckets: dict[int, list[float]] = {}
        for t, lt in stats.slow:
            buckets.setdefault(int((t - t0) * 4), []).append(lt)
        for b in sorted(buckets):
            v = sorted(buckets[b])
            print(
                f"{t0 + b / 4:.2f} n={len(v)} p50={1000 * v[len(v) // 2]:.1f} "
                f"max={1000 * v[-1]:.1f}"
            )
    return {
        "rooms": rooms,
        "acks": len(lat),
        "p50_ms": round(1000 * statistics.median(lat), 1) if lat else None,
        "p99_ms": round(1000 * lat[int(0.99 * (len(lat) - 1))], 1) if lat else None,
        "max_ms": round(1000 * lat[-1], 1) if lat else None,
        "errors": len(stats.errors),
        "error_kinds": sorted(set(stats.errors)),
        "lost": lost,
        "rss_per_room_kib": round((loaded - baseline) / rooms, 1),
        "acks_per_s": round(len(lat) / wall, 1),
        "server_cpu_ms_per_ack": round(1000 * server_cpu / max(1, len(lat)), 3),
        "server_cpu_share": round(server_cpu / wall, 2),
        "client_cpu_ms_per_ack": round(1000 * client_cpu / max(1, len(lat)), 3),
        "rss_mib": round(loaded / 1024, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[100])
    parser.add_argument("--db", nargs="+", default=["sqlite"], choices=["sqlite", "postgresql"])
    parser.add_argument("--seconds", type=float, default=20.0, help="measured play per run")
    parser.add_argument(
        "--server-args", default="", help="more flags for python -m gamenight.server, one string"
    )
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds played before measuring")
    parser.add_argument(
        "--setup-limit", type=float, default=240.0, help="seconds allowed for set-up and checks"
    )
    parser.add_argument(
        "--profile", metavar="FILE", help="run the server under cProfile, stats to FILE.<db>.<n>"
    )
    args = parser.parse_args()
    rows = []
    for db in args.db:
        for rooms in args.rooms:
            cluster = PgCluster().start() if db == "postgresql" else None
            folder = tempfile.TemporaryDirectory()
            url = (
                cluster.new_database()
                if cluster is not None
                else f"sqlite:///{Path(folder.name) / 'bench.sqlite3'}"
            )
            env = None
            if args.profile:
                env = dict(os.environ, GAMENIGHT_PROFILE=f"{args.profile}.{db}.{rooms}")
            load_before = os.getloadavg()[0]
            server = ProcessServer(url, env=env, args=args.server_args.split()).start()
            try:
                assert server.proc is not None
                bounded = asyncio.wait_for(
                    run_load(
                        server.url,
                        server.proc.pid,
                        rooms,
                        args.seconds,
                        args.warmup,
                        bool(args.profile),
                    ),
                    args.seconds + args.warmup + args.setup_limit,
                )
                row = asyncio.run(bounded)
            finally:
                server.stop()
                if cluster is not None:
                    cluster.stop()
                folder.cleanup()
            row["db"] = db
            row["load_before"] = round(load_before, 2)
            row["load_after"] = round(os.getloadavg()[0], 2)
            rows.append(row)
            print(json.dumps(row), flush=True)
    print("\n| db | rooms | acks | p50 ms | p99 ms | max ms | errors | lost | RSS/room KiB |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['db']} | {r['rooms']} | {r['acks']} | {r['p50_ms']} | {r['p99_ms']} | "
            f"{r['max_ms']} | {r['errors']} | {r['lost']} | {r['rss_per_room_kib']} |"
        )
    sys.exit(0)


if __name__ == "__main__":
    main()
