"""The Long Jump (D6): a run-up of at most 8 frozen pips, then the jump.

Run-up: after every throw the player freezes at least one of the dice just
thrown; a frozen total over 8 steps over (invalid attempt). Then, while
unfrozen dice remain, they rethrow them or jump; with all 5 frozen they jump
automatically. Jump: the k frozen run-up dice are thrown; after every throw at
least one is frozen and the rest are rethrown automatically, until all k are
frozen. The result is the sum of the jump's frozen dice.

Where the player has no real choice the step is automatic: a single die just
thrown is frozen, and a throw whose every die would step over ends the attempt.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from gamenight.core.errors import IllegalActionError, Term
from gamenight.games.decathlon.actions import Action, Freeze, Jump, Rethrow
from gamenight.games.decathlon.attempt import (
    POSITIONS,
    Finished,
    checked_positions,
    freeze_options,
    values_at,
)
from gamenight.games.decathlon.disciplines import LONG_JUMP_DICE, RUN_UP_LIMIT, TERMS
from gamenight.games.decathlon.events import Froze, Invalid, Jumped, Rolled, Ump

Phase = Literal["run-up-freeze", "rethrow-or-jump", "jump-freeze"]
# Where a freeze is refused, as the refusals name it (said in the player's language).
LONG_JUMP = TERMS["long-jump"]
RUN_UP = Term("dec.event.long-jump.run-up", "Long Jump run-up")


class LongJumpAttempt(msgspec.Struct, frozen=True, gc=False, tag="long-jump"):
    """``run_up``: frozen run-up dice; ``jump``: frozen jump dice; ``thrown``: dice just thrown."""

    phase: Phase
    run_up: tuple[int, ...]
    jump: tuple[int, ...]
    thrown: tuple[int, ...]


def begin(discipline: str, seat: int, ump: Ump) -> LongJumpAttempt | Finished:
    thrown = ump.roll(LONG_JUMP_DICE)
    ump.announce(Rolled(player=seat, dice=thrown, what="run-up"))
    return _settle(seat, LongJumpAttempt("run-up-freeze", (), (), thrown), ump)


_RETHROW, _JUMP = Rethrow(), Jump()  # actions are values: one of each serves every list


def legal(discipline: str, attempt: LongJumpAttempt) -> list[Action]:
    if attempt.phase == "rethrow-or-jump":
        return [_RETHROW, _JUMP]
    return list(freeze_options(POSITIONS[len(attempt.thrown)]))


def act(
    discipline: str, seat: int, attempt: LongJumpAttempt, action: Action, ump: Ump
) -> LongJumpAttempt | Finished:
    # ``discipline`` (always the Long Jump) keeps the signature of every attempt family
    if attempt.phase == "rethrow-or-jump":
        if isinstance(action, Rethrow):
            left = LONG_JUMP_DICE - len(attempt.run_up)
            thrown = ump.roll(left)
            ump.announce(Rolled(player=seat, dice=thrown, what="run-up", rethrow=True))
            return _settle(
                seat, msgspec.structs.replace(attempt, phase="run-up-freeze", thrown=thrown), ump
            )
        if isinstance(action, Jump):
            ump.announce(Jumped(player=seat, dice=len(attempt.run_up)))
            return _begin_jump(seat, attempt.run_up, ump)
        raise IllegalActionError(
            "after freezing in the Long Jump run-up you rethrow the unfrozen dice or jump"
        )
    if not isinstance(action, Freeze):
        if attempt.phase == "run-up-freeze":
            raise IllegalActionError(
                "in the Long Jump run-up you must first freeze at least one of the dice just thrown"
            )
        raise IllegalActionError(
            "in the Long Jump jump you must first freeze at least one of the dice just thrown"
        )
    if attempt.phase == "run-up-freeze":
        picks = checked_positions(action, attempt.thrown, RUN_UP)
        return _freeze_run_up(seat, attempt, picks, ump, auto=False)
    picks = checked_positions(action, attempt.thrown, LONG_JUMP)
    return _freeze_jump(seat, attempt, picks, ump, auto=False)


def _settle(seat: int, attempt: LongJumpAttempt, ump: Ump) -> LongJumpAttempt | Finished:
    """Take the automatic steps after a throw; stop where the player must choose."""
    if attempt.phase == "run-up-freeze":
        if sum(attempt.run_up) + min(attempt.thrown) > RUN_UP_LIMIT:
            # D6: at least one die must be frozen, and any of them steps over.
            total = sum(attempt.run_up) + min(attempt.thrown)
            return _step_over(
                seat, f"even the lowest die just thrown takes the run-up to {total}", ump
            )
        if len(attempt.thrown) == 1:
            return _freeze_run_up(seat, attempt, (0,), ump, auto=True)
    elif attempt.phase == "jump-freeze" and len(attempt.thrown) == 1:
        return _freeze_jump(seat, attempt, (0,), ump, auto=True)
    return attempt


def _freeze_run_up(
    seat: int, attempt: LongJumpAttempt, picks: tuple[int, ...], ump: Ump, *, auto: bool
) -> LongJumpAttempt | Finished:
    values = values_at(attempt.thrown, picks)
    run_up = attempt.run_up + values
    ump.announce(Froze(player=seat, what="run-up", dice=values, frozen=run_up, auto=auto))
    if sum(run_up) > RUN_UP_LIMIT:
        return _step_over(seat, f"the frozen run-up dice total {sum(run_up)}", ump)
    if len(run_up) == LONG_JUMP_DICE:  # D6: all five frozen, the player must jump
        ump.announce(Jumped(player=seat, dice=len(run_up), auto=True))
        return _begin_jump(seat, run_up, ump)
    return LongJumpAttempt("rethrow-or-jump", run_up, (), ())


def _begin_jump(seat: int, run_up: tuple[int, ...], ump: Ump) -> LongJumpAttempt | Finished:
    thrown = ump.roll(len(run_up))
    ump.announce(Rolled(player=seat, dice=thrown, what="jump"))
    return _settle(seat, LongJumpAttempt("jump-freeze", run_up, (), thrown), ump)


def _freeze_jump(
    seat: int, attempt: LongJumpAttempt, picks: tuple[int, ...], ump: Ump, *, auto: bool
) -> LongJumpAttempt | Finished:
    values = values_at(attempt.thrown, picks)
    jump = attempt.jump + values
    ump.announce(Froze(player=seat, what="jump", dice=values, frozen=jump, auto=auto))
    left = len(attempt.thrown) - len(picks)
    if left == 0:
        return Finished(sum(jump))
    thrown = ump.roll(left)  # D6: the rest are rethrown, no stopping early
    ump.announce(Rolled(player=seat, dice=thrown, what="jump"))
    return _settle(seat, LongJumpAttempt("jump-freeze", attempt.run_up, jump, thrown), ump)


def _step_over(seat: int, why: str, ump: Ump) -> Finished:
    ump.announce(Invalid(player=seat, reason=f"stepped over: {why}, more than {RUN_UP_LIMIT}"))
    return Finished(None)
