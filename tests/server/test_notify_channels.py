"""Each channel on its own: a failing webhook is retried with doubling waits while the
mail of the same seat goes out; a host that resolves to loopback at delivery time (DNS
rebinding) gets nothing; batching: several rooms in one message, one per room per period."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from notify_kit import Receiver, Tables, smtp_server

from gamenight.server.notify.deliver import BACKOFF, Channels, Notifier
from gamenight.server.notify.mail import Smtp
from gamenight.server.notify.store import NotifyStore

T0 = 1_800_000_000.0


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver()
    try:
        yield found
    finally:
        found.close()


async def _rounds(url: str, channels: Channels, times: list[float]) -> list[dict[str, Any]]:
    """One notifier round at each fake time; the outbox after."""
    from sqlalchemy.ext.asyncio import create_async_engine

    from gamenight.server.dburl import normalise_url

    engine = create_async_engine(normalise_url(url))
    now = [times[0]]
    try:
        notifier = Notifier(NotifyStore(engine), channels, lambda: now[0])
        for at in times:
            now[0] = at
            await notifier.once()
        return await notifier.store.outbox()
    finally:
        await engine.dispose()


def test_a_failing_webhook_is_retried_and_blocks_no_mail(
    sqlite_url: str, tmp_path: Path, receiver: Receiver
) -> None:
    tables = Tables(sqlite_url)
    room = tables.room("RETRY")
    tables.subscribe(room, 0, "webhook", f"{receiver.url}/hook", secret="k")
    tables.subscribe(room, 0, "email", "ada@example.org")
    tables.turn(room, 0, 1, T0, T0 + 43200)
    receiver.fail = 2
    with smtp_server(tmp_path) as (box, port, ca):
        channels = Channels("https://g.example", Smtp("127.0.0.1", port, ca_file=str(ca)), True)
        first = asyncio.run(_rounds(sqlite_url, channels, [T0]))
        assert len(box.messages) == 1 and receiver.got == []
        hook = next(r for r in first if r["kind"] == "turn" and r["sub_id"] == 1)
        assert (hook["attempts"], hook["due_at"], hook["state"]) == (1, T0 + BACKOFF, "pending")
        times = [
            T0 + BACKOFF - 1,
            T0 + BACKOFF,
            T0 + 2 * BACKOFF,
            T0 + 3 * BACKOFF,
            T0 + 4 * BACKOFF,
        ]
        rows = asyncio.run(_rounds(sqlite_url, channels, times))
    hook = next(r for r in rows if r["kind"] == "turn" and r["sub_id"] == 1)
    # failed at T0 and T0+30 (then due T0+90), sent at T0+90
    assert (hook["attempts"], hook["state"], hook["sent_at"]) == (2, "sent", T0 + 3 * BACKOFF)
    assert len(receiver.got) == 1 and len(box.messages) == 1
    tables.close()


def test_delivery_resolves_the_host_again(
    sqlite_url: str, receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A webhook host that was public when subscribed resolves to loopback now: refused
    at delivery, nothing received, the row failing with that reason."""
    real = socket.getaddrinfo

    def resolve(host: str, *args: Any, **kw: Any) -> Any:
        return real("127.0.0.1" if host == "rebind.example.org" else host, *args, **kw)

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    port = receiver.server.server_address[1]
    tables = Tables(sqlite_url)
    room = tables.room("REBIND")
    tables.subscribe(room, 0, "webhook", f"http://rebind.example.org:{port}/hook", secret="k")
    tables.turn(room, 0, 1, T0, T0 + 43200)
    rows = asyncio.run(_rounds(sqlite_url, Channels("https://g.example"), [T0]))
    assert receiver.got == []
    turn = next(r for r in rows if r["kind"] == "turn")
    assert "private-network addresses are refused" in turn["error"]
    allowed = asyncio.run(
        _rounds(sqlite_url, Channels("https://g.example", allow_private=True), [T0 + BACKOFF])
    )
    assert len(receiver.got) == 1  # the operator's allowance
    assert next(r for r in allowed if r["kind"] == "turn")["state"] == "sent"
    tables.close()


def test_several_rooms_in_one_message_and_one_per_room_per_period(
    sqlite_url: str, receiver: Receiver
) -> None:
    """An account's subscription: its three rooms' moves in one message; the same room's
    next move within its 12 h period waits for the period (its reminder with it)."""
    import json

    tables = Tables(sqlite_url)
    rooms = [tables.room(f"BAT{n}") for n in range(3)]
    tables.subscribe_account(tables.account("Ada", rooms), "webhook", f"{receiver.url}/ada", "k")
    for room in rooms:
        tables.turn(room, 0, 1, T0, T0 + 43200)
    channels = Channels("https://g.example", allow_private=True)

    def kinds() -> list[list[tuple[str, str]]]:
        return [
            [(e["kind"], e["room"]) for e in json.loads(r.body)["events"]] for r in receiver.got
        ]

    asyncio.run(_rounds(sqlite_url, channels, [T0]))
    assert kinds() == [[("turn", "BAT0"), ("turn", "BAT1"), ("turn", "BAT2")]]
    tables.turn(rooms[0], 0, 3, T0 + 3600, T0 + 3600 + 43200)  # BAT0 moved on at once
    asyncio.run(_rounds(sqlite_url, channels, [T0 + 3600, T0 + 43199]))
    assert kinds()[1:] == [[("remind", "BAT1"), ("remind", "BAT2")]]  # BAT0 waits
    asyncio.run(_rounds(sqlite_url, channels, [T0 + 43200]))
    assert kinds()[2:] == [
        [("turn", "BAT0"), ("remind", "BAT0"), ("late", "BAT1"), ("late", "BAT2")]
    ]
    tables.close()
