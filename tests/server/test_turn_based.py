"""Turn-based rooms (issue 44): a game over a simulated week with the server's clock
faked (``Services.clock``), moves days apart, a restart on the same database, a clock
that runs out, the other player's "wait" and "bot" choices; on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time
from typing import Any

import httpx
import pytest
from harness import Client, ThreadServer, claim, create_room, run

from gamenight.core.record.reading import parse_record
from gamenight.core.record.replay import replay

DAY = 24 * 3600
MOVE_TIME = 24 * 3600
BANK = 12 * 3600
TURN_BASED = {"pace": "turn-based", "move_time": MOVE_TIME, "time_bank": BANK}


class FakeClock:
    """The server's wall clock, moved on by the test (no sleeping)."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def _server(url: str, clock: FakeClock, evict_after: float = 0.2) -> ThreadServer:
    server = ThreadServer(url, turn_sweep=0.05, evict_after=evict_after)
    server.__enter__()
    server.hub.services.clock = clock
    return server


def _info(server: ThreadServer, code: str) -> dict[str, Any]:
    answer = httpx.get(f"{server.url}/api/rooms/{code}")
    assert answer.status_code == 200, answer.text
    info: dict[str, Any] = answer.json()
    return info


async def _until(check: Any, what: str) -> None:
    for _ in range(400):
        if await asyncio.to_thread(check):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never: {what}")


async def _settle(clients: list[Client]) -> None:
    """Every client has read the frames of the latest step (they come asynchronously)."""
    while len({c.state.get("seq") for c in clients}) > 1:
        latest = max(c.state.get("seq", 0) for c in clients)
        for c in clients:
            if c.state.get("seq", 0) < latest:
                await c.expect("events")


async def _turn(client: Client, rng: random.Random) -> int:
    """``client``'s seat plays its whole move (every action until it is not to act)."""
    acted = 0
    while client.seat in client.state.get("to_act", ()) and not client.state.get("finished"):
        reply = await client.act(rng.choice(client.state["legal"]))
        assert reply["type"] == "ack", reply
        acted += 1
    return acted


def _seat_clock(info: dict[str, Any], seat: int) -> dict[str, Any]:
    clock = info["clock"]
    assert clock is not None, info
    mine: dict[str, Any] = next(c for c in clock["seats"] if c["seat"] == seat)
    return mine


def _movers(url: str, code: str, pg: bool) -> list[tuple[int, str]]:
    """(seat, by) of every action logged for the room, in order."""
    query = (
        'SELECT a.seat, a."by" FROM actions a JOIN rooms r ON r.id = a.room_id '
        "WHERE r.code = %s ORDER BY a.seq"
    )
    if pg:
        import psycopg

        with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://")) as conn:
            return [(int(s), str(b)) for s, b in conn.execute(query, (code,)).fetchall()]
    path = url[len("sqlite:///") :] if url.startswith("sqlite:///") else url
    path = path.split("sqlite+aiosqlite:///")[-1]
    with sqlite3.connect(path) as conn:
        rows = conn.execute(query.replace("%s", "?"), (code,)).fetchall()
    return [(int(s), str(b)) for s, b in rows]


