"""``gamenight backup DEST``: a consistent copy of the server's SQLite database, made
while the server runs, with SQLite's online backup API (``sqlite3.Connection.backup``:
page by page, restarting a step when the server writes meanwhile). PostgreSQL is backed
up with ``pg_dump`` (``docs/deploy.md``).

Restoring is copying the file back while the server is stopped (its ``-wal`` and
``-shm`` files removed): the rooms resume from their logs when it starts.
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from gamenight.core.errors import GamenightError
from gamenight.server.dburl import default_url, sqlite_path


class BackupError(GamenightError):
    """The backup cannot be made (one line)."""


def backup(url: str | None, dest: str | Path) -> int:
    """Copy the SQLite database at ``url`` (None: the default one) to ``dest``; returns
    the number of pages copied. ``dest`` must not exist (never overwritten)."""
    path = sqlite_path(url or default_url())
    if path is None:
        raise BackupError("only SQLite databases are backed up here; use pg_dump for PostgreSQL")
    source = Path(path)
    out = Path(dest)
    if not source.is_file():
        raise BackupError(f"there is no database at {source}")
    if out.exists():
        raise BackupError(f"{out} exists; give a new file")
    if not out.parent.is_dir():
        raise BackupError(f"there is no folder {out.parent}")
    try:
        with (
            contextlib.closing(sqlite3.connect(source)) as src,
            contextlib.closing(sqlite3.connect(out)) as dst,
        ):
            src.execute("PRAGMA busy_timeout=5000")
            src.backup(dst, pages=256)  # small steps: the server's writes go on between them
            pages = int(dst.execute("PRAGMA page_count").fetchone()[0])
            check = dst.execute("PRAGMA quick_check(1)").fetchone()[0]
            # the copy is self-contained: no -wal file beside it
            dst.execute("PRAGMA journal_mode=DELETE")
    except sqlite3.Error as exc:
        with contextlib.suppress(OSError):
            out.unlink()
        raise BackupError(f"the backup of {source} failed: {exc}") from None
    if check != "ok":
        out.unlink()
        raise BackupError(f"the copy of {source} does not check: {check}")
    return pages
