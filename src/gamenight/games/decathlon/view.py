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

from gamenight.games.decathlon.disciplines import SET_RULES, attempts
from gamenight.games.decathlon.heights import HeightsStage
from gamenight.games.decathlon.long_jump import LongJumpAttempt
from gamenight.games.decathlon.rules import DecathlonState
from gamenight.games.decathlon.sets import SetsAttempt
from gamenight.games.decathlon.shot_put import ShotPutAttempt
from gamenight.games.decathlon.throws import ThrowAttempt, allowed_positions


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
    attempt: int = 0  # attempt number, 1..attempts (D3); 0 in the height events
    attempts: int = 0
    # set events (D4, D5)
    rethrows_left: int | None = None
    set_no: int | None = None  # the current set, from 1
    sets: int | None = None
    set_size: int | None = None
    frozen_sets: tuple[tuple[int, ...], ...] = ()
    # dice on the table
    thrown: tuple[int, ...] = ()  # just thrown, awaiting a decision
    freezable: tuple[int, ...] = ()  # positions in ``thrown`` that may be frozen
    frozen: tuple[int, ...] = ()  # frozen in the current phase of the attempt
    run_up: tuple[int, ...] = ()  # Long Jump: the frozen run-up dice (= the jump's dice)
    shot: tuple[int, ...] = ()  # Shot Put: the dice so far
    # height events (D8, D9)
    height: int | None = None
    jumps_at_height: int | None = None  # the acting player's jumps at this height
    last_jump: tuple[int, ...] = ()
    status: tuple[str, ...] = ()  # by seat: "in", "out", "retired"
    marks: tuple[tuple[tuple[int, str], ...], ...] = ()  # by seat: (height, "-"/"o"/"xo"/...)
    # this event and the score sheet
    best: tuple[int | None, ...] = ()  # by seat: best valid result so far in this event
    tries: tuple[tuple[int | None, ...], ...] = ()  # by seat: attempt results this event
    sheet: tuple[tuple[int | None, ...], ...] = ()  # finished events' results, by seat
    honours: tuple[tuple[int, ...], ...] = ()  # finished events' honours (D11)
    totals: tuple[int, ...] = ()  # running points
    honour_totals: tuple[int, ...] = ()

    @property
    def contested(self) -> bool:
        """Two or more players and an event still to play: live win odds mean something."""
        return self.players >= 2 and self.discipline is not None


def build(state: DecathlonState, seat: int | None) -> DecathlonView:
    stage = state.stage
    base = DecathlonView(
        seat=seat,
        players=state.players,
        variant=state.variant,
        disciplines=state.disciplines,
        discipline=None if stage is None else state.disciplines[state.discipline_no],
        discipline_no=state.discipline_no,
        order=state.order,
        to_act=None if stage is None else state.order[stage.turn],
        phase="game-over",
        sheet=state.sheet,
        honours=state.honours,  # kept on the state: computed once per discipline
        totals=state.totals,
        honour_totals=state.honour_totals,
    )
    if stage is None:
        return base
    discipline = state.disciplines[state.discipline_no]
    if isinstance(stage, HeightsStage):
        return msgspec.structs.replace(
            base,
            phase="vault-dice" if stage.committed else "jump-or-skip",
            height=stage.height,
            jumps_at_height=stage.jumps,
            last_jump=stage.last,
            status=stage.status,
            marks=stage.marks,
            best=stage.cleared,
        )
    view = msgspec.structs.replace(
        base,
        attempt=stage.round,
        attempts=attempts(discipline),
        tries=stage.tries,
        best=stage.best,
    )
    attempt = stage.attempt
    if isinstance(attempt, SetsAttempt):
        rule = SET_RULES[discipline]
        return msgspec.structs.replace(
            view,
            phase="keep-or-rethrow",
            rethrows_left=attempt.rethrows_left,
            set_no=attempt.set_no,
            sets=rule.sets,
            set_size=rule.set_size,
            frozen_sets=attempt.frozen_sets,
            frozen=sum(attempt.frozen_sets, ()),
            thrown=attempt.thrown,
        )
    if isinstance(attempt, LongJumpAttempt):
        in_jump = attempt.phase == "jump-freeze"
        return msgspec.structs.replace(
            view,
            phase=attempt.phase,
            thrown=attempt.thrown,
            freezable=tuple(range(len(attempt.thrown))),
            frozen=attempt.jump if in_jump else attempt.run_up,
            run_up=attempt.run_up,
        )
    if isinstance(attempt, ShotPutAttempt):
        return msgspec.structs.replace(view, phase="throw-or-stop", shot=attempt.dice)
    assert isinstance(attempt, ThrowAttempt)
    return msgspec.structs.replace(
        view,
        phase=attempt.phase,
        thrown=attempt.thrown,
        freezable=allowed_positions(discipline, attempt.thrown),
        frozen=attempt.frozen,
    )
