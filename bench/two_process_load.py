"""Capacity of one vs two server processes on one PostgreSQL (issue 38, item 7).

Each room is a two-player Decathlon with **two sockets** (one a seat), every seat
acting whenever it may, at most ``--rate`` actions a second, through a lean WebSocket
client (``bench/server_load.py``'s ``LeanSocket``). Layouts:

* ``one``: one process serves every socket;
* ``seats``: two processes, seat 0 of every room on A and seat 1 on B (every action
  crosses processes: the other seat's process catches up on it);
* ``rooms``: two processes, the rooms split between them (both sockets of a room on
  the same one).

After ``--warmup`` seconds it measures ``--seconds`` and reports acknowledged actions a
second, p50/p99 ack latency (client clock, send to ack), errors, the server processes'
CPU per action, the PostgreSQL cluster's CPU per action and the database statements
per action (``pg_stat_statements``: every statement the servers sent that database,
LISTEN/NOTIFY included). ``--old DIR`` runs each layout, alternately, against another
checkout too (its ``src`` first on ``PYTHONPATH``), each run on a fresh database.

**One core a process** (``--quota``, default 0.25 of a CPU): on a small machine the
load generator and PostgreSQL take the other cores, so two unconstrained processes
could not show what a second process adds. Each server process runs in a cgroup-v1
CPU quota of its own (``/sys/fs/cgroup/cpu/gn-bench-*``, ``cpu.cfs_quota_us`` over a
100 ms period), the same budget per process in every layout, as if each had one core
of a larger machine; the generator and PostgreSQL are unconstrained. The report says
how much of the time each quota throttled its process (the quota was the limit) and
the generator's own CPU (it was not). ``--quota 0`` runs without quotas.

    .venv/bin/python bench/two_process_load.py --old /tmp/base --rooms 300 --rate 4

Bounded: each run stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import msgspec
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_load import ENCODE, FRAMES, ActOut, LeanSocket, cpu_seconds, tree_cpu_seconds

from gamenight.server.testing import PgCluster, ProcessServer

NEW = Path(__file__).resolve().parent.parent
ROOM = {"game": "decathlon", "seats": ["human", "human"], "room": {"bot_pace": 0}}


@dataclass
class Snap:
    """The servers' CPU, the cluster's CPU, the statements and the actions logged, the
    generator's CPU and the time the quotas throttled the servers."""

    cpu: float
    db: float
    statements: int
    actions: int
    generator: float = 0.0
    periods: int = 0  # the quotas' periods with work, and those that ran out
    throttled: int = 0


CGROUP = Path("/sys/fs/cgroup/cpu")
PERIOD_US = 100_000


class Quota:
    """A cgroup-v1 CPU quota for one server process: ``share`` of a CPU, at most.

    Made next to this process's own cgroup, removed by :meth:`close` (the process in it
    is back in the parent by then: stopped, or moved out).
    """

    def __init__(self, name: str, share: float) -> None:
        self.path = CGROUP / f"gn-bench-{os.getpid()}-{name}"
        self.path.mkdir()
        (self.path / "cpu.cfs_period_us").write_text(str(PERIOD_US))
        (self.path / "cpu.cfs_quota_us").write_text(str(int(share * PERIOD_US)))

    def add(self, pid: int) -> None:
        (self.path / "cgroup.procs").write_text(str(pid))

    def periods(self) -> tuple[int, int]:
        """Periods so far in which its processes ran, and in which the quota ran out."""
        stat = dict(
            line.split(" ", 1) for line in (self.path / "cpu.stat").read_text().splitlines()
        )
        return int(stat.get("nr_periods", 0)), int(stat.get("nr_throttled", 0))

    def close(self) -> None:
        for pid in (self.path / "cgroup.procs").read_text().split():
            with contextlib.suppress(OSError):  # gone meanwhile
                (CGROUP / "cgroup.procs").write_text(pid)
        self.path.rmdir()


@dataclass
class Run:
    stop_at: float = 0.0
    measure_from: float = 0.0
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    finished: int = 0
    said: list[str] = field(default_factory=list)  # the first errors' text
    ready: int = 0
    before: Snap | None = None
    after: Snap | None = None
    go: asyncio.Event = field(default_factory=asyncio.Event)


