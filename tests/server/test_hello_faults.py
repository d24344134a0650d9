"""The answer to ``hello`` under faults (issue 21, faults 3 and 4): a hello that fails on
the database leaves no phantom connection and gets an error frame; and a client sees
its snapshot first, then only later seqs, even while a bot moves during the hello."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from harness import Client, PgCluster, ThreadServer, claim, create_room, run
from sqlalchemy.exc import OperationalError

from gamenight.server.bots import BotSeats


def _seat_connected(server: ThreadServer, code: str, seat: int) -> bool:
    connected: bool = httpx.get(f"{server.url}/api/rooms/{code}").json()["seats"][seat]["connected"]
    return connected


async def _refused_hello(
    server: ThreadServer, code: str, token: str, error: str, close: int
) -> None:
    client = Client(server.url, code, token)
    answer = await client.connect()
    assert answer["type"] == "error" and answer["code"] == error, answer
    assert "\n" not in answer["message"]
    await asyncio.wait_for(client.closed.wait(), 30)
    assert client.ws.close_code == close
    assert [f["type"] for f in client.frames] == ["error"]


def test_a_hello_that_fails_on_the_database_leaves_no_phantom(
    server: ThreadServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = create_room(server.url, "dice-duel", ["human", "human"])["code"]
    tokens = [claim(server.url, code, seat, f"P{seat}") for seat in (0, 1)]
    store = server.hub.store
    real = store.set_away

    async def down(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("UPDATE seats", {}, Exception("the database is down"))

    monkeypatch.setattr(store, "set_away", down)  # raw, not the Store's outage error: a bug
    run(_refused_hello(server, code, tokens[0], "internal", 1011))
    room = server.hub.rooms[code]
    assert room.conns == set()
    assert not _seat_connected(server, code, 0)  # no phantom to hold off a takeover
    monkeypatch.setattr(store, "set_away", real)

    async def again() -> None:
        client = Client(server.url, code, tokens[0])
        assert (await client.connect())["type"] == "snapshot"
        assert _seat_connected(server, code, 0)
        await client.close()

    run(again())


def test_a_hello_while_postgresql_is_down_gets_an_error_and_no_phantom() -> None:
    cluster = PgCluster().start()
    try:
        with ThreadServer(cluster.new_database()) as server:
            code = create_room(server.url, "dice-duel", ["human", "human"])["code"]
            tokens = [claim(server.url, code, seat, f"P{seat}") for seat in (0, 1)]
            cluster._run("pg_ctl", "-D", str(cluster.data), "-m", "fast", "-w", "stop")
            # a real outage: `unavailable` and "try again later", as for every request
            run(_refused_hello(server, code, tokens[1], "unavailable", 1013))
            assert server.hub.rooms[code].conns == set()
            assert not _seat_connected(server, code, 1)
    finally:
        cluster.stop()


def test_the_snapshot_comes_first_and_no_events_frame_repeats_it(
    server: ThreadServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bots (bot_pace 0) move only while a hello waits on the database, so every hello
    races a commit, with no timing assumed: the client's first frame is the snapshot
    (the commit in it), and no frame after it repeats a seq."""
    hello_waiting = asyncio.Event()
    moved = asyncio.Event()
    real_move = BotSeats.move

    async def gated_move(self: BotSeats, room: Any, seat: int, by: str) -> None:
        await hello_waiting.wait()
        hello_waiting.clear()
        await real_move(self, room, seat, by)
        moved.set()

    monkeypatch.setattr(BotSeats, "move", gated_move)
    code = create_room(server.url, "decathlon", ["bot:random", "bot:random"], room={"bot_pace": 0})[
        "code"
    ]
    store = server.hub.store
    real_chat = store.chat_after

    async def racing_chat_after(*args: Any, **kwargs: Any) -> Any:
        moved.clear()
        hello_waiting.set()
        await moved.wait()  # a bot committed while this hello waited
        return await real_chat(*args, **kwargs)

    monkeypatch.setattr(store, "chat_after", racing_chat_after)

    async def main() -> None:
        watcher = Client(server.url, code)  # stays: sees the later moves as events
        await watcher.connect()
        seqs = []
        for _ in range(8):
            client = Client(server.url, code)
            first = await client.connect()
            assert client.frames[0]["type"] == "snapshot", client.frames[:3]
            seqs.append(first["seq"])
            await watcher.expect("events")
            await client.close()
            assert [
                f for f in client.frames if f["type"] == "events" and f["seq"] <= first["seq"]
            ] == []
        assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)  # each raced a commit
        assert watcher.frames[0]["type"] == "snapshot"
        start = watcher.frames[0]["seq"]
        later = [f["seq"] for f in watcher.frames if f["type"] == "events"]
        assert later and all(seq > start for seq in later)
        assert later == sorted(set(later))
        await watcher.close()

    run(main())
