"""Player entropy in a room (issue 24): every seated player adds a contribution after the
server committed to its seed; the dice seed is derived from both, the record holds them
all, and a seat that stays silent gets the server's part after ``contribute_wait``."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from harness import Client, ThreadServer, claim, create_room, run

from gamenight.core.record import parse_record, replay
from gamenight.core.seeds import PLAYERS, commitment, dice_seed, server_part

WAIT = 0.4  # contribute_wait of these servers, seconds
A_PART, B_PART = "c0ntrib-A-7e1f", "c0ntrib-B-92ab"


@pytest.fixture
def quick(sqlite_url: str) -> Iterator[ThreadServer]:
    with ThreadServer(sqlite_url, contribute_wait=WAIT) as running:
        yield running


def _info(server: ThreadServer, code: str) -> dict[str, Any]:
    info: dict[str, Any] = httpx.get(f"{server.url}/api/rooms/{code}").json()
    return info


async def _play_out(server: ThreadServer, code: str, tokens: list[str]) -> None:
    clients = [Client(server.url, code, t) for t in tokens]
    for c in clients:
        await c.connect()
    await asyncio.gather(*(c.play_randomly(random.Random(3)) for c in clients))
    for c in clients:
        await c.close()


def _reaches(server: ThreadServer, code: str, status: str) -> dict[str, Any]:
    """The room's info once it has ``status`` (polled; bounded for a loaded machine)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        info = _info(server, code)
        if info["status"] == status:
            return info
        run(asyncio.sleep(0.05))
    raise AssertionError(f"room {code} never became {status}")


def _finished(server: ThreadServer, code: str) -> dict[str, Any]:
    return _reaches(server, code, "finished")


def test_claims_with_contributions_begin_at_once_and_the_record_carries_them(
    server: ThreadServer,
) -> None:
    created = create_room(server.url, "dice-duel", ["human", "human", "bot:random"])
    code = created["code"]
    tokens = [claim(server.url, code, 0, "Ann", "a" * 32), claim(server.url, code, 1, "Bo", "b b")]
    info = _info(server, code)
    assert info["status"] == "playing" and info["entropy"] == PLAYERS
    assert [s["contributed"] for s in info["seats"]] == [True, True, False]
    assert info["contributions"] is None and info["seed"] is None  # secret until the end
    run(_play_out(server, code, tokens))
    info = _finished(server, code)
    parts = [{"seat": 0, "by": "player", "value": "a" * 32}]
    parts += [{"seat": 1, "by": "player", "value": "b b"}, {"seat": 2, "by": "bot", "value": None}]
    assert info["contributions"] == parts
    seed = int(info["seed"])
    bound = commitment(seed, "dice-duel", info["rules_version"], info["options"], entropy=PLAYERS)
    assert bound == created["commitment"]
    text = httpx.get(f"{server.url}/api/rooms/{code}/record").text
    record = parse_record(text.splitlines())
    assert record.entropy == PLAYERS and [c.to_json() for c in record.contributions] == parts
    assert record.dice_seed() == dice_seed(seed, ["a" * 32, "b b", None]) != seed
    assert replay(record).finished


def test_a_silent_seat_holds_the_room_waiting(sqlite_url: str) -> None:
    with ThreadServer(sqlite_url, contribute_wait=3600) as server:  # the wait never ends here
        code = create_room(server.url, "dice-duel", ["human", "human"])["code"]
        claim(server.url, code, 0, "Ann", "mine")
        claim(server.url, code, 1, "Bo", None)
        info = _info(server, code)  # every seat claimed, one silent
        assert info["status"] == "waiting"
        assert [s["contributed"] for s in info["seats"]] == [True, False]


