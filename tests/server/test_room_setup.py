"""One room must never stop a restart: a setup is checked when the room is created, a
start that fails commits nothing, and a room that cannot be rebuilt is marked broken
while every other room goes on (issue 21, the blocker)."""

from __future__ import annotations

import logging
import random

import httpx
import pytest
import sqlalchemy as sa
from harness import Client, ProcessServer, ThreadServer, claim, create_room, run

from gamenight.server.db import sync_url
from gamenight.server.room import Room


@pytest.mark.parametrize(
    ("seats", "options", "says"),
    [
        (["bot:random", "bot:random"], {"mode": "solo"}, "solo variant is for 1 player"),
        (["human", "human"], {"mode": "solo"}, "solo variant is for 1 player"),
        (["human"], {"mode": "multi"}, "takes 2 to 6 players"),
        (["human"], {}, "takes 2 to 6 players"),
    ],
)
def test_a_setup_the_game_would_refuse_is_refused_when_the_room_is_created(
    server: ThreadServer, seats: list[str], options: dict[str, str], says: str
) -> None:
    answer = httpx.post(
        f"{server.url}/api/rooms", json={"game": "dice-duel", "seats": seats, "options": options}
    )
    assert answer.status_code == 400, answer.text
    body = answer.json()
    assert body["code"] == "bad_seats" and says in body["message"]
    assert "\n" not in body["message"]
    assert server.hub.rooms == {}  # nothing was created


def test_games_say_which_seat_counts_each_choice_allows(server: ThreadServer) -> None:
    games = {g["id"]: g for g in httpx.get(f"{server.url}/api/games").json()}
    mode = next(o for o in games["dice-duel"]["options"] if o["name"] == "mode")
    assert mode["seats"] == {"multi": [2, 6], "solo": [1, 1]}
    assert all(o["seats"] == {} for o in games["decathlon"]["options"])
    solo = create_room(server.url, "dice-duel", ["bot:random"], options={"mode": "solo"})
    assert solo["code"]


class Records(logging.Handler):
    """The records of the server's logger (uvicorn's logging setup bypasses caplog)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def __enter__(self) -> Records:
        logging.getLogger("gamenight.server").addHandler(self)
        return self

    def __exit__(self, *exc: object) -> None:
        logging.getLogger("gamenight.server").removeHandler(self)


def test_a_start_that_fails_commits_nothing_and_is_logged_once(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Any exception while starting: the room stays waiting (never `playing` without a
    table), the answer is a one-line 500 {code, message}, the log says it once with the
    room's code; and a restart is not stopped by the room."""
    real = Room.new_table

    def failing(self: Room) -> object:
        raise RuntimeError("a bug while dealing")

    with ThreadServer(sqlite_url) as server:
        code = create_room(server.url, "wurfeltod", ["human", "human"])["code"]
        claim(server.url, code, 0, "Ann")
        monkeypatch.setattr(Room, "new_table", failing)
        with Records() as caplog:
            last = httpx.post(
                f"{server.url}/api/rooms/{code}/seats/1/claim",
                json={"name": "Bo", "contribution": "b1"},
            )
        assert last.status_code == 500
        assert last.json()["code"] == "internal" and "\n" not in last.json()["message"]
        assert "Traceback" not in last.text
        mentions = [r for r in caplog.records if code in r.getMessage()]
        assert len(mentions) == 1, [r.getMessage() for r in caplog.records]
        assert httpx.get(f"{server.url}/api/rooms/{code}").json()["status"] == "waiting"
        monkeypatch.setattr(Room, "new_table", real)
    with ThreadServer(sqlite_url) as again:
        info = httpx.get(f"{again.url}/api/rooms/{code}").json()
        assert info["status"] == "waiting"


def _plant(db_url: str, good_rooms: list[str]) -> dict[str, str]:
    """Rooms no server could rebuild, written straight into the database: a setup the
    game refuses, an action log that does not replay, a game that is not installed."""
    engine = sa.create_engine(sync_url(db_url))
    planted: dict[str, str] = {}
    try:
        with engine.begin() as conn:
            rooms = sa.table(
                "rooms",
                sa.column("id"),
                sa.column("code"),
                sa.column("status"),
                sa.column("options"),
                sa.column("game"),
                sa.column("seq"),
            )
            actions = sa.table(
                "actions",
                sa.column("room_id"),
                sa.column("seq"),
                sa.column("seat"),
                sa.column("action"),
                sa.column("by"),
                sa.column("at"),
            )
            ids = dict(
                conn.execute(
                    sa.select(rooms.c.code, rooms.c.id).where(rooms.c.code.in_(good_rooms[1:]))
                ).all()
            )
            solo, bad_log, unknown = good_rooms[1:]
            conn.execute(
                rooms.update()
                .where(rooms.c.code == solo)
                .values(status="playing", options='{"mode": "solo"}')
            )
            planted[solo] = "solo variant is for 1 player"
            conn.execute(
                actions.insert().values(
                    room_id=ids[bad_log],
                    seq=1,
                    seat=0,
                    action='{"type": "no-such"}',
                    by="human",
                    at=0,
                )
            )
            conn.execute(
                rooms.update().where(rooms.c.code == bad_log).values(status="playing", seq=1)
            )
            planted[bad_log] = "malformed"
            conn.execute(
                rooms.update()
                .where(rooms.c.code == unknown)
                .values(status="playing", game="no-such-game")
            )
            planted[unknown] = "unknown game"
    finally:
        engine.dispose()
    return planted


def _log(server: ProcessServer) -> str:
    server.log.seek(0)
    return server.log.read().decode(errors="replace")


