"""The table (core.table): seq, stale refusals, per-seat snapshots and streams,
commit hooks that can refuse, redaction and undo, on the toy game."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from toy import Bust, Hold, Roll, Rolled, ToyGame, ToyState

from gamenight.core import IllegalActionError, ScriptedDice
from gamenight.core.errors import StaleActionError
from gamenight.core.frames import Step
from gamenight.core.table import Table

GAME = ToyGame()


def table(*faces: int, players: int = 2) -> Table[ToyState, Any]:
    return Table.start(GAME, players, GAME.parse_options(), ScriptedDice(values=faces))


def test_seq_counts_actions_and_a_stale_seq_is_refused() -> None:
    t = table(4, 5)
    assert t.seq == 0
    t.submit(0, Roll(), expected_seq=0)
    before = msgspec.json.encode(t.state)
    with pytest.raises(StaleActionError, match="made for position 0; the table is at 1"):
        t.submit(0, Roll(), expected_seq=0)  # a re-send after a reconnect
    assert t.seq == 1 and msgspec.json.encode(t.state) == before
    t.submit(0, Roll(), expected_seq=1)
    assert t.seq == 2


def test_illegal_actions_and_seats_out_of_turn_change_nothing() -> None:
    t = table(4)
    with pytest.raises(IllegalActionError):
        t.submit(0, Hold())  # nothing rolled yet
    with pytest.raises(IllegalActionError):
        t.submit(1, Roll())  # not seat 1's turn
    assert t.seq == 0 and t.events_since(0, 0) == []


def test_snapshots_give_legal_actions_only_to_the_seat_to_act() -> None:
    t = table(4)
    t.submit(0, Roll())
    mine, theirs, spectator = t.position(0), t.position(1), t.position(None)
    assert mine.legal == (Roll(), Hold()) and mine.to_act == (0,)
    assert theirs.legal == () and spectator.legal == ()
    assert mine.seq == theirs.seq == spectator.seq == 1
    assert not mine.finished and mine.results is None


def test_events_since_gives_a_reconnecting_seat_exactly_what_it_missed() -> None:
    t = table(4, 1)
    t.submit(0, Roll())
    t.submit(0, Roll())  # a 1: bust
    assert [s.event for s in t.events_since(1, 1)] == [Rolled(player=0, face=1), Bust(player=0)]
    assert [s.seq for s in t.events_since(1, 0)] == [1, 2, 2]
    assert t.events_since(1, 2) == []


def test_a_commit_hook_that_fails_refuses_the_action() -> None:
    t = table(4, 5)
    written: list[int] = []

    def log(step: Step[Any, Any]) -> None:
        if step.seq == 2:
            raise OSError("disk full")
        written.append(step.seq)

    t.on_commit(log)
    t.submit(0, Roll())
    with pytest.raises(OSError):
        t.submit(0, Roll())
    assert t.seq == 1 and written == [1] and t.state.pot == 4


def test_listeners_get_each_step_and_can_stop() -> None:
    t = table(4, 5)
    heard: list[tuple[int, tuple[Any, ...]]] = []
    stop = t.listen(lambda step: heard.append((step.seq, step.frame(1).events)))
    t.submit(0, Roll())
    stop()
    t.submit(0, Roll())
    assert heard == [(1, (Rolled(player=0, face=4),))]


def test_a_frame_is_computed_once_per_seat_and_matches_the_position() -> None:
    t = table(4, 5)
    frames: list[Any] = []
    t.listen(lambda step: frames.extend([step.frame(0), step.frame(0), step.frame(None)]))
    t.submit(0, Roll())
    mine, again, spectator = frames
    assert mine is again
    assert mine.position == t.position(0) and spectator.position == t.position(None)
    assert mine.action == Roll() and mine.seat == 0 and mine.seq == 1
    assert spectator.position.legal == () and mine.position.legal == (Roll(), Hold())


def test_the_table_keeps_no_state_undo_cannot_reach() -> None:
    t = table(4, 5)
    t.submit(0, Roll())
    t.submit(0, Hold())
    assert len(t._back) == 1  # only the state before the reversible hold
    t.submit(1, Roll())
    assert t._back == []  # a die was thrown: nothing to go back to


def test_undo_takes_back_only_a_reversible_move_of_ones_own() -> None:
    t = table(4, 5)
    t.submit(0, Roll())
    assert not t.can_undo(0)  # a die was thrown
    t.submit(0, Hold())
    assert t.can_undo(0) and not t.can_undo(1)
    t.undo(0)
    assert t.seq == 1 and t.state.pot == 4 and t.to_act() == (0,)
    assert [s.seq for s in t.events_since(0, 0)] == [1]


def test_prepare_then_commit_is_submit_in_two_steps() -> None:
    t = table(4)
    pending = t.prepare(0, Roll(), expected_seq=0)
    assert t.seq == 0  # nothing applied yet
    assert t.commit(pending).events == (Rolled(player=0, face=4),)
    with pytest.raises(StaleActionError):
        t.commit(pending)  # a prepared action applies once
