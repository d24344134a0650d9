"""What a served process does before it listens (issue 46's server start): it imports
the app, its routes and ``serve``'s checks, but not the storage's libraries (SQLAlchemy,
Alembic, the database drivers), which load behind the listener with the rooms; and it
does not build the OpenAPI document, which is made when first asked for."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from harness import ThreadServer

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


def test_the_openapi_document_is_built_when_first_asked_for(
    monkeypatch: pytest.MonkeyPatch, sqlite_url: str
) -> None:
    from litestar._openapi.plugin import OpenAPIPlugin

    builds: list[int] = []
    real = OpenAPIPlugin._build_openapi

    def counted(self: Any) -> Any:
        builds.append(1)
        return real(self)

    monkeypatch.setattr(OpenAPIPlugin, "_build_openapi", counted)
    with ThreadServer(sqlite_url) as server:
        assert builds == []  # not at the start
        document = httpx.get(server.url + "/schema/openapi.json").json()
        assert builds == [1]
        # still tightened: closed bodies, the languages of ?lang=
        assert document["components"]["schemas"]["Claim"]["additionalProperties"] is False
        rules = document["paths"]["/api/games/{game}/rules"]["get"]["parameters"]
        assert next(p for p in rules if p["name"] == "lang")["schema"]["enum"] == ["en", "de", "pl"]
        assert httpx.get(server.url + "/schema/openapi.json").json() == document
        assert builds == [1]  # made once
