"""The wire's edges (issue 38, minor items): what odd requests and frames get. Real
HTTP and real sockets against a server in this process."""

from __future__ import annotations

import asyncio
import json
import socket
from typing import Any

import httpx
import pytest
import websockets
from harness import Client, ThreadServer, claim, create_room, run

from gamenight.server import app as server_app


def _raw_http(port: int, raw: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(raw)
        out = b""
        while chunk := conn.recv(65536):
            out += chunk
            if b"\r\n\r\n" in out and b"content-length" in out.lower():
                head, _sep, body = out.partition(b"\r\n\r\n")
                length = int(head.lower().split(b"content-length:")[1].split(b"\r\n")[0])
                if len(body) >= length:
                    break
        return out


# ----- HTTP ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "path", ["/static/%00", "/static/js/%00.js", "/static/" + "n" * 4000, "/r/%00", "/%01"]
)
def test_odd_paths_are_404_not_500(server: ThreadServer, path: str) -> None:
    answer = _raw_http(server.port, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    assert answer.startswith(b"HTTP/1.1 404"), answer[:200]
    assert b'"code":"not_found"' in answer


def test_a_post_shorter_than_its_length_then_abandoned_is_no_failure(
    server: ThreadServer, caplog: pytest.LogCaptureFixture
) -> None:
    before = len(caplog.records)
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
        conn.sendall(
            b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b'Content-Length: 1000\r\n\r\n{"game":'
        )
        conn.shutdown(socket.SHUT_WR)  # the client gives up: the body never comes
        conn.recv(65536)
    assert httpx.get(f"{server.url}/api/games").status_code == 200  # served meanwhile
    failed = [r.getMessage() for r in caplog.records[before:] if r.levelname == "ERROR"]
    assert failed == [], failed


def test_every_answer_says_nosniff_and_head_answers_like_get(server: ThreadServer) -> None:
    for path in ("/api/games", "/static/js/net.js", "/static/css/app.css", "/", "/nothing"):
        got = httpx.get(server.url + path)
        assert got.headers["x-content-type-options"] == "nosniff", path
        head = httpx.head(server.url + path)
        assert head.status_code == got.status_code, path
        assert head.content == b""
        assert head.headers["content-type"] == got.headers["content-type"], path


def test_options_lists_every_method_and_rules_say_charset_once(server: ThreadServer) -> None:
    allow = httpx.options(f"{server.url}/api/rooms").headers["allow"]
    assert {m.strip() for m in allow.split(",")} >= {"GET", "POST", "OPTIONS"}, allow
    rules = httpx.get(f"{server.url}/api/games/wurfeltod/rules")
    assert rules.headers["content-type"].lower().count("charset") == 1, rules.headers


def test_no_api_browser_pages_but_the_document(server: ThreadServer) -> None:
    for page in ("/schema", "/schema/swagger", "/schema/redoc", "/schema/elements"):
        answer = httpx.get(server.url + page)
        assert "<script" not in answer.text, page  # no third-party scripts on this origin
    assert httpx.get(f"{server.url}/schema/openapi.json").json()["info"]["title"] == "gamenight"


def test_a_rebound_host_name_is_refused(server: ThreadServer) -> None:
    """DNS rebinding: the attacker's page, at its own name now pointing at this server,
    sends Host and Origin both of that name; the Origin check alone lets it through."""
    evil = {"Host": "evil.example:8000", "Origin": "http://evil.example:8000"}
    created = httpx.post(
        f"{server.url}/api/rooms", json={"game": "wurfeltod", "seats": ["human"]}, headers=evil
    )
    assert created.status_code == 400 and created.json()["code"] == "bad_host", created.text
    assert httpx.get(f"{server.url}/api/rooms", headers=evil).status_code == 400
    for host in ("localhost:1", "127.0.0.1", "[::1]:8000", "192.168.1.20:8000"):
        assert httpx.get(f"{server.url}/api/games", headers={"Host": host}).status_code == 200

    async def socket_of_evil() -> None:
        code = create_room(server.url, "wurfeltod", ["human"])["code"]
        url = server.url.replace("http://", "ws://") + f"/ws/{code}"
        with pytest.raises(websockets.InvalidStatus):
            await websockets.connect(url, additional_headers={"Host": "evil.example"})

    run(socket_of_evil())


@pytest.mark.parametrize(
    "host", ["localhost:123456", "localhost:", "localhost:8x", "[::1]junk", "127.0.0.1:-1"]
)
def test_a_host_with_no_port_number_is_refused_not_a_crash(server: ThreadServer, host: str) -> None:
    """A Host whose port is no port number: one 400 ``bad_host``, not a 500 from the
    URL that could not be made of it (found by the invite-link test)."""
    code = create_room(server.url, "wurfeltod", ["human"])["code"]
    for path in ("/api/games", f"/r/{code}", "/api/rooms"):
        answer = httpx.get(server.url + path, headers={"Host": host})
        assert answer.status_code == 400 and answer.json()["code"] == "bad_host", (path, host)


def test_the_hosts_of_extra_origins_are_allowed(sqlite_url: str) -> None:
    with ThreadServer(sqlite_url, extra_origins=("https://games.example",)) as server:
        proxied = {"Host": "games.example", "Origin": "https://games.example"}
        body = {"game": "wurfeltod", "seats": ["human"]}
        created = httpx.post(f"{server.url}/api/rooms", json=body, headers=proxied)
        assert created.status_code == 201, created.text


# ----- the socket -------------------------------------------------------------------------
def test_a_socket_without_hello_is_closed_with_a_policy_code(
    server: ThreadServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(server_app, "HELLO_TIMEOUT", 0.5)
    code = create_room(server.url, "wurfeltod", ["human"])["code"]

    async def main() -> None:
        ws = await websockets.connect(server.url.replace("http://", "ws://") + f"/ws/{code}")
        with pytest.raises(websockets.ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 20)
        assert ws.close_code == 1008

    run(main())


def test_a_binary_frame_is_refused_with_its_id(server: ThreadServer) -> None:
    code = create_room(server.url, "wurfeltod", ["human"])["code"]
    token = claim(server.url, code, 0, "Ann")

    async def main() -> None:
        ws = await websockets.connect(server.url.replace("http://", "ws://") + f"/ws/{code}")
        await ws.send(b'{"type":"ping","id":77}')  # before the hello
        before = json.loads(await ws.recv())
        assert (before["code"], before["id"]) == ("bad_message", 77), before
        assert "binary" in before["message"]
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
        assert json.loads(await ws.recv())["type"] == "snapshot"
        await ws.send(b'{"type":"ping","id":78}')
        after: dict[str, Any] = {}
        while after.get("id") != 78:
            after = json.loads(await ws.recv())
        assert after["code"] == "bad_message"
        await ws.send(json.dumps({"type": "ping", "id": 79}))  # and the socket stays usable
        while (pong := json.loads(await ws.recv()))["type"] != "pong":
            pass
        assert pong["id"] == 79
        await ws.close()

    run(main())


@pytest.mark.parametrize("value", ["", "x" * 201, "a\x07b", "\u202eevil"])
def test_a_refused_contribution_is_bad_contribution(server: ThreadServer, value: str) -> None:
    code = create_room(server.url, "dice-duel", ["human", "human"])["code"]
    token = claim(server.url, code, 0, "Ann", contribution=None)

    async def main() -> None:
        client = Client(server.url, code, token)
        assert (await client.connect())["type"] == "snapshot"
        answer = await client.request({"type": "contribute", "value": value})
        assert answer["code"] == "bad_contribution", answer
        await client.close()

    run(main())


def test_format_characters_are_kept_in_names_and_contributions(server: ThreadServer) -> None:
    """One policy (core.text): ZWJ, ZWNJ and the soft hyphen are text, not controls."""
    code = create_room(server.url, "dice-duel", ["human", "human"])["code"]
    word = "Zo\u00ade \u200d\u200c"
    claimed = httpx.post(
        f"{server.url}/api/rooms/{code}/seats/0/claim",
        json={"name": "Ann\u200dB", "contribution": "9f2c " + word},
    )
    assert claimed.status_code == 200, claimed.text
    token = claim(server.url, code, 1, "Bob", contribution=None)

    async def main() -> None:
        client = Client(server.url, code, token)
        assert (await client.connect())["type"] == "snapshot"
        answer = await client.request({"type": "contribute", "value": "e\u0301" + word})
        assert answer["type"] == "ack", answer
        await client.close()

    run(main())


def test_the_waiting_snapshot_claims_no_seq_and_a_reconnect_gets_the_deal(
    server: ThreadServer,
) -> None:
    """The seq-0 rule: a waiting room's snapshot has seq -1 (nothing is dealt); a client
    that reconnects after the start with the seq it was given gets seq 0's deal events."""
    code = create_room(server.url, "wurfeltod", ["human", "human"])["code"]
    tokens = [claim(server.url, code, 0, "Ann"), claim(server.url, code, 1, "Bob", None)]

    async def main() -> None:
        early = Client(server.url, code, tokens[0])
        waiting = await early.connect()
        assert waiting["seq"] == -1 and waiting["view"] is None, waiting
        await early.close()
        late = Client(server.url, code, tokens[1])
        assert (await late.connect())["type"] == "snapshot"
        assert (await late.request({"type": "contribute", "value": "b"}))["type"] == "ack"
        # the game began (its snapshot came before the ack)
        assert any(f["type"] == "snapshot" and f["seq"] == 0 for f in late.frames)
        await late.close()
        back = Client(server.url, code, tokens[0])
        again = await back.connect(last_seq=waiting["seq"])
        assert again["seq"] == 0 and again["view"] is not None
        assert [e["seq"] for e in again["events"]] and {e["seq"] for e in again["events"]} == {0}
        await back.close()

    run(main())


def test_the_openapi_document_says_closed_bodies_and_the_languages(server: ThreadServer) -> None:
    doc = httpx.get(f"{server.url}/schema/openapi.json").json()
    schemas = doc["components"]["schemas"]
    for body in ("Claim", "CreateRoom", "RoomOptions"):
        assert schemas[body]["additionalProperties"] is False, body
    rules = doc["paths"]["/api/games/{game}/rules"]["get"]["parameters"]
    lang = next(p for p in rules if p["name"] == "lang")
    assert lang["schema"]["enum"] == ["en", "de", "pl"]
    vocabulary = doc["paths"]["/api/vocabulary/{lang}/{game}"]["get"]["parameters"]
    assert next(p for p in vocabulary if p["name"] == "lang")["schema"]["enum"] == [
        "en",
        "de",
        "pl",
    ]
