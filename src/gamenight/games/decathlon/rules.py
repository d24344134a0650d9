"""The Decathlon state machine: disciplines in order, player order, interleaved attempts.

:func:`start`, :func:`to_act`, :func:`legal_actions` and :func:`apply` are pure
(the rules dialect every game speaks): :func:`start` and :func:`apply` return a
:class:`~gamenight.core.game.Transition`, the new :class:`DecathlonState` with the
events it caused. Each discipline family lives in its own module (:mod:`.sets`,
:mod:`.long_jump`, :mod:`.shot_put`, :mod:`.throws`, :mod:`.heights`); this module
runs the disciplines in D1 order, orders the players (D2), interleaves the three
attempts (D3) and writes each discipline's results on the score sheet (D11).

After every action the machine takes all automatic steps (frozen throws with
no rethrow left, invalid attempts, the next player's first throw, the next
discipline...) and stops where a player has a real choice, or at the end.

The events each call reports are the typed structs of :mod:`.events` (a
*discipline* is one of the ten contests; an *event* is something that happened).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec
from msgspec.structs import replace

from gamenight.core.dice import DiceSource
from gamenight.core.game import Transition
from gamenight.core.options import Options
from gamenight.games.decathlon import heights, long_jump, sets, shot_put, throws
from gamenight.games.decathlon.actions import Action
from gamenight.games.decathlon.attempt import Finished
from gamenight.games.decathlon.disciplines import EVENT_ATTEMPTS, EVENT_FAMILY
from gamenight.games.decathlon.events import (
    AttemptResult,
    DecathlonEvent,
    DisciplineEnd,
    DisciplineStart,
    GameOver,
    StartingOrder,
    Turn,
    Ump,
)
from gamenight.games.decathlon.heights import HeightsStage
from gamenight.games.decathlon.long_jump import LongJumpAttempt
from gamenight.games.decathlon.scoring import Row, honours, next_order, totals
from gamenight.games.decathlon.sets import SetsAttempt
from gamenight.games.decathlon.shot_put import ShotPutAttempt
from gamenight.games.decathlon.throws import ThrowAttempt

Attempt = SetsAttempt | LongJumpAttempt | ShotPutAttempt | ThrowAttempt


class AttemptsStage(msgspec.Struct, frozen=True, gc=False, tag="attempts"):
    """An attempt discipline in progress (all but the heights).

    ``round`` is the attempt number (1..3, D3; always 1 for the set disciplines),
    ``turn`` indexes the player order, ``tries`` holds each seat's attempt
    results so far (``None``: invalid) and ``attempt`` the acting player's.
    ``best`` is each seat's best valid try (kept here: every view shows it).
    """

    round: int
    turn: int
    tries: tuple[tuple[int | None, ...], ...]
    attempt: Attempt
    best: tuple[int | None, ...] = ()


Stage = AttemptsStage | HeightsStage


# gc=False on the state, stage, attempt, action and view structs: frozen values hold no
# reference cycles, and untracked they cost the cycle collector nothing (random play
# allocates several per decision).
class DecathlonState(msgspec.Struct, frozen=True, gc=False):
    """The whole game. ``sheet`` has one row per finished discipline (results by seat).

    ``disciplines`` are the ones chosen (the ``events`` option), in D1 order.
    The sheet's summaries (``honours`` per row, running ``totals`` and
    ``honour_totals``) are computed once when a discipline ends, not at every
    view; :func:`summaries` derives them from a sheet.
    """

    dice: DiceSource
    players: int
    variant: str
    disciplines: tuple[str, ...]
    discipline_no: int
    order: tuple[int, ...]
    sheet: tuple[Row, ...]
    stage: Stage | None  # None: the game is over
    honours: tuple[tuple[int, ...], ...] = ()  # by finished discipline, by seat (D11)
    totals: tuple[int, ...] = ()  # running points by seat
    honour_totals: tuple[int, ...] = ()  # running honours by seat

    @property
    def discipline(self) -> str | None:
        if self.discipline_no < len(self.disciplines):
            return self.disciplines[self.discipline_no]
        return None


# ----- the public machine ------------------------------------------------------------
def start(
    players: int, options: Options, dice: DiceSource
) -> Transition[DecathlonState, DecathlonEvent]:
    """A new game: the starting order drawn (D2) and the first discipline begun.

    ``options`` are parsed: ``variant`` and ``events`` (the disciplines to play, D1 order).
    """
    ump = Ump(dice)
    order = _draw_order(players, ump)
    zeros = (0,) * players
    disciplines = tuple(options["events"])
    state = DecathlonState(
        dice, players, options["variant"], disciplines, 0, order, (), None, (), zeros, zeros
    )
    state = _begin_discipline(state, ump)
    return Transition(msgspec.structs.replace(state, dice=ump.dice), ump.events)


def to_act(state: DecathlonState) -> tuple[int, ...]:
    if state.stage is None:
        return ()
    return (state.order[state.stage.turn],)


def legal_actions(state: DecathlonState, seat: int) -> list[Action]:
    stage = state.stage
    if stage is None or seat != state.order[stage.turn]:
        return []
    discipline = state.disciplines[state.discipline_no]
    if isinstance(stage, HeightsStage):
        return heights.legal(discipline, stage)
    attempt = stage.attempt
    return _LEGAL[type(attempt)](discipline, attempt)


def apply(
    state: DecathlonState, seat: int, action: Action
) -> Transition[DecathlonState, DecathlonEvent]:
    """The state after ``seat`` plays ``action``; raises IllegalActionError, changing nothing.

    ``seat`` must be the one to act and ``action`` a Decathlon action: ``Game.apply``
    checks both first, as in every game's rules (an environment that calls
    ``Game._apply`` directly passes only actions it took from the legal ones).
    """
    # Hot (every decision of every simulated game): no property or helper calls here.
    stage = state.stage
    assert stage is not None  # Game.apply refused a finished game
    discipline = state.disciplines[state.discipline_no]
    ump = Ump(state.dice)
    if isinstance(stage, HeightsStage):
        after = heights.act(discipline, state.order, stage, action, ump)
        if type(after) is heights.Over:
            state = _finish_discipline(state, after.cleared, ump)  # D8/D9: highest cleared
        else:
            state = replace(state, stage=after, dice=ump.dice)
            return Transition(state, tuple(ump))
    else:
        attempt = stage.attempt
        outcome = _ACT[type(attempt)](discipline, seat, attempt, action, ump)
        if type(outcome) is not Finished:
            state = replace(state, stage=replace(stage, attempt=outcome), dice=ump.dice)
            return Transition(state, tuple(ump))
        tries, bests = _record(stage.tries, stage.best, seat, stage.round, outcome.result, ump)
        state = _next_attempt(state, stage.round, stage.turn + 1, tries, bests, ump)
    return Transition(replace(state, dice=ump.dice), tuple(ump))  # the umpire is its events


# ----- discipline flow ------------------------------------------------------------------
def _draw_order(players: int, ump: Ump) -> tuple[int, ...]:
    """D2: the starting order is drawn at random (a Fisher-Yates shuffle with the dice)."""
    seats, draws = list(range(players)), []
    for i in range(players - 1, 0, -1):
        (draw,) = ump.roll(1, sides=i + 1)
        draws.append(draw)
        seats[i], seats[draw - 1] = seats[draw - 1], seats[i]
    ump.announce(StartingOrder(order=tuple(seats), draws=tuple(draws)))
    return tuple(seats)


def _begin_discipline(state: DecathlonState, ump: Ump) -> DecathlonState:
    discipline = state.disciplines[state.discipline_no]
    ump.announce(DisciplineStart(discipline=discipline, order=state.order))
    if EVENT_FAMILY[discipline] == "heights":
        return msgspec.structs.replace(state, stage=heights.begin(discipline, state.players, ump))
    return _next_attempt(state, 1, 0, ((),) * state.players, (None,) * state.players, ump)


def _next_attempt(
    state: DecathlonState,
    round_no: int,
    turn: int,
    tries: tuple[tuple[int | None, ...], ...],
    bests: tuple[int | None, ...],
    ump: Ump,
) -> DecathlonState:
    """Start attempts in order (D3: all first attempts, then all second...) until one
    needs a decision, or finish the discipline. ``bests``: each seat's best valid try."""
    discipline = state.disciplines[state.discipline_no]
    rounds = EVENT_ATTEMPTS[discipline]
    while True:
        if turn == len(state.order):
            round_no, turn = round_no + 1, 0
        if round_no > rounds:
            return _finish_discipline(state, bests, ump)  # D3: the best attempt counts
        seat = state.order[turn]
        ump.announce(Turn(player=seat, discipline=discipline, attempt=round_no, attempts=rounds))
        outcome = _begin_attempt(discipline, seat, ump)
        if not isinstance(outcome, Finished):
            return replace(state, stage=AttemptsStage(round_no, turn, tries, outcome, bests))
        tries, bests = _record(tries, bests, seat, round_no, outcome.result, ump)
        turn += 1


