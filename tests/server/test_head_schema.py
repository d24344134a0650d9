"""A new database is created at the head schema in one step (issue 46's server start,
``server/headschema.py``), and that schema is the migrations' own: a database created so
and one migrated 0001…head by Alembic are the same, table by table, on SQLite and on
PostgreSQL, so the two ways cannot drift apart."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from harness import PgCluster
from sqlalchemy import create_engine, inspect

from gamenight.server import headschema
from gamenight.server.dburl import SCHEMA_HEAD, schema_is_current, sync_url
from gamenight.server.storage.schema import migrate as alembic_upgrade


def _schema(url: str) -> dict[str, Any]:
    """Every table's columns (type, null, default), primary key, foreign keys, indexes,
    unique and check constraints, by name (the columns' order is not compared: a
    migration adds a column at the end, the tables declare it where it belongs)."""
    engine = create_engine(sync_url(url))
    try:
        with engine.connect() as conn:
            seen = inspect(conn)
            out: dict[str, Any] = {}
            for table in sorted(seen.get_table_names()):
                columns = {
                    c["name"]: (str(c["type"]), c["nullable"], c["default"])
                    for c in seen.get_columns(table)
                }
                key = seen.get_pk_constraint(table)
                foreign = sorted(
                    (
                        str(fk["name"]),
                        tuple(fk["constrained_columns"]),
                        fk["referred_table"],
                        tuple(fk["referred_columns"]),
                        fk["options"].get("ondelete"),
                    )
                    for fk in seen.get_foreign_keys(table)
                )
                indexes = sorted(
                    (str(ix["name"]), tuple(map(str, ix["column_names"])), bool(ix["unique"]))
                    for ix in seen.get_indexes(table)
                )
                unique = sorted(
                    (str(u["name"]), tuple(u["column_names"]))
                    for u in seen.get_unique_constraints(table)
                )
                checks = sorted(
                    (str(c["name"]), c["sqltext"]) for c in seen.get_check_constraints(table)
                )
                out[table] = {
                    "columns": columns,
                    "primary key": (key.get("name"), tuple(key["constrained_columns"])),
                    "foreign keys": foreign,
                    "indexes": indexes,
                    "unique": unique,
                    "checks": checks,
                }
            out["version"] = conn.exec_driver_sql("SELECT version_num FROM alembic_version").all()
            return out
    finally:
        engine.dispose()


def test_the_stored_sqlite_schema_is_the_tables_own() -> None:
    """SQLITE_HEAD is what the tables compile to: a table changed without writing it
    again (``python -m gamenight.server.headschema``) fails here."""
    assert headschema.head_statements("sqlite") == headschema.SQLITE_HEAD


def test_a_new_sqlite_database_is_created_as_the_migrations_make_it(tmp_path: Path) -> None:
    created, migrated = (f"sqlite:///{tmp_path / name}.sqlite3" for name in ("new", "old"))
    assert headschema.create_sqlite_head(created)  # the one step, not Alembic
    alembic_upgrade(migrated)
    assert schema_is_current(created)
    made, upgraded = _schema(created), _schema(migrated)
    assert set(made) == set(upgraded) and len(made) > 10
    for table in made:
        assert made[table] == upgraded[table], table
    assert made["version"] == [(SCHEMA_HEAD,)]


def test_a_new_postgres_database_is_created_as_the_migrations_make_it(pg: PgCluster) -> None:
    created, migrated = pg.new_database(), pg.new_database()
    assert headschema._create_postgres_head(sync_url(created))  # the one step
    alembic_upgrade(migrated)
    made, upgraded = _schema(created), _schema(migrated)
    assert set(made) == set(upgraded) and len(made) > 10
    for table in made:
        assert made[table] == upgraded[table], table
    assert made["version"] == [(SCHEMA_HEAD,)]
    headschema.migrate(created)  # a second start: nothing more to do
    assert _schema(created) == made


def test_two_starts_on_one_new_postgres_database_create_it_once(pg: PgCluster) -> None:
    url = pg.new_database()
    errors: list[BaseException] = []

    def start() -> None:
        try:
            headschema.migrate(url)
        except BaseException as exc:  # pragma: no cover - the failure is the assertion
            errors.append(exc)

    threads = [threading.Thread(target=start) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert errors == []
    assert _schema(url)["version"] == [(SCHEMA_HEAD,)]


def test_two_starts_on_one_new_sqlite_file_create_it_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    created: list[bool] = []
    threads = [
        threading.Thread(target=lambda: created.append(headschema.create_sqlite_head(url)))
        for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(created) == [False, False, False, True]
    assert schema_is_current(url)


def test_an_empty_file_is_a_new_database_and_one_with_tables_is_left_to_alembic(
    tmp_path: Path,
) -> None:
    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    assert headschema.create_sqlite_head(f"sqlite:///{empty}")
    assert schema_is_current(f"sqlite:///{empty}")
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE rooms (id INTEGER PRIMARY KEY)")
    assert not headschema.create_sqlite_head(f"sqlite:///{other}")
    with sqlite3.connect(other) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master")]
    assert tables == ["rooms"]  # untouched
    assert not headschema.create_sqlite_head("sqlite:///:memory:")
    assert not headschema.create_sqlite_head("postgresql://u@localhost/x")


def test_creating_a_new_sqlite_database_imports_neither_sqlalchemy_nor_alembic(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'sub' / 'new.sqlite3'}"  # its folder is made too
    code = (
        "import sys; from gamenight.server.dburl import schema_is_current; "
        "from gamenight.server.headschema import migrate; "
        f"migrate({url!r}); print(schema_is_current({url!r}), "
        "sorted({m.split('.')[0] for m in sys.modules} & {'sqlalchemy', 'alembic'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True []", out.stderr


@pytest.mark.parametrize("revision", ["0001", "0004"])
def test_an_older_database_is_still_upgraded_by_alembic(tmp_path: Path, revision: str) -> None:
    """A database at an older revision is not new: it is migrated, and ends equal to
    one created at the head."""
    from alembic import command
    from alembic.config import Config

    import gamenight.server.db as db

    old, new = (f"sqlite:///{tmp_path / name}.sqlite3" for name in ("old", "new"))
    config = Config()
    config.set_main_option("script_location", str(Path(db.__file__).parent / "migrations"))
    config.set_main_option("sqlalchemy.url", old)
    command.upgrade(config, revision)
    assert not headschema.create_sqlite_head(old)
    headschema.migrate(old)
    headschema.migrate(new)
    assert _schema(old) == _schema(new)
