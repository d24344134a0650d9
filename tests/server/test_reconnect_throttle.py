"""The reconnect throttle punishes the abuser, not the neighbours (issue 38, item 1):
``rate_limited`` says ``retry_after``; a refused hello never extends its own wait, so a
client that waits as told gets in; an address's budget counts only hellos without a
valid seat token. Real sockets against a server in this process."""

from __future__ import annotations

import asyncio
from typing import Any

from harness import Client, ThreadServer, claim, create_room, run


async def _hello(server: ThreadServer, code: str, token: str | None) -> dict[str, Any]:
    client = Client(server.url, code, token)
    reply = await client.connect()
    await client.close()
    return reply


def test_a_refused_hello_says_retry_after_and_never_extends_its_wait(sqlite_url: str) -> None:
    # two hellos at once, then one every 2 s
    with ThreadServer(sqlite_url, reconnect_burst=2, reconnect_rate=0.5) as server:
        code = create_room(server.url, "wurfeltod", ["human"])["code"]
        token = claim(server.url, code, 0, "Ann")

        async def main() -> None:
            for _ in range(2):
                assert (await _hello(server, code, token))["type"] == "snapshot"
            first = await _hello(server, code, token)
            assert (first["type"], first["code"]) == ("error", "rate_limited"), first
            assert isinstance(first["retry_after"], int) and 1 <= first["retry_after"] <= 2
            # a client that ignores it and keeps knocking is refused, but never told to
            # wait longer than it was at first (before: 1, 2, 4, 8 … 60 s)
            last = first
            for _ in range(8):
                last = await _hello(server, code, token)
                assert last["code"] == "rate_limited"
                assert last["retry_after"] <= first["retry_after"], last
            # waiting as told is enough
            await asyncio.sleep(last["retry_after"])
            assert (await _hello(server, code, token))["type"] == "snapshot"

        run(main())


def test_a_spectator_flood_from_the_address_never_locks_a_seat_out(sqlite_url: str) -> None:
    settings = {"address_burst": 3.0, "address_rate": 0.01, "msg_rate": 1.0, "msg_burst": 2.0}
    with ThreadServer(sqlite_url, abuse_limit=3, **settings) as server:
        code = create_room(server.url, "wurfeltod", ["human"], room={"spectators": True})["code"]
        token = claim(server.url, code, 0, "Ann")

        async def main() -> None:
            # tokenless hellos from 127.0.0.1 until the address is over its budget
            replies = [await _hello(server, code, None) for _ in range(5)]
            assert [r["type"] for r in replies[:3]] == ["snapshot"] * 3
            assert replies[-1]["code"] == "rate_limited" and replies[-1]["retry_after"] >= 1
            # a made-up token does not dodge the address budget
            bogus = await _hello(server, code, "not-a-seat-token")
            assert bogus["code"] == "rate_limited", bogus
            # the seat at the same address is never held back by its neighbours
            for _ in range(3):
                assert (await _hello(server, code, token))["type"] == "snapshot"

        run(main())


def test_a_spectator_closed_for_flooding_penalises_its_address_not_the_seats(
    sqlite_url: str,
) -> None:
    with ThreadServer(sqlite_url, msg_rate=1.0, msg_burst=2.0, abuse_limit=3) as server:
        code = create_room(server.url, "wurfeltod", ["human"])["code"]
        token = claim(server.url, code, 0, "Ann")

        async def main() -> None:
            flooder = Client(server.url, code)
            assert (await flooder.connect())["type"] == "snapshot"
            for _ in range(10):
                await flooder.send({"type": "ping", "id": 1})
            await asyncio.wait_for(flooder.closed.wait(), 20)
            assert flooder.ws.close_code == 1008
            slow = [f for f in flooder.frames if f.get("code") == "rate_limited"]
            assert slow and all(f["retry_after"] >= 1 and f["id"] == 1 for f in slow), slow
            again = await _hello(server, code, None)
            assert (again["type"], again["code"]) == ("error", "rate_limited")
            assert again["retry_after"] >= 1
            # the player of the seat at that address comes straight in
            assert (await _hello(server, code, token))["type"] == "snapshot"

        run(main())


def test_a_chat_over_its_budget_says_retry_after(sqlite_url: str) -> None:
    with ThreadServer(sqlite_url, chat_burst=1.0, chat_rate=0.5) as server:
        code = create_room(server.url, "wurfeltod", ["human"])["code"]
        token = claim(server.url, code, 0, "Ann")

        async def main() -> None:
            client = Client(server.url, code, token)
            assert (await client.connect())["type"] == "snapshot"
            assert (await client.request({"type": "chat", "text": "hi"}))["type"] == "chat"
            slow = await client.request({"type": "chat", "text": "hi again"})
            assert (slow["code"], slow["retry_after"]) == ("rate_limited", 2), slow
            await client.close()

        run(main())
