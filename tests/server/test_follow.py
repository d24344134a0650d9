"""Following another process's action from its notification (server/follow.py, issue 38
item 7): the payload carries the action, the follower applies it to its own table with
the seq checked; anything but "exactly the next one, nothing catching up" reads the log."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import msgspec

from gamenight.core import registry
from gamenight.core.dice import SeededDice
from gamenight.core.table import Table
from gamenight.server.db import AppendRequest
from gamenight.server.follow import NOTIFY_LIMIT, follow, payloads
from gamenight.server.lifecycle import Lifecycle


@dataclass
class Following:
    """The follower's side of a room."""

    table: Table
    game: Any
    status: Lifecycle = Lifecycle.PLAYING
    busy: bool = False
    kicked: int = 0
    frames: list[int] = field(default_factory=list)

    def is_catching_up(self) -> bool:
        return self.busy

    def after_followed(self) -> None:
        self.kicked += 1


def _tables(game_id: str = "decathlon") -> tuple[Table, Following]:
    game = registry.get(game_id).game
    leader = Table.start(game, 2, game.parse_options(), SeededDice(seed=11))
    follower = Following(Table.start(game, 2, game.parse_options(), SeededDice(seed=11)), game)
    follower.table.listen(lambda step: follower.frames.append(step.seq))
    return leader, follower


def _detail(leader: Table, rng: random.Random) -> str:
    """Play one random legal action on ``leader``; the detail of its notification."""
    seat = leader.to_act()[0]
    action = rng.choice(leader.position(seat).legal)
    step = leader.submit(seat, action)
    request = AppendRequest(
        1, step.seq, seat, msgspec.json.encode(action).decode(), "human", 0.0, notify="t c act"
    )
    (payload,) = payloads([request])
    return payload.removeprefix("t c act ")


def test_the_follower_applies_every_action_and_ends_in_the_same_state() -> None:
    leader, room = _tables()
    rng = random.Random(3)
    while not leader.finished:
        assert follow(room, _detail(leader, rng))
    assert room.table.moves() == leader.moves()
    assert room.table.state == leader.state
    assert room.frames == list(range(1, leader.seq + 1))  # its sockets' frames, in order
    assert room.kicked == leader.seq


def test_a_gap_reads_the_log_and_changes_nothing() -> None:
    leader, room = _tables()
    rng = random.Random(4)
    first = _detail(leader, rng)
    _detail(leader, rng)  # this notification was lost
    third = _detail(leader, rng)
    assert follow(room, first)
    assert not follow(room, third)  # seq 3 on a table at 1: the log must be read
    assert room.table.seq == 1 and room.frames == [1]


def test_an_action_already_read_is_not_applied_twice() -> None:
    leader, room = _tables()
    detail = _detail(leader, random.Random(5))
    assert follow(room, detail)
    assert follow(room, detail)  # heard again (its log read came first): nothing more
    assert room.table.seq == 1 and room.frames == [1]


def test_while_the_room_catches_up_or_without_the_action_the_log_is_read() -> None:
    leader, room = _tables()
    detail = _detail(leader, random.Random(6))
    room.busy = True
    assert not follow(room, detail)
    room.busy = False
    assert not follow(room, detail.split(" ")[0])  # "<seq>" only: too big for the payload
    assert not follow(room, "1 0 {not json")
    assert not follow(room, "1 0 " + json.dumps({"type": "no such action"}))
    room.status = Lifecycle.FINISHED
    assert not follow(room, detail)
    assert room.table.seq == 0 and room.frames == []


def test_a_batch_stays_under_postgresqls_payload_limit_and_every_part_says_its_seq() -> None:
    action = json.dumps({"type": "say", "text": "x" * 100})
    batch = [
        AppendRequest(1, n, 0, action, "human", 0.0, notify=f"tag R{n:03d} act") for n in range(200)
    ]
    parts = payloads(batch)
    joined = "|".join(parts)
    assert len(joined.encode()) <= NOTIFY_LIMIT < 8000
    assert [p.split(" ")[3] for p in parts] == [str(n) for n in range(200)]
    full = [p for p in parts if len(p.split(" ")) > 4]
    assert 0 < len(full) < 200  # as many as fit carry the action


def test_a_bar_in_an_action_survives_the_batch_join() -> None:
    """A batch's payloads are joined by "|": one inside an action's JSON string is escaped."""
    action = json.dumps({"type": "say", "text": "a|b"}, separators=(",", ":"))
    batch = [AppendRequest(1, 7, 0, action, "human", 0.0, notify="tag R act")] * 2
    parts = "|".join(payloads(batch)).split("|")
    assert len(parts) == 2
    assert json.loads(parts[0].split(" ", 5)[5]) == {"type": "say", "text": "a|b"}
