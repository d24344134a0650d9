"""A turn-based game over a simulated week (issue 44): the server clock faked, moves days
apart, the notifier restarted in between, one clock running out, and every notification
counted where it arrives: a real SMTP server (STARTTLS), a push service endpoint (the
payload decrypted with the browser's key) and a webhook receiver (the HMAC checked)."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from notify_kit import DAY, Browser, FakeClock, Receiver, Tables, smtp_server

from gamenight.server.notify.deliver import Channels, Notifier
from gamenight.server.notify.mail import Smtp
from gamenight.server.notify.store import NotifyStore

HOUR = 3600.0
T0 = 1_800_000_000.0


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver()
    try:
        yield found
    finally:
        found.close()


def test_a_week_of_turns_notifies_each_event_exactly_once(
    db_url: str, tmp_path: Path, receiver: Receiver
) -> None:
    tables = Tables(db_url)
    room = tables.room("WEEK1")
    browser = Browser(receiver.url + "/push/ada")
    hook_secret = "s" * 64
    tables.subscribe(room, 0, "email", "ada@example.org", lang="de")
    tables.subscribe(room, 0, "push", json.dumps(browser.subscription))
    tables.subscribe(room, 1, "webhook", receiver.url + "/hook/bob", secret=hook_secret)
    clock = FakeClock(T0)

    with smtp_server(tmp_path) as (box, port, ca):
        channels = Channels(
            "https://games.example",
            Smtp("127.0.0.1", port, sender="games@example.org", ca_file=str(ca)),
            allow_private=True,
        )

        async def run(at: float, times: int = 2) -> None:
            """The notifier of a fresh process (a restart each call) at ``at``, twice."""
            from sqlalchemy.ext.asyncio import create_async_engine

            from gamenight.server.dburl import normalise_url

            clock.now = at
            engine = create_async_engine(normalise_url(db_url))
            try:
                notifier = Notifier(NotifyStore(engine), channels, clock)
                for _ in range(times):
                    await notifier.once()
            finally:
                await engine.dispose()

        def at(when: float) -> None:
            asyncio.run(run(when))

        def hooks() -> list[dict[str, Any]]:
            return [json.loads(r.body) for r in receiver.got if r.path == "/hook/bob"]

        def pushes() -> list[dict[str, Any]]:
            return [browser.decrypt(r.body) for r in receiver.got if r.path == "/push/ada"]

        tables.turn(room, 0, 1, T0, T0 + 12 * HOUR)  # Ada to move, 12 h
        at(T0)
        assert (len(box.messages), len(pushes()), len(hooks())) == (1, 1, 0)
        assert box.messages[0]["Subject"] == "gamenight: du bist in 1 Raum am Zug"
        tables.turn(room, 1, 2, T0 + 2 * HOUR, T0 + 14 * HOUR)  # Ada moved: Bob's turn
        at(T0 + 2 * HOUR)
        assert (len(box.messages), len(pushes()), len(hooks())) == (1, 1, 1)
        at(T0 + 11.5 * HOUR)  # Bob's reminder (3 h left); Ada's old one is stale
        assert [e["kind"] for h in hooks() for e in h["events"]] == ["turn", "remind"]
        tables.turn(room, 0, 3, T0 + 13 * HOUR, T0 + 25 * HOUR)  # Bob moved
        at(T0 + 13 * HOUR)
        at(T0 + 23 * HOUR)  # Ada's reminder
        at(T0 + 2 * DAY)  # Ada's clock ran out: both are told
        assert (len(box.messages), len(pushes()), len(hooks())) == (4, 4, 3)
        assert [e["kind"] for p in pushes() for e in p["events"]] == [
            "turn",
            "turn",
            "remind",
            "late",
        ]
        tables.turn(room, 1, 4, T0 + 2 * DAY, T0 + 2.5 * DAY)  # a bot moved for Ada
        at(T0 + 2 * DAY + HOUR)
        for day in (4, 5, 6):  # moves days apart
            tables.turn(room, 0, 2 * day, T0 + day * DAY, T0 + day * DAY + 12 * HOUR)
            at(T0 + day * DAY)
            tables.turn(room, 1, 2 * day + 1, T0 + day * DAY + HOUR, T0 + day * DAY + 13 * HOUR)
            at(T0 + day * DAY + HOUR)
        at(T0 + 7 * DAY)  # Bob's last clock ran out: his reminder and the news in one
        at(T0 + 7 * DAY)

    mails, sent_pushes, sent_hooks = box.messages, pushes(), hooks()
    assert (len(mails), len(sent_pushes), len(sent_hooks)) == (8, 8, 8)
    assert all(box.tls)  # every mail came over STARTTLS
    assert len({m["Message-ID"] for m in mails}) == 8
    late = [e for h in sent_hooks for e in h["events"] if e["kind"] == "late"]
    assert [(e["seat"], e["mine"]) for e in late] == [(0, False), (1, True)]
    for r in receiver.got:  # every webhook is signed
        if r.path == "/hook/bob":
            stamp, signature = r.headers["Gamenight-Timestamp"], r.headers["Gamenight-Signature"]
            mac = hmac.new(hook_secret.encode(), f"{stamp}.".encode() + r.body, hashlib.sha256)
            assert signature == "v1=" + mac.hexdigest()
    text = mails[0].get_body(("plain",)).get_content()
    assert "https://games.example/r/WEEK1" in text and "/notify/unsubscribe?token=" in text
    assert "WEEK1-0" not in mails[0].as_string()  # no seat token, ever
    tables.close()