def test_a_week_of_turn_based_play_with_a_restart_a_late_seat_wait_and_bot(
    db_url: str,
) -> None:
    rng = random.Random(44)
    clock = FakeClock()
    start = clock.now
    server = _server(db_url, clock)
    try:
        created = create_room(server.url, "dice-duel", ["human", "human"], room=TURN_BASED)
        code = created["code"]
        tokens = [claim(server.url, code, s, f"P{s}") for s in (0, 1)]
        info = _info(server, code)
        assert info["status"] == "playing" and info["pace"] == "turn-based"
        lobby_like = info["room_options"]
        assert lobby_like["move_time"] == MOVE_TIME

        async def first_days() -> int:
            clients = [Client(server.url, code, t) for t in tokens]
            for c in clients:
                assert (await c.connect())["type"] == "snapshot"
            first = clients[0].state["to_act"][0]
            mine = _seat_clock(_info(server, code), first)
            # the deadline: the move's time plus the seat's whole bank
            assert mine["deadline"] == pytest.approx(start + MOVE_TIME + BANK, abs=1)
            assert mine["bank"] == BANK and not mine["late"]
            for _day in range(3):  # a move a day, each within its time
                clock.advance(DAY / 2)
                await _settle(clients)
                mover = clients[clients[0].state["to_act"][0]]
                assert await _turn(mover, rng) > 0
                clock.advance(DAY / 2 - 60)
            for c in clients:
                await c.close()
            return int(clients[0].state["to_act"][0])

        late_seat = run(first_days())
        # nobody is connected: the room is let go of (it lives in the database)
        run(_until(lambda: code not in server.hub.rooms, "the idle turn-based room evicted"))
    finally:
        server.__exit__()

    # A restart on the same database: the room is not loaded at the start.
    server = _server(db_url, clock)
    try:
        assert code not in server.hub.rooms
        info = _info(server, code)  # a request loads it again from the log
        assert _seat_clock(info, late_seat)["late"] is False
        other = 1 - late_seat

        async def late_wait_then_bot() -> None:
            # the clock runs out: the move's time and the whole bank, and a minute more
            clock.advance(MOVE_TIME + BANK + 60)
            await _until(
                lambda: _seat_clock(_info(server, code), late_seat)["late"], "the seat late"
            )
            them = Client(server.url, code, tokens[other])
            late = Client(server.url, code, tokens[late_seat])
            watcher = Client(server.url, code)
            for c in (them, late, watcher):
                assert (await c.connect())["type"] == "snapshot"
            assert _seat_clock(them.state["room"], late_seat)["late"] is True
            # refused: from the late seat itself, from a spectator
            own = await late.request({"type": "late", "choice": "bot"})
            assert own["type"] == "error" and own["code"] == "not_late", own
            spectator = await watcher.request({"type": "late", "choice": "bot"})
            assert spectator["type"] == "error" and spectator["code"] == "not_seated"
            # "wait": everyone is told, and the late player may still move
            await them.send({"type": "late", "choice": "wait"})
            for c in (them, late, watcher):
                told = await c.expect("late")
                assert told["choice"]["choice"] == "wait"
                assert told["choice"]["seat"] == late_seat and told["choice"]["by"] == other
            assert await _turn(late, rng) > 0  # late, but the clock kept running
            await _until(
                lambda: _seat_clock(_info(server, code), late_seat)["bank"] == 0,
                "the bank used up",
            )
            # nobody late now: a choice is refused
            nobody = await late.request({"type": "late", "choice": "wait"})
            assert nobody["type"] == "error" and nobody["code"] == "not_late"
            # the other seat's move, two days later: late again; now a bot plays it
            await _settle([them, late])
            assert await _turn(them, rng) > 0
            clock.advance(MOVE_TIME + 60)  # the late seat has no bank left
            await _until(lambda: _seat_clock(_info(server, code), late_seat)["late"], "late again")
            await them.send({"type": "late", "choice": "bot"})
            told = await late.expect("late")
            assert told["choice"]["choice"] == "bot"
            await _until(lambda: _info(server, code)["clock"]["seats"][other]["since"]
                         is not None, "the bot made the late seat's move")  # fmt: skip
            for c in (them, late, watcher):
                await c.close()

        run(late_wait_then_bot())
        by_clock = [seat for seat, by in _movers(db_url, code, "postgresql" in db_url)
                    if by == "clock"]  # fmt: skip
        assert by_clock and set(by_clock) == {late_seat}

        async def to_the_end() -> None:
            clients = [Client(server.url, code, t) for t in tokens]
            for c in clients:
                await c.connect()
            while not clients[0].state.get("finished"):
                clock.advance(DAY / 4)  # a move every six hours, within its time
                await _settle(clients)
                if clients[0].state.get("finished"):
                    break
                mover = clients[clients[0].state["to_act"][0]]
                await _turn(mover, rng)
                await asyncio.sleep(0)
            for c in clients:
                await c.close()

        run(to_the_end())
        info = _info(server, code)
        assert info["status"] == "finished" and info["clock"] is None
        # the record says which moves a bot made when the clock ran out; it replays
        text = httpx.get(f"{server.url}/api/rooms/{code}/record").text
        lines = [json.loads(line) for line in text.splitlines() if line.strip()]
        marked = [r["seat"] for r in lines if r.get("type") == "action" and "by" in r]
        assert marked and set(marked) == {late_seat}
        assert {r["by"] for r in lines if "by" in r and r.get("type") == "action"} == {"clock"}
        assert replay(parse_record(text.splitlines(), "room")).finished
        assert clock.now - start >= 7 * DAY  # a week of play, faked
    finally:
        server.__exit__()


def test_idle_turn_based_rooms_cost_no_room_objects_and_the_lobby_says_the_pace(
    sqlite_url: str,
) -> None:
    clock = FakeClock()
    server = _server(sqlite_url, clock, evict_after=3.0)
    try:
        codes = []
        for i in range(30):
            code = create_room(
                server.url, "dice-duel", ["human", "human"], room=TURN_BASED, public=i == 0
            )["code"]
            for seat in (0, 1):
                claim(server.url, code, seat, f"P{seat}")
            codes.append(code)
        live = create_room(server.url, "dice-duel", ["human", "human"], public=True)["code"]
        listed = {r["code"]: r for r in httpx.get(f"{server.url}/api/rooms").json()}
        assert (listed[codes[0]]["pace"], listed[codes[0]]["move_time"]) == ("turn-based", DAY)
        assert (listed[live]["pace"], listed[live]["move_time"]) == ("live", None)
        held = [server.hub.rooms.get(code) for code in codes]
        assert any(held)  # those just played are still held: no idle timer, no clock timer
        assert not [
            (r.code, list(r.timers._handles)) for r in held if r is not None and r.timers._handles
        ]
        # nobody is connected: every turn-based room being played is let go of
        run(_until(lambda: not set(codes) & set(server.hub.rooms), "every room let go of"))
        clock.advance(DAY)  # within every clock (a day and the bank): the sweep loads none
        time.sleep(0.5)
        assert not set(codes) & set(server.hub.rooms)
        # a live room: nobody is ever late there
        token = claim(server.url, live, 0, "Ann")
        claim(server.url, live, 1, "Bob")

        async def refused() -> None:
            client = Client(server.url, live, token)
            await client.connect()
            answer = await client.request({"type": "late", "choice": "bot"})
            assert answer["type"] == "error" and answer["code"] == "not_late"
            await client.close()

        run(refused())
    finally:
        server.__exit__()
    # a restart loads none of them either
    server = _server(sqlite_url, clock)
    try:
        assert not set(codes) & set(server.hub.rooms)
    finally:
        server.__exit__()
