"""The socket fuzzed: frames generated from ``docs/protocol-schema.json``
(hypothesis-jsonschema) and mutations of valid frames, over a real socket.

Properties, after every frame:

* the server answers it (a ping sent after it gets its pong: the socket stays usable),
  and never with ``internal``;
* no traceback (nor any error) in the server's log;
* a refused frame leaves the room's seq and every seat's view unchanged (an ``ack``
  moves the baseline: a generated action may be legal);
* a socket in another room keeps being answered.

Bounded: :data:`CASES` frames after hello and :data:`BEFORE_HELLO` on fresh sockets,
derandomized (a fixed seed: no flakes), no deadline that depends on machine speed.
"""

from __future__ import annotations

import json
import logging
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from harness import ThreadServer, claim, create_room
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema
from websockets.sync.client import connect

from gamenight.core.game import to_json

CASES = 300
BEFORE_HELLO = 60
STATS: dict[str, float] = {"frames": 0, "seconds": 0.0}
ANSWERS: Counter[str] = Counter()
SCHEMA = json.loads(
    (Path(__file__).parents[2] / "docs" / "protocol-schema.json").read_text(encoding="utf-8")
)
FUZZ: dict[str, Any] = dict(
    derandomize=True,
    deadline=None,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)


class Table:
    """A playing room with one seated socket, and a spectator in another room."""

    def __init__(self, server: ThreadServer, seat: Any, other: Any) -> None:
        self.server, self.seat, self.other = server, seat, other
        self.code = ""
        self.pings = 0

    def hello(self, token: str) -> None:
        self.seat.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
        assert self.recv_until(self.seat, "snapshot")["type"] == "snapshot"

    @staticmethod
    def recv_until(ws: Any, kind: str, ident: int | None = None) -> dict[str, Any]:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            frame: dict[str, Any] = json.loads(ws.recv(timeout=60))
            if ident is not None and frame.get("id") == ident:
                assert frame["type"] == kind, frame
                return frame
            if ident is None and frame["type"] == kind:
                return frame
        raise AssertionError(f"no {kind} in time")

    def answers(self, frame: str | bytes) -> list[dict[str, Any]]:
        """Send ``frame`` then a ping; every frame received until its pong."""
        self.pings += 1
        marker = 10**12 + self.pings  # no generated frame uses it
        self.seat.send(frame)
        self.seat.send(json.dumps({"type": "ping", "id": marker}))
        got: list[dict[str, Any]] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                reply: dict[str, Any] = json.loads(self.seat.recv(timeout=60))
            except TimeoutError:
                break
            if reply.get("id") == marker:  # the answer to the marker: the frame's came first
                assert reply["type"] == "pong", reply
                return got
            got.append(reply)
        conns = [(c.seat, c.closed, c.queue.qsize()) for c in self.room().conns]
        raise AssertionError(f"no answer to {frame!r} in 60 s; got {got}; conns {conns}")

    def room(self) -> Any:
        return self.server.hub.rooms[self.code]

    def other_room_answers(self) -> None:
        self.pings += 1
        self.other.send(json.dumps({"type": "ping", "id": self.pings}))
        self.recv_until(self.other, "pong", self.pings)

    def position(self) -> tuple[int, list[Any]]:
        room = self.server.hub.rooms[self.code]
        table = room.table
        assert table is not None
        views = [to_json(table.position(s)) for s in (0, 1, None)]
        return table.seq, views


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    db = tmp_path_factory.mktemp("fuzz-socket") / "server.sqlite3"
    # no flood control here: a fast machine would otherwise see its frames rate_limited
    # (the budgets are tested in test_inputs.py); every frame is judged on its own
    unlimited = {"msg_rate": 1e9, "msg_burst": 1e9, "chat_rate": 1e9, "chat_burst": 1e9}
    with ThreadServer(f"sqlite:///{db}", stall_warning=60.0, **unlimited) as server:
        base = server.url
        code = create_room(base, "dice-duel", ["human", "human"], room={"hints": True})["code"]
        tokens = [claim(base, code, seat, f"P{seat}") for seat in (0, 1)]
        other = create_room(base, "wurfeltod", ["human"])["code"]
        ws_base = base.replace("http://", "ws://")
        with connect(f"{ws_base}/ws/{code}") as seat, connect(f"{ws_base}/ws/{other}") as spy:
            t = Table(server, seat, spy)
            t.code = code
            room_table = server.hub.rooms[code].table
            assert room_table is not None
            t.hello(tokens[room_table.to_act()[0]])  # the seat to act: some frames are legal
            spy.send(json.dumps({"type": "hello", "protocol": 1}))
            t.recv_until(spy, "snapshot")
            yield t
    if STATS["frames"]:
        print(f"\nsocket fuzzer: {STATS['frames']:.0f} frames in {STATS['seconds']:.1f} s")
        print("answers:", dict(sorted(ANSWERS.items())))


@pytest.fixture
def server_log(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.ERROR)
    return caplog