async def seat(base: str, code: str, token: str, run: Run, rate: float, rng: random.Random) -> None:
    host, _, port = base.removeprefix("http://").partition(":")
    ws = await LeanSocket.open(host, int(port), f"/ws/{code}")
    try:
        ws.send(ENCODE({"type": "hello", "protocol": 1, "token": token}))
        state = FRAMES.decode(await ws.recv())
        run.ready += 1
        await run.go.wait()  # every socket is in: the clock starts for all
        await asyncio.sleep(rng.random() / rate)
        next_at = time.monotonic()
        while time.monotonic() < run.stop_at and not state.finished:
            if not state.legal:
                try:
                    frame = FRAMES.decode(
                        await asyncio.wait_for(ws.recv(), max(0.01, run.stop_at - time.monotonic()))
                    )
                except TimeoutError:
                    break
                if frame.type in ("events", "snapshot"):
                    state = frame
                continue
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
            next_at = max(next_at + 1 / rate, time.monotonic() - 1)
            sent = time.perf_counter()
            ws.send(ENCODE(ActOut(action=rng.choice(state.legal), expected_seq=state.seq, id=1)))
            while True:
                raw = await ws.recv()
                frame = FRAMES.decode(raw)
                if frame.type in ("events", "snapshot"):
                    state = frame
                elif frame.type == "ack":
                    if sent >= run.measure_from and time.monotonic() < run.stop_at:
                        run.latencies.append(time.perf_counter() - sent)
                    break
                elif frame.type == "error":
                    if sent >= run.measure_from:
                        run.errors[frame.code] = run.errors.get(frame.code, 0) + 1
                    if len(run.said) < 3:
                        run.said.append(raw.decode()[:200])
                    if frame.code == "stale":  # as a client does: wait for the news
                        state = msgspec.structs.replace(state, legal=[])
                    break
        run.finished += state.finished
    finally:
        await ws.close()


async def drive(
    bases: list[str], layout: str, args: argparse.Namespace, snap: Callable[[], Snap]
) -> Run:
    # no kept-alive connections: on a loaded machine the server may close an idle one as
    # the client reuses it (a ReadError at room creation)
    no_reuse = httpx.Limits(max_keepalive_connections=0)
    async with httpx.AsyncClient(timeout=120, limits=no_reuse) as http:
        sem = asyncio.Semaphore(10)

        async def room(i: int) -> tuple[str, list[tuple[str, str]]]:
            home = bases[i % len(bases)] if layout == "rooms" else bases[0]
            async with sem:
                code = (await http.post(f"{home}/api/rooms", json=ROOM)).json()["code"]
                places = []
                for s in (0, 1):
                    where = bases[s] if layout == "seats" else home
                    claimed = await http.post(
                        f"{where}/api/rooms/{code}/seats/{s}/claim",
                        json={"name": f"p{s}", "contribution": f"bench-{i}-{s}"},
                    )
                    places.append((where, claimed.json()["token"]))
                return code, places

        rooms = await asyncio.gather(*(room(i) for i in range(args.rooms)))
    run = Run()
    rng = random.Random(1)
    tasks = [
        asyncio.create_task(seat(base, code, token, run, args.rate, random.Random(rng.random())))
        for code, places in rooms
        for base, token in places
    ]
    deadline = time.monotonic() + 180
    while run.ready + sum(t.done() for t in tasks) < len(tasks):
        if time.monotonic() > deadline:
            print(f"    only {run.ready} of {len(tasks)} sockets got their snapshot", flush=True)
            break
        await asyncio.sleep(0.1)
    run.measure_from = time.perf_counter() + args.warmup
    run.stop_at = time.monotonic() + args.warmup + args.seconds
    run.go.set()
    await asyncio.sleep(args.warmup)
    run.before = snap()
    await asyncio.sleep(max(0.0, run.stop_at - time.monotonic()))
    run.after = snap()
    await asyncio.gather(*tasks, return_exceptions=True)
    return run


def statements(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements s "
            "JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = current_database()"
        ).fetchone()
    return int(row[0]) if row else 0


