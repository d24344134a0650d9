"""Faults survived for real (issue 21): PostgreSQL stopped and started in the middle of
games (one server process and two), the disk filled under SQLite at a human's move and at
a bot's, and kill -9 of one of two processes with its seat reconnecting to the other.

In each: every acknowledged action is in the database afterwards, nothing is
acknowledged while the database cannot commit, and every game finishes after the fault
without a server restart. The clients play like a careful client: an ``unavailable``
refusal is retried after a while.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
import websockets
from harness import Client, PgCluster, ProcessServer, claim, create_room, run

from gamenight.server.lifecycle import Lifecycle
from gamenight.server.testing import Tmpfs, free_port

DEADLINE = 120.0  # seconds for anything to happen (generous: the machine is shared)
PACE = 0.02  # seconds a client waits between its actions (the games outlast the fault)


@dataclass
class Reply:
    code: str  # room
    seat: int
    sent: float  # monotonic, when the act was sent
    got: float  # when its answer came
    action: Any
    answer: dict[str, Any]


@dataclass
class Book:
    """Every act sent and its answer, the fault's window, and the games' codes."""

    replies: list[Reply] = field(default_factory=list)
    down: float = float("inf")  # from when the database could not commit
    up: float = float("inf")  # until when

    def acks(self, code: str | None = None) -> list[Reply]:
        return [
            r
            for r in self.replies
            if r.answer["type"] == "ack" and (code is None or r.code == code)
        ]

    def refused(self) -> list[Reply]:
        return [r for r in self.replies if r.answer.get("code") == "unavailable"]

    def check_fault(self) -> None:
        """An act sent once the database was down and answered before it was back was
        never acknowledged; at least one was sent and refused as unavailable."""
        during = [r for r in self.replies if r.sent >= self.down and r.got < self.up]
        assert during, "no act was sent during the fault"
        acked = [r for r in during if r.answer["type"] == "ack"]
        assert not acked, f"acknowledged while the database was down: {acked[:3]}"
        assert any(r.answer.get("code") == "unavailable" for r in during), during[:3]
        for r in self.refused():
            assert r.answer["retry_after"] >= 1
            assert "id" in r.answer


def code_of(client: Client) -> str:
    return client.ws_url.rsplit("/", 1)[1]


async def play(client: Client, rng: random.Random, book: Book, pace: float = PACE) -> None:
    """Random legal actions on this seat's turns until the game ends; ``unavailable`` is
    retried a little later, ``stale`` waits for the news."""
    while not client.state.get("finished"):
        if client.state.get("legal"):
            action = rng.choice(client.state["legal"])
            sent = time.monotonic()
            answer = await client.act(action)
            book.replies.append(
                Reply(code_of(client), client.seat or 0, sent, time.monotonic(), action, answer)
            )
            if answer["type"] == "ack":
                await asyncio.sleep(pace)
            elif answer["code"] == "unavailable":
                await asyncio.sleep(0.2)  # a test client retries sooner than retry_after
            else:
                assert answer["code"] == "stale", answer
            continue
        try:
            await client.expect("events", "snapshot", timeout=DEADLINE)
        except TimeoutError:
            raise AssertionError(f"room {code_of(client)} stuck: {client.state}") from None


async def until(predicate: Any, what: str, timeout: float = DEADLINE) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


def wait_finished(servers: list[ProcessServer], codes: list[str]) -> None:
    """Every room finished, as every process sees it."""
    deadline = time.monotonic() + DEADLINE
    for server in servers:
        for code in codes:
            while True:
                status = httpx.get(f"{server.url}/api/rooms/{code}").json()["status"]
                if status == "finished":
                    break
                assert time.monotonic() < deadline, f"room {code} is {status} on {server.url}"
                time.sleep(0.1)


def logged(rows: list[tuple[str, int, int, str]]) -> dict[tuple[str, int], tuple[int, Any]]:
    return {(code, seq): (seat, json.loads(action)) for code, seq, seat, action in rows}


LOG_QUERY = "SELECT r.code, a.seq, a.seat, a.action FROM actions a JOIN rooms r ON r.id = a.room_id"


def pg_log(url: str) -> dict[tuple[str, int], tuple[int, Any]]:
    with psycopg.connect(url) as conn:
        return logged(conn.execute(LOG_QUERY).fetchall())


def sqlite_log(path: Path) -> dict[tuple[str, int], tuple[int, Any]]:
    with sqlite3.connect(path) as conn:
        return logged(conn.execute(LOG_QUERY).fetchall())


def check_survived(book: Book, log: dict[tuple[str, int], tuple[int, Any]]) -> None:
    acks = book.acks()
    assert acks
    for r in acks:
        assert log.get((r.code, r.answer["seq"])) == (r.seat, r.action), "an ack was lost"


def check_alive(*servers: ProcessServer) -> None:
    for server in servers:
        assert server.alive(), server.log_text()[-3000:]
        assert "Traceback" not in server.log_text(), server.log_text()[-3000:]


# ----- PostgreSQL stopped and started mid-game ---------------------------------------------
@pytest.fixture
def own_pg() -> Iterator[PgCluster]:
    """A cluster of this test's own: it is stopped and started."""
    cluster = PgCluster().start()
    try:
        yield cluster
    finally:
        cluster.stop()


