"""The HTTP API fuzzed from its own OpenAPI document (Schemathesis), over a real socket.

Properties, checked after every generated request:

* no 5xx, and every error is ``{"code", "message"}`` (one line);
* no traceback (nor any error) in the server's log;
* a refused request leaves the rooms it names as they were (seq, seats, status);
* the server keeps answering a socket in another room (a ping per case).

Bounded: :data:`CASES` examples per operation with a fixed derandomized seed (no flakes),
and no shrinking time limit that could depend on the machine; the whole module runs a few
hundred requests in seconds. Half of the generated room codes are swapped for real rooms
so that the fuzzer reaches the handlers, not only the 404 of an unknown room.
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import msgspec
import pytest
import schemathesis
from harness import ThreadServer, claim, create_room
from hypothesis import HealthCheck, Phase, settings
from websockets.sync.client import connect

from gamenight.server.app import create_app
from gamenight.server.rooms import Config

CASES = 25  # per operation (about 14 operations)
STATS: dict[str, float] = {"cases": 0, "seconds": 0.0}
STATUSES: Counter[int] = Counter()
VALID_ROOMS: list[dict[str, Any]] = [
    {"game": "dice-duel", "seats": ["human", "bot:greedy"]},
    {"game": "wurfeltod", "seats": ["human", "human"], "public": True},
    {"game": "decathlon", "seats": ["human"], "options": {"events": "100m"}},
    {"game": "decades", "seats": ["human", "human"], "options": {"track": 30}},
]


@schemathesis.serializer("application/x-ndjson")
def _ndjson(_context: Any, value: Any) -> bytes:
    """A record body (POST /api/replay): the generated text as it is."""
    return value.encode() if isinstance(value, str) else json.dumps(value).encode()


class Fuzzed:
    """The server under test, its rooms and a socket in a room of its own."""

    def __init__(self, server: ThreadServer, ws: Any) -> None:
        self.server = server
        self.ws = ws
        self.http = httpx.Client(timeout=30)
        base = server.url
        self.waiting = create_room(base, "dice-duel", ["human", "human"])["code"]
        playing = create_room(base, "wurfeltod", ["human", "human"])
        self.playing = playing["code"]
        self.host = playing["host_token"]
        for seat in (0, 1):
            claim(base, self.playing, seat, f"P{seat}")
        self.rooms = [self.waiting, self.playing]
        self.ws.send(json.dumps({"type": "hello", "protocol": 1}))
        assert json.loads(self.ws.recv(timeout=30))["type"] == "snapshot"
        self.pings = 0

    def state(self, codes: list[str]) -> dict[str, Any]:
        out = {}
        for code in codes:
            info = self.http.get(f"{self.server.url}/api/rooms/{code}").json()
            out[code] = {
                "seq": info["seq"],
                "status": info["status"],
                "seats": [(s["name"], s["claimed"]) for s in info["seats"]],
            }
        return out

    def other_room_answers(self) -> None:
        self.pings += 1
        self.ws.send(json.dumps({"type": "ping", "id": self.pings}))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            frame = json.loads(self.ws.recv(timeout=30))
            if frame.get("id") == self.pings:
                assert frame["type"] == "pong", frame
                return
        raise AssertionError("the other room stopped answering")


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fuzzed]:
    db = tmp_path_factory.mktemp("fuzz-http") / "server.sqlite3"
    # no flood control on the socket that checks the other room: one ping per case
    with ThreadServer(f"sqlite:///{db}", stall_warning=60.0, msg_rate=1e9, msg_burst=1e9) as server:
        other = create_room(server.url, "wurfeltod", ["human"])["code"]
        socket_url = server.url.replace("http://", "ws://") + f"/ws/{other}"
        with connect(socket_url, open_timeout=30) as ws:
            yield Fuzzed(server, ws)
    if STATS["cases"]:
        print(f"\nHTTP fuzzer: {STATS['cases']:.0f} cases in {STATS['seconds']:.1f} s")
        print("statuses:", dict(sorted(STATUSES.items())))


def openapi_document() -> dict[str, Any]:
    """The app's OpenAPI document, as ``/schema/openapi.json`` serves it (a test below
    checks they are the same): the fuzzer is collected from it without a server."""
    app = create_app(Config(db_url="sqlite:///:memory:"))
    document: dict[str, Any] = json.loads(msgspec.json.encode(app.openapi_schema.to_schema()))
    return document


schema = schemathesis.openapi.from_dict(openapi_document())


@pytest.fixture
def server_log(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.ERROR)
    return caplog


@schema.parametrize()
@settings(
    max_examples=CASES,
    derandomize=True,
    deadline=None,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
def test_http_api_fuzzed(case: Any, fuzzed: Fuzzed, server_log: pytest.LogCaptureFixture) -> None:
    started = time.monotonic()
    params = case.path_parameters or {}
    if "code" in params and random.Random(repr(sorted(params.items()))).random() < 0.5:
        params["code"] = random.Random(str(params)).choice(fuzzed.rooms)
    chance = random.Random(repr(case.body)).random()
    if (case.method, case.path) == ("POST", "/api/rooms") and chance < 0.3:
        case.body = VALID_ROOMS[int(chance * 100) % len(VALID_ROOMS)]  # reach the 201 too
        case.media_type = "application/json"
    named = [c for c in fuzzed.rooms if c == params.get("code")]
    before = fuzzed.state(named)
    server_log.clear()
    response = case.call(base_url=fuzzed.server.url, timeout=30)
    status = response.status_code
    STATUSES[status] += 1
    assert status < 500, (case.method, case.formatted_path, status, response.text[:300])
    if status >= 400:
        body = response.json()
        assert set(body) == {"code", "message"}, body
        assert isinstance(body["message"], str) and "\n" not in body["message"], body
        after = fuzzed.state(named)
        for code in named:
            assert after[code] == before[code], (case.method, case.formatted_path, body)
    problems = [
        r.getMessage() for r in server_log.records if r.levelno >= logging.ERROR or r.exc_info
    ]
    assert problems == [], problems
    fuzzed.other_room_answers()
    STATS["cases"] += 1
    STATS["seconds"] += time.monotonic() - started


def test_the_fuzzed_document_is_the_served_one(fuzzed: Fuzzed) -> None:
    served = httpx.get(fuzzed.server.url + "/schema/openapi.json", timeout=30).json()
    assert openapi_document() == served
    assert len(served["paths"]) >= 12
