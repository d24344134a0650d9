"""Database URLs and the schema's head revision, read without SQLAlchemy: the server
checks an SQLite database before it listens, and a restart at the head revision then
imports neither Alembic nor SQLAlchemy on the way to its first answer (issue 29).

>>> normalise_url("postgres://u@db/g")
'postgresql+psycopg://u@db/g'
>>> sync_url("sqlite:////tmp/x.sqlite3")
'sqlite:////tmp/x.sqlite3'
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

import platformdirs

from gamenight.core.extras import require


def default_url() -> str:
    """SQLite in the user data directory (the embedded default)."""
    folder = Path(platformdirs.user_data_dir("gamenight"))
    return f"sqlite:///{folder / 'server.sqlite3'}"


def normalise_url(url: str) -> str:
    """The async SQLAlchemy URL for a plain ``sqlite:`` or ``postgresql:`` URL."""
    for plain, driver in (
        ("postgresql://", "postgresql+psycopg://"),
        ("postgres://", "postgresql+psycopg://"),
        ("sqlite://", "sqlite+aiosqlite://"),
    ):
        if url.startswith(plain):
            return driver + url[len(plain) :]
    return url


def require_driver(url: str) -> None:
    """PostgreSQL's driver is the [postgres] extra: a PostgreSQL URL without it is
    refused in one line (:class:`~gamenight.core.extras.MissingExtraError`), before
    anything connects; SQLite needs nothing more.

    >>> require_driver("sqlite:////tmp/x.sqlite3")
    """
    if normalise_url(url).startswith("postgresql+psycopg://"):
        require("serve --db postgresql://…", "postgres", "psycopg")


def sync_url(url: str) -> str:
    """The synchronous URL Alembic uses for the same database."""
    return normalise_url(url).replace("sqlite+aiosqlite://", "sqlite://")


def sqlite_path(url: str) -> str | None:
    """The file path of an SQLite URL (its query left out; ``""`` or ``":memory:"`` for
    an in-memory one), None for any other database.

    >>> sqlite_path("sqlite:////srv/g.sqlite3?timeout=5"), sqlite_path("sqlite:///:memory:")
    ('/srv/g.sqlite3', ':memory:')
    >>> sqlite_path("postgresql://u@db/g") is None
    True
    """
    target = sync_url(url)
    if not target.startswith("sqlite:///"):
        return None
    return target[len("sqlite:///") :].split("?", 1)[0]


# The newest migration's revision (migrations/versions): a test checks it is Alembic's
# head, so a new migration without this line updated fails the suite.
SCHEMA_HEAD = "0007"


def schema_is_current(url: str) -> bool:
    """True if ``url`` is an SQLite file already at :data:`SCHEMA_HEAD`, read with the
    standard library: a restart then skips importing Alembic (issue 29's server start).
    Anything else (another database, a missing file, no version table, an older or
    unknown revision, any error) is False, and :func:`migrate` runs Alembic as before."""
    path = sqlite_path(url)
    if not path or path == ":memory:" or not Path(path).is_file():
        return False
    try:
        uri = Path(path).resolve().as_uri() + "?mode=ro"
        with contextlib.closing(sqlite3.connect(uri, uri=True)) as conn:
            rows = conn.execute("SELECT version_num FROM alembic_version").fetchall()
    except sqlite3.Error:
        return False
    return rows == [(SCHEMA_HEAD,)]