def _three_rooms(url: str) -> tuple[str, str, str]:
    """A two-human Dice Duel, a Wurfeltod against a bot and a room of two bots."""
    duel = create_room(url, "dice-duel", ["human", "human"])["code"]
    versus = create_room(url, "wurfeltod", ["human", "bot:random"])["code"]
    bots = create_room(url, "dice-duel", ["bot:random", "bot:random"], room={"bot_pace": 0.05})
    return duel, versus, bots["code"]


@pytest.mark.parametrize("processes", [1, 2])
def test_postgres_restart_mid_game(own_pg: PgCluster, processes: int) -> None:
    url = own_pg.new_database()
    servers = [ProcessServer(url).start() for _ in range(processes)]
    a, b = servers[0], servers[-1]  # one process: both are the same
    try:
        duel, versus, bots = _three_rooms(a.url)
        seats = [
            Client(a.url, duel, claim(a.url, duel, 0, "A")),
            Client(b.url, duel, claim(b.url, duel, 1, "B")),
            Client(b.url, versus, claim(b.url, versus, 0, "C")),
        ]
        # A solitaire on each process: a seat that is always to act, so that every process
        # is sent acts during the outage whatever the other rooms wait for (a process
        # that missed the last NOTIFY before the stop may think the other seat is to act).
        solos = [create_room(server.url, "wurfeltod", ["human"])["code"] for server in servers]
        lone = [
            Client(x.url, c, claim(x.url, c, 0, "S")) for x, c in zip(servers, solos, strict=True)
        ]
        book = Book()

        def refused_on(code: str) -> int:
            return len([r for r in book.refused() if r.code == code and r.sent >= book.down])

        async def main() -> None:
            for c in seats + lone:
                await c.connect()
            rng = random.Random(21)
            games = [asyncio.create_task(play(c, rng, book)) for c in seats]
            games += [asyncio.create_task(play(c, rng, book, pace=0.1)) for c in lone]
            await until(lambda: all(len(book.acks(c)) >= 4 for c in (duel, versus)), "play")
            await asyncio.to_thread(own_pg.pause, "fast")
            book.down = time.monotonic()
            await until(lambda: all(refused_on(c) >= 2 for c in solos), "refusals on each")
            problem = httpx.post(
                f"{a.url}/api/rooms", json={"game": "dice-duel", "seats": ["human", "human"]}
            )
            assert problem.status_code == 503, problem.text
            assert problem.json()["code"] == "unavailable"
            assert int(problem.headers["retry-after"]) >= 1
            # A room this process has not loaded cannot be read: the socket says so.
            async with websockets.connect(a.url.replace("http", "ws") + "/ws/nosuchroom") as ws:
                refusal = json.loads(await asyncio.wait_for(ws.recv(), DEADLINE))
                assert refusal["code"] == "unavailable" and refusal["retry_after"] >= 1
                await asyncio.wait_for(ws.wait_closed(), DEADLINE)
                assert ws.close_code == 1013
            book.up = time.monotonic()
            await asyncio.to_thread(own_pg.resume)
            await asyncio.wait_for(asyncio.gather(*games), DEADLINE)
            assert seats[0].state["seq"] == seats[1].state["seq"]
            for c in seats + lone:
                await c.close()

        run(main())
        wait_finished(servers, [duel, versus, bots, *solos])
        book.check_fault()
        check_survived(book, pg_log(url))
        check_alive(*servers)
    finally:
        for server in servers:
            server.stop()


def test_two_processes_catch_up_without_notifications(pg: PgCluster) -> None:
    """The LISTEN connections are killed again and again while the seats act, so most
    notifications are lost: each process still follows the room (re-read after each
    reconnect; the periodic re-check covers a notification lost for good)."""
    url = pg.new_database()
    a, b = ProcessServer(url).start(), ProcessServer(url).start()
    try:
        code = create_room(a.url, "dice-duel", ["human", "human"])["code"]
        seats = [
            Client(a.url, code, claim(a.url, code, 0, "A")),
            Client(b.url, code, claim(b.url, code, 1, "B")),
        ]
        book = Book()
        kill = (
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE application_name = 'gamenight-listen'"
        )

        async def main() -> None:
            for c in seats:
                await c.connect()
            games = [asyncio.create_task(play(c, random.Random(3), book)) for c in seats]
            with psycopg.connect(pg.url("postgres"), autocommit=True) as admin:
                for _ in range(20):  # about 6 s of notifications lost, then the rest
                    admin.execute(kill)
                    await asyncio.sleep(0.3)
            assert len(book.acks()) >= 5, "the seats went on while notifications were lost"
            await asyncio.gather(*games)
            assert seats[0].state["seq"] == seats[1].state["seq"]
            for c in seats:
                await c.close()

        run(main())
        wait_finished([a, b], [code])
        check_survived(book, pg_log(url))
        check_alive(a, b)
    finally:
        a.stop()
        b.stop()


