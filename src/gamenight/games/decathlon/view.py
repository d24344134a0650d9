"""What a player sees at the table: the current discipline, dice, counters and score sheet.

Everything in the Decathlon is public, so every seat (and a spectator) sees the
same facts; ``seat`` only records whose view it is. The dice source is never
included. Dice positions in ``thrown`` are the positions a :class:`Freeze` names.

``phase`` names the decision awaited from ``to_act``:

* ``keep-or-rethrow`` -- set events (D4, D5): freeze the set/throw or rethrow;
* ``run-up-freeze`` / ``rethrow-or-jump`` / ``jump-freeze`` -- Long Jump (D6);
* ``throw-or-stop`` -- Shot Put (D7);
* ``freeze`` / ``rethrow-or-stop`` -- Discus, Javelin (D10);
* ``jump-or-skip`` -- at a height: jump, skip or retire (D8, D9);
* ``vault-dice`` -- a committed pole vaulter chooses 1-8 dice (D9);
* ``game-over``.
"""

from __future__ import annotations

import msgspec

from gamenight.games.decathlon.attempt import POSITIONS
from gamenight.games.decathlon.disciplines import EVENT_ATTEMPTS, NAMES, SET_RULES
from gamenight.games.decathlon.heights import HeightsStage
from gamenight.games.decathlon.long_jump import LongJumpAttempt
from gamenight.games.decathlon.rules import DecathlonState
from gamenight.games.decathlon.sets import SetsAttempt
from gamenight.games.decathlon.shot_put import ShotPutAttempt
from gamenight.games.decathlon.throws import ThrowAttempt, allowed_positions

NO_DICE: tuple[int, ...] = ()  # no dice, typed as dice (a bare () types as the empty tuple)


class DecathlonView(msgspec.Struct, frozen=True, gc=False):
    """One seat's view. Per-seat tuples are indexed by seat, not by player order."""

    seat: int | None
    players: int
    variant: str
    disciplines: tuple[str, ...]  # this game's disciplines (the ``events`` option), D1 order
    discipline: str | None  # the current discipline; None once the game is over
    discipline_no: int  # index of the current discipline in ``disciplines``
    order: tuple[int, ...]  # seats in acting order for this discipline (D2)
    to_act: int | None
    phase: str
    # Field order is build's argument order: the fields most branches set come first,
    # so build passes them positionally (keywords cost msgspec a lookup each).
    # the score sheet
    sheet: tuple[tuple[int | None, ...], ...] = ()  # finished events' results, by seat
    honours: tuple[tuple[int, ...], ...] = ()  # finished events' honours (D11)
    totals: tuple[int, ...] = ()  # running points
    honour_totals: tuple[int, ...] = ()
    # this event
    attempt: int = 0  # attempt number, 1..attempts (D3); 0 in the height events
    attempts: int = 0
    tries: tuple[tuple[int | None, ...], ...] = ()  # by seat: attempt results this event
    best: tuple[int | None, ...] = ()  # by seat: best valid result so far in this event
    # dice on the table
    thrown: tuple[int, ...] = ()  # just thrown, awaiting a decision
    freezable: tuple[int, ...] = ()  # positions in ``thrown`` that may be frozen
    frozen: tuple[int, ...] = ()  # frozen in the current phase of the attempt
    run_up: tuple[int, ...] = ()  # Long Jump: the frozen run-up dice (= the jump's dice)
    # set events (D4, D5)
    rethrows_left: int | None = None
    set_no: int | None = None  # the current set, from 1
    sets: int | None = None
    set_size: int | None = None
    frozen_sets: tuple[tuple[int, ...], ...] = ()
    shot: tuple[int, ...] = ()  # Shot Put: the dice so far
    # height events (D8, D9)
    height: int | None = None
    jumps_at_height: int | None = None  # the acting player's jumps at this height
    last_jump: tuple[int, ...] = ()
    status: tuple[str, ...] = ()  # by seat: "in", "out", "retired"
    marks: tuple[tuple[tuple[int, str], ...], ...] = ()  # by seat: (height, "-"/"o"/"xo"/...)

    @property
    def contested(self) -> bool:
        """Two or more players and an event still to play: live win odds mean something."""
        return self.players >= 2 and self.discipline is not None


def build(state: DecathlonState, seat: int | None) -> DecathlonView:
    # Built at every decision of every game: one construction per branch, the
    # arguments positional in field order (a base view replaced twice cost a quarter
    # more, star-unpacked arguments take msgspec's slow path, keywords a lookup each).
    stage = state.stage
    if stage is None:
        return DecathlonView(
            seat, state.players, state.variant, state.disciplines, None, state.discipline_no,
            state.order, None, "game-over",
            state.sheet, state.honours, state.totals, state.honour_totals,
        )  # fmt: skip
    discipline = state.disciplines[state.discipline_no]
    if isinstance(stage, HeightsStage):
        phase = "vault-dice" if stage.committed else "jump-or-skip"
        return DecathlonView(
            seat, state.players, state.variant, state.disciplines, discipline, state.discipline_no,
            state.order, state.order[stage.turn], phase,
            state.sheet, state.honours, state.totals, state.honour_totals,
            0, 0, (), stage.cleared,  # no attempts (D8, D9); best: the highest cleared
            height=stage.height,
            jumps_at_height=stage.jumps,
            last_jump=stage.last,
            status=stage.status,
            marks=stage.marks,
        )  # fmt: skip
    attempt = stage.attempt
    if isinstance(attempt, SetsAttempt):
        rule = SET_RULES[discipline]
        return DecathlonView(
            seat, state.players, state.variant, state.disciplines, discipline, state.discipline_no,
            state.order, state.order[stage.turn], "keep-or-rethrow",
            state.sheet, state.honours, state.totals, state.honour_totals,
            stage.round, EVENT_ATTEMPTS[discipline], stage.tries, stage.best,
            attempt.thrown, (), sum(attempt.frozen_sets, ()), (),  # thrown .. run_up
            attempt.rethrows_left, len(attempt.frozen_sets) + 1, rule.sets, rule.set_size,
            attempt.frozen_sets,
        )  # fmt: skip
    if isinstance(attempt, ShotPutAttempt):
        return DecathlonView(
            seat, state.players, state.variant, state.disciplines, discipline, state.discipline_no,
            state.order, state.order[stage.turn], "throw-or-stop",
            state.sheet, state.honours, state.totals, state.honour_totals,
            stage.round, EVENT_ATTEMPTS[discipline], stage.tries, stage.best,
            shot=attempt.dice,
        )  # fmt: skip
    if isinstance(attempt, ThrowAttempt):
        freezable = allowed_positions(discipline, attempt.thrown)
        frozen, run_up = attempt.frozen, NO_DICE
    else:  # the Long Jump: any die just thrown may be frozen
        assert isinstance(attempt, LongJumpAttempt)
        freezable = POSITIONS[len(attempt.thrown)]
        frozen = attempt.jump if attempt.phase == "jump-freeze" else attempt.run_up
        run_up = attempt.run_up
    return DecathlonView(
        seat, state.players, state.variant, state.disciplines, discipline, state.discipline_no,
        state.order, state.order[stage.turn], attempt.phase,
        state.sheet, state.honours, state.totals, state.honour_totals,
        stage.round, EVENT_ATTEMPTS[discipline], stage.tries, stage.best,
        attempt.thrown, freezable, frozen, run_up,
    )  # fmt: skip


def stage(view: DecathlonView) -> str | None:
    """The ``stage`` capability: the event a view is in, by name (None once over)."""
    return None if view.discipline is None else NAMES[view.discipline]
