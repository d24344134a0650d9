"""Issue 44, "What it must show", end to end: a turn-based Decathlon played over a
simulated week by two guests through the HTTP API and the socket protocol, each seat
subscribed to e-mail (a real SMTP server with STARTTLS), Web Push (an endpoint that
decrypts the payload) and a webhook (its HMAC checked) through the notify API; the real
server processes' clock shifted by ``GAMENIGHT_TEST_CLOCK`` (server/clock.py), restarts
in between, one clock running out and a bot playing that move (``by: "clock"``); every
notification counted where it arrives, exactly, per seat, channel and kind. Nothing is
written to the database by the test: the ``turns`` rows come from the moves.

On SQLite with one process, and on PostgreSQL with two processes (requests alternating).

Why the numbers (docs/notifications.md; ``move_time`` 48 h, ``time_bank`` 24 h; F moves
first, S second; hours from the start):

* d0, F to act from 0: F's "your move" at once. F moves at 44 h (the your-turn list
  shows it waiting 44 h just before).
* d1, S from 44 h: S's "your move". A restart. S moves at 46 h.
* d2, F from 46 h: F had a "your move" less than ``move_time`` ago, so this one waits
  until 48 h (one per room per period); F moves at 47 h, before it: it is dropped
  (stale), as is d2's reminder later. F gets nothing for d2.
* d3, S from 47 h: S's last "your move" was at 44 h: this one waits until 92 h.
  Every process stopped at 60 h; the clock moves on to 93 h while none runs; started
  again: S's "your move" goes out once.
* At 122 h S's deadline (47 + 48 + 24 = 119 h) has passed: the reminder (due 115 h)
  and the news come in one message to S; F is told too (one message). F chooses "bot":
  a bot makes S's move at 122 h, marked ``by: "clock"``.
* d4, F from 122 h: "your move". A restart of one process. Then every decision is
  made 47 h (F) or 40 h (S) after it began: each brings its seat one "your move" and
  nothing else (no reminder that early; more than a period since the seat's last one).
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from harness import Client, PgCluster, ProcessServer, claim, create_room, run
from notify_kit import Browser, Receiver, smtp_server
from sqlalchemy import create_engine, text

from gamenight.server.dburl import sync_url

HOUR = 3600.0
MOVE_TIME, BANK = 48 * 3600, 24 * 3600
EVENTS = ["100m", "400m", "1500m", "110m-hurdles"]  # sets events: every attempt a decision
PUBLIC = "https://games.example"
WAIT = 90.0  # seconds of real time a step may take on a loaded machine (a bound, no timing)


class ShiftedClock:
    """The clock of the server processes: ``GAMENIGHT_TEST_CLOCK``'s file holds the
    seconds they add to the real time. ``to(t)`` sets it so that their time is ``t`` now
    (and goes on from there); the file is replaced whole, never read half-written."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "clock"
        self.offset = 0.0
        self._write()

    def _write(self) -> None:
        part = self.path.with_suffix(".part")
        part.write_text(repr(self.offset))
        os.replace(part, self.path)

    def now(self) -> float:
        return time.time() + self.offset

    def to(self, when: float) -> None:
        assert when > self.now(), "the clock only goes forward"
        self.offset = when - time.time()
        self._write()


class Cluster:
    """The server processes on one database; requests alternate between them."""

    def __init__(self, url: str, count: int, env: dict[str, str], args: tuple[str, ...]) -> None:
        self.url, self.env, self.args = url, env, args
        self.procs: list[ProcessServer | None] = [None] * count
        self.turn = 0
        for i in range(count):
            self.start(i)

    def start(self, i: int) -> None:
        self.procs[i] = ProcessServer(self.url, env=self.env, args=self.args).start()

    def stop(self, i: int) -> None:
        proc = self.procs[i]
        assert proc is not None
        proc.stop()
        self.procs[i] = None

    def restart(self, i: int) -> None:
        self.stop(i)
        self.start(i)

    def base(self) -> str:
        """The next process's address (round robin)."""
        live = [p for p in self.procs if p is not None]
        self.turn += 1
        return live[self.turn % len(live)].url

    def close(self) -> None:
        for p in self.procs:
            if p is not None:
                p.stop()

    def logs(self) -> str:
        return "\n".join(p.log_text()[-3000:] for p in self.procs if p is not None)