def test_a_silent_seat_gets_the_servers_part_after_the_wait(quick: ThreadServer) -> None:
    code = create_room(quick.url, "dice-duel", ["human", "human"])["code"]
    tokens = [claim(quick.url, code, 0, "Ann", "mine"), claim(quick.url, code, 1, "Bo", None)]
    info = _reaches(quick, code, "playing")
    assert all(s["contributed"] for s in info["seats"])
    run(_play_out(quick, code, tokens))
    finished = _finished(quick, code)
    parts = finished["contributions"]
    assert parts[0] == {"seat": 0, "by": "player", "value": "mine"}
    # issue 38: derived from the committed seed, never drawn after seeing seat 0's part
    assert parts[1] == {"seat": 1, "by": "server", "value": server_part(int(finished["seed"]), 1)}
    record = parse_record(httpx.get(f"{quick.url}/api/rooms/{code}/record").text.splitlines())
    assert record.contributions[1].by == "server" and replay(record).finished


def test_a_contribute_message_begins_the_game_and_is_taken_once(server: ThreadServer) -> None:
    code = create_room(server.url, "dice-duel", ["human", "human"])["code"]
    tokens = [claim(server.url, code, seat, f"P{seat}", None) for seat in (0, 1)]

    async def main() -> None:
        a, b = Client(server.url, code, tokens[0]), Client(server.url, code, tokens[1])
        watcher = Client(server.url, code)
        for c in (a, b, watcher):
            assert (await c.connect())["room"]["status"] == "waiting"
        spectator = await watcher.request({"type": "contribute", "value": "x"})
        assert spectator["code"] == "not_seated"
        for bad in ("", "tab\there", "x" * 201):
            answer = await a.request({"type": "contribute", "value": bad})
            assert answer["type"] == "error", answer
            assert answer["code"] in ("bad_message", "bad_contribution"), answer
        assert (await a.request({"type": "contribute", "value": A_PART}))["type"] == "ack"
        again = await a.request({"type": "contribute", "value": "second"})
        assert again["code"] == "bad_contribution" and "already" in again["message"]
        assert _info(server, code)["status"] == "waiting"
        assert (await b.request({"type": "contribute", "value": B_PART}))["type"] == "ack"
        # the game began before the ack: every socket got the playing snapshot
        assert any(f["type"] == "snapshot" and f["room"]["status"] == "playing" for f in b.frames)
        late = await b.request({"type": "contribute", "value": "late"})
        assert late["code"] == "bad_contribution" and "begun" in late["message"]
        # a contribution is secret until the end: no other socket ever receives it
        assert A_PART not in "".join(watcher.raw + b.raw) and B_PART not in "".join(a.raw)
        for c in (a, b, watcher):
            await c.close()

    run(main())
    info = _info(server, code)
    assert info["status"] == "playing"


def test_the_hosts_start_fills_silent_seats_and_bots_contribute_nothing(
    server: ThreadServer,
) -> None:
    created = create_room(server.url, "dice-duel", ["human", "human", "human"])
    code = created["code"]
    token = claim(server.url, code, 0, "Ann", None)
    started = httpx.post(
        f"{server.url}/api/rooms/{code}/start",
        headers={"Authorization": f"Bearer {created['host_token']}"},
    )
    assert started.status_code == 200, started.text
    assert _info(server, code)["status"] == "playing"
    run(_play_out(server, code, [token]))
    parts = _finished(server, code)["contributions"]
    assert parts[0]["by"] == "server" and [p["by"] for p in parts[1:]] == ["bot", "bot"]


def test_a_claims_contribution_is_checked_like_text(server: ThreadServer) -> None:
    code = create_room(server.url, "dice-duel", ["human", "human"])["code"]
    for value, status in (("", 400), ("\x1b[31m", 400), ("y" * 201, 400)):
        answer = httpx.post(
            f"{server.url}/api/rooms/{code}/seats/0/claim",
            json={"name": "Ann", "contribution": value},
        )
        assert answer.status_code == status, answer.text
        assert answer.json()["code"] in ("bad_request", "bad_contribution")
        assert "\n" not in answer.json()["message"]
    assert not _info(server, code)["seats"][0]["claimed"]  # a refused claim changed nothing
