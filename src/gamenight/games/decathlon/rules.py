"""The Decathlon state machine: events in order, player order, interleaved attempts.

:func:`start`, :func:`legal` and :func:`apply` are pure: they take a
:class:`DecathlonState` and return a new one with the events it caused. Each
event family lives in its own module (:mod:`.sets`, :mod:`.long_jump`,
:mod:`.shot_put`, :mod:`.throws`, :mod:`.heights`); this module runs the
events in D1 order, orders the players (D2), interleaves the three attempts
(D3) and writes each event's results on the score sheet (D11).

After every action the machine takes all automatic steps (frozen throws with
no rethrow left, invalid attempts, the next player's first throw, the next
event...) and stops where a player has a real choice, or at the end.

Events reported (``Event.kind``: data):

* ``starting-order``: order, draws -- D2, drawn before the first event;
* ``event-start``: event, order; ``turn`` (player): event, attempt, attempts;
* ``roll`` (player): dice, what ("set", "run-up", "jump", "shot", "throw",
  "height") and details (set, rethrow, rethrows_left, die, height, jump);
* ``freeze`` (player): what, dice, frozen (all frozen so far), auto;
* ``jump`` (player): dice (Long Jump) or height (High Jump, Pole Vault);
* ``invalid`` (player): reason; ``result`` (player): attempt, result, best;
* ``bar``: height; ``skip``/``retire`` (player): height;
  ``clear``/``miss`` (player): height, jump, total/reason; ``out`` (player): height, best;
* ``event-end``: event, results, sheet (every finished event's results), totals,
  and in the Championship honours and honour_totals;
* ``game-over``: scores.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from gamenight.core.dice import DiceSource
from gamenight.core.errors import IllegalActionError
from gamenight.core.events import LooseEvent as Event
from gamenight.games.decathlon import heights, long_jump, sets, shot_put, throws
from gamenight.games.decathlon.actions import Action
from gamenight.games.decathlon.attempt import Finished
from gamenight.games.decathlon.disciplines import NAMES, attempts, family
from gamenight.games.decathlon.heights import HeightsStage
from gamenight.games.decathlon.long_jump import LongJumpAttempt
from gamenight.games.decathlon.scoring import (
    Row,
    honour_totals,
    honours,
    next_order,
    standings,
    totals,
)
from gamenight.games.decathlon.sets import SetsAttempt
from gamenight.games.decathlon.shot_put import ShotPutAttempt
from gamenight.games.decathlon.throws import ThrowAttempt
from gamenight.games.decathlon.umpire import Umpire

Attempt = SetsAttempt | LongJumpAttempt | ShotPutAttempt | ThrowAttempt


class AttemptsStage(msgspec.Struct, frozen=True, tag="attempts"):
    """An attempt event in progress (all but the heights).

    ``round`` is the attempt number (1..3, D3; always 1 for the set events),
    ``turn`` indexes the player order, ``tries`` holds each seat's attempt
    results so far (``None``: invalid) and ``attempt`` the acting player's.
    """

    round: int
    turn: int
    tries: tuple[tuple[int | None, ...], ...]
    attempt: Attempt


Stage = AttemptsStage | HeightsStage


class DecathlonState(msgspec.Struct, frozen=True):
    """The whole game. ``sheet`` has one row per finished event (results by seat)."""

    dice: DiceSource
    players: int
    variant: str
    events: tuple[str, ...]
    event_no: int
    order: tuple[int, ...]
    sheet: tuple[Row, ...]
    stage: Stage | None  # None: the game is over

    @property
    def event(self) -> str | None:
        return self.events[self.event_no] if self.event_no < len(self.events) else None


# ----- the public machine ------------------------------------------------------------
def start(
    players: int, variant: str, events: Sequence[str], dice: DiceSource
) -> tuple[DecathlonState, tuple[Event, ...]]:
    ump = Umpire(dice)
    order = _draw_order(players, ump)
    state = DecathlonState(dice, players, variant, tuple(events), 0, order, (), None)
    state = _begin_event(state, ump)
    return msgspec.structs.replace(state, dice=ump.dice), tuple(ump.events)


def to_act(state: DecathlonState) -> tuple[int, ...]:
    if state.stage is None:
        return ()
    return (state.order[state.stage.turn],)


def legal(state: DecathlonState, seat: int) -> list[Action]:
    stage, event = state.stage, state.event
    if stage is None or event is None or seat not in to_act(state):
        return []
    if isinstance(stage, HeightsStage):
        return heights.legal(event, stage)
    attempt = stage.attempt
    if isinstance(attempt, SetsAttempt):
        return sets.legal(attempt)
    if isinstance(attempt, LongJumpAttempt):
        return long_jump.legal(attempt)
    if isinstance(attempt, ShotPutAttempt):
        return shot_put.legal(attempt)
    return throws.legal(event, attempt)


def apply(
    state: DecathlonState, seat: int, action: Action
) -> tuple[DecathlonState, tuple[Event, ...]]:
    """The state after ``seat`` plays ``action``; raises IllegalActionError, changing nothing."""
    stage, event = state.stage, state.event
    if stage is None or event is None:
        raise IllegalActionError("the game is over; no more actions")
    if seat not in to_act(state):
        raise IllegalActionError(f"it is seat {to_act(state)[0]}'s turn, not seat {seat}'s")
    ump = Umpire(state.dice)
    if isinstance(stage, HeightsStage):
        after = heights.act(event, state.order, stage, action, ump)
        if isinstance(after, heights.Over):
            state = _finish_event(state, after.cleared, ump)  # D8/D9: highest cleared
        else:
            state = msgspec.structs.replace(state, stage=after)
    else:
        outcome = _act_attempt(event, seat, stage.attempt, action, ump)
        if isinstance(outcome, Finished):
            tries = _record(stage.tries, seat, stage.round, outcome.result, ump)
            state = _next_attempt(state, stage.round, stage.turn + 1, tries, ump)
        else:
            state = msgspec.structs.replace(
                state, stage=msgspec.structs.replace(stage, attempt=outcome)
            )
    return msgspec.structs.replace(state, dice=ump.dice), tuple(ump.events)


def best(tries: Sequence[int | None]) -> int | None:
    """D3: the best valid attempt counts; ``None`` when none was valid."""
    valid = [t for t in tries if t is not None]
    return max(valid) if valid else None


# ----- event flow ----------------------------------------------------------------------
def _draw_order(players: int, ump: Umpire) -> tuple[int, ...]:
    """D2: the starting order is drawn at random (a Fisher-Yates shuffle with the dice)."""
    seats, draws = list(range(players)), []
    for i in range(players - 1, 0, -1):
        draw = ump.draw(i + 1)
        draws.append(draw)
        seats[i], seats[draw - 1] = seats[draw - 1], seats[i]
    ump.announce("starting-order", order=seats, draws=draws)
    return tuple(seats)


def _begin_event(state: DecathlonState, ump: Umpire) -> DecathlonState:
    event = state.events[state.event_no]
    ump.announce("event-start", event=event, order=list(state.order))
    if family(event) == "heights":
        return msgspec.structs.replace(state, stage=heights.begin(event, state.players, ump))
    return _next_attempt(state, 1, 0, ((),) * state.players, ump)


def _next_attempt(
    state: DecathlonState,
    round_no: int,
    turn: int,
    tries: tuple[tuple[int | None, ...], ...],
    ump: Umpire,
) -> DecathlonState:
    """Start attempts in order (D3: all first attempts, then all second...) until one
    needs a decision, or finish the event."""
    event = state.events[state.event_no]
    rounds = attempts(event)
    while True:
        if turn == len(state.order):
            round_no, turn = round_no + 1, 0
        if round_no > rounds:
            return _finish_event(state, tuple(best(t) for t in tries), ump)
        seat = state.order[turn]
        ump.announce("turn", seat, event=event, attempt=round_no, attempts=rounds)
        outcome = _begin_attempt(event, seat, ump)
        if not isinstance(outcome, Finished):
            return msgspec.structs.replace(
                state, stage=AttemptsStage(round_no, turn, tries, outcome)
            )
        tries = _record(tries, seat, round_no, outcome.result, ump)
        turn += 1


def _record(
    tries: tuple[tuple[int | None, ...], ...],
    seat: int,
    round_no: int,
    result: int | None,
    ump: Umpire,
) -> tuple[tuple[int | None, ...], ...]:
    mine = (*tries[seat], result)
    ump.announce("result", seat, attempt=round_no, result=result, best=best(mine))
    return tuple(mine if i == seat else t for i, t in enumerate(tries))


def _finish_event(state: DecathlonState, results: Row, ump: Umpire) -> DecathlonState:
    event = state.events[state.event_no]
    sheet = (*state.sheet, results)
    data: dict[str, object] = {
        "event": event,
        "results": list(results),
        # the whole sheet so far, so a front end joining late (or resuming) can draw it
        "sheet": {e: list(row) for e, row in zip(state.events, sheet, strict=False)},
    }
    if state.variant == "championship":
        data["honours"] = list(honours(results))
        data["honour_totals"] = list(honour_totals(sheet, state.players))
    data["totals"] = list(totals(sheet, state.players))
    ump.announce("event-end", **data)
    standing = standings(state.variant, sheet, state.players)
    state = msgspec.structs.replace(
        state,
        sheet=sheet,
        event_no=state.event_no + 1,
        order=next_order(state.order, standing),
        stage=None,
    )
    if state.event_no == len(state.events):
        ump.announce("game-over", scores=list(standing))
        return state
    return _begin_event(state, ump)


# ----- dispatch to the event families -----------------------------------------------
def _begin_attempt(event: str, seat: int, ump: Umpire) -> Attempt | Finished:
    kind = family(event)
    if kind == "sets":
        return sets.begin(event, seat, ump)
    if kind == "long-jump":
        return long_jump.begin(seat, ump)
    if kind == "shot-put":
        return shot_put.begin(seat, ump)
    if kind == "freeze":
        return throws.begin(event, seat, ump)
    raise ValueError(f"{NAMES[event]} has no attempts")  # heights are run by their stage


def _act_attempt(
    event: str, seat: int, attempt: Attempt, action: Action, ump: Umpire
) -> Attempt | Finished:
    if isinstance(attempt, SetsAttempt):
        return sets.act(event, seat, attempt, action, ump)
    if isinstance(attempt, LongJumpAttempt):
        return long_jump.act(seat, attempt, action, ump)
    if isinstance(attempt, ShotPutAttempt):
        return shot_put.act(seat, attempt, action, ump)
    return throws.act(event, seat, attempt, action, ump)
