"""What a served process imports before it listens (issue 46's server start): the app,
its routes and ``serve``'s checks, but not the storage's libraries (SQLAlchemy, Alembic,
the database drivers), which load behind the listener with the rooms."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

STORAGE = ("sqlalchemy", "alembic", "aiosqlite", "psycopg")

PROBE = """
import sys
from gamenight.server.config import Config
from gamenight.server.serve import check_database_file, reach_database
from gamenight.server.app import create_app
import uvicorn
url = sys.argv[1]
lock = check_database_file(url)
reach_database(url, 0.0)
create_app(Config(db_url=url, build_tables=False))
print(" ".join(sorted({m.split(".")[0] for m in sys.modules} & set(sys.argv[2:]))))
"""


def _imported_before_listening(url: str) -> str:
    argv = [sys.executable, "-c", PROBE, url, *STORAGE]
    done = subprocess.run(argv, capture_output=True, text=True, check=True, timeout=120)
    return done.stdout.strip()


def test_a_restart_listens_without_importing_the_storage(tmp_path: Path) -> None:
    from gamenight.server.db import migrate

    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    migrate(url)
    assert _imported_before_listening(url) == ""


def test_a_new_database_is_created_and_listened_on_without_importing_the_storage(
    tmp_path: Path,
) -> None:
    from gamenight.server.dburl import schema_is_current

    url = f"sqlite:///{tmp_path / 'new.sqlite3'}"
    assert _imported_before_listening(url) == ""
    assert schema_is_current(url)  # the schema was ready before the app was made
