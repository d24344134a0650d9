"""Every input refused cleanly (issue 21): deep JSON, ids echoed, one error shape, bounded
numbers, one text policy, cross-site requests, reconnect and log floods. Real sockets,
real HTTP; the server's log is read for tracebacks."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets
from harness import Client, ProcessServer, ThreadServer, claim, create_room, run

from gamenight.core import registry
from gamenight.server import protocol as p

DEEP = "[" * 1000 + "]" * 1000


@pytest.fixture
def log(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """The server's log (it runs in this process): tests assert it holds no traceback."""
    caplog.set_level(logging.INFO)
    yield caplog


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.exc_info or "Traceback" in r.getMessage() or r.levelno >= logging.ERROR
    ]


def seated_room(server: ThreadServer) -> tuple[str, str]:
    code = create_room(server.url, "wurfeltod", ["human"])["code"]
    return code, claim(server.url, code, 0, "Ann")


def problem(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body: dict[str, Any] = response.json()
    assert set(body) == {"code", "message"}, body
    assert "\n" not in body["message"]
    return body


# ----- 1. deep JSON on the socket -----------------------------------------------------------
def test_deep_json_on_the_socket_is_a_bad_message_before_and_after_hello(
    server: ThreadServer, log: pytest.LogCaptureFixture
) -> None:
    code, token = seated_room(server)
    frame = '{"type":"act","expected_seq":0,"id":41,"action":' + DEEP + "}"
    assert len(frame) < p.MAX_FRAME_BYTES

    async def main() -> None:
        c = Client(server.url, code, token)
        c.ws = await websockets.connect(c.ws_url)
        c.reader = asyncio.create_task(c._read())
        await c.send(frame)  # before hello
        before = await c.expect("error")
        assert (before["code"], before["id"]) == ("bad_message", 41)
        await c.send(DEEP)
        assert (await c.expect("error"))["code"] == "bad_message"
        await c.send({"type": "hello", "protocol": 1, "token": token})
        await c.expect("snapshot")
        for _ in range(3):  # after hello, again and again: the socket stays usable
            await c.send(frame)
            after = await c.expect("error")
            assert (after["code"], after["id"]) == ("bad_message", 41)
        assert (await c.request({"type": "ping"}))["type"] == "pong"
        assert (await c.act(c.state["legal"][0]))["type"] == "ack"
        await c.close()
        assert not any(f["type"] == "error" and f["code"] == "internal" for f in c.frames)

    run(main())
    assert tracebacks(log) == []


# ----- 2. deep JSON over HTTP -----------------------------------------------------------------
def test_deep_json_over_http_is_a_400(server: ThreadServer, log: pytest.LogCaptureFixture) -> None:
    code = create_room(server.url, "dice-duel", ["human", "human"])["code"]
    deep_room = '{"game":"dice-duel","seats":["human","human"],"options":{"x":' + DEEP + "}}"
    deep_name = '{"name":' + DEEP + "}"
    headers = {"Content-Type": "application/json"}
    for path, body in (
        ("/api/rooms", deep_room),
        (f"/api/rooms/{code}/seats/0/claim", deep_name),
        ("/api/rooms", DEEP),
    ):
        answer = httpx.post(server.url + path, content=body, headers=headers)
        assert problem(answer, 400)["code"] == "bad_request"
    assert httpx.get(f"{server.url}/api/rooms/{code}").json()["seats"][0]["claimed"] is False
    assert tracebacks(log) == []


# ----- 3. every error echoes its id ---------------------------------------------------------
BAD_FRAMES = [
    '{"type":"act","action":{"type":"scratch","category":"chance"},"expected_seq":"0","id":500}',
    '{"type":"act","action":{},"expected_seq":0,"id":500,"seat":1}',
    '{"type":"teleport","id":500}',
    '{"type":"ping","id":500,"extra":true}',
    '{"type":"chat","id":500}',
    '{"type":"act","id":500,"action":' + DEEP + ',"expected_seq":0}',
    '{"type":"act","id":500,"expected_seq":0,"action":{"type":"x"}',  # not JSON: cut short
    '{"type":"chat","id":500,"text":"' + "x" * p.MAX_FRAME_BYTES + '"}',  # too large
    '{"type":"act","action":{"type":"book","category":"nope"},"expected_seq":0,"id":500}',
    '{"type":"hello","protocol":1,"id":500}',  # a second hello (and hello has no id)
    '{"type":"chat","text":"\\u0000","id":500}',
    '{"type":"hint","id":500}',
]


def test_every_error_answer_echoes_a_readable_id(server: ThreadServer) -> None:
    code, token = seated_room(server)

    async def main() -> None:
        c = Client(server.url, code, token)
        await c.connect()
        codes = set()
        for frame in BAD_FRAMES:
            await c.send(frame)
            reply = await c.expect("error")
            codes.add(reply["code"])
            assert reply.get("id") == 500, (frame[:80], reply)
        stale = {"type": "act", "action": c.state["legal"][0], "expected_seq": 7, "id": 500}
        await c.send(stale)
        reply = await c.expect("error")
        assert (reply["code"], reply["id"]) == ("stale", 500)
        assert {"bad_message", "unknown_type", "too_large", "illegal"} <= codes
        assert {"chat_invalid", "hints_off"} <= codes
        assert server.hub.rooms[code].seq == 0  # nothing changed
        await c.close()

    run(main())


def test_internal_errors_echo_the_id_and_are_logged_once(
    server: ThreadServer, log: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    code, token = seated_room(server)

    async def broken(*_args: object) -> None:
        raise RuntimeError("the database is gone")

    async def main() -> None:
        c = Client(server.url, code, token)
        await c.connect()
        monkeypatch.setattr(server.hub.rooms[code], "apply", broken)
        reply = await c.act(c.state["legal"][0])
        assert (reply["type"], reply["code"]) == ("error", "internal")
        assert "request " in reply["message"] and "Traceback" not in reply["message"]
        assert (await c.request({"type": "ping"}))["type"] == "pong"  # still usable
        await c.close()
        ident = reply["message"].split("request ")[1].split(")")[0]
        failed = [r for r in log.records if ident in r.getMessage()]
        assert len(failed) == 1 and code in failed[0].getMessage() and failed[0].exc_info

    run(main())


# ----- 4. one error shape -------------------------------------------------------------------
def test_every_http_error_is_code_and_message(
    server: ThreadServer, log: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = server.url
    assert problem(httpx.get(base + "/api/nothing"), 404)["code"] == "not_found"
    assert problem(httpx.get(base + "/api/rooms/nope"), 404)["code"] == "no_room"
    assert problem(httpx.delete(base + "/api/rooms"), 405)["code"] == "method_not_allowed"
    assert problem(httpx.post(base + "/api/rooms", json={"game": 3}), 400)["code"] == (
        "bad_request"
    )
    big = {"game": "dice-duel", "seats": ["human"], "options": {"x": "y" * 70_000}}
    assert problem(httpx.post(base + "/api/rooms", json=big), 413)["code"] == "too_large"
    assert problem(httpx.get(base + "/api/rooms/x/seats/0/claim"), 405)["message"]

    async def broken(*_args: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(server.hub, "create", broken)
    body = problem(httpx.post(base + "/api/rooms", json={"game": "dice-duel", "seats": []}), 500)
    assert body["code"] == "internal"
    ident = body["message"].split("request ")[1].split(")")[0]
    failed = [r for r in log.records if ident in r.getMessage()]
    assert len(failed) == 1 and failed[0].exc_info  # a 500 is never silent, logged once


def test_openapi_lists_every_error_the_replay_body_and_the_ndjson_record(
    server: ThreadServer,
) -> None:
    doc = httpx.get(server.url + "/schema/openapi.json").json()
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            statuses = set(operation["responses"])
            assert {"400", "500"} <= statuses, (path, method)
            assert "{" not in path or "404" in statuses, (path, method)
            if method == "post":
                assert {"403", "413", "415"} <= statuses, (path, method)
    replay = doc["paths"]["/api/replay"]["post"]
    assert "application/x-ndjson" in replay["requestBody"]["content"]
    record = doc["paths"]["/api/rooms/{code}/record"]["get"]["responses"]["200"]
    assert list(record["content"]) == ["application/x-ndjson"]
    assert doc["components"]["schemas"]["Claim"]["properties"]["name"]["maxLength"] == 40
    problem_schema = doc["components"]["schemas"]["Problem"]
    assert set(problem_schema["required"]) == {"code", "message"}


# ----- 5. bounded numbers ---------------------------------------------------------------------
def test_ids_seqs_and_game_options_have_bounds(server: ThreadServer) -> None:
    code, token = seated_room(server)

    async def main() -> None:
        c = Client(server.url, code, token)
        await c.connect()
        action = c.state["legal"][0]
        for frame in (
            {"type": "act", "action": action, "expected_seq": 10**30, "id": 1},
            {"type": "act", "action": action, "expected_seq": -1, "id": 1},
            {"type": "ping", "id": 10**30},
            {"type": "ping", "id": -5},
            {"type": "act", "action": action, "expected_seq": 0, "id": p.MAX_ID + 1},
        ):
            await c.send(frame)
            assert (await c.expect("error"))["code"] == "bad_message", frame
        await c.send({"type": "ping", "id": p.MAX_ID})
        assert (await c.expect("pong"))["id"] == p.MAX_ID
        assert server.hub.rooms[code].seq == 0
        await c.close()

    run(main())
    for track in (10**30, 99_999_999, 0):
        answer = httpx.post(
            server.url + "/api/rooms",
            json={"game": "decades", "seats": ["human", "human"], "options": {"track": track}},
        )
        assert problem(answer, 400)["code"] == "bad_options"


def test_every_whole_number_game_option_declares_its_range() -> None:
    for entry in registry.available():
        for option in entry.game.info.options:
            if option.kind == "int":
                assert option.minimum is not None and option.maximum is not None, option


# ----- 6. one text policy ---------------------------------------------------------------------
def test_chat_and_names_follow_one_text_policy(server: ThreadServer) -> None:
    code = create_room(server.url, "dice-duel", ["human", "human"])["code"]
    for name, says in (
        ("a\x00b", "control characters"),
        ("\x1b[31mred", "control characters"),
        ("evil\u202etxt", "bidirectional"),
        ("  ", "1 to 40 characters"),
        ("", "length >= 1"),  # the schema's bounds (OpenAPI): msgspec's words
        ("x" * 41, "length <= 40"),
    ):
        answer = httpx.post(f"{server.url}/api/rooms/{code}/seats/0/claim", json={"name": name})
        body = problem(answer, 400)
        assert body["code"] in ("bad_name", "bad_request") and says in body["message"], body
    tokens = [claim(server.url, code, s, n) for s, n in ((0, "Zoë 🎲"), (1, "<b>Bo</b>"))]

    async def main() -> None:
        a, b = Client(server.url, code, tokens[0]), Client(server.url, code, tokens[1])
        await a.connect()
        await b.connect()
        for text, says in (
            ("a\x00b", "control characters"),
            ("\x1b[2J", "control characters"),
            ("\u202eevil", "bidirectional"),
            ("x" * 301, "1 to 300 characters"),
        ):
            reply = await a.request({"type": "chat", "text": text})
            assert reply["code"] == "chat_invalid" and says in reply["message"], reply
            await asyncio.sleep(0.5)  # chat has its own budget
        assert (await a.request({"type": "chat", "text": "gg <3"}))["type"] == "chat"
        line = await b.expect("chat")
        assert line["text"] == "gg <3"
        assert not any(f["type"] == "chat" and "\x00" in f["text"] for f in b.frames)
        await a.close()
        await b.close()

    run(main())


# ----- cross-site and abuse -----------------------------------------------------------------
def test_state_changing_requests_need_json_and_this_origin(server: ThreadServer) -> None:
    base = server.url
    body = json.dumps({"game": "dice-duel", "seats": ["human", "human"]})
    plain = httpx.post(base + "/api/rooms", content=body, headers={"Content-Type": "text/plain"})
    assert problem(plain, 415)["code"] == "unsupported_media_type"
    form = httpx.post(base + "/api/rooms", data={"game": "dice-duel"})
    assert problem(form, 415)["code"] == "unsupported_media_type"
    for origin in ("http://evil.example", base.replace("http://", "https://"), "null"):
        crossed = httpx.post(
            base + "/api/rooms",
            content=body,
            headers={"Content-Type": "application/json", "Origin": origin},
        )
        assert problem(crossed, 403)["code"] == "bad_origin", origin
    assert httpx.get(base + "/api/rooms").json() == []
    own = httpx.post(
        base + "/api/rooms",
        content=body,
        headers={"Content-Type": "application/json; charset=utf-8", "Origin": base},
    )
    assert own.status_code == 201
    code, host = own.json()["code"], own.json()["host_token"]
    evil_start = httpx.post(
        f"{base}/api/rooms/{code}/start",
        headers={"Authorization": f"Bearer {host}", "Origin": "http://evil.example"},
    )
    assert problem(evil_start, 403)["code"] == "bad_origin"
    assert httpx.get(f"{base}/api/rooms/{code}").json()["status"] == "waiting"


def test_the_socket_origin_check_compares_the_scheme(server: ThreadServer) -> None:
    code = create_room(server.url, "dice-duel", ["human", "human"])["code"]

    async def main() -> None:
        other_scheme = server.url.replace("http://", "https://")
        with pytest.raises(websockets.InvalidStatus) as refused:
            await Client(server.url, code).connect(origin=other_scheme)
        assert refused.value.response.status_code == 403
        ok = Client(server.url, code)
        assert (await ok.connect(origin=server.url))["type"] == "snapshot"
        await ok.close()

    run(main())


def test_reconnects_are_throttled_per_token_with_back_off(sqlite_url: str) -> None:
    with ThreadServer(sqlite_url, reconnect_burst=5, reconnect_rate=1.0) as server:
        code, token = seated_room(server)

        async def hello() -> dict[str, Any]:
            c = Client(server.url, code, token)
            reply = await c.connect()
            await c.close()
            return reply

        async def main() -> None:
            started = time.monotonic()
            replies = [await hello() for _ in range(30)]
            spent = time.monotonic() - started
            snapshots = sum(r["type"] == "snapshot" for r in replies)
            # the burst, and at most one more a second (the refusals double the wait)
            assert 5 <= snapshots <= 5 + int(spent) + 1, (snapshots, spent)
            refused = [r for r in replies if r["type"] == "error"]
            assert {r["code"] for r in refused} == {"rate_limited"}
            assert "wait" in refused[0]["message"]
            # a spectator from the same address is not held back by one token's flood
            spectator = Client(server.url, code)
            assert (await spectator.connect())["type"] == "snapshot"
            await spectator.close()

        run(main())


def test_a_socket_closed_for_flooding_cannot_come_straight_back(sqlite_url: str) -> None:
    with ThreadServer(sqlite_url, msg_rate=1.0, msg_burst=2.0, abuse_limit=5) as server:
        code, token = seated_room(server)

        async def main() -> None:
            c = Client(server.url, code, token)
            await c.connect()
            for _ in range(12):
                await c.send({"type": "ping"})
            await asyncio.wait_for(c.closed.wait(), 20)
            assert c.ws.close_code == 1008
            again = await Client(server.url, code, token).connect()
            assert (again["type"], again["code"]) == ("error", "rate_limited")

        run(main())


def test_pre_authentication_garbage_writes_no_log(
    server: ThreadServer, log: pytest.LogCaptureFixture
) -> None:
    code = create_room(server.url, "dice-duel", ["human", "human"])["code"]

    async def main() -> None:
        for _ in range(4):
            ws = await websockets.connect(server.url.replace("http://", "ws://") + f"/ws/{code}")
            for frame in (DEEP, "not json", '{"type":"ping"}', "{" * 5000, "\x00"):
                await ws.send(frame)
            answers = [json.loads(await ws.recv()) for _ in range(5)]
            assert all(a["type"] == "error" for a in answers)
            await ws.close()

    before = len(log.records)
    run(main())
    server_lines = [
        r for r in log.records[before:] if r.name.startswith(("gamenight", "uvicorn", "litestar"))
    ]
    assert server_lines == [], [r.getMessage() for r in server_lines]


def test_a_second_hello_is_refused(server: ThreadServer) -> None:
    code, token = seated_room(server)

    async def main() -> None:
        c = Client(server.url, code, token)
        await c.connect()
        await c.send({"type": "hello", "protocol": 1, "token": token})
        reply = await c.expect("error")
        assert reply["code"] == "bad_message" and "already said hello" in reply["message"]
        assert (await c.request({"type": "ping"}))["type"] == "pong"
        await c.close()

    run(main())


def test_a_server_start_prints_no_migration_lines(sqlite_url: str) -> None:
    server = ProcessServer(sqlite_url).start()
    try:
        httpx.get(server.url + "/api/games")
    finally:
        server.stop()
    server.log.seek(0)
    text = server.log.read().decode(errors="replace")
    assert "alembic" not in text and "Traceback" not in text, text[-2000:]


def test_a_server_record_holds_the_seed_in_its_header(server: ThreadServer) -> None:
    """docs/fairness.md: a finished server game's record has the seed in its header."""
    code = create_room(server.url, "wurfeltod", ["bot:greedy"])["code"]
    deadline = time.monotonic() + 120
    while httpx.get(f"{server.url}/api/rooms/{code}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bot game did not finish"
        time.sleep(0.1)
    rows = [
        json.loads(line)
        for line in httpx.get(f"{server.url}/api/rooms/{code}/record").text.splitlines()
    ]
    seed = httpx.get(f"{server.url}/api/rooms/{code}").json()["seed"]
    assert rows[0]["seed"] == seed and not any(r["type"] == "reveal" for r in rows)


def test_the_frame_limit_is_inclusive_and_huge_frames_close_with_1009(
    server: ThreadServer,
) -> None:
    code, token = seated_room(server)

    def chat_of(size: int) -> str:
        head = '{"type":"ping","id":9,"pad":"'
        return head + "x" * (size - len(head) - 2) + '"}'

    async def main() -> None:
        c = Client(server.url, code, token)
        await c.connect()
        await c.send(chat_of(p.MAX_FRAME_BYTES))  # the limit itself: parsed (unknown field)
        assert (await c.expect("error"))["code"] == "bad_message"
        await c.send(chat_of(p.MAX_FRAME_BYTES + 1))
        assert (await c.expect("error"))["code"] == "too_large"
        await c.send("x" * (2 << 20))
        await asyncio.wait_for(c.closed.wait(), 30)
        assert c.ws.close_code == 1009

    run(main())


def test_a_tls_proxy_forwarding_its_scheme_passes_the_origin_check(server: ThreadServer) -> None:
    """docs/deploy.md: behind a TLS proxy on loopback, X-Forwarded-Proto gives the scheme."""
    public = server.url.replace("http://", "https://")
    body = {"game": "dice-duel", "seats": ["human", "human"]}
    forwarded = httpx.post(
        server.url + "/api/rooms",
        json=body,
        headers={"Origin": public, "X-Forwarded-Proto": "https"},
    )
    assert forwarded.status_code == 201, forwarded.text
    plain = httpx.post(server.url + "/api/rooms", json=body, headers={"Origin": public})
    assert problem(plain, 403)["code"] == "bad_origin"