# ----- frames -----------------------------------------------------------------------------
VALID = [
    {"type": "act", "action": {"type": "roll", "keep": []}, "expected_seq": 0, "id": 1},
    {"type": "act", "action": {"type": "take", "combination": "two-pairs"}, "expected_seq": 0},
    {"type": "chat", "text": "hello there", "id": 3},
    {"type": "hint", "id": 4},
    {"type": "ping", "id": 5},
    {"type": "contribute", "value": "4f1c a word", "id": 6},
    {"type": "undo", "expected_seq": 0, "id": 7},
    {"type": "rematch", "code": "AbC-12_x", "id": 8},
    {"type": "late", "choice": "bot", "id": 9},
    {"type": "hello", "protocol": 1, "token": "x", "last_seq": -1},
]
BIG = st.sampled_from([10**30, -(10**30), 2**53, 2**63, -1, 1e308, float("nan")])
ODD = st.one_of(
    BIG,
    st.none(),
    st.booleans(),
    st.text(max_size=20),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
)


@st.composite
def mutated(draw: st.DrawFn) -> str | bytes:
    """A valid frame, changed: a value swapped, a key dropped or added, deep nesting,
    truncated or spliced text, raw bytes."""
    frame = dict(draw(st.sampled_from(VALID)))
    how = draw(st.sampled_from(["value", "drop", "add", "deep", "cut", "splice", "bytes"]))
    if how == "value":
        frame[draw(st.sampled_from(sorted(frame)))] = draw(ODD)
    elif how == "drop":
        frame.pop(draw(st.sampled_from(sorted(frame))))
    elif how == "add":
        frame[draw(st.text(max_size=8))] = draw(ODD)
    elif how == "deep":
        depth = draw(st.integers(min_value=30, max_value=3000))
        key = draw(st.sampled_from(sorted(frame)))
        text = json.dumps({**frame, key: "@"})
        return text.replace('"@"', "[" * depth + "]" * depth)
    text = json.dumps(frame, allow_nan=True)
    if how == "cut":
        return text[: draw(st.integers(min_value=0, max_value=len(text)))]
    if how == "splice":
        at = draw(st.integers(min_value=0, max_value=len(text)))
        return (
            text[:at] + draw(st.text(alphabet='{}[]",:\\0-9e\x00\u202e', max_size=12)) + text[at:]
        )
    if how == "bytes":
        return draw(st.binary(max_size=64))
    return json.dumps(frame, allow_nan=True)


def message_strategy(definition: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Objects valid for one client message's schema: each field's value drawn by
    hypothesis-jsonschema from the field's own schema. (Its generator of whole objects
    uses a Hypothesis internal that newer Hypothesis no longer has; the message objects
    are put together here instead, with the same required and optional keys.)"""
    fields = definition["properties"]
    required = set(definition.get("required", ()))
    return st.fixed_dictionaries(
        {k: from_schema(v) for k, v in fields.items() if k in required},
        optional={k: from_schema(v) for k, v in fields.items() if k not in required},
    )


CLIENT_DEFS = [
    SCHEMA["$defs"][ref["$ref"].split("/")[-1]]
    for ref in SCHEMA["properties"]["client_to_server"]["anyOf"]
]
GENERATED = st.one_of([message_strategy(d) for d in CLIENT_DEFS]).map(
    lambda m: json.dumps(m, allow_nan=False)
)
FRAMES = st.one_of(GENERATED, mutated(), st.sampled_from(VALID).map(json.dumps))


def check_frame(table: Table, frame: str | bytes, log: pytest.LogCaptureFixture) -> None:
    started = time.monotonic()
    log.clear()
    seq, views = table.position()
    replies = table.answers(frame)
    ANSWERS.update(r.get("code", r["type"]) for r in replies)
    assert not any(r["type"] == "error" and r["code"] == "internal" for r in replies), replies
    if not any(r["type"] == "ack" for r in replies):
        assert table.position() == (seq, views), (frame, replies)
    problems = [r.getMessage() for r in log.records if r.levelno >= logging.ERROR or r.exc_info]
    assert problems == [], problems
    table.other_room_answers()
    STATS["frames"] += 1
    STATS["seconds"] += time.monotonic() - started


@settings(max_examples=CASES, **FUZZ)
@given(frame=FRAMES)
def test_socket_fuzzed_after_hello(
    table: Table, server_log: pytest.LogCaptureFixture, frame: str | bytes
) -> None:
    check_frame(table, frame, server_log)


@settings(max_examples=BEFORE_HELLO, **FUZZ)
@given(frame=FRAMES)
def test_socket_fuzzed_before_hello(
    table: Table, server_log: pytest.LogCaptureFixture, frame: str | bytes
) -> None:
    started = time.monotonic()
    server_log.clear()
    url = table.server.url.replace("http://", "ws://") + f"/ws/{table.code}"
    with connect(url) as fresh:
        fresh.send(frame)
        reply = json.loads(fresh.recv(timeout=60))
        ANSWERS["before hello: " + reply.get("code", reply["type"])] += 1
        assert reply["type"] in ("error", "snapshot"), reply
        if reply["type"] == "error":
            assert reply["code"] != "internal", reply
    problems = [r.getMessage() for r in server_log.records]
    assert problems == [], problems
    table.other_room_answers()
    STATS["frames"] += 1
    STATS["seconds"] += time.monotonic() - started


def test_generated_frames_cover_every_client_message_type() -> None:
    client = {d["properties"]["type"]["enum"][0] for d in CLIENT_DEFS}
    assert client == {
        *("hello", "act", "hint", "chat", "ping", "contribute", "undo", "rematch", "late")
    }
    assert {f["type"] for f in VALID} == client
