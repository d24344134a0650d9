"""Bots on the server: a missing value table never fails a room; pace; idle rooms;
rooms without spectators."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import httpx
import pytest
from harness import Client, ThreadServer, claim, create_room, run

from gamenight.server.bots import BotPool


def _wait(predicate: object, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return
        time.sleep(0.05)
    raise AssertionError("timed out")


def test_a_bot_that_needs_a_build_never_fails_a_room_and_the_build_runs_once(
    sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GAMENIGHT_CACHE_DIR", str(tmp_path / "empty-cache"))
    builds: list[str] = []

    def slow_build(self: BotPool, game: str) -> list[str]:  # the real one solves (15 s or more)
        builds.append(game)
        return [sys.executable, "-c", "import time; time.sleep(60)"]

    monkeypatch.setattr(BotPool, "build_command", slow_build)
    with ThreadServer(sqlite_url, build_tables=True) as server:
        code = create_room(server.url, "wurfeltod", ["bot:optimal", "bot:optimal"])["code"]
        _wait(lambda: httpx.get(f"{server.url}/api/rooms/{code}").json()["status"] == "finished")
        info = httpx.get(f"{server.url}/api/rooms/{code}").json()
        assert any("being built in the background" in note for note in info["notes"])
        assert [s["stand_in"] for s in info["seats"]] == ["greedy", "greedy"]
        assert builds == ["wurfeltod"]  # once, however many seats and rooms need it
        again = create_room(server.url, "wurfeltod", ["bot:optimal"])["code"]
        _wait(lambda: httpx.get(f"{server.url}/api/rooms/{again}").json()["status"] == "finished")
        assert builds == ["wurfeltod"]


def test_bot_pace_slows_bots(sqlite_url: str) -> None:
    with ThreadServer(sqlite_url) as server:
        code = create_room(
            server.url,
            "dice-duel",
            ["bot:random", "bot:random"],
            room={"bot_pace": 0.3},
        )["code"]
        time.sleep(1.0)
        seq = server.hub.rooms[code].seq
        assert 1 <= seq <= 4


def test_idle_rooms_close_and_say_so(sqlite_url: str) -> None:
    with ThreadServer(sqlite_url, idle_check=0.1) as server:
        code = create_room(server.url, "dice-duel", ["human", "human"], room={"idle_close": 1})[
            "code"
        ]
        _wait(lambda: httpx.get(f"{server.url}/api/rooms/{code}").json()["status"] == "closed", 10)
        info = httpx.get(f"{server.url}/api/rooms/{code}").json()
        assert "without play" in " ".join(info["notes"])
        claimed = httpx.post(f"{server.url}/api/rooms/{code}/seats/0/claim", json={"name": "Late"})
        assert claimed.status_code == 409


def test_rooms_without_spectators(server: ThreadServer) -> None:
    code = create_room(server.url, "dice-duel", ["human", "human"], room={"spectators": False})[
        "code"
    ]
    token = claim(server.url, code, 0, "Ann")

    async def main() -> None:
        assert (await Client(server.url, code).connect())["code"] == "spectators_off"
        seated = Client(server.url, code, token)
        assert (await seated.connect())["type"] == "snapshot"
        await seated.close()

    run(main())