def _record(
    tries: tuple[tuple[int | None, ...], ...],
    bests: tuple[int | None, ...],
    seat: int,
    round_no: int,
    result: int | None,
    ump: Ump,
) -> tuple[tuple[tuple[int | None, ...], ...], tuple[int | None, ...]]:
    """``seat``'s try appended, and its best valid try so far (D3)."""
    mine, top = (*tries[seat], result), bests[seat]
    if result is not None and (top is None or result > top):
        top = result
        bests = (*bests[:seat], top, *bests[seat + 1 :])
    ump.announce(AttemptResult(player=seat, attempt=round_no, result=result, best=top))
    return (*tries[:seat], mine, *tries[seat + 1 :]), bests


def summaries(
    sheet: Sequence[Row], players: int
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[int, ...]]:
    """The honours of every row, the points totals and the honour totals of ``sheet``."""
    medals = tuple(honours(row) for row in sheet)
    return (
        medals,
        totals(sheet, players),
        tuple(sum(row[seat] for row in medals) for seat in range(players)),
    )


def _finish_discipline(state: DecathlonState, results: Row, ump: Ump) -> DecathlonState:
    discipline = state.disciplines[state.discipline_no]
    sheet = (*state.sheet, results)
    champ = state.variant == "championship"
    row_honours = honours(results)
    # list comprehensions: cheaper than generator frames (every game finishes ten events)
    points = tuple([t + (r or 0) for t, r in zip(state.totals, results, strict=True)])
    medals = tuple([t + h for t, h in zip(state.honour_totals, row_honours, strict=True)])
    ump.announce(
        DisciplineEnd(
            discipline=discipline,
            results=results,
            # the whole sheet so far, so a front end joining late (or resuming) can draw it
            sheet=dict(zip(state.disciplines, sheet, strict=False)),
            totals=points,
            honours=row_honours if champ else None,
            honour_totals=medals if champ else None,
        )
    )
    standing = medals if champ else points
    state = msgspec.structs.replace(
        state,
        sheet=sheet,
        discipline_no=state.discipline_no + 1,
        order=next_order(state.order, standing),
        stage=None,
        honours=(*state.honours, row_honours),
        totals=points,
        honour_totals=medals,
    )
    if state.discipline_no == len(state.disciplines):
        ump.announce(GameOver(scores=standing))
        return state
    return _begin_discipline(state, ump)


# ----- dispatch to the discipline families --------------------------------------------
def _begin_attempt(discipline: str, seat: int, ump: Ump) -> Attempt | Finished:
    # the height events have no attempts: their stage runs them (KeyError if asked)
    return _BEGIN[EVENT_FAMILY[discipline]](discipline, seat, ump)


# By the attempt's type (exact: the attempt structs are final), one lookup per decision.
_LEGAL: dict[type, Callable[[str, Any], list[Action]]] = {
    SetsAttempt: sets.legal,
    LongJumpAttempt: long_jump.legal,
    ShotPutAttempt: shot_put.legal,
    ThrowAttempt: throws.legal,
}
_BEGIN: dict[str, Callable[[str, int, Ump], Attempt | Finished]] = {
    "sets": sets.begin,
    "long-jump": long_jump.begin,
    "shot-put": shot_put.begin,
    "freeze": throws.begin,
}
_ACT: dict[type, Callable[[str, int, Any, Action, Ump], Attempt | Finished]] = {
    SetsAttempt: sets.act,
    LongJumpAttempt: long_jump.act,
    ShotPutAttempt: shot_put.act,
    ThrowAttempt: throws.act,
}
