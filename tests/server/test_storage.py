"""The store on SQLite and PostgreSQL: the same tests, the same code."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import httpx
import pytest
from harness import Client, ThreadServer, claim, create_room, run

from gamenight.server.db import METADATA, Behind, Store, migrate, token_hash


def test_store_round_trip(db_url: str) -> None:
    migrate(db_url)
    migrate(db_url)  # idempotent

    async def main() -> None:
        store = Store(db_url)
        try:
            room_id = await store.create_room(
                code="abc",
                game="dice-duel",
                options={"mode": "multi"},
                room_options={"hints": False},
                public=True,
                seed=2**127 + 5,
                commitment="c" * 64,
                entropy="players-v1",
                host_token_hash=token_hash("host"),
                seats=[("human", ""), ("bot", "random")],
            )
            row = await store.load_room("abc")
            assert row is not None and row.seed == 2**127 + 5 and row.status == "waiting"
            assert [s.kind for s in row.seats] == ["human", "bot"]
            assert await store.claim_seat(room_id, 0, "<b>Ann</b>", token_hash("t"))
            assert not await store.claim_seat(room_id, 0, "Bob", token_hash("u"))  # taken
            with pytest.raises(Behind):  # not playing yet
                await store.append_action(room_id, 1, 0, {"type": "roll"}, "human")
            assert await store.start_room(room_id, {})
            assert not await store.start_room(room_id, {})
            await store.append_action(room_id, 1, 0, {"type": "roll"}, "human")
            with pytest.raises(Behind):
                await store.append_action(room_id, 1, 1, {"type": "roll"}, "bot")
            await store.append_action(room_id, 2, 1, {"type": "x", "n": [1, 2]}, "bot")
            rows = await store.actions_after(room_id, 0)
            assert [(r.seq, r.seat, r.action, r.by) for r in rows] == [
                (1, 0, {"type": "roll"}, "human"),
                (2, 1, {"type": "x", "n": [1, 2]}, "bot"),
            ]
            await store.append_action(
                room_id, 3, 0, {"type": "y"}, "human", finished_results={"a": 1}
            )
            row = await store.load_room("abc")
            assert row is not None and row.status == "finished" and row.results == {"a": 1}
            line = await store.add_chat(room_id, 0, "<b>Ann</b>", "<script>x</script>")
            assert [c.text for c in await store.chat_after(room_id, 0)] == ["<script>x</script>"]
            assert await store.chat_after(room_id, line.id) == []
            assert await store.public_rooms() == []  # finished rooms leave the lobby
        finally:
            await store.close()

    run(main())


def test_a_full_game_on_each_database(db_url: str) -> None:
    with ThreadServer(db_url) as server:
        code = create_room(server.url, "wurfeltod", ["human", "bot:greedy"])["code"]
        token = claim(server.url, code, 0, "Ann")

        async def main() -> None:
            c = Client(server.url, code, token)
            await c.connect()
            await c.play_randomly(random.Random(3))
            await c.close()

        run(main())
        info = httpx.get(f"{server.url}/api/rooms/{code}").json()
        assert info["status"] == "finished" and info["seed"]
    with ThreadServer(db_url) as again:  # restored from the database alone
        assert httpx.get(f"{again.url}/api/rooms/{code}").json()["seq"] == info["seq"]
        assert httpx.get(f"{again.url}/api/rooms/{code}/record").status_code == 200


def test_concurrent_appends_take_one_seq_each(db_url: str) -> None:
    migrate(db_url)

    async def main() -> None:
        store = Store(db_url)
        try:
            room_id = await store.create_room(
                code="race",
                game="dice-duel",
                options={},
                room_options={},
                public=False,
                seed=1,
                commitment="c",
                entropy="players-v1",
                host_token_hash="h",
                seats=[("bot", "random")] * 2,
            )
            await store.start_room(room_id, {})

            async def writer(seat: int) -> int:
                won = 0
                for seq in range(1, 21):
                    try:
                        await store.append_action(room_id, seq, seat, {"seat": seat}, "bot")
                        won += 1
                    except Behind:
                        pass
                return won

            wins = await asyncio.gather(writer(0), writer(1))
            assert sum(wins) == 20
            assert [r.seq for r in await store.actions_after(room_id, 0)] == list(range(1, 21))
        finally:
            await store.close()

    run(main())


def test_the_migrations_create_exactly_the_tables_the_store_declares(tmp_path: Path) -> None:
    """db.METADATA (Core tables) and the Alembic migrations describe one schema: no
    autogenerate difference after ``upgrade head``."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from sqlalchemy import create_engine

    url = f"sqlite:///{tmp_path / 'schema.sqlite3'}"
    migrate(url)
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), METADATA)
    finally:
        engine.dispose()
    assert diff == []


def test_a_typed_append_round_trip_through_the_group_commit(db_url: str) -> None:
    """The writers take AppendRequests and say True (logged) or False (the room moved
    on) for each, in one batch; the store reads back typed rows."""
    from gamenight.server.db import AppendRequest
    from gamenight.server.lifecycle import Lifecycle

    migrate(db_url)

    async def main() -> None:
        store = Store(db_url)
        try:
            ids = []
            for code in ("ta1", "ta2"):
                room_id = await store.create_room(
                    code=code,
                    game="dice-duel",
                    options={},
                    room_options={},
                    public=False,
                    seed=1,
                    commitment="c" * 64,
                    entropy="players-v1",
                    host_token_hash=token_hash("h"),
                    seats=[("human", "")],
                )
                assert await store.start_room(room_id, {})
                ids.append(room_id)
            a, b = ids
            requests = [
                AppendRequest(a, 1, 0, '{"type":"roll"}', "human", 1.0),
                AppendRequest(a, 1, 0, '{"type":"again"}', "bot", 1.0),  # seq taken
                AppendRequest(b, 2, 0, '{"type":"gap"}', "human", 1.0),  # not the next seq
                AppendRequest(b, 1, 0, '{"type":"end"}', "human", 2.0, results='{"w":[0]}'),
            ]
            outcomes = await asyncio.gather(*(store._log.append(r) for r in requests))
            assert outcomes == [True, False, False, True]
            [logged] = await store.actions_after(a, 0)
            assert (logged.seq, logged.seat, logged.action, logged.by) == (
                1,
                0,
                {"type": "roll"},
                "human",
            )
            row = await store.load_room("ta2")
            assert row is not None and row.status is Lifecycle.FINISHED
            assert row.results == {"w": [0]} and row.seq == 1
            open_rooms = await store.open_rooms()
            assert open_rooms["ta1"].seq == 1 and open_rooms["ta1"].status == "playing"
            assert "ta2" not in open_rooms
            with pytest.raises(ValueError):
                await store.set_status(a, "paused")  # not a Lifecycle value
        finally:
            await store.close()

    run(main())
