"""The "your turn" list (issue 44): GET /api/account/turns for an account's seats on every
device, POST /api/turns for the seats whose tokens a guest holds. Over real HTTP on
SQLite and PostgreSQL; the ``turns`` rows (the contract h-turnroom's clock writes: one
per seat to act, ``since`` when the decision began, ``deadline`` when its clock runs
out) are written here directly, and the server's clock is faked, so a list of days is
checked without waiting."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from harness import ThreadServer
from sqlalchemy import create_engine, delete, insert, update

from gamenight.server.dburl import sync_url
from gamenight.server.storage.schema import ROOMS, TURNS

PASSWORD = "correct horse battery"
HOUR = 3600.0
NOW = 1_900_000_000.0  # the faked server clock
TURN_BASED = {"pace": "turn-based", "move_time": 24 * 3600, "bot_pace": 0}


@pytest.fixture
def srv(db_url: str) -> Iterator[ThreadServer]:
    with ThreadServer(db_url) as running:
        running.hub.services.clock = lambda: NOW
        yield running


def _client(srv: ThreadServer) -> httpx.Client:
    return httpx.Client(base_url=srv.url, headers={"Origin": srv.url}, timeout=30)


def _account(srv: ThreadServer, name: str) -> httpx.Client:
    c = _client(srv)
    r = c.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return c


def _room(
    srv: ThreadServer, host: httpx.Client, guest: httpx.Client | None = None
) -> tuple[str, list[str]]:
    """A turn-based decathlon room of two people, both seats claimed (by ``host`` and
    ``guest``, signed in or not), the game begun: its code and the two seat tokens."""
    made = host.post(
        "/api/rooms", json={"game": "decathlon", "seats": ["human", "human"], "room": TURN_BASED}
    )
    assert made.status_code == 201, made.text
    code = made.json()["code"]
    tokens = []
    for seat, (c, name) in enumerate(((host, "Ann"), (guest or _client(srv), "Bob"))):
        r = c.post(
            f"/api/rooms/{code}/seats/{seat}/claim", json={"name": name, "contribution": f"p{seat}"}
        )
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    deadline = time.monotonic() + 20
    while host.get(f"/api/rooms/{code}").json()["status"] != "playing":
        assert time.monotonic() < deadline, "the game did not begin"
        time.sleep(0.05)
    return code, tokens


def _to_act(srv: ThreadServer, code: str, seat: int, since: float, deadline: float | None) -> None:
    """Make ``seat`` the room's one seat to act, as a turn-based room's move would: its
    ``turns`` row replaces those the room's start wrote."""
    room_id = srv.hub.rooms[code].id
    engine = create_engine(sync_url(srv.hub.store.url))
    try:
        with engine.begin() as conn:
            conn.execute(delete(TURNS).where(TURNS.c.room_id == room_id))
            conn.execute(
                insert(TURNS).values(
                    room_id=room_id, seat=seat, seq=1, since=since, deadline=deadline
                )
            )
    finally:
        engine.dispose()


def _set_status(srv: ThreadServer, code: str, status: str) -> None:
    engine = create_engine(sync_url(srv.hub.store.url))
    try:
        with engine.begin() as conn:
            conn.execute(update(ROOMS).where(ROOMS.c.code == code).values(status=status))
    finally:
        engine.dispose()


def _rooms(answer: httpx.Response) -> list[tuple[str, int]]:
    assert answer.status_code == 200, answer.text
    return [(t["room"], t["seat"]) for t in answer.json()["turns"]]


def test_an_account_sees_its_turns_on_every_device_nearest_deadline_first(
    srv: ThreadServer,
) -> None:
    ann = _account(srv, "Ann")
    bob = _account(srv, "Bob")
    slow, _ = _room(srv, ann, bob)  # waiting 3 h, 21 h left
    quick, _ = _room(srv, ann, bob)  # waiting 1 h, 2 h left: first
    calm, _ = _room(srv, ann, bob)  # no clock: last
    theirs, _ = _room(srv, ann, bob)  # Bob's move, not Ann's
    _to_act(srv, slow, 0, NOW - 3 * HOUR, NOW + 21 * HOUR)
    _to_act(srv, quick, 0, NOW - 1 * HOUR, NOW + 2 * HOUR)
    _to_act(srv, calm, 0, NOW - 9 * HOUR, None)
    _to_act(srv, theirs, 1, NOW - 5 * HOUR, NOW + 1 * HOUR)

    answer = ann.get("/api/account/turns")
    assert _rooms(answer) == [(quick, 0), (slow, 0), (calm, 0)]
    body = answer.json()
    assert body["now"] == NOW
    first = body["turns"][0]
    assert first["game"] == "decathlon" and first["invite"] == f"/r/{quick}"
    assert first["waiting"] == HOUR and first["left"] == 2 * HOUR and not first["late"]
    assert first["others"] == [{"seat": 1, "kind": "human", "bot": "", "name": "Bob"}]
    assert body["turns"][2]["deadline"] is None and body["turns"][2]["left"] is None
    # the same account on another device: the same list
    elsewhere = _client(srv)
    signin = elsewhere.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD})
    assert signin.status_code == 200
    assert _rooms(elsewhere.get("/api/account/turns")) == [(quick, 0), (slow, 0), (calm, 0)]
    assert _rooms(bob.get("/api/account/turns")) == [(theirs, 1)]


