"""Security: tokens, seats, finished rooms, room options, plain-text user input."""

from __future__ import annotations

import hashlib
import random
import sqlite3
from pathlib import Path

import httpx
import pytest
from harness import Client, ThreadServer, claim, create_room, run

from gamenight.server.db import new_token


def test_forged_foreign_and_old_tokens_are_refused(server: ThreadServer) -> None:
    created = create_room(server.url, "dice-duel", ["human", "human"])
    code, host = created["code"], created["host_token"]
    other = create_room(server.url, "dice-duel", ["human", "human"])["code"]
    foreign = claim(server.url, other, 0, "Elsewhere")
    old = claim(server.url, code, 0, "First")
    freed = httpx.post(
        f"{server.url}/api/rooms/{code}/seats/0/release",
        headers={"Authorization": f"Bearer {host}"},
    )
    assert freed.status_code == 200

    async def main() -> None:
        for token in (new_token(), foreign, old, host, "", "x" * 5000):
            reply = await Client(server.url, code, token).connect()
            assert reply["type"] == "error", token
            assert reply["code"] in ("bad_token", "too_large")

    run(main())


def test_tokens_are_stored_only_as_hashes(sqlite_url: str, tmp_path: Path) -> None:
    with ThreadServer(sqlite_url) as server:
        created = create_room(server.url, "dice-duel", ["human", "human"])
        token = claim(server.url, created["code"], 0, "Ann")
    assert len(token) >= 22  # >= 128 bits, URL-safe
    dump = "\n".join(sqlite3.connect(tmp_path / "server.sqlite3").iterdump())
    assert token not in dump and created["host_token"] not in dump
    assert hashlib.sha256(token.encode()).hexdigest() in dump


def test_host_actions_need_the_host_token(server: ThreadServer) -> None:
    created = create_room(server.url, "dice-duel", ["human", "human"])
    code = created["code"]
    seat_token = claim(server.url, code, 0, "Ann")
    for headers in ({}, {"Authorization": f"Bearer {seat_token}"}, {"Authorization": "Basic x"}):
        response = httpx.post(f"{server.url}/api/rooms/{code}/start", headers=headers)
        assert response.status_code in (401, 403)
    assert httpx.get(f"{server.url}/api/rooms/{code}").json()["status"] == "waiting"


def test_acting_for_another_seat_is_refused(server: ThreadServer) -> None:
    code = create_room(server.url, "wurfeltod", ["human", "human"])["code"]
    tokens = [claim(server.url, code, s, f"P{s}") for s in (0, 1)]

    async def main() -> None:
        a, b = Client(server.url, code, tokens[0]), Client(server.url, code, tokens[1])
        await a.connect()
        await b.connect()
        mover, waiter = (a, b) if a.state["legal"] else (b, a)
        reply = await waiter.act(mover.state["legal"][0])
        assert reply["type"] == "error" and reply["code"] == "illegal"
        await waiter.send(
            {
                "type": "act",
                "action": mover.state["legal"][0],
                "expected_seq": 0,
                "seat": mover.seat,
            }
        )
        forged = await waiter.expect("error")
        assert forged["code"] == "bad_message"  # there is no seat field to forge
        spectator = Client(server.url, code)
        await spectator.connect()
        assert (await spectator.act(mover.state["legal"][0]))["code"] == "not_seated"
        assert server.hub.rooms[code].seq == 0
        for c in (a, b, spectator):
            await c.close()

    run(main())


def test_acting_in_a_finished_room_is_refused(server: ThreadServer) -> None:
    code = create_room(server.url, "wurfeltod", ["human"])["code"]
    token = claim(server.url, code, 0, "Solo")

    async def main() -> None:
        c = Client(server.url, code, token)
        await c.connect()
        first = c.state["legal"][0]
        await c.play_randomly(random.Random(4))
        reply = await c.act(first)
        assert reply["code"] == "finished"
        assert (await c.request({"type": "hint"}))["code"] in ("hints_off", "finished")
        await c.close()

    run(main())
    seq = httpx.get(f"{server.url}/api/rooms/{code}").json()["seq"]
    assert server.hub.rooms[code].seq == seq


@pytest.mark.parametrize(
    ("game", "options", "room"),
    [
        ("decades", {"deck": "/etc/passwd"}, {}),
        ("decades", {"deck": "../../secret.json"}, {}),
        ("decades", {"deck": "questions.csv"}, {}),
        ("decades", {"sides": "A/../B"}, {}),
        ("dice-duel", {"colour": "red"}, {}),
        ("dice-duel", {}, {"hints": True, "path": "/tmp/x"}),
        ("dice-duel", {}, {"deck": "/etc/passwd"}),
        ("dice-duel", {}, {"bot_pace": 1e9}),
        ("dice-duel", {}, {"takeover_bot": "../../bot"}),
    ],
)
def test_bad_room_options_are_refused(
    server: ThreadServer, game: str, options: dict[str, object], room: dict[str, object]
) -> None:
    response = httpx.post(
        f"{server.url}/api/rooms",
        json={"game": game, "seats": ["human", "human"], "options": options, "room": room},
    )
    assert response.status_code == 400, response.text
    assert httpx.get(f"{server.url}/api/rooms").json() == []


def test_bad_seats_and_games_are_refused(server: ThreadServer) -> None:
    for body in (
        {"game": "chess", "seats": ["human", "human"]},
        {"game": "dice-duel", "seats": ["human", "bot:../../x"]},
        {"game": "dice-duel", "seats": ["human"] * 9},
        {"game": "dice-duel", "seats": ["robot"]},
        {"game": "dice-duel", "seats": ["human", "human"], "extra": 1},
    ):
        response = httpx.post(f"{server.url}/api/rooms", json=body)
        assert response.status_code == 400, (body, response.text)


def test_names_are_checked_and_kept_as_text(server: ThreadServer) -> None:
    code = create_room(server.url, "dice-duel", ["human", "human"])["code"]
    for name in ("", "x" * 41, "a\nb", "\x1b[31mred"):
        response = httpx.post(f"{server.url}/api/rooms/{code}/seats/0/claim", json={"name": name})
        assert response.status_code == 400
    markup = "<b>Bo</b> [red]b[/red] &amp;"
    claim(server.url, code, 0, markup)
    seats = httpx.get(f"{server.url}/api/rooms/{code}").json()["seats"]
    assert seats[0]["name"] == markup
    page = httpx.get(f"{server.url}/r/{code}").text
    assert "<b>Bo</b>" not in page and "&lt;b&gt;Bo&lt;/b&gt;" in page
    taken = httpx.post(f"{server.url}/api/rooms/{code}/seats/0/claim", json={"name": "Again"})
    assert taken.status_code == 409
