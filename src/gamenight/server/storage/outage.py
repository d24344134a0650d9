"""Database outages: telling one from a refused request or a bug, and the guard that
turns one into a one-line :class:`StorageUnavailableError` (``RETRY_AFTER``)."""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Awaitable, Callable
from functools import wraps
from typing import ParamSpec, TypeVar

from sqlalchemy import exc as sa_exc

from gamenight.core.errors import StorageUnavailableError
from gamenight.server import metrics

RETRY_AFTER = 2  # seconds a client is told to wait while the database is unavailable


def is_outage(exc: BaseException) -> bool:
    """True if ``exc`` says the database is unreachable or cannot be written right now
    (PostgreSQL down or restarting, a connection killed, SQLite's disk full, I/O error
    or lock), as opposed to a refused request or a bug (a missing table, bad SQL...).
    Looks through SQLAlchemy's wrapper and ``__cause__``.

    >>> is_outage(sqlite3.OperationalError("database or disk is full"))
    True
    >>> is_outage(sqlite3.OperationalError("no such table: rooms"))
    False
    >>> is_outage(ValueError("a bug"))
    False
    """
    # psycopg is the [postgres] extra: an error of it exists only once it is loaded
    psycopg = sys.modules.get("psycopg")
    outages: tuple[type[BaseException], ...] = (
        StorageUnavailableError,
        sa_exc.DisconnectionError,
        sa_exc.TimeoutError,
        OSError,
        *((psycopg.OperationalError, psycopg.InterfaceError) if psycopg is not None else ()),
    )
    current: BaseException | None = exc
    for _ in range(5):
        if current is None:
            return False
        if isinstance(current, sa_exc.DBAPIError):
            if current.connection_invalidated:
                return True
            current = current.orig
            continue
        if isinstance(current, sqlite3.Error):
            code = getattr(current, "sqlite_errorcode", None)
            if code is not None:
                return code & 0xFF in _SQLITE_OUTAGES
            text = str(current).lower()
            return any(word in text for word in _SQLITE_WORDS)
        if isinstance(current, outages):
            return True
        current = current.__cause__
    return False


# SQLite's primary result codes of a database that cannot be written now: BUSY, LOCKED,
# READONLY, IOERR, FULL, CANTOPEN, PROTOCOL (and the words of their messages).
_SQLITE_OUTAGES = frozenset({5, 6, 8, 10, 13, 14, 15})
_SQLITE_WORDS = ("disk", "full", "locked", "busy", "readonly", "i/o", "unable to open")


def outage_reason(exc: BaseException) -> str:
    """One line saying why the database failed (for the log, never for clients)."""
    inner = getattr(exc, "orig", None) or exc
    lines = str(inner).strip().splitlines()
    return f"{type(inner).__name__}: {lines[0] if lines else ''}".rstrip(": ")


_P = ParamSpec("_P")
_R = TypeVar("_R")


def guarded(method: Callable[_P, Awaitable[_R]]) -> Callable[_P, Awaitable[_R]]:
    """A :class:`Store` method whose database outages raise :class:`StorageUnavailableError`
    (one line; the caller refuses the request and nothing is acknowledged)."""

    @wraps(method)
    async def guarded(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            answer = await method(*args, **kwargs)
        except StorageUnavailableError:
            metrics.database_failed(True)
            raise
        except Exception as exc:
            outage = is_outage(exc)
            metrics.database_failed(outage)
            if not outage:
                raise
            if _pool_timeout(exc):  # PostgreSQL is fine: this process has too much waiting
                raise StorageUnavailableError(
                    "the server is busy (no database connection free in time)", RETRY_AFTER
                ) from exc
            raise StorageUnavailableError(
                f"the database is unavailable ({outage_reason(exc)})", RETRY_AFTER
            ) from exc
        metrics.database_ok()
        return answer

    return guarded


def _pool_timeout(exc: BaseException) -> bool:
    """Whether ``exc`` is SQLAlchemy's pool giving up waiting for a free connection."""
    return isinstance(exc, sa_exc.TimeoutError) and not isinstance(exc, sa_exc.DBAPIError)
