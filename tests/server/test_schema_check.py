"""The start-up schema check: an SQLite file at the newest revision skips Alembic, and
everything else still migrates (issue 29's server start)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from alembic.config import Config
from alembic.script import ScriptDirectory

import gamenight.server.db as db
from gamenight.server.db import SCHEMA_HEAD, migrate, schema_is_current


def test_schema_head_is_alembics_head() -> None:
    config = Config()
    config.set_main_option("script_location", str(Path(db.__file__).parent / "migrations"))
    assert ScriptDirectory.from_config(config).get_current_head() == SCHEMA_HEAD


def test_only_a_database_at_the_head_counts_as_current(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'a.sqlite'}"
    assert not schema_is_current(url)  # no file
    migrate(url)
    assert schema_is_current(url)
    with sqlite3.connect(tmp_path / "a.sqlite") as conn:
        conn.execute("UPDATE alembic_version SET version_num = '0001'")
    assert not schema_is_current(url)  # an older revision: Alembic must run
    (tmp_path / "junk.sqlite").write_bytes(b"not a database at all, just bytes" * 10)
    assert not schema_is_current(f"sqlite:///{tmp_path / 'junk.sqlite'}")
    (tmp_path / "empty.sqlite").touch()
    assert not schema_is_current(f"sqlite:///{tmp_path / 'empty.sqlite'}")
    assert not schema_is_current("sqlite:///:memory:")
    assert not schema_is_current("postgresql://u@localhost/x")  # always Alembic


def test_an_older_database_is_still_migrated(tmp_path: Path) -> None:
    from alembic import command

    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    migrate(url)
    config = Config()
    config.set_main_option("script_location", str(Path(db.__file__).parent / "migrations"))
    config.set_main_option("sqlalchemy.url", url)
    command.downgrade(config, "0001")
    assert not schema_is_current(url)
    migrate(url)
    with sqlite3.connect(tmp_path / "old.sqlite") as conn:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(rooms)")}
        (version,) = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    assert "entropy" in columns and version == SCHEMA_HEAD
    assert schema_is_current(url)


def test_checking_a_current_database_does_not_import_alembic(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'c.sqlite'}"
    migrate(url)
    code = (
        "import sys; from gamenight.server.db import migrate; "
        f"migrate({url!r}); print('alembic' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
