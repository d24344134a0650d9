"""Load benchmark of ``gamenight serve``: N concurrent rooms over real WebSockets.

The server runs as a separate process on loopback (SQLite file or a throwaway
PostgreSQL cluster). Each room is a solitaire Wurfeltod (``--rooms-of solo``, the
default; ``odds`` and ``bot``: a Decathlon against ``bot:optimal`` with live odds on
or off) with one client that plays a random legal action once a second on its turns
(a fast human pace), with a random phase so the load is spread. After a warm-up
(``--warmup`` seconds, default 2: first-use costs such as lazily built rule tables)
it measures ``--seconds`` of play and reports:

* p50/p99/max ack latency (client clock, from sending ``act`` to reading its
  ``ack``; the server acks only after the action's log row is committed),
  errors, and "lost" (acknowledged seqs missing from the room's log afterwards);
* the CPU time per acknowledged action of the server process, of the database
  cluster (PostgreSQL: the postmaster and its backends) and of this load
  generator: figures that hold on a loaded machine, unlike the latencies;
* the server's RSS growth per room, and the load average before and after.

    .venv/bin/python bench/server_load.py                       # N=100 on SQLite
    .venv/bin/python bench/server_load.py --rooms 100 1000 --db sqlite postgresql --seconds 15

The load generator runs in this process and shares the 2-core machine with the
server, so it is lean: a small RFC 6455 client on raw asyncio sockets (masked
frames over loopback TCP), msgspec decoding only the fields it reads, uvloop,
and no cycle collection during the run. ``BENCH_DEBUG=1`` prints latency per
quarter second; ``--profile FILE`` runs the server's measured seconds under
cProfile. Bounded: each run stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import gc
import hashlib
import json
import os
import random
import re
import signal
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import msgspec

from gamenight.server.testing import PgCluster, ProcessServer

ADDRESS = "127.0.0.1"  # loopback only


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    acked: dict[str, int] = field(default_factory=dict)  # room -> highest acked seq
    slow: list[tuple[float, float]] = field(default_factory=list)
    odds: int = 0  # odds messages read (rooms of kind "odds")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def tree_cpu_seconds(root: int) -> float:
    """CPU seconds of ``root`` and its children (a PostgreSQL cluster: the postmaster and
    its backends; backends that ended during the run are not counted)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(stat.parent.name) == root or int(fields[1]) == root:
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


# --rooms-of: what each room plays. "solo": solitaire Wurfeltod (the issue 11 load).
# "odds": a points-game Decathlon against bot:optimal with live odds on, so the server
# also computes every position's odds in its worker pool (issue 15 under load); "bot":
# the same rooms with odds off, to compare.
ROOM_KINDS: dict[str, dict[str, Any]] = {
    "solo": {"game": "wurfeltod", "seats": ["human"]},
    # bots at full speed (bot_pace 0; the server's default is a pace people can follow)
    "odds": {
        "game": "decathlon",
        "seats": ["human", "bot:optimal"],
        "room": {"odds": True, "bot_pace": 0},
    },
    "bot": {  # "odds" without odds
        "game": "decathlon",
        "seats": ["human", "bot:optimal"],
        "room": {"bot_pace": 0},
    },
}