def test_server_started_while_postgres_is_down() -> None:
    """One line, the password redacted, exit status 3: no "serving at", no traceback."""
    url = f"postgresql://gamenight:s3cret@127.0.0.1:{free_port()}/gamenight"
    done = subprocess.run(
        [sys.executable, "-m", "gamenight.server", "--port", str(free_port()), "--db", url],
        capture_output=True,
        text=True,
        timeout=DEADLINE,
        check=False,
    )
    assert done.returncode == 3
    out = done.stdout + done.stderr
    assert "serving at" not in out and "Traceback" not in out and "s3cret" not in out, out
    lines = out.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gamenight: cannot reach the database at")
    assert "postgresql://gamenight:***@127.0.0.1" in lines[0]


def test_server_waits_for_postgres(own_pg: PgCluster) -> None:
    """``--wait-for-db``: a server started while the database is down serves once it is up."""
    url = own_pg.new_database()
    own_pg.pause()
    server = ProcessServer(url, args=["--wait-for-db", str(DEADLINE)])
    started: list[Any] = []

    def begin() -> None:
        started.append(server.start())

    import threading

    thread = threading.Thread(target=begin)
    thread.start()
    try:
        deadline = time.monotonic() + DEADLINE
        while "waiting up to" not in server.log_text():
            assert time.monotonic() < deadline, "the server did not say it waits"
            assert server.proc is None or server.alive(), server.log_text()
            time.sleep(0.05)
        own_pg.resume()
        thread.join(DEADLINE)
        assert started, server.log_text()
        code = create_room(server.url, "dice-duel", ["bot:random", "bot:random"])["code"]
        wait_finished([server], [code])
    finally:
        thread.join(DEADLINE)
        server.stop()


# ----- the disk full under SQLite ----------------------------------------------------------
@pytest.fixture
def small_disk() -> Iterator[Tmpfs]:
    disk = Tmpfs("8m")  # raises (the test fails) if a tmpfs cannot be mounted
    try:
        yield disk
    finally:
        disk.close()


def db_seq(path: Path, code: str) -> int:
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        row = conn.execute("SELECT seq FROM rooms WHERE code = ?", (code,)).fetchone()
        return int(row[0])


def test_disk_full_at_a_humans_move(small_disk: Tmpfs) -> None:
    path = small_disk.path / "server.sqlite3"
    server = ProcessServer(f"sqlite:///{path}").start()
    try:
        code = create_room(server.url, "dice-duel", ["human", "bot:random"])["code"]
        seat = Client(server.url, code, claim(server.url, code, 0, "H"))
        book = Book()

        async def main() -> None:
            await seat.connect()
            rng = random.Random(5)
            for _ in range(5):  # a few moves, then the disk fills at the human's turn
                await until(lambda: bool(seat.state.get("legal")), "the human's turn")
                ack = await seat.act(rng.choice(seat.state["legal"]))
                assert ack["type"] == "ack", ack
            await until(lambda: bool(seat.state.get("legal")), "the human's turn")
            before = seat.state["seq"]
            assert small_disk.fill() > 0
            book.down = time.monotonic()
            refused = 0
            for _ in range(3):
                action = rng.choice(seat.state["legal"])
                sent = time.monotonic()
                answer = await seat.act(action)
                book.replies.append(Reply(code, 0, sent, time.monotonic(), action, answer))
                refused += answer.get("code") == "unavailable"
            assert refused == 3, book.replies[-3:]
            chat = await seat.request({"type": "chat", "text": "still there?"})
            assert chat["code"] == "unavailable"
            problem = httpx.post(
                f"{server.url}/api/rooms", json={"game": "dice-duel", "seats": ["human"] * 2}
            )
            assert problem.status_code == 503 and problem.json()["code"] == "unavailable"
            assert seat.state["seq"] == before == db_seq(path, code)
            book.up = time.monotonic()
            small_disk.free()
            ack = await seat.act(seat.state["legal"][0])
            assert (ack["type"], ack["seq"]) == ("ack", before + 1), ack
            await play(seat, rng, book)
            await seat.close()

        run(main())
        wait_finished([server], [code])
        book.check_fault()
        check_survived(book, sqlite_log(path))
        check_alive(server)
    finally:
        server.stop()


