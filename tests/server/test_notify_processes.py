"""Every notification is sent at most once and at least once across two PostgreSQL
processes and restarts: the outbox's unique keys and conditional claims (server/notify)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from harness import PgCluster
from notify_kit import Browser, Receiver, Tables, smtp_server

from gamenight.server.notify.deliver import LEASE, Channels, Notifier
from gamenight.server.notify.store import NotifyStore

T0 = 1_800_000_000.0
WORKER = Path(__file__).with_name("notify_worker.py")


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver()
    try:
        yield found
    finally:
        found.close()


def test_two_processes_send_each_notification_exactly_once(
    pg: PgCluster, tmp_path: Path, receiver: Receiver
) -> None:
    url = pg.new_database()
    tables = Tables(url)
    browsers = {}
    for n in range(24):
        room = tables.room(f"P{n:02d}")
        channel = ("email", "push", "webhook")[n % 3]
        if channel == "email":
            tables.subscribe(room, 0, "email", f"p{n}@example.org")
        elif channel == "push":
            browsers[n] = Browser(f"{receiver.url}/push/{n}")
            tables.subscribe(room, 0, "push", json.dumps(browsers[n].subscription))
        else:
            tables.subscribe(room, 0, "webhook", f"{receiver.url}/hook/{n}", secret="k")
        tables.turn(room, 0, 1, T0, T0 + 43200)
    tables.close()
    go = tmp_path / "go"
    with smtp_server(tmp_path) as (box, port, ca):
        workers = [
            subprocess.Popen(
                [sys.executable, str(WORKER), url, str(T0 + 60), "3", str(port), str(ca), str(go)],
                stdout=subprocess.PIPE,
                text=True,
            )
            for _ in range(2)
        ]
        for worker in workers:
            assert worker.stdout is not None and worker.stdout.readline().strip() == "ready"
        go.touch()  # both race for the same rows from here
        sent = [int(w.communicate(timeout=120)[0].strip()) for w in workers]
        assert all(w.returncode == 0 for w in workers)
    assert sum(sent) == 24
    paths = Counter(r.path for r in receiver.got)
    assert len(box.messages) == 8
    assert Counter(m["To"] for m in box.messages) == {
        f"p{n}@example.org": 1 for n in range(0, 24, 3)
    }
    assert paths == {f"/push/{n}": 1 for n in range(1, 24, 3)} | {
        f"/hook/{n}": 1 for n in range(2, 24, 3)
    }
    for r in receiver.got:  # each push decrypts with its browser's key
        if r.path.startswith("/push/"):
            data = browsers[int(r.path.rsplit("/", 1)[1])].decrypt(r.body)
            assert data["events"][0]["kind"] == "turn"


def test_a_claim_whose_process_died_is_sent_after_its_lease(
    db_url: str, receiver: Receiver
) -> None:
    """A process claims and dies before sending: nothing is lost (at least once), and
    nothing goes out twice once the row is marked sent."""
    tables = Tables(db_url)
    room = tables.room("DIED")
    tables.subscribe(room, 0, "webhook", f"{receiver.url}/hook", secret="k")
    tables.turn(room, 0, 1, T0, T0 + 43200)
    tables.close()

    async def main() -> None:
        from sqlalchemy.ext.asyncio import create_async_engine

        from gamenight.server.dburl import normalise_url
        from gamenight.server.notify.sweep import sweep

        engine = create_async_engine(normalise_url(db_url))
        try:
            store = NotifyStore(engine)
            await sweep(store, T0)
            (sub_id,) = await store.due_subs(T0)
            assert await store.claim(sub_id, "dead", T0, LEASE)  # then the process dies
            channels = Channels("https://games.example", None, allow_private=True)
            clock = [T0 + 1]
            other = Notifier(store, channels, lambda: clock[0])
            assert await other.once() == 0  # the claim holds
            clock[0] = T0 + LEASE + 1
            assert await other.once() == 1  # run out: sent
            clock[0] = T0 + 2 * LEASE
            assert await other.once() == 0
            assert await Notifier(store, channels, lambda: clock[0]).once() == 0  # a restart
        finally:
            await engine.dispose()

    asyncio.run(main())
    assert len(receiver.got) == 1
