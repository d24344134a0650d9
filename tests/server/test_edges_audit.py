"""Issue 38 items the audit found without a test of their own: the database stopped
(not one connection killed) while a room's log is read, and a pool timeout that is no
outage."""

from __future__ import annotations

from typing import Any

import httpx
import psycopg
import pytest
from harness import Client, PgCluster, ThreadServer, claim, create_room, run
from sqlalchemy import event
from sqlalchemy import exc as sa_exc

from gamenight.core.errors import StorageUnavailableError
from gamenight.server.storage.outage import guarded


async def _roll(base: str, code: str, token: str) -> int:
    player = Client(base, code, token)
    await player.connect()
    answer = await player.act({"type": "roll"})
    if answer.get("code") == "unavailable":  # the log writer's connection died with the
        answer = await player.act({"type": "roll"})  # database: as a client, once more
    assert answer["type"] == "ack", answer
    seq: int = player.state["seq"]
    await player.close()
    return seq


def test_the_database_stopped_while_the_log_is_read_breaks_no_room(pg: PgCluster) -> None:
    """PostgreSQL stops in the middle of a room's load: 503 ``unavailable``, the room is
    neither marked broken in the database nor kept broken in memory, and once the
    database is back the next request opens it and play goes on."""
    url = pg.new_database()
    admin_url = url.replace("postgresql+psycopg://", "postgresql://")
    with ThreadServer(url) as server:
        code = create_room(server.url, "toy", ["human"], options={"target": 50})["code"]
        token = claim(server.url, code, 0, "Pig")
        seq = run(_roll(server.url, code, token))
        hub = server.hub
        armed = {"stop": True}

        def stop_mid_read(conn: Any, cursor: Any, statement: str, *_args: Any) -> None:
            if armed["stop"] and "FROM actions" in statement:
                armed["stop"] = False
                pg.pause()  # every session ends: this statement fails

        engine = hub.store.engine.sync_engine
        event.listen(engine, "before_cursor_execute", stop_mid_read)
        try:
            hub.rooms.pop(code).dispose()  # forgotten here: the next request loads it
            answer = httpx.get(f"{server.url}/api/rooms/{code}", timeout=30)
            assert not armed["stop"], "the log read was reached"
            assert answer.status_code == 503 and answer.json()["code"] == "unavailable"
            assert code not in hub.rooms  # nothing broken kept in memory
        finally:
            event.remove(engine, "before_cursor_execute", stop_mid_read)
            pg.resume()
        with psycopg.connect(admin_url) as admin:
            row = admin.execute("SELECT status FROM rooms WHERE code = %s", (code,)).fetchone()
        assert row is not None and row[0] == "playing"
        info = httpx.get(f"{server.url}/api/rooms/{code}", timeout=30).json()
        assert info["status"] == "playing" and info["seq"] == seq
        assert run(_roll(server.url, code, token)) == seq + 1


async def _pool_gives_up() -> None:
    raise sa_exc.TimeoutError("QueuePool limit of size 10 overflow 10 reached")


async def _database_gone() -> None:
    raise OSError("connection refused")


def test_a_pool_timeout_says_busy_not_that_the_database_is_unavailable() -> None:
    """Issue 38: timeouts waiting for a free pooled connection were logged as "the
    database is unavailable" while PostgreSQL was fine."""
    with pytest.raises(StorageUnavailableError, match="busy") as busy:
        run(guarded(_pool_gives_up)())
    assert "unavailable" not in str(busy.value)
    with pytest.raises(StorageUnavailableError, match="the database is unavailable"):
        run(guarded(_database_gone)())