async def make_rooms(base: str, n: int, kind: str = "solo") -> list[tuple[str, str]]:
    limits = httpx.Limits(max_connections=20)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as http:
        sem = asyncio.Semaphore(20)

        async def one() -> tuple[str, str]:
            async with sem:
                created = await http.post("/api/rooms", json=ROOM_KINDS[kind])
                code = created.json()["code"]
                claimed = await http.post(
                    f"/api/rooms/{code}/seats/0/claim",
                    json={"name": "bench", "contribution": "bench"},
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


class Frame(msgspec.Struct):
    """The fields of a server frame the bench reads (the rest, e.g. the view, is skipped);
    the legal actions stay undecoded JSON, one of them is sent back as it is."""

    type: str
    seq: int = 0
    legal: list[msgspec.Raw] = []
    finished: bool = False
    code: str = ""


class ActOut(msgspec.Struct, tag="act", tag_field="type"):
    action: msgspec.Raw
    expected_seq: int
    id: int


FRAMES = msgspec.json.Decoder(Frame)
ENCODE = msgspec.json.Encoder().encode


class LeanSocket(asyncio.Protocol):
    """A small WebSocket client (RFC 6455: upgrade handshake, masked client frames,
    ping/pong, close) so that the load generator spends little of the CPU it shares
    with the server; frames are real WebSocket frames over a loopback TCP socket."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.handshake: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self.upgraded = False
        self.messages: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.partial = bytearray()

    @classmethod
    async def open(cls, host: str, port: int, path: str) -> LeanSocket:
        loop = asyncio.get_running_loop()
        _, sock = await loop.create_connection(cls, host, port)
        key = base64.b64encode(os.urandom(16)).decode()
        assert sock.transport is not None
        sock.transport.write(
            (
                f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = await asyncio.wait_for(sock.handshake, 120)
        accept = base64.b64encode(
            hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest()
        ).decode()
        if not head.startswith(b"HTTP/1.1 101") or accept.encode() not in head:
            raise ConnectionError(f"no WebSocket upgrade: {head[:80]!r}")
        return sock

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # uvloop's is no subclass

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.handshake.done():
            self.handshake.set_exception(exc or ConnectionError("closed"))
        self.messages.put_nowait(None)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if not self.upgraded:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self.buffer[: end + 4])
            del self.buffer[: end + 4]
            self.upgraded = True
            self.handshake.set_result(head)
        buf = self.buffer
        while len(buf) >= 2:
            opcode, size, start = buf[0] & 0x0F, buf[1] & 0x7F, 2
            if size == 126:
                if len(buf) < 4:
                    return
                size, start = int.from_bytes(buf[2:4], "big"), 4
            elif size == 127:
                if len(buf) < 10:
                    return
                size, start = int.from_bytes(buf[2:10], "big"), 10
            if len(buf) < start + size:
                return
            payload = bytes(buf[start : start + size])
            fin = buf[0] & 0x80
            del buf[: start + size]
            if opcode == 9:  # ping
                self.send(payload, opcode=10)
            elif opcode == 8:  # close: answer it
                self.send(payload[:2], opcode=8)
                assert self.transport is not None
                self.transport.close()
            elif opcode in (0, 1, 2):
                self.partial += payload
                if fin:
                    self.messages.put_nowait(bytes(self.partial))
                    self.partial.clear()

    def send(self, payload: bytes, opcode: int = 1) -> None:
        n = len(payload)
        head = bytes([0x80 | opcode])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 1 << 16:
            head += bytes([0x80 | 126]) + n.to_bytes(2, "big")
        else:
            head += bytes([0x80 | 127]) + n.to_bytes(8, "big")
        mask = random.getrandbits(32).to_bytes(4, "big")
        keys = (mask * (n // 4 + 1))[:n]
        masked = (int.from_bytes(payload, "big") ^ int.from_bytes(keys, "big")).to_bytes(n, "big")
        assert self.transport is not None
        self.transport.write(head + mask + masked)

    async def recv(self) -> bytes:
        message = await self.messages.get()
        if message is None:
            raise ConnectionError("the server closed the socket")
        return message

    async def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.send((1000).to_bytes(2, "big"), opcode=8)
            with contextlib.suppress(asyncio.TimeoutError, ConnectionError):
                await asyncio.wait_for(self.messages.get(), 2)
            self.transport.close()


async def player(
    base: str, code: str, token: str, stats: Stats, start: Start, rng: random.Random
) -> None:
    host, _, port = base.removeprefix("http://").partition(":")
    ws = await LeanSocket.open(host, int(port), f"/ws/{code}")
    try:
        ws.send(ENCODE({"type": "hello", "protocol": 1, "token": token}))
        state = FRAMES.decode(await ws.recv())
        start.ready += 1
        await start.go.wait()
        stop_at, measure_from = start.stop_at, start.measure_from
        await asyncio.sleep(rng.random())  # spread the rooms over the second
        next_at = time.monotonic()
        while time.monotonic() < stop_at and not state.finished and state.legal:
            action = rng.choice(state.legal)
            sent = time.perf_counter()
            wall_sent = time.time()
            ws.send(ENCODE(ActOut(action=action, expected_seq=state.seq, id=1)))
            while True:
                frame = FRAMES.decode(await ws.recv())
                if frame.type == "events":
                    state = frame
                elif frame.type == "ack":
                    stats.acked[code] = frame.seq
                    if sent >= measure_from:
                        stats.latencies.append(time.perf_counter() - sent)
                        stats.slow.append((wall_sent, time.perf_counter() - sent))
                    break
                elif frame.type == "error":
                    stats.errors.append(frame.code)
                    break
                elif frame.type == "odds":
                    stats.odds += 1
            # against a bot: wait for our turn (the bot's moves and the odds arrive meanwhile)
            while not state.finished and not state.legal and time.monotonic() < stop_at:
                frame = FRAMES.decode(await ws.recv())
                if frame.type == "events":
                    state = frame
                elif frame.type == "odds":
                    stats.odds += 1
            next_at += 1.0
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
    finally:
        await ws.close()


async def run_load(
    base: str,
    pid: int,
    rooms: int,
    seconds: float,
    warmup: float,
    profile: bool = False,
    db_pid: int | None = None,
    kind: str = "solo",
) -> dict[str, Any]:
    baseline = rss_kib(pid)
    pairs = await make_rooms(base, rooms, kind)
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
    # The load generator must not pause the clocks it reads: no cycle collection while it
    # plays (it allocates little that lives; everything is freed when the run ends).
    gc.collect()
    gc.freeze()
    gc.disable()
    start.go.set()
    await asyncio.sleep(1 + warmup)
    server_cpu0, client_cpu0, wall0 = cpu_seconds(pid), time.process_time(), time.monotonic()
    window_start = time.time()
    db_cpu0 = tree_cpu_seconds(db_pid) if db_pid else 0.0
    if profile:
        os.kill(pid, signal.SIGUSR1)
    results = await players
    gc.enable()
    gc.unfreeze()
    if profile:
        os.kill(pid, signal.SIGUSR2)
    server_cpu = cpu_seconds(pid) - server_cpu0
    db_cpu = tree_cpu_seconds(db_pid) - db_cpu0 if db_pid else None
    client_cpu = time.process_time() - client_cpu0
    wall = time.monotonic() - wall0
    window = (window_start, time.time())
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
        "kind": kind,
        "acks": len(lat),
        "odds_messages": stats.odds,
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
        "db_cpu_ms_per_ack": None if db_cpu is None else round(1000 * db_cpu / max(1, len(lat)), 3),
        "client_cpu_ms_per_ack": round(1000 * client_cpu / max(1, len(lat)), 3),
        "rss_mib": round(loaded / 1024, 1),
        "window": window,
    }


STALL = re.compile(rb"event loop (\d+) ms late \(this thread ran (\d+) ms\) at ([\d.]+)")
# past 10 stall lines a minute, one line counts the rest (server/stalls.py)
STALLS_LEFT_OUT = re.compile(
    rb"event loop late (\d+) more times in the last minute "
    rb"\(the longest (\d+) ms, this thread ran (\d+) ms\) at ([\d.]+)"
)


def _stalls(server: ProcessServer, window: tuple[float, float]) -> dict[str, Any]:
    """The server's event-loop stalls (>= 50 ms late) from its log, during the measured
    seconds: how many, the longest, and how much of it the loop's thread was running
    (our own work blocking it) rather than waiting for a CPU (other processes)."""
    server.log.seek(0)
    text = server.log.read()
    found = [
        (int(a), int(b))
        for a, b, at in STALL.findall(text)
        if window[0] <= float(at) <= window[1] + 1
    ]
    for more, a, b, at in STALLS_LEFT_OUT.findall(text):  # the minute's summary: its
        if window[0] <= float(at) <= window[1] + 60:  # stalls, each as long as the longest
            found += [(int(a), int(b))] * int(more)
    if os.environ.get("BENCH_DEBUG"):
        print(text.decode(errors="replace")[-3000:])
    return {
        "loop_stalls": len(found),
        "loop_stall_max_ms": max((a for a, _ in found), default=0),
        "loop_stall_ran_ms": max((b for a, b in found if a == max(x for x, _ in found)), default=0),
    }


class _Scraper(threading.Thread):
    """Scrapes the server's /metrics once a second while the load runs (issue 39); keeps
    the scrape with the most open sockets and how long each scrape took."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.stop = threading.Event()
        self.best: dict[str, float] = {}
        self.took: list[float] = []

    def run(self) -> None:
        import httpx

        while not self.stop.wait(1.0):
            began = time.perf_counter()
            try:
                text = httpx.get(f"{self.url}/metrics", timeout=10).text
            except httpx.HTTPError:
                continue
            self.took.append((time.perf_counter() - began) * 1000)
            found = {}
            for line in text.splitlines():
                if line.startswith("gamenight_"):
                    name, _, value = line.rpartition(" ")
                    found[name] = float(value)
            if found.get("gamenight_sockets", 0) >= self.best.get("gamenight_sockets", 0):
                self.best = found

    def figures(self) -> dict[str, Any]:
        """The busiest scrape: sockets, rooms playing, acks, the ack-latency histogram's
        median and 99th percentile (bucket bounds), throttled, database errors."""
        m = self.best
        bounds = sorted(
            (float(k.split('le="')[1].rstrip('"}').replace("+Inf", "inf")), v)
            for k, v in m.items()
            if k.startswith("gamenight_ack_seconds_bucket")
        )
        total = m.get("gamenight_ack_seconds_count", 0)

        def quantile(q: float) -> float | None:
            for bound, count in bounds:
                if total and count >= q * total:
                    return bound * 1000
            return None

        return {
            "scraped_sockets": int(m.get("gamenight_sockets", 0)),
            "scraped_rooms_playing": int(m.get('gamenight_rooms{state="playing"}', 0)),
            "scraped_acks": int(m.get("gamenight_actions_acknowledged_total", 0)),
            "scraped_ack_p50_le_ms": quantile(0.5),
            "scraped_ack_p99_le_ms": quantile(0.99),
            "scraped_throttled": int(sum(v for k, v in m.items() if "throttled" in k)),
            "scraped_db_errors": int(sum(v for k, v in m.items() if "database_errors" in k)),
            "scraped_bots_thinking": int(m.get("gamenight_bots_thinking", 0)),
            "scrape_ms_max": round(max(self.took, default=0.0), 1),
        }


def _loop_factory() -> Any:
    """uvloop for the load generator too, when it is installed (the server uses it)."""
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[100])
    parser.add_argument("--db", nargs="+", default=["sqlite"], choices=["sqlite", "postgresql"])
    parser.add_argument("--seconds", type=float, default=20.0, help="measured play per run")
    parser.add_argument(
        "--rooms-of", choices=sorted(ROOM_KINDS), default="solo", help="what each room plays"
    )
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
            scraper = _Scraper(server.url)
            scraper.start()
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
                        cluster.postmaster_pid() if cluster is not None else None,
                        args.rooms_of,
                    ),
                    args.seconds + args.warmup + args.setup_limit,
                )
                with asyncio.Runner(loop_factory=_loop_factory()) as runner:
                    row = runner.run(bounded)
                stalls = _stalls(server, row.pop("window"))
                scraper.stop.set()
                scraper.join(15)
                row.update(scraper.figures())
            finally:
                scraper.stop.set()
                server.stop()
                if cluster is not None:
                    cluster.stop()
                folder.cleanup()
            row.update(stalls)
            row["db"] = db
            row["load_before"] = round(load_before, 2)
            row["load_after"] = round(os.getloadavg()[0], 2)
            rows.append(row)
            print(json.dumps(row), flush=True)
    print(
        "\n| db | rooms | acks | acks/s | p50 ms | p99 ms | max ms | errors | lost | "
        "server CPU ms/ack | db CPU ms/ack | client CPU ms/ack | RSS/room KiB | "
        "loop stalls (max ms, ran ms) | load before/after |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")
    for r in rows:
        db_cpu = "—" if r["db_cpu_ms_per_ack"] is None else r["db_cpu_ms_per_ack"]
        print(
            f"| {r['db']} | {r['rooms']} | {r['acks']} | {r['acks_per_s']} | {r['p50_ms']} | "
            f"{r['p99_ms']} | {r['max_ms']} | {r['errors']} | {r['lost']} | "
            f"{r['server_cpu_ms_per_ack']} | {db_cpu} | {r['client_cpu_ms_per_ack']} | "
            f"{r['rss_per_room_kib']} | {r['loop_stalls']} ({r['loop_stall_max_ms']}, "
            f"{r['loop_stall_ran_ms']}) | {r['load_before']} / {r['load_after']} |"
        )
    sys.exit(0)


if __name__ == "__main__":
    main()
