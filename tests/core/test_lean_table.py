"""Issue 29's lean table path keeps what the front ends rely on: events stamped on
demand, listeners that stop themselves, observers added after the start, agents that
ignore events, Table.decision, and codecs indexing shared actions by identity."""

from __future__ import annotations

from typing import Any

from toy import Bust, Hold, Roll, Rolled, ToyGame

from gamenight.core import ScriptedDice
from gamenight.core.agents import Decision, RandomAgent
from gamenight.core.codec import Codec
from gamenight.core.errors import IllegalActionError
from gamenight.core.frames import Step
from gamenight.core.record import RecordSeat
from gamenight.core.runner import Match
from gamenight.core.table import Table

GAME = ToyGame()


def test_the_log_stamps_each_event_with_its_action_and_undo_forgets_them() -> None:
    t = Table.start(GAME, 2, GAME.parse_options(), ScriptedDice(values=(4, 1)))
    t.submit(0, Roll())
    t.submit(0, Roll())  # a 1: bust
    stamped = [(s.seq, s.event) for s in t.log() if s.seq]
    assert stamped == [(1, Rolled(player=0, face=4)), (2, Rolled(player=0, face=1)),
                       (2, Bust(player=0))]  # fmt: skip
    assert [events for _, _, events in t.played()] == [
        (Rolled(player=0, face=4),),
        (Rolled(player=0, face=1), Bust(player=0)),
    ]


def test_a_listener_may_stop_itself_while_called() -> None:
    t = Table.start(GAME, 2, GAME.parse_options(), ScriptedDice(values=(4, 5)))
    heard: list[int] = []

    def once(step: Step[Any, Any]) -> None:
        heard.append(step.seq)
        stop()

    stop = t.listen(once)
    t.listen(lambda step: heard.append(-step.seq))
    t.submit(0, Roll())
    t.submit(0, Roll())
    assert heard == [1, -1, -2]


def test_decision_is_the_positions_view_and_legal_actions_only_for_the_seat_to_act() -> None:
    t = Table.start(GAME, 2, GAME.parse_options(), ScriptedDice(values=(4,)))
    t.submit(0, Roll())
    decision = t.decision(0)
    position = t.position(0)
    assert decision.view == position.view and tuple(decision.legal) == position.legal
    assert decision.legal == [Roll(), Hold()]
    try:
        t.decision(1)
    except IllegalActionError as exc:
        assert "not seat 1's turn" in str(exc)
    else:
        raise AssertionError("seat 1 got a decision out of turn")


class Watcher(RandomAgent):
    observes = True

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.seen: list[Any] = []

    def observe(self, seat: int, events: Any) -> None:
        self.seen.extend(events)


class Deaf(RandomAgent):
    def observe(self, seat: int, events: Any) -> None:
        raise AssertionError("an agent with observes = False was shown events")


def test_watching_agents_see_events_others_are_not_called_and_late_observers_hear() -> None:
    seats = [RecordSeat("a", "bot:random"), RecordSeat("b", "bot:random")]
    watcher = Watcher(1)
    match = Match(GAME, GAME.parse_options(), 3, seats, [watcher, Deaf(2)])
    match.begin()
    frames: list[Any] = []
    match.observers.append(frames.append)  # after begin: still told of every step
    match.run()
    assert match.table is not None
    assert frames and [f.seq for f in frames] == list(range(1, match.table.seq + 1))
    assert watcher.seen == [s.event for s in match.table.events_since(0, -1)]


def test_an_equal_action_that_is_not_the_codecs_own_object_still_finds_its_index() -> None:
    codec = Codec()
    codec._add(Roll())
    codec._add(Hold())
    shared = Hold()
    codec._share([shared])
    assert codec.legal_indices([shared, Roll()], 0, lambda: None) == {1: shared, 0: Roll()}
    other = Hold()  # equal, never shown to the codec
    assert codec.legal_indices([other], 0, lambda: None) == {1: other}
    assert isinstance(Decision("toy", 0, None, [other]).legal, list)
