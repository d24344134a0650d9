"""``bot:winner`` in a two-player points Decathlon whose win table is not built (issue 27):
the server builds it in the background through the game's preparation, the room keeps
answering and says so, the bot plays as ``winner-points`` meanwhile, and once the table
is built the bot plays the solved policy."""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from harness import Client, ThreadServer, claim, create_room, run

from gamenight.games.decathlon import bots, win_play
from gamenight.games.decathlon.solver import win2p_store
from gamenight.server.bots import BotPool

EVENTS = ("high-jump", "400m", "1500m")  # small: a worker builds it in seconds
BUILD_TIMEOUT = 300  # the worker's start-up and solve, on a loaded 2-core machine
BUILDING = "being built in the background"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty win-table cache (the build worker inherits it), and no build inside a
    decision: the tables come from the server's background build or not at all."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(win2p_store.CACHE_ENV, str(folder))
    monkeypatch.setattr(win2p_store, "ON_DEMAND_WEIGHT", 0)
    win2p_store._loaded.clear()
    return folder


def _winner_room(server: ThreadServer) -> tuple[str, Client]:
    """A two-player Decathlon of EVENTS, ``bot:winner`` against Ann (seat 1): its code
    and Ann's client (not yet connected)."""
    options = {"events": ",".join(EVENTS)}
    code = create_room(server.url, "decathlon", ["bot:winner", "human"], options=options)["code"]
    return code, Client(server.url, code, claim(server.url, code, 1, "Ann"))


def _rooms(client: Client) -> list[dict[str, Any]]:
    return [f["room"] for f in client.frames if f["type"] in ("room", "snapshot")]


async def _step(client: Client, rng: random.Random) -> None:
    """Act once if the seat may, else wait for the next frame."""
    legal = [a for a in client.state.get("legal") or [] if a.get("type") != "retire"]
    if legal:
        reply = await client.act(rng.choice(legal))
        assert reply["type"] == "ack" or reply.get("code") == "stale", reply
    else:
        await client.expect("events", "room", "snapshot", timeout=60)


def test_the_server_builds_the_win_table_and_then_winner_plays_it(
    sqlite_url: str, tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = tmp_path / "gate"
    builds: list[tuple[str, str]] = []

    def gated(self: BotPool, game: str, target: str = "") -> list[str]:
        """The real worker, which starts once the test opens the gate."""
        builds.append((game, target))
        script = (
            "import pathlib, sys, time\n"
            f"while not pathlib.Path({str(gate)!r}).exists(): time.sleep(0.02)\n"
            "from gamenight.server.build import main\n"
            "sys.exit(main(sys.argv[1:]))\n"
        )
        return [sys.executable, "-c", script, game, target]

    built = cache / win2p_store.table_path(EVENTS).name  # written whole (a rename)
    moves: list[tuple[bool, bool, bool]] = []  # per bot move: built before it? waiting?
    # and did the table give it?
    act, win_action = bots.WinnerAgent.act, win_play.win_action
    solved: list[bool] = []

    def spy_act(self: bots.WinnerAgent, decision: Any) -> Any:
        ready, count = built.exists(), len(solved)
        action = act(self, decision)
        moves.append((ready, self.waiting is not None, any(solved[count:])))
        return action

    def spy_win_action(*args: Any) -> Any:
        found = win_action(*args)
        solved.append(found is not None)
        return found

    monkeypatch.setattr(BotPool, "build_command", gated)
    monkeypatch.setattr(bots.WinnerAgent, "act", spy_act)
    monkeypatch.setattr(win_play, "win_action", spy_win_action)
    rng = random.Random(7)
    with ThreadServer(sqlite_url, build_tables=True) as server:
        code, client = _winner_room(server)

        async def main() -> None:
            await client.connect()
            while not any(BUILDING in n for n in _rooms(client)[-1]["notes"]):
                await _step(client, rng)  # until the bot's first decision
            room = _rooms(client)[-1]
            assert room["seats"][0]["stand_in"] == "winner-points"
            assert any("winner-points bot plays until it is ready" in n for n in room["notes"])
            assert builds == [("decathlon", ",".join(EVENTS))]
            # the room answers while the build waits: moves, and its page
            for _ in range(3):
                await _step(client, rng)
            assert httpx.get(f"{server.url}/api/rooms/{code}").status_code == 200
            assert moves and all(waiting and not table for _, waiting, table in moves)
            assert not built.exists()  # winner-points played every move so far
            gate.touch()
            deadline = asyncio.get_running_loop().time() + BUILD_TIMEOUT
            while any(BUILDING in n for n in _rooms(client)[-1]["notes"]):
                assert asyncio.get_running_loop().time() < deadline, "the build never ended"
                await client.expect("room", "events", timeout=BUILD_TIMEOUT)
            assert built.exists()
            while not client.state.get("finished"):
                await _step(client, rng)
            assert not any("could not be built" in n for n in _rooms(client)[-1]["notes"])
            after = [(waiting, table) for ready, waiting, table in moves if ready]
            assert after and all(table and not waiting for waiting, table in after)
            info = httpx.get(f"{server.url}/api/rooms/{code}").json()
            assert info["seats"][0]["stand_in"] == ""
            await client.close()

        run(main())
    assert builds == [("decathlon", ",".join(EVENTS))]  # once


def test_a_server_that_builds_no_tables_says_so_and_winner_plays_on(
    sqlite_url: str, cache: Path
) -> None:
    rng = random.Random(3)
    with ThreadServer(sqlite_url, build_tables=False) as server:  # --no-table-build
        code, client = _winner_room(server)

        async def main() -> None:
            await client.connect()
            note = "The winner bot's solution is not built on this server; "
            note += "the winner-points bot plays instead."
            while note not in _rooms(client)[-1]["notes"]:
                await _step(client, rng)
            assert _rooms(client)[-1]["seats"][0]["stand_in"] == "winner-points"
            while not client.state.get("finished"):
                await _step(client, rng)
            await client.close()

        run(main())
        assert httpx.get(f"{server.url}/api/rooms/{code}").json()["status"] == "finished"
