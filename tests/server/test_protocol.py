"""The HTTP API and the WebSocket protocol over real sockets (uvicorn on loopback)."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from harness import Client, ThreadServer, claim, create_room, run

from gamenight.core.advice import Advice, Objective, Option
from gamenight.core.record import parse_record, replay
from gamenight.core.seeds import commitment
from gamenight.server.protocol import MAX_FRAME_BYTES, json_schema

ROOT = Path(__file__).resolve().parents[2]


def test_pages_api_and_openapi(server: ThreadServer) -> None:
    page = httpx.get(server.url + "/")
    assert page.status_code == 200
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "Dice Duel" in page.text
    openapi = httpx.get(server.url + "/schema/openapi.json").json()
    assert "/api/rooms" in openapi["paths"]
    rules = httpx.get(server.url + "/api/games/wurfeltod/rules")
    assert rules.status_code == 200 and "Wurfeltod" in rules.text
    assert httpx.get(server.url + "/api/games/chess/rules").status_code == 404
    # the rules in a language (issue 26): English when missing, one line for a bad one
    polish = httpx.get(server.url + "/api/games/decathlon/rules?lang=pl")
    assert polish.status_code == 200 and "Skok w dal" in polish.text
    assert polish.headers["content-language"] == "pl"
    bad = httpx.get(server.url + "/api/games/decathlon/rules?lang=xx")
    assert bad.status_code == 400 and bad.json()["code"] == "bad_request"
    assert bad.json()["message"] == "unknown language 'xx': choose one of en, de, pl"
    games = httpx.get(server.url + "/api/games").json()
    assert {g["id"] for g in games} >= {"decathlon", "dice-duel", "wurfeltod", "decades"}
    created = create_room(server.url, "dice-duel", ["human", "bot:random"], public=True)
    info = httpx.get(server.url + f"/api/rooms/{created['code']}").json()
    assert info["status"] == "waiting" and info["seed"] is None
    assert info["commitment"] == created["commitment"]
    lobby = httpx.get(server.url + "/api/rooms").json()
    assert created["code"] in {r["code"] for r in lobby}
    invite = httpx.get(server.url + created["invite"])
    assert invite.status_code == 200 and "content-security-policy" in invite.headers
    private = create_room(server.url, "dice-duel", ["human", "human"])
    assert private["code"] not in {r["code"] for r in httpx.get(server.url + "/api/rooms").json()}
    assert httpx.get(server.url + "/api/rooms/nope").status_code == 404


def test_published_schema_matches_the_types(server: ThreadServer) -> None:
    served = httpx.get(server.url + "/api/protocol/schema").json()
    assert served == json.loads(json.dumps(json_schema()))
    on_disk = json.loads((ROOT / "docs" / "protocol-schema.json").read_text())
    assert on_disk == served, "regenerate docs/protocol-schema.json (see docs/protocol.md)"


def test_full_game_two_humans_record_replays(server: ThreadServer) -> None:
    created = create_room(server.url, "dice-duel", ["human", "human"])
    code = created["code"]
    tokens = [claim(server.url, code, seat, f"P{seat}") for seat in (0, 1)]

    async def main() -> None:
        clients = [Client(server.url, code, t) for t in tokens]
        for c in clients:
            snap = await c.connect()
            assert snap["type"] == "snapshot" and snap["room"]["status"] == "playing"
        rng = random.Random(1)
        await asyncio.gather(*(c.play_randomly(rng) for c in clients))
        for _ in range(50):
            if any(
                f["type"] == "room" and f["room"]["status"] == "finished" for f in clients[0].frames
            ):
                break
            await asyncio.sleep(0.05)
        rooms = [f["room"] for f in clients[0].frames if f["type"] == "room"]
        assert rooms[-1]["status"] == "finished" and rooms[-1]["seed"] is not None
        assert all(r["seed"] is None for r in rooms if r["status"] != "finished")
        for c in clients:
            await c.close()

    run(main())
    info = httpx.get(server.url + f"/api/rooms/{code}").json()
    assert info["status"] == "finished" and info["seed"] is not None
    seed = int(info["seed"])
    # the commitment binds player entropy; each seat's part is the one its claim carried
    assert info["entropy"] == "players-v2"
    assert (
        commitment(seed, "dice-duel", info["rules_version"], info["options"], entropy="players-v2")
        == created["commitment"]
    )
    assert info["contributions"] == [
        {"seat": 0, "by": "player", "value": "P0-0"},
        {"seat": 1, "by": "player", "value": "P1-1"},
    ]
    record = httpx.get(server.url + f"/api/rooms/{code}/record")
    assert record.status_code == 200
    report = replay(parse_record(record.text.splitlines()))
    assert report.actions == info["seq"]


def test_reconnect_catches_up_and_stale_is_refused(server: ThreadServer) -> None:
    code = create_room(server.url, "wurfeltod", ["human", "human"])["code"]
    tokens = [claim(server.url, code, seat, f"P{seat}") for seat in (0, 1)]

    async def main() -> None:
        a, b = Client(server.url, code, tokens[0]), Client(server.url, code, tokens[1])
        await a.connect()
        await b.connect()
        if not a.state["legal"]:
            a, b = b, a  # seat 1 begins
        first = a.state["legal"][0]
        seen = b.state["seq"]
        await b.close()
        rng = random.Random(2)
        acted = 0
        while a.state["legal"] and acted < 3:  # seat 0 plays while seat 1 is away
            reply = await a.act(rng.choice(a.state["legal"]))
            assert reply["type"] == "ack"
            acted += 1
        assert acted >= 1
        stale = await a.act(first, expected_seq=0)
        assert stale == {**stale, "type": "error", "code": "stale"}
        again = Client(server.url, code, b.token)
        snap = await again.connect(last_seq=seen)
        assert snap["seq"] == acted
        assert [e["seq"] for e in snap["events"]] and all(e["seq"] > seen for e in snap["events"])
        assert {e["seq"] for e in snap["events"]} <= set(range(1, acted + 1))
        await a.close()
        await again.close()

    run(main())


def test_bad_messages_change_nothing(server: ThreadServer) -> None:
    code = create_room(server.url, "dice-duel", ["human", "human"])["code"]
    tokens = [claim(server.url, code, seat, f"P{seat}") for seat in (0, 1)]

    async def main() -> None:
        c = Client(server.url, code, tokens[0])
        await c.connect()
        for frame, code_ in (
            ("not json", "bad_message"),
            (json.dumps({"type": "launch"}), "unknown_type"),
            (json.dumps({"type": "act"}), "bad_message"),
            ("x" * (MAX_FRAME_BYTES + 1), "too_large"),
            (json.dumps({"type": "hello", "protocol": 1}), "bad_message"),
        ):
            await c.send(frame)
            error = await c.expect("error")
            assert error["code"] == code_, (frame[:40], error)
        reply = await c.act({"type": "nonsense"})
        assert reply["code"] == "illegal"
        reply = await c.act("not an action")
        assert reply["code"] == "illegal"
        assert server.hub.rooms[code].seq == 0
        pong = await c.request({"type": "ping"})
        assert pong["type"] == "pong"
        await c.close()

    run(main())


def test_protocol_version_and_hello_first(server: ThreadServer) -> None:
    code = create_room(server.url, "dice-duel", ["human", "human"])["code"]

    async def main() -> None:
        c = Client(server.url, code)
        reply = await c.connect(protocol=99)
        assert reply["code"] == "protocol_version" and "protocol 1" in reply["message"]
        await asyncio.wait_for(c.closed.wait(), 5)
        d = Client(server.url, code)
        d.ws = await websockets.connect(d.ws_url)
        d.reader = asyncio.create_task(d._read())
        await d.send({"type": "ping"})
        assert (await d.expect("error"))["code"] == "hello_first"
        await d.close()

    run(main())


def test_origin_is_checked(server: ThreadServer) -> None:
    code = create_room(server.url, "dice-duel", ["human", "human"])["code"]

    async def main() -> None:
        with pytest.raises(websockets.InvalidStatus) as refused:
            await Client(server.url, code).connect(origin="https://evil.example")
        assert refused.value.response.status_code == 403
        ok = Client(server.url, code)
        snap = await ok.connect(origin=server.url)
        assert snap["type"] == "snapshot" and snap["seat"] is None
        await ok.close()

    run(main())


def test_flood_is_limited_then_disconnected(sqlite_url: str) -> None:
    with ThreadServer(sqlite_url, msg_rate=5.0, msg_burst=5.0, abuse_limit=10) as server:
        code = create_room(server.url, "dice-duel", ["human", "human"])["code"]
        token = claim(server.url, code, 0, "Flood")

        async def main() -> None:
            c = Client(server.url, code, token)
            await c.connect()
            for _ in range(40):
                with contextlib_suppress():
                    await c.send({"type": "ping"})
            await asyncio.wait_for(c.closed.wait(), 10)
            codes = [f.get("code") for f in c.frames if f["type"] == "error"]
            assert "rate_limited" in codes
            assert c.ws.close_code == 1008

        run(main())


class contextlib_suppress:
    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: Any, *rest: Any) -> bool:
        return kind is not None and issubclass(kind, websockets.ConnectionClosed)


def test_hints_only_when_the_room_allows(server: ThreadServer) -> None:
    fake = Advice(
        objectives=(Objective(name="expected result", unit="points", best=0),),
        options=(Option(action={"type": "x"}, label="best", values=(1.0,)),),
    )
    seen: list[Any] = []

    def advise(view: Any, seat: int, legal: Any) -> Advice:
        seen.append((view, seat))
        return fake

    server.hub.bots.advisor = lambda entry: advise  # type: ignore[method-assign]
    on = create_room(server.url, "dice-duel", ["human", "human"], room={"hints": True})["code"]
    off = create_room(server.url, "dice-duel", ["human", "human"])["code"]
    tokens_on = [claim(server.url, on, s, f"P{s}") for s in (0, 1)]
    tokens_off = [claim(server.url, off, s, f"P{s}") for s in (0, 1)]

    async def main() -> None:
        c, other = Client(server.url, on, tokens_on[0]), Client(server.url, on, tokens_on[1])
        await c.connect()
        await other.connect()
        if not c.state["legal"]:
            c, other = other, c
        advice = await c.request({"type": "hint"})
        assert advice["type"] == "advice" and advice["advice"]["options"][0]["label"] == "best"
        assert seen and seen[0][1] == c.seat
        assert (await other.request({"type": "hint"}))["code"] == "no_advice"  # not its turn
        spectator = Client(server.url, on)
        await spectator.connect()
        assert (await spectator.request({"type": "hint"}))["code"] == "not_seated"
        d = Client(server.url, off, tokens_off[0])
        await d.connect()
        assert (await d.request({"type": "hint"}))["code"] == "hints_off"
        for x in (c, other, spectator, d):
            await x.close()

    run(main())


def test_chat_is_plain_text_stored_and_capped(server: ThreadServer) -> None:
    code = create_room(server.url, "dice-duel", ["human", "human"])["code"]
    name = "<img src=x onerror=alert(1)>[b]Ann[/b]"
    tokens = [claim(server.url, code, 0, name), claim(server.url, code, 1, "Bob")]
    line = "<script>alert('hi')</script> **bold** [red]x[/red]"

    async def main() -> None:
        a, b = Client(server.url, code, tokens[0]), Client(server.url, code, tokens[1])
        snap = await a.connect()
        assert snap["room"]["seats"][0]["name"] == name
        await b.connect()
        await a.send({"type": "chat", "text": line})
        got = await b.expect("chat")
        assert got["text"] == line and got["name"] == name and got["seat"] == 0
        assert (await a.request({"type": "chat", "text": "x" * 301}))["code"] == "chat_invalid"
        assert (await a.request({"type": "chat", "text": "   "}))["code"] == "chat_invalid"
        spectator = Client(server.url, code)
        await spectator.connect()
        assert (await spectator.request({"type": "chat", "text": "hi"}))["code"] == "not_seated"
        codes = [(await a.request({"type": "chat", "text": f"m{i}"})) for i in range(8)]
        assert any(c.get("code") == "rate_limited" for c in codes)
        again = Client(server.url, code, tokens[1])
        snap = await again.connect()
        assert snap["chat"][0]["text"] == line  # stored with the room
        for x in (a, b, spectator, again):
            await x.close()

    run(main())
    page = httpx.get(server.url + f"/r/{code}").text
    assert "<img src=x" not in page and "&lt;img src=x" in page  # the name, escaped


def test_bot_takes_over_an_absent_seat_and_the_token_reclaims_it(sqlite_url: str) -> None:
    with ThreadServer(sqlite_url) as server:
        code = create_room(
            server.url,
            "dice-duel",
            ["human", "bot:random"],
            # bots at a pace, so that the game is still on when the check below looks
            room={"takeover_after": 1, "bot_pace": 0.1},
        )["code"]
        token = claim(server.url, code, 0, "Away")
        hub = server.hub
        info = httpx.post(
            server.url + f"/api/rooms/{code}/start", headers={"Authorization": "Bearer x"}
        )
        assert info.status_code == 403  # not the host; the room started when seat 0 was taken
        deadline = time.monotonic() + 10
        while hub.rooms[code].seq < 6 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert hub.rooms[code].seq >= 6 and 0 in hub.rooms[code].takeover

        async def main() -> None:
            c = Client(server.url, code, token)
            snap = await c.connect()
            assert not snap["room"]["seats"][0]["takeover"]
            assert 0 not in hub.rooms[code].takeover
            await c.close()

        run(main())


def test_turn_clock_acts_once(sqlite_url: str) -> None:
    with ThreadServer(sqlite_url) as server:
        code = create_room(server.url, "dice-duel", ["human", "human"], room={"turn_clock": 1})[
            "code"
        ]
        tokens = [claim(server.url, code, s, f"P{s}") for s in (0, 1)]

        async def main() -> None:
            a = Client(server.url, code, tokens[0])
            snap = await a.connect()
            events = await a.expect("events", timeout=5)
            assert events["seq"] == 1 and events["seat"] == snap["to_act"][0]  # the clock acted
            await a.close()

        run(main())
        assert server.hub.rooms[code].takeover == set()


def test_host_starts_with_bots_and_frees_seats(server: ThreadServer) -> None:
    created = create_room(server.url, "wurfeltod", ["human", "human", "human"])
    code, host = created["code"], created["host_token"]
    old = claim(server.url, code, 1, "Leaves")
    freed = httpx.post(
        server.url + f"/api/rooms/{code}/seats/1/release",
        headers={"Authorization": f"Bearer {host}"},
    )
    assert freed.status_code == 200
    token = claim(server.url, code, 0, "Ann")
    started = httpx.post(
        server.url + f"/api/rooms/{code}/start", headers={"Authorization": f"Bearer {host}"}
    ).json()
    assert started["status"] == "playing"
    assert [s["kind"] for s in started["seats"]] == ["human", "bot", "bot"]

    async def main() -> None:
        refused = await Client(server.url, code, old).connect()
        assert refused["code"] == "bad_token"
        c = Client(server.url, code, token)
        assert (await c.connect())["seat"] == 0
        await c.close()

    run(main())
