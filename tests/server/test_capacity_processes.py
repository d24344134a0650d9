"""Each process holds only the rooms it serves and catches up on the others when asked
(issue 38, item 7 and its minors): one server in this process (its hub is visible), one
in a subprocess, on one PostgreSQL."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import httpx
import pytest
from harness import Client, PgCluster, ProcessServer, ThreadServer, claim, create_room, run

from gamenight.core.errors import StorageUnavailableError
from gamenight.server.rooms import Hub


def _until(check: Any, what: str) -> None:
    for _ in range(400):
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"never: {what}")


async def _play_toy(base: str, code: str, token: str, actions: int | None = None) -> int:
    """Roll, and hold once the pot is 2 or more, until the game ends (or ``actions``)."""
    player = Client(base, code, token)
    assert (await player.connect())["type"] == "snapshot"
    done = 0
    while not player.state["finished"] and (actions is None or done < actions):
        pot = player.state["view"]["pot"]
        action = {"type": "hold"} if pot >= 2 else {"type": "roll"}
        ack = await player.act(action)
        assert ack["type"] == "ack", ack  # its events came first: the state is current
        done += 1
    seq: int = player.state["seq"]
    await player.close()
    return seq


def test_a_process_lets_go_of_a_room_served_elsewhere_and_catches_up_when_asked(
    pg: PgCluster,
) -> None:
    url = pg.new_database()
    other = ProcessServer(url).start()
    try:
        with ThreadServer(url, presence_beat=0.3) as here:
            code = create_room(here.url, "toy", ["human"], options={"target": 50})["code"]
            assert code in here.hub.rooms  # created here
            token = claim(here.url, code, 0, "Elsewhere")

            async def main() -> int:
                player = Client(other.url, code, token)  # served by the other process
                assert (await player.connect())["type"] == "snapshot"
                await asyncio.to_thread(_until, lambda: code not in here.hub.rooms, "let go")
                for _ in range(4):  # its actions do not bring the room back here
                    assert (await player.act({"type": "roll"}))["type"] == "ack"
                seq: int = player.state["seq"]
                await asyncio.sleep(1)  # a notification would have been heard by now
                assert code not in here.hub.rooms
                info = httpx.get(f"{here.url}/api/rooms/{code}").json()  # asked: caught up
                assert info["seq"] == seq and info["seats"][0]["connected"] is True
                await player.close()
                return seq

            run(main())
    finally:
        other.stop()


def test_a_lagging_process_serves_a_finished_games_record(pg: PgCluster) -> None:
    """The process that holds the room but has heard nothing of its end (no
    notification, no resync) answers the record, not 409 ``not_finished``."""
    url = pg.new_database()
    other = ProcessServer(url).start()
    try:
        with ThreadServer(url, resync=3600.0, presence_beat=3600.0) as lagging:
            code = create_room(other.url, "toy", ["human"], options={"target": 2})["code"]
            token = claim(other.url, code, 0, "Pig")
            assert httpx.get(f"{lagging.url}/api/rooms/{code}").json()["status"] == "playing"
            lagging.hub.background.heard = lambda payload: None  # type: ignore[method-assign]
            run(_play_toy(other.url, code, token))
            assert httpx.get(f"{other.url}/api/rooms/{code}").json()["status"] == "finished"
            assert lagging.hub.rooms[code].status.value == "playing"  # it did not hear
            record = httpx.get(f"{lagging.url}/api/rooms/{code}/record")
            assert record.status_code == 200, record.text
            assert record.text.count("\n") >= 3
    finally:
        other.stop()


def test_sync_failures_in_an_outage_share_one_log_line(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """300 rooms whose sync fails at once (the database is down): one warning, with
    the count, not one a room."""

    class Failing:
        def __init__(self, code: str) -> None:
            self.code = code

        async def sync(self, actions_only: bool = False) -> None:
            raise StorageUnavailableError("the database is unavailable (down)")

    async def main() -> None:
        from gamenight.server.config import Config
        from gamenight.server.db import Store, migrate

        migrate(sqlite_url)
        store = Store(sqlite_url)
        hub = Hub(store, Config(db_url=sqlite_url, build_tables=False))
        try:
            with caplog.at_level(logging.WARNING, logger="gamenight.server"):
                for n in range(300):
                    await hub.background.sync_quietly(Failing(f"room{n}"))  # type: ignore[arg-type]
        finally:
            hub.bots.stop()
            await store.close()

    run(main())
    lines = [r for r in caplog.records if "sync of" in r.getMessage()]
    assert len(lines) == 1, [r.getMessage() for r in lines]
