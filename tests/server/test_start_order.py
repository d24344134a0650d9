"""The server answers as soon as it listens; the storage and the rooms come up behind it
(issue 29's start, ``server.app.create_app``): the pages do not wait for them, every
request that needs them does, and a storage that cannot come up is refused as an outage
(a served process then stops with status 3 and one line)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from harness import ThreadServer, create_room

from gamenight.server import app as app_module
from gamenight.server.db import migrate
from gamenight.server.testing import free_port

DEADLINE = 120


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """The storage's start waits for this event to be set (in its thread)."""
    release = threading.Event()
    real = app_module._storage

    def slow(config: Any) -> Any:
        assert release.wait(DEADLINE), "never released"
        return real(config)

    monkeypatch.setattr(app_module, "_storage", slow)
    return release


def _listening(server: ThreadServer) -> None:
    """Start ``server`` without waiting for its rooms (ThreadServer waits for them)."""
    server.thread.start()
    while not server.server.started:
        assert server.thread.is_alive(), "the server did not start"
        server.thread.join(0.02)


def test_pages_answer_before_the_rooms_are_up_and_the_api_waits(
    tmp_path: Path, held: threading.Event
) -> None:
    server = ThreadServer(f"sqlite:///{tmp_path / 'db.sqlite3'}")
    _listening(server)
    try:
        lobby = httpx.get(f"{server.url}/", timeout=DEADLINE)
        assert lobby.status_code == 200 and "<html" in lobby.text.lower()
        assert httpx.get(f"{server.url}/static/css/app.css", timeout=DEADLINE).status_code == 200
        assert not server.app.state.up.is_set()  # the rooms were not up for those answers
        answers: list[httpx.Response] = []
        waiting = threading.Thread(
            target=lambda: answers.append(httpx.get(f"{server.url}/api/rooms", timeout=DEADLINE))
        )
        waiting.start()
        waiting.join(0.3)
        assert waiting.is_alive() and not answers  # the lobby's rooms wait for the rooms
        held.set()
        waiting.join(DEADLINE)
        assert answers and answers[0].status_code == 200 and answers[0].json() == []
        code = create_room(server.url, "dice-duel", ["human", "human"])["code"]
        assert httpx.get(f"{server.url}/api/rooms/{code}").json()["code"] == code
    finally:
        held.set()
        server.__exit__()


def _damaged(tmp_path: Path) -> Path:
    """An SQLite database at the head revision, without its tables."""
    db = tmp_path / "db.sqlite3"
    migrate(f"sqlite:///{db}")
    with sqlite3.connect(db) as conn:
        for table in ("actions", "seats", "rooms"):
            conn.execute(f"DROP TABLE {table}")
    return db


def test_a_storage_that_cannot_start_is_refused_as_an_outage(tmp_path: Path) -> None:
    db = _damaged(tmp_path)
    server = ThreadServer(f"sqlite:///{db}")
    _listening(server)
    try:
        answer = httpx.get(f"{server.url}/api/rooms", timeout=DEADLINE)
        assert answer.status_code == 503, answer.text
        assert answer.json()["code"] == "unavailable"
        assert answer.headers["retry-after"]
        assert "rooms" in str(server.app.state.failed)  # why, in one line
        assert httpx.get(f"{server.url}/").status_code == 200  # the pages still answer
    finally:
        server.__exit__()


def test_a_served_process_whose_storage_cannot_start_exits_3_with_one_line(
    tmp_path: Path,
) -> None:
    db = _damaged(tmp_path)
    argv = [sys.executable, "-m", "gamenight.server", "--port", str(free_port())]
    done = subprocess.run(
        [*argv, "--db", f"sqlite:///{db}", "--no-table-build"],
        capture_output=True,
        text=True,
        timeout=DEADLINE,
        check=False,
    )
    assert done.returncode == 3, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr  # no traceback, no second account of it
    assert lines[0].startswith("gamenight: the server could not start: "), done.stderr
    assert "rooms" in lines[0]
