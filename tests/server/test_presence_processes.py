"""One truth across processes (issue 38, item 2): two real server processes on one
PostgreSQL; every operation that depends on "is this seat connected" is tried on one
process with the seat's player connected on the other."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import httpx
from harness import Client, ProcessServer, claim, create_room, run


def _info(server: ProcessServer, code: str) -> dict[str, Any]:
    answer = httpx.get(f"{server.url}/api/rooms/{code}")
    assert answer.status_code == 200, answer.text
    info: dict[str, Any] = answer.json()
    return info


async def _until(check: Callable[[], bool], what: str) -> None:
    """Wait for ``check`` (a notification crosses processes asynchronously)."""
    for _ in range(200):
        if await asyncio.to_thread(check):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never: {what}")


def _release(server: ProcessServer, code: str, seat: int, host: str) -> httpx.Response:
    return httpx.post(
        f"{server.url}/api/rooms/{code}/seats/{seat}/release",
        headers={"Authorization": f"Bearer {host}"},
    )


def test_a_seat_connected_on_b_is_connected_on_a_and_a_cannot_free_it(
    pg_pair: tuple[ProcessServer, ProcessServer],
) -> None:
    a, b = pg_pair
    created = create_room(a.url, "dice-duel", ["human", "human"])
    code, host = created["code"], created["host_token"]
    tokens = [claim(a.url, code, 0, "On A"), claim(b.url, code, 1, "On B")]
    assert _info(a, code)["status"] == "playing"

    async def main() -> None:
        on_b = Client(b.url, code, tokens[1])
        assert (await on_b.connect())["type"] == "snapshot"
        await _until(lambda: _info(a, code)["seats"][1]["connected"], "A sees B's player")
        watcher = Client(a.url, code)  # a spectator on A is told so too
        first = await watcher.connect()
        assert first["room"]["seats"][1]["connected"] is True
        refused = await asyncio.to_thread(_release, a, code, 1, host)
        assert refused.status_code == 409, refused.text
        assert refused.json()["code"] == "seat_connected"
        assert _info(b, code)["seats"][1]["claimed"]  # nothing changed
        await on_b.close()
        await _until(lambda: not _info(a, code)["seats"][1]["connected"], "A sees them go")
        freed = await asyncio.to_thread(_release, a, code, 1, host)
        assert freed.status_code == 200, freed.text
        newcomer = await asyncio.to_thread(claim, a.url, code, 1, "Newcomer", None)
        old = Client(b.url, code, tokens[1])  # the old token is refused on B as well
        refusal = await old.connect()
        assert refusal["type"] == "error" and refusal["code"] == "bad_token"
        await old.close()
        fresh = Client(b.url, code, newcomer)
        assert (await fresh.connect())["type"] == "snapshot"
        await fresh.close()
        await watcher.close()

    run(main())


def test_a_seat_freed_through_a_closes_its_socket_on_b(
    pg_pair: tuple[ProcessServer, ProcessServer],
) -> None:
    """Before the game: the host frees, through A, a seat whose player is connected on
    B (allowed while waiting); B tells that socket, closes it and answers nothing more
    it sends; a newcomer takes the seat."""
    a, b = pg_pair
    created = create_room(a.url, "dice-duel", ["human", "human"])
    code, host = created["code"], created["host_token"]
    old_token = claim(b.url, code, 1, "Leaves", None)  # no part yet: the room waits

    async def main() -> None:
        old = Client(b.url, code, old_token)
        assert (await old.connect())["type"] == "snapshot"
        await _until(lambda: _info(a, code)["seats"][1]["connected"], "A sees B's player")
        freed = await asyncio.to_thread(_release, a, code, 1, host)
        assert freed.status_code == 200, freed.text
        told = await old.expect("error")
        assert told["code"] == "bad_token"
        await asyncio.wait_for(old.closed.wait(), 10)
        acks = [f for f in old.frames if f["type"] == "ack"]
        assert not acks
        newcomer = await asyncio.to_thread(claim, a.url, code, 1, "Newcomer")
        player = Client(b.url, code, newcomer)
        snapshot = await player.connect()
        assert snapshot["type"] == "snapshot" and snapshot["seat"] == 1
        await _until(lambda: _info(a, code)["seats"][1]["connected"], "A sees the newcomer")
        await player.close()

    run(main())


def test_no_bot_takes_over_a_seat_connected_on_the_other_process(
    pg_pair: tuple[ProcessServer, ProcessServer],
) -> None:
    """takeover_after 1 s: each player is connected on their own process, so neither
    process may count the other's seat away and let a bot play it."""
    a, b = pg_pair
    created = create_room(a.url, "dice-duel", ["human", "human"], room={"takeover_after": 1})
    code = created["code"]
    tokens = [claim(a.url, code, 0, "On A"), claim(b.url, code, 1, "On B")]

    async def main() -> None:
        players = [Client(a.url, code, tokens[0]), Client(b.url, code, tokens[1])]
        for player in players:
            assert (await player.connect())["type"] == "snapshot"
        for server in (a, b):
            await _until(
                lambda s=server: all(x["connected"] for x in _info(s, code)["seats"]),  # type: ignore[misc]
                "both seats connected on both processes",
            )
        time.sleep(3)  # three takeover delays: a process that thought a seat away acts
        for server in (a, b):
            info = _info(server, code)
            assert info["seq"] == 0, info
            assert not any(s["takeover"] for s in info["seats"]), info
        for player in players:
            await player.close()

    run(main())
