"""Fixtures of the server tests (re-exported by conftest.py): a database of each kind
(SQLite file, PostgreSQL cluster) and a server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from harness import PgCluster, ProcessServer, ThreadServer


@pytest.fixture(scope="session")
def pg() -> Iterator[PgCluster]:
    """One throwaway PostgreSQL cluster per test session (never skipped)."""
    cluster = PgCluster().start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'server.sqlite3'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The same test on SQLite and on PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'server.sqlite3'}"
    cluster: PgCluster = request.getfixturevalue("pg")
    return cluster.new_database()


@pytest.fixture
def server(sqlite_url: str) -> Iterator[ThreadServer]:
    with ThreadServer(sqlite_url) as running:
        yield running


@pytest.fixture
def pg_pair(pg: PgCluster) -> Iterator[tuple[ProcessServer, ProcessServer]]:
    """Two real server processes on one new PostgreSQL database (the tests of "one truth
    across processes")."""
    url = pg.new_database()
    a = ProcessServer(url).start()
    b = ProcessServer(url).start()
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()