def test_disk_full_at_a_bots_move(small_disk: Tmpfs) -> None:
    path = small_disk.path / "server.sqlite3"
    server = ProcessServer(f"sqlite:///{path}").start()
    try:
        room = {"bot_pace": 0.05}
        code = create_room(server.url, "dice-duel", ["bot:random"] * 2, room=room)["code"]
        watcher = Client(server.url, code)

        def seen() -> int:
            return int(max([f["seq"] for f in watcher.frames if f["type"] == "events"] or [0]))

        async def main() -> None:
            await watcher.connect()
            await until(lambda: seen() >= 3, "the bots' first moves")
            small_disk.fill()
            await until(lambda: f"bots of room {code}:" in server.log_text(), "a failed move")
            held = db_seq(path, code)
            await asyncio.sleep(0)  # frames already on their way are read
            failures = server.log_text().count("bots of room")
            assert failures == 1, "one line for a failure streak"
            assert seen() <= held == db_seq(path, code), "a move broadcast but not written"
            small_disk.free()
            await until(lambda: bool(watcher.state.get("finished")), "the bots' game to end")
            assert "go on after" in server.log_text()
            await watcher.close()

        run(main())
        wait_finished([server], [code])
        log = sqlite_log(path)
        events = [f for f in watcher.frames if f["type"] == "events"]
        assert {f["seq"] for f in events} <= {seq for (c, seq) in log if c == code}
        check_alive(server)
    finally:
        server.stop()


# ----- kill -9 of one of two processes ------------------------------------------------------
def test_kill_9_of_one_of_two_processes(pg: PgCluster) -> None:
    url = pg.new_database()
    a, b = ProcessServer(url).start(), ProcessServer(url).start()
    try:
        # The bot room is created on A after B started: only A runs its bots until B adopts it.
        duel, versus, bots = _three_rooms(a.url)
        on_a = Client(a.url, duel, claim(a.url, duel, 0, "A"))
        on_b = Client(b.url, duel, claim(b.url, duel, 1, "B"))
        versus_a = Client(a.url, versus, claim(a.url, versus, 0, "C"))
        book = Book()

        async def main() -> None:
            clients = [on_a, on_b, versus_a]
            for c in clients:
                await c.connect()
            rng = random.Random(9)
            games = {c: asyncio.create_task(play(c, rng, book)) for c in clients}
            await until(lambda: all(len(book.acks(c)) >= 4 for c in (duel, versus)), "play")
            a.kill()  # in the middle of play, requests in flight
            for c in (on_a, versus_a):
                await asyncio.wait_for(c.closed.wait(), DEADLINE)
                games[c].cancel()
                await asyncio.gather(games[c], return_exceptions=True)
            # The seats of A reconnect to B with what they saw: nothing acknowledged is lost.
            again = []
            for c in (on_a, versus_a):
                seen = c.state["seq"]
                moved = Client(b.url, code_of(c), c.token)
                snap = await moved.connect(last_seq=seen)
                assert snap["type"] == "snapshot", snap
                assert snap["seq"] >= max(r.answer["seq"] for r in book.acks(code_of(c)))
                assert all(e["seq"] > seen for e in snap["events"])
                again.append(moved)
            rest = [asyncio.create_task(play(c, rng, book)) for c in again]
            await asyncio.wait_for(asyncio.gather(games[on_b], *rest), DEADLINE)
            assert again[0].state["seq"] == on_b.state["seq"]
            for c in [*again, on_b]:
                await c.close()

        run(main())
        wait_finished([b], [duel, versus, bots])
        check_survived(book, pg_log(url))
        check_alive(b)
    finally:
        a.stop()
        b.stop()


def test_a_start_raced_by_another_process_does_not_hang(pg: PgCluster) -> None:
    """A process that begins a room another process has begun catches up instead of
    waiting for the room's lock it holds (that deadlock stopped its room checks for good
    once a failed start was retried)."""
    from harness import ThreadServer

    with ThreadServer(pg.new_database()) as server:
        code = create_room(server.url, "dice-duel", ["human", "human"])["code"]
        claim(server.url, code, 0, "A")
        claim(server.url, code, 1, "B")  # the room begins
        hub = server.hub
        room = hub.rooms[code]
        loop = hub._tasks[0].get_loop()

        async def as_if_behind() -> str:
            # this process's view lags behind the database (no move makes it: the field)
            room._status = Lifecycle.WAITING
            await asyncio.wait_for(room.begin({}), 30)
            return room.status

        done = asyncio.run_coroutine_threadsafe(as_if_behind(), loop)
        assert done.result(60) == "playing"