def _until(check: Callable[[], Any], what: str, timeout: float = WAIT) -> Any:
    end = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > end:
            raise AssertionError(f"never: {what}")
        time.sleep(0.05)


def _info(base: str, code: str) -> dict[str, Any]:
    answer = httpx.get(f"{base}/api/rooms/{code}", timeout=30)
    assert answer.status_code == 200, answer.text
    info: dict[str, Any] = answer.json()
    return info


def _to_act(info: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """The seats to act now, with their clocks."""
    clock = info.get("clock") or {"seats": []}
    return {c["seat"]: c for c in clock["seats"] if c["since"] is not None}


async def _move(base: str, code: str, token: str) -> None:
    """The seat of ``token`` opens the room, makes its whole move (always the first
    legal action: every action until it is no longer to act) and leaves."""
    client = Client(base, code, token)
    assert (await client.connect())["type"] == "snapshot"
    acted = 0
    while client.seat in client.state.get("to_act", ()) and not client.state.get("finished"):
        reply = await client.act(client.state["legal"][0])
        assert reply["type"] == "ack", reply
        acted += 1
    assert acted > 0
    await client.close()


def _kinds_of_mail(mail: Any) -> tuple[str, ...]:
    """The events of an English mail, one per line of its plain text."""
    plain = mail.get_body(("plain",)).get_content().replace("\r\n", "\n")
    body = plain.split("\n-- \n")[0]
    kinds = []
    for block in body.split("\n\n"):
        line = block.splitlines()[0]
        if line.startswith("Reminder:"):
            kinds.append("remind")
        elif "time ran out" in line:
            kinds.append("late")
        elif line.startswith("Your move in"):
            kinds.append("turn")
        else:
            raise AssertionError(f"a line of no known kind: {line!r}")
    return tuple(kinds)


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    found = Receiver()
    try:
        yield found
    finally:
        found.close()


@pytest.mark.parametrize("where", ["sqlite", "postgresql"])
def test_a_week_of_turn_based_play_notified_exactly_once(
    where: str, tmp_path: Path, receiver: Receiver, request: pytest.FixtureRequest
) -> None:
    if where == "sqlite":
        url, count = f"sqlite:///{tmp_path / 'week.sqlite3'}", 1
    else:
        cluster_pg: PgCluster = request.getfixturevalue("pg")
        url, count = cluster_pg.new_database(), 2
    clock = ShiftedClock(tmp_path)
    with smtp_server(tmp_path) as (box, port, ca):
        flags = (
            "--turn-sweep", "0.1", "--evict-after", "0.5", "--notify-every", "0.2",
            "--notify-private", "--public-url", PUBLIC, "--smtp-host", "127.0.0.1",
            "--smtp-port", str(port), "--smtp-ca", str(ca), "--smtp-from", "games@example.org",
        )  # fmt: skip
        env = {**os.environ, "GAMENIGHT_TEST_CLOCK": str(clock.path)}
        servers = Cluster(url, count, env, flags)
        try:
            _week(servers, clock, box, receiver, url)
        except BaseException:
            print(servers.logs())
            raise
        finally:
            servers.close()


def _week(servers: Cluster, clock: ShiftedClock, box: Any, receiver: Receiver, url: str) -> None:
    room = {"pace": "turn-based", "move_time": MOVE_TIME, "time_bank": BANK}
    created = create_room(
        servers.base(), "decathlon", ["human", "human"], room=room, options={"events": EVENTS}
    )
    code = created["code"]
    tokens = [claim(servers.base(), code, s, f"Player {s}") for s in (0, 1)]
    info = _info(servers.base(), code)
    assert info["status"] == "playing" and info["pace"] == "turn-based"
    ((first, clock0),) = _to_act(info).items()
    second = 1 - first
    t0 = float(clock0["since"])  # the start, on the servers' clock
    assert clock0["deadline"] == pytest.approx(t0 + MOVE_TIME + BANK, abs=1)

    # ----- each seat subscribes to all three channels (the notify API, as a guest seat)
    browsers = {s: Browser(f"{receiver.url}/push/{s}") for s in (0, 1)}
    secrets: dict[int, str] = {}
    subs: dict[int, tuple[int, str]] = {}  # subscription id: (seat, channel)
    for seat in (0, 1):
        targets = {
            "email": (f"seat{seat}@example.org", "en"),
            "push": (json.dumps(browsers[seat].subscription), "pl"),
            "webhook": (f"{receiver.url}/hook/{seat}", "de"),
        }
        for channel, (target, lang) in targets.items():
            base = servers.base()
            made = httpx.post(
                f"{base}/api/notify/subscriptions",
                params={"room": code, "seat": str(seat)},
                headers={"Authorization": f"Bearer {tokens[seat]}", "Origin": base},
                json={"channel": channel, "target": target, "lang": lang},
                timeout=30,
            )
            assert made.status_code == 201, made.text
            body = made.json()
            subs[body["subscription"]["id"]] = (seat, channel)
            if channel == "webhook":
                secrets[seat] = body["secret"]

    def delivered() -> dict[tuple[int, str], list[tuple[str, ...]]]:
        """What arrived, per (seat, channel): each message's kinds of events."""
        got: dict[tuple[int, str], list[tuple[str, ...]]] = {
            (s, c): [] for s in (0, 1) for c in ("email", "push", "webhook")
        }
        for mail in list(box.messages):
            got[(int(mail["To"][4]), "email")].append(_kinds_of_mail(mail))
        for r in list(receiver.got):
            seat = int(r.path.rsplit("/", 1)[1])
            if r.path.startswith("/push/"):
                data = browsers[seat].decrypt(r.body)
                got[(seat, "push")].append(tuple(e["kind"] for e in data["events"]))
            else:
                data = json.loads(r.body)
                got[(seat, "webhook")].append(tuple(e["kind"] for e in data["events"]))
        return got

    expected: dict[int, list[tuple[str, ...]]] = {first: [], second: []}

    def told(*messages: tuple[int, tuple[str, ...]]) -> None:
        """Each (seat, kinds) of ``messages`` is one message to that seat on each of its
        channels; wait for them, and check that nothing else came."""
        for seat, kinds in messages:
            expected[seat].append(kinds)
        want = {(s, c): expected[s] for s in (0, 1) for c in ("email", "push", "webhook")}

        def arrived() -> bool:
            got = delivered()
            return all(len(got[k]) >= len(v) for k, v in want.items())

        _until(arrived, f"told {messages}")
        assert delivered() == want

    def outbox() -> list[dict[str, Any]]:
        engine = create_engine(sync_url(url))
        try:
            with engine.connect() as conn:
                rows = conn.execute(text("SELECT * FROM notify_outbox ORDER BY id"))
                return [dict(r._mapping) for r in rows]
        finally:
            engine.dispose()

    def rows_of(seat: int, kind: str, seq: int, state: str) -> bool:
        mine = [r for r in outbox() if subs[r["sub_id"]][0] == seat and r["kind"] == kind
                and r["seq"] == seq]  # fmt: skip
        return len(mine) == 3 and all(r["state"] == state for r in mine)

    def at(hours: float) -> None:
        clock.to(t0 + hours * HOUR)

    def move(seat: int) -> None:
        run(_move(servers.base(), code, tokens[seat]))

    def now_to_act() -> dict[int, dict[str, Any]]:
        return _to_act(_info(servers.base(), code))

    # ----- d0: F to act from the start
    told((first, ("turn",)))
    at(44)
    before = time.time()
    listed = httpx.post(
        f"{(base := servers.base())}/api/turns",
        json={"seats": [{"code": code, "seat": s, "token": tokens[s]} for s in (0, 1)]},
        headers={"Origin": base},
        timeout=30,
    )
    assert listed.status_code == 200, listed.text
    (row,) = listed.json()["turns"]  # the seat to act, and only it
    assert (row["room"], row["seat"], row["late"]) == (code, first, False)
    assert row["since"] == pytest.approx(t0, abs=1)
    # 44 h waited on the servers' clock (plus the real seconds since it was set)
    assert 44 * HOUR <= row["waiting"] <= 44 * HOUR + time.time() - before + 1
    assert row["left"] == pytest.approx(row["deadline"] - listed.json()["now"], abs=1)
    assert 27 * HOUR < row["left"] <= 28 * HOUR
    move(first)

    # ----- d1: S; a restart (of one process: the other goes on)
    told((second, ("turn",)))
    servers.restart(len(servers.procs) - 1)
    at(46)
    move(second)

    # ----- d2: F's "your move" waits for its period (48 h); F moves before: dropped
    d2 = _until(lambda: now_to_act().get(first), "F to act again")
    d2_seq = _until(
        lambda: next((r["seq"] for r in outbox() if subs[r["sub_id"]][0] == first
                      and r["kind"] == "turn" and r["state"] == "pending"), None),
        "F's delayed your-move in the outbox",
    )  # fmt: skip
    assert d2["since"] > t0 + 46 * HOUR
    at(47)
    move(first)
    d3 = _until(lambda: now_to_act().get(second), "S to act again")
    at(60)  # F's delayed message is due: the move is made, it is not sent
    _until(lambda: rows_of(first, "turn", d2_seq, "stale"), "F's your-move dropped")
    d3_seq = _until(
        lambda: next((r["seq"] for r in outbox() if subs[r["sub_id"]][0] == second
                      and r["kind"] == "turn" and r["state"] == "pending"), None),
        "S's delayed your-move in the outbox",
    )  # fmt: skip
    assert delivered() == {
        (s, c): expected[s] for s in (0, 1) for c in ("email", "push", "webhook")
    }

    # ----- every process stopped; the clock moves on while none runs; all started again
    for i in range(len(servers.procs)):
        servers.stop(i)
    at(93)
    for i in range(len(servers.procs)):
        servers.start(i)
    told((second, ("turn",)))  # its period over: S's your-move, once
    assert rows_of(second, "turn", d3_seq, "sent")

    # ----- S's clock runs out (deadline 47 + 48 + 24 = 119 h): the reminder and the news
    assert d3["deadline"] == pytest.approx(d3["since"] + MOVE_TIME + BANK, abs=1)
    at(122)
    told((second, ("remind", "late")), (first, ("late",)))
    _until(lambda: now_to_act()[second]["late"], "S late")

    async def bot_for_the_late_seat() -> None:
        chooser = Client(servers.base(), code, tokens[first])
        assert (await chooser.connect())["type"] == "snapshot"
        await chooser.send({"type": "late", "choice": "bot"})
        said = await chooser.expect("late")
        assert said["choice"]["seat"] == second and said["choice"]["by"] == first
        await chooser.close()

    run(bot_for_the_late_seat())
    _until(lambda: first in now_to_act(), "the bot made S's move")

    # ----- d4: F's your-move; a restart of the first process; then the game to its end
    told((first, ("turn",)))
    servers.restart(0)
    while True:
        waiting = now_to_act()
        if not waiting:
            break
        ((seat, seat_clock),) = waiting.items()
        clock.to(float(seat_clock["since"]) + (47 if seat == first else 40) * HOUR)
        move(seat)

        def next_or_over() -> tuple[str, dict[int, dict[str, Any]]] | None:
            info = _info(servers.base(), code)
            waiting = _to_act(info)
            return (info["status"], waiting) if waiting or info["status"] == "finished" else None

        status, waiting = _until(next_or_over, "the next seat to act, or the end")
        if status == "finished":
            break
        told((next(iter(waiting)), ("turn",)))
    info = _info(servers.base(), code)
    assert info["status"] == "finished"
    assert clock.now() - t0 >= 7 * 24 * HOUR  # a week of play, on the servers' clock

    # ----- everything still in the outbox falls due: nothing more is sent
    clock.to(clock.now() + 10 * 24 * HOUR)
    _until(lambda: all(r["state"] in ("sent", "stale") for r in outbox()), "the outbox done")
    final = delivered()
    assert final == {(s, c): expected[s] for s in (0, 1) for c in ("email", "push", "webhook")}
    kinds = {s: [k for m in expected[s] for k in m] for s in (0, 1)}
    assert kinds[first].count("remind") == 0 and kinds[first].count("late") == 1
    assert (kinds[second].count("remind"), kinds[second].count("late")) == (1, 1)
    # d0, d4 and d1, d3, then one per decision of the rest (the game is 5 to 8 long)
    assert kinds[first].count("turn") >= 2 and kinds[second].count("turn") >= 2

    # every mail over STARTTLS, with the room's link and an unsubscribe link; the push
    # and webhook bodies say whose clock ran out; no seat token in any byte sent
    assert all(box.tls) and box.messages
    for mail in box.messages:
        plain = mail.get_body(("plain",)).get_content()
        assert f"{PUBLIC}/r/{code}" in plain and f"{PUBLIC}/notify/unsubscribe?token=" in plain
        assert not any(t in mail.as_string() for t in tokens)
    for r in receiver.got:
        seat = int(r.path.rsplit("/", 1)[1])
        if r.path.startswith("/push/"):
            data = browsers[seat].decrypt(r.body)
        else:
            stamp, signature = r.headers["Gamenight-Timestamp"], r.headers["Gamenight-Signature"]
            mac = hmac.new(secrets[seat].encode(), f"{stamp}.".encode() + r.body, hashlib.sha256)
            assert signature == "v1=" + mac.hexdigest()
            data = json.loads(r.body)
            if data["events"][0]["kind"] == "turn":
                assert data["subject"] == "gamenight: du bist in 1 Raum am Zug"
        assert not any(t in json.dumps(data) or t.encode() in r.body for t in tokens)
        for e in data["events"]:
            if e["kind"] == "late":
                assert (e["seat"], e["mine"]) == (second, seat == second)

    # the bot's move for the late seat is marked in the record, and only it
    record = httpx.get(f"{servers.base()}/api/rooms/{code}/record", timeout=30).text
    actions = [json.loads(x) for x in record.splitlines() if x.strip()]
    marked = {(a["seat"], a["by"]) for a in actions if a.get("type") == "action" and "by" in a}
    assert marked == {(second, "clock")}


def test_a_late_seat_is_told_with_its_reminder_whichever_process_claims(
    db_url: str, receiver: Receiver
) -> None:
    """Two processes' clocks differ by a little (each reads its own). The one ahead makes
    the "late" row; the other, behind it but past the deadline too, claims the seat's
    due rows: the reminder and the news go out in one message, not two (the row is due
    when the deadline passed, not at the sweeping process's "now")."""
    from notify_kit import Tables
    from sqlalchemy.ext.asyncio import create_async_engine

    from gamenight.server.dburl import normalise_url
    from gamenight.server.notify.deliver import Channels, Notifier
    from gamenight.server.notify.store import NotifyStore
    from gamenight.server.notify.sweep import sweep

    t0 = 1_800_000_000.0
    tables = Tables(db_url)
    room = tables.room("LATE1")
    tables.subscribe(room, 0, "webhook", f"{receiver.url}/hook", secret="k")
    tables.turn(room, 0, 1, t0, t0 + 12 * HOUR)
    tables.close()

    async def main() -> None:
        engine = create_async_engine(normalise_url(db_url))
        try:
            store = NotifyStore(engine)
            channels = Channels(PUBLIC, None, allow_private=True)
            assert await Notifier(store, channels, lambda: t0).once() == 1  # "your move"
            await sweep(store, t0 + 12 * HOUR + 2)  # the process ahead: the news made
            behind = Notifier(store, channels, lambda: t0 + 12 * HOUR + 1)  # past it too
            assert await behind.once() == 1
        finally:
            await engine.dispose()

    asyncio.run(main())
    kinds = [tuple(e["kind"] for e in json.loads(r.body)["events"]) for r in receiver.got]
    assert kinds == [("turn",), ("remind", "late")]


def test_the_notifier_follows_the_rooms_clock_set_after_the_start(
    sqlite_url: str, receiver: Receiver
) -> None:
    """A test (or anything) that sets ``Services.clock`` on a running server moves the
    notifier's clock too: the reminder comes when the rooms' clock says so."""
    from harness import ThreadServer

    now = [time.time()]
    with ThreadServer(
        sqlite_url, notify_every=0.1, notify_private=True, turn_sweep=0.1, public_url=PUBLIC
    ) as server:
        server.hub.services.clock = lambda: now[0]
        room = {"pace": "turn-based", "move_time": 12 * 3600, "time_bank": 0}
        code = create_room(server.url, "dice-duel", ["human", "human"], room=room)["code"]
        tokens = [claim(server.url, code, s, f"P{s}") for s in (0, 1)]
        ((seat, _),) = _to_act(_info(server.url, code)).items()
        made = httpx.post(
            f"{server.url}/api/notify/subscriptions",
            params={"room": code, "seat": str(seat)},
            headers={"Authorization": f"Bearer {tokens[seat]}", "Origin": server.url},
            json={"channel": "webhook", "target": f"{receiver.url}/hook"},
        )
        assert made.status_code == 201, made.text
        _until(lambda: len(receiver.got) == 1, "the your-move message", timeout=30)
        now[0] += 10 * HOUR  # 2 h left: past the reminder's time (3 h before)
        _until(lambda: len(receiver.got) == 2, "the reminder", timeout=30)
    kinds = [tuple(e["kind"] for e in json.loads(r.body)["events"]) for r in receiver.got]
    assert kinds == [("turn",), ("remind",)]