def test_a_room_that_cannot_be_rebuilt_does_not_stop_a_restart(db_url: str) -> None:
    """A real process restart on SQLite and PostgreSQL: the server starts, the planted
    rooms are broken (logged once each, with their codes), the others go on."""
    server = ProcessServer(db_url).start()
    try:
        good = create_room(server.url, "dice-duel", ["human", "human"])["code"]
        tokens = [claim(server.url, good, seat, f"P{seat}") for seat in (0, 1)]
        victims = [create_room(server.url, "dice-duel", ["human", "human"])["code"] for _ in "abc"]
        for code in victims:  # begun as any room is: both seats claimed, with their parts
            for seat in (0, 1):
                claim(server.url, code, seat, f"V{seat}")
    finally:
        server.stop()
    planted = _plant(db_url, [good, *victims])

    server = ProcessServer(db_url, port=server.port).start()  # would exit with status 3
    try:
        for code, reason in planted.items():
            answer = httpx.get(f"{server.url}/api/rooms/{code}")
            if reason == "unknown game":  # not installed here: unavailable, not broken
                assert answer.status_code == 503, answer.text
                assert answer.json()["code"] == "room_unavailable", answer.text
                continue
            info = answer.json()
            assert info["status"] == "broken", info
            assert any("cannot continue" in n and reason in n for n in info["notes"]), info
            record = httpx.get(f"{server.url}/api/rooms/{code}/record")
            assert record.status_code == 409 and record.json()["code"] == "broken"
            page = httpx.get(f"{server.url}/r/{code}")
            assert page.status_code == 200 and "cannot continue" in page.text
        log = _log(server)
        for code in planted:
            assert log.count(code) == 1, log  # once, with its code
        assert "Traceback" not in log

        async def play() -> None:
            clients = [Client(server.url, good, t) for t in tokens]
            for c in clients:
                assert (await c.connect())["type"] == "snapshot"
            mover = next(c for c in clients if c.state["legal"])
            reply = await mover.act(random.Random(1).choice(mover.state["legal"]))
            assert reply["type"] == "ack", reply
            other = next(c for c in clients if c is not mover)
            seen = await other.expect("events")
            assert seen["seq"] == reply["seq"]
            for c in clients:
                await c.close()

        run(play())
    finally:
        server.stop()
    again = ProcessServer(db_url, port=server.port).start()  # broken stays broken, quietly
    try:
        assert httpx.get(f"{again.url}/api/rooms/{victims[0]}").json()["status"] == "broken"
        assert httpx.get(f"{again.url}/api/rooms/{good}").json()["status"] == "playing"
        broken = [code for code, reason in planted.items() if reason != "unknown game"]
        assert not any(code in _log(again) for code in broken)  # logged once, not per start
        unknown = next(code for code, reason in planted.items() if reason == "unknown game")
        assert _log(again).count(unknown) == 1  # unavailable: said once a start, kept playing
    finally:
        again.stop()


def test_acting_in_a_broken_room_is_refused(db_url: str) -> None:
    with ThreadServer(db_url) as server:
        code = create_room(server.url, "dice-duel", ["human", "human"])["code"]
        token = claim(server.url, code, 0, "Ann")
    engine = sa.create_engine(sync_url(db_url))
    with engine.begin() as conn:
        conn.execute(
            sa.text("UPDATE rooms SET status = 'playing', options = :o WHERE code = :c"),
            {"o": '{"mode": "solo"}', "c": code},
        )
    engine.dispose()
    with ThreadServer(db_url) as server:

        async def main() -> None:
            client = Client(server.url, code, token)
            snap = await client.connect()
            assert snap["type"] == "snapshot" and snap["room"]["status"] == "broken"
            reply = await client.act({"type": "roll"}, expected_seq=0)
            assert reply["type"] == "error" and reply["code"] == "closed"
            await client.close()

        run(main())


def test_any_unexpected_failure_is_a_logged_500_with_code_and_message(
    server: ThreadServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = create_room(server.url, "dice-duel", ["human", "human"])["code"]

    async def broken_claim(self: Room, seat: int, name: str) -> str:
        raise KeyError("a bug")

    monkeypatch.setattr(Room, "claim", broken_claim)
    with Records() as records:
        answer = httpx.post(f"{server.url}/api/rooms/{code}/seats/0/claim", json={"name": "A"})
    assert answer.status_code == 500
    body = answer.json()
    assert set(body) == {"code", "message"} and body["code"] == "internal"
    assert body["message"].startswith("the server failed (request ")  # the log's request id
    mentions = [r for r in records.records if code in r.getMessage()]
    assert len(mentions) == 1 and mentions[0].exc_info is not None


def test_a_start_another_process_won_catches_up_without_a_deadlock(
    server: ThreadServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The start is committed by someone else (this process's start_room finds the room
    begun): the room catches up under its lock and plays."""
    code = create_room(server.url, "dice-duel", ["human", "human"])["code"]
    claim(server.url, code, 0, "Ann")
    store = server.hub.store
    real = store.start_room

    async def lost_race(room_id: int, bots: dict[int, str], fill: dict[int, str]) -> None:
        await real(room_id, bots, fill)  # as if another process had begun it first
        return None

    monkeypatch.setattr(store, "start_room", lost_race)
    answer = httpx.post(
        f"{server.url}/api/rooms/{code}/seats/1/claim",
        json={"name": "Bo", "contribution": "b1"},
        timeout=60,
    )
    assert answer.status_code == 200, answer.text
    info = httpx.get(f"{server.url}/api/rooms/{code}").json()
    assert info["status"] == "playing"
    assert server.hub.rooms[code].table is not None
