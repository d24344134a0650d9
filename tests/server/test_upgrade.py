"""Upgrades (issue 39): a database of every earlier schema revision, made by the code of
that time (tests/server/upgrade/make_fixtures.py says how), is migrated by a server start
and its rooms resume mid-game: the same seq, the same seats' tokens, then played to the
end. On SQLite (the fixture as it was written) and on PostgreSQL (the same rows put in a
database created at the old revision by its own migration)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from harness import Client, PgCluster, run
from served import Served

from gamenight.server.dburl import SCHEMA_HEAD, sync_url

FIXTURES = Path(__file__).resolve().parent / "upgrade"
REVISIONS = sorted(p.stem for p in FIXTURES.glob("*.sql"))
TABLES = ("rooms", "seats", "actions", "chat")  # in the order of their foreign keys


def test_every_earlier_revision_has_a_fixture() -> None:
    versions = Path(__file__).resolve().parents[2] / "src/gamenight/server/migrations/versions"
    earlier = sorted(p.name[:4] for p in versions.glob("0*.py") if p.name[:4] != SCHEMA_HEAD)
    assert earlier == REVISIONS, "make one with tests/server/upgrade/make_fixtures.py"


def _sqlite_fixture(revision: str, path: Path) -> None:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.executescript((FIXTURES / f"{revision}.sql").read_text(encoding="utf-8"))


def _pg_fixture(revision: str, url: str, tmp_path: Path) -> None:
    """The schema of ``revision`` by its own migration, then the fixture's rows."""
    import psycopg
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option(
        "script_location",
        str(Path(__file__).resolve().parents[2] / "src/gamenight/server/migrations"),
    )
    config.set_main_option("sqlalchemy.url", sync_url(url))
    command.upgrade(config, revision)
    source = tmp_path / "source.sqlite3"
    _sqlite_fixture(revision, source)
    with contextlib.closing(sqlite3.connect(source)) as lite, psycopg.connect(url) as pg:
        for table in TABLES:
            cursor = lite.execute(f"SELECT * FROM {table}")
            names = [d[0] for d in cursor.description]
            for row in cursor.fetchall():
                values = [bool(v) if n == "public" else v for n, v in zip(names, row, strict=True)]
                columns = ", ".join(f'"{n}"' for n in names)
                marks = ", ".join(["%s"] * len(names))
                pg.execute(f"INSERT INTO {table} ({columns}) VALUES ({marks})", values)
            if "id" in names:
                pg.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"(SELECT coalesce(max(id), 1) FROM {table}))"
                )


async def _resume_and_finish(url: str, rooms: list[dict[str, Any]]) -> None:
    for room in rooms:
        clients = [Client(url, room["code"], token) for token in room["tokens"]]
        for client in clients:
            snapshot = await client.connect()
            assert snapshot["type"] == "snapshot", snapshot
            assert snapshot["seq"] == room["seq"], (room, snapshot["seq"])  # nothing lost
            assert not snapshot.get("finished")
        await asyncio.gather(*(c.play_randomly(random.Random(5)) for c in clients))
        assert all(c.state["finished"] for c in clients)
        for client in clients:
            await client.close()


@pytest.mark.parametrize("revision", REVISIONS)
@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_database_of_an_earlier_revision_migrates_and_its_rooms_resume(
    revision: str, kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    made = json.loads((FIXTURES / f"{revision}.json").read_text())
    if kind == "sqlite":
        path = tmp_path / "old.sqlite3"
        _sqlite_fixture(revision, path)
        url = f"sqlite:///{path}"
    else:
        cluster: PgCluster = request.getfixturevalue("pg")
        url = cluster.new_database()
        _pg_fixture(revision, url, tmp_path)
    with Served(["--port", "0", "--db", url]) as server:
        run(_resume_and_finish(server.url, made["rooms"]))
    if kind == "sqlite":
        with contextlib.closing(sqlite3.connect(tmp_path / "old.sqlite3")) as conn:
            assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [
                (SCHEMA_HEAD,)
            ]