def one_run(cluster: PgCluster, source: Path, layout: str, args: argparse.Namespace) -> str:
    url = cluster.new_database()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    env = {**os.environ, "PYTHONPATH": str(source / "src")}
    servers = [ProcessServer(url, env=env).start() for _ in range(1 if layout == "one" else 2)]
    quotas: list[Quota] = []
    try:
        pids = [s.proc.pid for s in servers if s.proc is not None]
        if args.quota:
            for i, pid in enumerate(pids):
                quotas.append(Quota(f"{layout}-{i}", args.quota))
                quotas[-1].add(pid)

        def snap() -> Snap:
            return Snap(
                sum(cpu_seconds(p) for p in pids),
                tree_cpu_seconds(cluster.postmaster_pid()),
                statements(url),
                run_total_actions(url),
                time.process_time(),
                sum(q.periods()[0] for q in quotas),
                sum(q.periods()[1] for q in quotas),
            )

        run = asyncio.run(drive([s.url for s in servers], layout, args, snap))
        assert run.before is not None and run.after is not None
        cpu = run.after.cpu - run.before.cpu
        db = run.after.db - run.before.db
        st = run.after.statements - run.before.statements
        total = max(run.after.actions - run.before.actions, 1)
        generator = run.after.generator - run.before.generator
        periods = run.after.periods - run.before.periods
        throttled = (run.after.throttled - run.before.throttled) / max(1, periods)
        if args.top:
            with psycopg.connect(url, autocommit=True) as conn:
                for calls, query in conn.execute(
                    "SELECT calls, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) "
                    "FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid "
                    "WHERE d.datname = current_database() ORDER BY calls DESC LIMIT 8"
                ):
                    print(f"    {calls:7d} {query}")
        logs = "".join(s.log_text() for s in servers)
        for text in run.said:
            print("    error:", text)
    finally:
        for s in servers:
            s.stop()
        for q in quotas:
            q.close()
    acks = len(run.latencies)
    lat = sorted(run.latencies) or [float("nan")]
    p50 = statistics.median(lat)
    p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))]
    # CPU and statements over the measured seconds, per action logged meanwhile
    unavailable = logs.count("database is unavailable")
    return (
        f"{layout:6s} acks/s {acks / args.seconds:7.1f}  p50 {1e3 * p50:7.1f} ms  "
        f"p99 {1e3 * p99:8.1f} ms  errors {sum(run.errors.values())} {dict(run.errors)}  "
        f"server CPU/action {1e3 * cpu / total:5.2f} ms  PG CPU/action {1e3 * db / total:5.2f} ms  "
        f"statements/action {st / total:5.1f}  generator CPU/action "
        f"{1e3 * generator / total:5.2f} ms ({generator / args.seconds:4.2f} s/s)  "
        f"quota ran out in {throttled:4.0%} of periods  "
        f"'unavailable' log lines {unavailable}  load {os.getloadavg()[0]:.1f}"
    )


def run_total_actions(url: str) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute("SELECT count(*) FROM actions").fetchone()
    return int(row[0]) if row else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=150)
    parser.add_argument("--rate", type=float, default=2.0, help="actions a second a seat")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--warmup", type=float, default=5)
    parser.add_argument("--layouts", default="one,seats,rooms")
    parser.add_argument("--old", type=Path)
    parser.add_argument("--top", action="store_true", help="print each run's top statements")
    parser.add_argument("--only-old", action="store_true", help="measure --old alone")
    parser.add_argument(
        "--quota",
        type=float,
        default=0.25,
        help="CPUs each server process may use (a cgroup-v1 quota); 0: unconstrained",
    )
    args = parser.parse_args()
    cluster = PgCluster().start()
    try:
        with psycopg.connect(cluster.url("postgres"), autocommit=True) as conn:
            conn.execute("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'")
        cluster.pause()
        cluster.resume()
        sides = [("this checkout", NEW)] + ([("old", args.old)] if args.old else [])
        if args.only_old:
            sides = sides[1:]
        print(
            f"{args.rooms} rooms x 2 sockets, up to {args.rate:g} actions/s a seat, "
            f"{args.seconds:g} s measured, "
            + (f"{args.quota:g} CPU a server process" if args.quota else "no CPU quota"),
            flush=True,
        )
        for layout in args.layouts.split(","):
            for name, source in sides:
                print(f"{name:14s}", one_run(cluster, source, layout, args), flush=True)
    finally:
        cluster.stop()


if __name__ == "__main__":
    main()