def test_a_late_clock_and_rooms_over_are_told_apart(srv: ThreadServer) -> None:
    ann = _account(srv, "Ann")
    late, _ = _room(srv, ann)
    over, _ = _room(srv, ann)
    _to_act(srv, late, 0, NOW - 30 * HOUR, NOW - 6 * HOUR)
    _to_act(srv, over, 0, NOW - 2 * HOUR, NOW + 2 * HOUR)
    _set_status(srv, over, "finished")  # a row left behind lists nothing
    answer = ann.get("/api/account/turns")
    assert _rooms(answer) == [(late, 0)]
    row = answer.json()["turns"][0]
    assert row["late"] and row["left"] == -6 * HOUR and row["waiting"] == 30 * HOUR


def test_a_guest_is_answered_only_for_the_tokens_it_holds(srv: ThreadServer) -> None:
    host = _client(srv)
    code, (ann, bob) = _room(srv, host)
    other, (carl, _dora) = _room(srv, host)
    _to_act(srv, code, 0, NOW - 2 * HOUR, NOW + 10 * HOUR)
    _to_act(srv, other, 0, NOW - 1 * HOUR, NOW + 1 * HOUR)

    def ask(seats: list[dict[str, Any]]) -> httpx.Response:
        return host.post("/api/turns", json={"seats": seats})

    assert _rooms(ask([{"code": code, "seat": 0, "token": ann}])) == [(code, 0)]
    # the list reads the database alone: a room this process does not hold stays unloaded
    srv.hub.rooms.pop(code)
    assert _rooms(ask([{"code": code, "seat": 0, "token": ann}])) == [(code, 0)]
    assert code not in srv.hub.rooms
    # Bob's seat is not to act; a wrong token, a token of another seat or room: nothing
    nothing = [
        {"code": code, "seat": 1, "token": bob},
        {"code": code, "seat": 0, "token": bob},
        {"code": code, "seat": 0, "token": "x" * 43},
        {"code": other, "seat": 0, "token": ann},
        {"code": "no-such-room", "seat": 0, "token": ann},
    ]
    empty = ask(nothing)
    assert empty.json() == {"now": NOW, "turns": []}
    mixed = ask(
        [
            *nothing,
            {"code": other, "seat": 0, "token": carl},
            {"code": code, "seat": 0, "token": ann},
        ]
    )
    assert _rooms(mixed) == [(other, 0), (code, 0)]
    assert _rooms(ask([])) == []


def test_the_turn_routes_refuse_what_every_route_refuses(server: ThreadServer) -> None:
    plain = httpx.Client(base_url=server.url, timeout=30)
    seat = {"code": "abc", "seat": 0, "token": "t"}
    refused = plain.get("/api/account/turns")
    assert refused.status_code == 401 and refused.json()["code"] == "not_signed_in"
    # another site's page, a form post, a body too long or with unknown fields
    foreign = plain.post(
        "/api/turns", json={"seats": [seat]}, headers={"Origin": "https://evil.example"}
    )
    assert foreign.status_code == 403 and foreign.json()["code"] == "bad_origin"
    form = plain.post("/api/turns", content='{"seats": []}', headers={"Content-Type": "text/plain"})
    assert form.status_code == 415
    many = plain.post("/api/turns", json={"seats": [seat] * 201})
    assert many.status_code == 400 and many.json()["code"] == "bad_request"
    unknown = plain.post("/api/turns", json={"seats": [], "more": 1})
    assert unknown.status_code == 400
    wrong = plain.post("/api/turns", json={"seats": [{**seat, "seat": -1}]})
    assert wrong.status_code == 400 and "\n" not in wrong.json()["message"]
    assert plain.post("/api/turns", json={"seats": [seat] * 200}).json()["turns"] == []


def test_the_lobby_lists_a_rooms_pace(server: ThreadServer) -> None:
    c = _client(server)
    for room in (TURN_BASED, {"bot_pace": 0}):
        made = c.post(
            "/api/rooms",
            json={"game": "decathlon", "seats": ["human", "human"], "public": True, "room": room},
        )
        assert made.status_code == 201, made.text
    listed = {(r["pace"], r["move_time"]) for r in c.get("/api/rooms").json()}
    assert listed == {("turn-based", 24 * 3600), ("live", None)}
