"""A bot whose game's solution is not built yet (the Wurfeltod optimal bot with an empty
cache): the server builds it in a worker process, the room shows the build's real
progress (or that it failed), the seat says which bot stands in, and once the build is
done the bot itself plays (issue 21)."""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from harness import Client, ThreadServer, claim, create_room, run

from gamenight.games.wurfeltod.solver.table import CACHE_ENV, TABLE_FILENAME
from gamenight.server.bots import BotPool

BUILD_TIMEOUT = 900  # the solve, on a loaded 2-core machine, with room to spare


def _room_frames(client: Client) -> list[dict[str, Any]]:
    return [f["room"] for f in client.frames if f["type"] in ("room", "snapshot")]


async def _until(client: Client, test: Any, timeout: float) -> dict[str, Any]:
    """The first room (snapshot or update) for which ``test(room)`` holds."""
    deadline = asyncio.get_running_loop().time() + timeout
    seen = 0
    while True:
        rooms = _room_frames(client)
        for room in rooms[seen:]:
            if test(room):
                return room
        seen = len(rooms)
        left = deadline - asyncio.get_running_loop().time()
        assert left > 0, f"timed out; last room: {rooms[-1] if rooms else None}"
        await client.expect("room", "snapshot", "events", timeout=left)


def test_the_build_runs_with_an_empty_cache_and_then_the_bot_plays(
    sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "empty-cache"
    monkeypatch.setenv(CACHE_ENV, str(cache))  # the worker process inherits it
    with ThreadServer(sqlite_url, build_tables=True) as server:
        code = create_room(server.url, "wurfeltod", ["bot:optimal", "human"])["code"]

        async def main() -> None:
            client = Client(server.url, code, claim(server.url, code, 1, "Ann"))
            await client.connect()
            building = await _until(
                client, lambda r: any("% done)" in n for n in r["notes"]), BUILD_TIMEOUT
            )
            assert building["seats"][0]["stand_in"] == "greedy"
            assert not any("could not be built" in n for n in building["notes"])
            await _until(
                client, lambda r: not any("solution" in n for n in r["notes"]), BUILD_TIMEOUT
            )
            assert (cache / TABLE_FILENAME).exists()
            shown = [  # the progress the room showed: real figures, never going back
                int(n.rsplit("(", 1)[1].split("%")[0])
                for r in _room_frames(client)
                for n in r["notes"]
                if "% done)" in n
            ]
            assert shown and shown == sorted(shown) and all(0 <= x <= 100 for x in shown)
            rng = random.Random(3)
            while _room_frames(client)[-1]["seats"][0]["stand_in"] and not client.state.get(
                "finished"
            ):
                if client.state.get("legal"):
                    reply = await client.act(rng.choice(client.state["legal"]))
                    assert reply["type"] in ("ack", "error"), reply
                else:
                    await client.expect("events", "room", timeout=60)
            info = httpx.get(f"{server.url}/api/rooms/{code}").json()
            assert info["seats"][0]["stand_in"] == ""  # the optimal bot itself plays now
            await client.close()

        run(main())


def test_a_failed_build_is_shown_and_the_stand_in_plays_on(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "empty-cache"))
    script = (
        "print('progress 0 400', flush=True); print('progress 100 400', flush=True);"
        "print('error the disk is full', flush=True); raise SystemExit(1)"
    )
    monkeypatch.setattr(BotPool, "build_command", lambda self, game: [sys.executable, "-c", script])
    with ThreadServer(sqlite_url, build_tables=True) as server:
        code = create_room(server.url, "wurfeltod", ["bot:optimal", "human"])["code"]

        async def main() -> None:
            client = Client(server.url, code, claim(server.url, code, 1, "Ann"))
            await client.connect()
            failed = await _until(
                client, lambda r: any("could not be built" in n for n in r["notes"]), 120
            )
            assert any("the disk is full" in n for n in failed["notes"])
            assert failed["seats"][0]["stand_in"] == "greedy"
            await client.play_randomly(random.Random(5))  # the greedy bot plays seat 0
            await client.close()

        run(main())
        info = httpx.get(f"{server.url}/api/rooms/{code}").json()
        assert info["status"] == "finished"
        assert info["seats"][0]["stand_in"] == "greedy"
