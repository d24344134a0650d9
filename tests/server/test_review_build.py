"""``POST /api/review`` (issue 42) on a server without the table the exact values need:
it builds it in the background, as for bots, and says so (``build``); once built, the
review comes. A server that may not build says that instead."""

from __future__ import annotations

import io
import time
from pathlib import Path

import httpx
import pytest
from harness import ThreadServer

from gamenight.core import registry
from gamenight.core.record import RecordWriter
from gamenight.core.runner import play_match
from gamenight.games.wurfeltod.solver.table import CACHE_ENV

BUILD_TIMEOUT = 900  # the solve, on a loaded 2-core machine, with room to spare


def _record() -> str:
    entry = registry.get("wurfeltod")
    stream = io.StringIO()
    play_match(
        entry.game,
        [entry.make_bot("greedy", 1)],
        seed=4,
        options=entry.game.parse_options({}),
        record=RecordWriter(stream),
    )
    return stream.getvalue()


def _ask(url: str, record: str) -> httpx.Response:
    return httpx.post(
        f"{url}/api/review",
        content=record.encode(),
        headers={"Content-Type": "application/x-ndjson", "Origin": url},
        timeout=60,
    )


def test_a_missing_table_is_built_in_the_background_then_the_review_comes(
    sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "empty-cache"))  # the worker inherits it
    record = _record()
    with ThreadServer(sqlite_url, build_tables=True) as server:
        first = _ask(server.url, record)
        assert first.status_code == 200
        assert first.json() == {"review": None, "build": "building"}
        deadline = time.monotonic() + BUILD_TIMEOUT
        while True:
            answer = _ask(server.url, record).json()
            if answer["review"] is not None:
                break
            assert answer["build"] == "building", answer
            assert time.monotonic() < deadline, "the table was never built"
            time.sleep(0.5)
        assert answer["build"] is None
        review = answer["review"]
        assert review["game"] == "wurfeltod" and review["measures"][0]["key"] == "points"
        assert review["players"][0]["accuracy"] is not None


def test_a_server_that_may_not_build_says_so(
    sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "empty-cache"))
    with ThreadServer(sqlite_url, build_tables=False) as server:
        answer = _ask(server.url, _record())
        assert answer.status_code == 200
        assert answer.json() == {"review": None, "build": "failed"}
