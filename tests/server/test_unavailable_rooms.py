"""Rooms are never destroyed by the environment (issue 38, item 5): a room that cannot be
opened now (its plug-in uninstalled, the database failing during its load) is answered
``room_unavailable`` or ``unavailable``, never written ``broken``, and comes back when
the cause is gone."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import psycopg
import websockets
from harness import Client, PgCluster, ProcessServer, ThreadServer, claim, create_room, run
from sqlalchemy import event

from gamenight.core import seeds

ROLL = {"type": "roll"}


def _without_toy() -> dict[str, str]:
    """This process's environment with the toy plug-in's paths off PYTHONPATH: a
    server started with it has the toy uninstalled (tests/conftest.py registers it)."""
    paths = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    kept = [p for p in paths if p and "plugins" not in Path(p).parts]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(kept)}


def _status(path: Path, code: str) -> str:
    with sqlite3.connect(path) as db:
        row = db.execute("SELECT status FROM rooms WHERE code = ?", (code,)).fetchone()
    return str(row[0])


async def _roll(base: str, code: str, token: str, times: int) -> dict[str, Any]:
    player = Client(base, code, token)
    snapshot = await player.connect()
    assert snapshot["type"] == "snapshot", snapshot
    for _ in range(times):
        ack = await player.act(ROLL)
        assert ack["type"] == "ack", ack
    state = player.state
    await player.close()
    return state


async def _socket_refused(base: str, code: str) -> tuple[dict[str, Any], int | None]:
    """The first frame and the close code of a socket to room ``code`` (the room is
    looked up before the hello, as for a room that does not exist)."""
    async with websockets.connect(base.replace("http://", "ws://") + f"/ws/{code}") as ws:
        frame = json.loads(await ws.recv())
        with contextlib.suppress(websockets.ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 10)
        return frame, ws.close_code


def test_a_toy_room_survives_its_plug_in_uninstalled_and_resumes(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    url = f"sqlite:///{path}"
    first = ProcessServer(url).start()
    try:
        code = create_room(first.url, "toy", ["human"], options={"target": 50})["code"]
        token = claim(first.url, code, 0, "Pig")
        before = run(_roll(first.url, code, token, 3))
        assert before["seq"] >= 3 and not before["finished"]
    finally:
        first.stop()

    uninstalled = ProcessServer(url, env=_without_toy()).start()
    try:
        games = httpx.get(f"{uninstalled.url}/api/games").json()
        assert "toy" not in {g["id"] for g in games}  # really uninstalled
        answer = httpx.get(f"{uninstalled.url}/api/rooms/{code}")
        assert answer.status_code == 503, answer.text
        body = answer.json()
        assert body["code"] == "room_unavailable" and "'toy' is not installed" in body["message"]
        frame, close = run(_socket_refused(uninstalled.url, code))
        assert frame["code"] == "room_unavailable" and close == 1013
        record = httpx.get(f"{uninstalled.url}/api/rooms/{code}/record")
        assert record.status_code == 503
        lobby = httpx.get(f"{uninstalled.url}/api/rooms")
        assert lobby.status_code == 200
        assert "Traceback" not in uninstalled.log_text()
    finally:
        uninstalled.stop()
    assert _status(path, code) == "playing"  # never written broken

    again = ProcessServer(url).start()
    try:
        info = httpx.get(f"{again.url}/api/rooms/{code}").json()
        assert info["status"] == "playing" and info["seq"] == before["seq"]
        after = run(_roll(again.url, code, token, 2))  # the game goes on where it was
        assert after["seq"] >= before["seq"] + 2
    finally:
        again.stop()


def test_a_connection_killed_while_the_log_is_read_breaks_no_room(pg: PgCluster) -> None:
    """The database connection reading a room's action log is terminated
    (pg_terminate_backend) in the middle of the load: the request is answered
    ``unavailable``, the room is not marked broken, and the next request opens it."""
    url = pg.new_database()
    admin_url = url.replace("postgresql+psycopg://", "postgresql://")
    with ThreadServer(url) as server:
        code = create_room(server.url, "toy", ["human"], options={"target": 50})["code"]
        token = claim(server.url, code, 0, "Pig")
        before = run(_roll(server.url, code, token, 3))
        hub = server.hub
        armed = {"kill": True}

        def kill_mid_read(conn: Any, cursor: Any, statement: str, *_args: Any) -> None:
            if armed["kill"] and "FROM actions" in statement:
                armed["kill"] = False
                pid = conn.connection.driver_connection.info.backend_pid
                with psycopg.connect(admin_url, autocommit=True) as admin:
                    admin.execute("SELECT pg_terminate_backend(%s, 5000)", (pid,))

        engine = hub.store.engine.sync_engine
        event.listen(engine, "before_cursor_execute", kill_mid_read)
        try:
            room = hub.rooms.pop(code)  # this process forgets it: the next request loads it
            room.dispose()
            answer = httpx.get(f"{server.url}/api/rooms/{code}")
            assert not armed["kill"], "the log read was reached"
            assert answer.status_code == 503 and answer.json()["code"] == "unavailable"
        finally:
            event.remove(engine, "before_cursor_execute", kill_mid_read)
        with psycopg.connect(admin_url) as admin:
            row = admin.execute("SELECT status FROM rooms WHERE code = %s", (code,)).fetchone()
        assert row is not None and row[0] == "playing"
        info = httpx.get(f"{server.url}/api/rooms/{code}").json()
        assert info["status"] == "playing" and info["seq"] == before["seq"]
        after = run(_roll(server.url, code, token, 1))
        assert after["seq"] > before["seq"]


def test_a_room_begun_under_rules_not_installed_is_unavailable_not_broken(
    tmp_path: Path,
) -> None:
    """A room whose commitment binds a rules version the installed game does not keep
    (the plug-in was downgraded) and whose log then does not replay: unavailable with
    that reason, still ``playing`` in the database."""
    path = tmp_path / "server.sqlite3"
    url = f"sqlite:///{path}"
    server = ProcessServer(url).start()
    try:
        code = create_room(server.url, "toy", ["human"], options={"target": 50})["code"]
        token = claim(server.url, code, 0, "Pig")
        seq = run(_roll(server.url, code, token, 2))["seq"]
    finally:
        server.stop()
    with sqlite3.connect(path) as db:
        room_id, seed, options, entropy = db.execute(
            "SELECT id, seed, options, entropy FROM rooms WHERE code = ?", (code,)
        ).fetchone()
        newer = seeds.commitment(int(seed), "toy", "99", json.loads(options), entropy=entropy)
        db.execute(
            "UPDATE rooms SET commitment = ?, seq = ? WHERE code = ?", (newer, seq + 1, code)
        )
        db.execute(  # an action of rules version 99, which version 1 cannot read
            "INSERT INTO actions (room_id, seq, seat, action, by, at)"
            " VALUES (?, ?, 0, ?, 'human', 0)",
            (room_id, seq + 1, '{"type": "double"}'),
        )
    server = ProcessServer(url).start()
    try:
        answer = httpx.get(f"{server.url}/api/rooms/{code}")
        assert answer.status_code == 503 and answer.json()["code"] == "room_unavailable"
        assert "rules version" in answer.json()["message"]
    finally:
        server.stop()
    assert _status(path, code) == "playing"
