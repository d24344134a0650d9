"""The Shot Put (D7): dice thrown one at a time, up to 8; a 1 is a foul.

The first die is thrown automatically. After each die that is not a 1 the
player throws the next or stops; after the 8th the attempt ends by itself.
The result is the sum of the dice thrown.
"""

from __future__ import annotations

import msgspec

from gamenight.core.errors import IllegalActionError
from gamenight.games.decathlon.actions import Action, Stop, Throw
from gamenight.games.decathlon.attempt import Finished
from gamenight.games.decathlon.disciplines import SHOT_PUT_DICE
from gamenight.games.decathlon.events import Invalid, Rolled, Ump


class ShotPutAttempt(msgspec.Struct, frozen=True, gc=False, tag="shot-put"):
    """``dice``: this attempt's dice so far, in the order thrown (none is a 1)."""

    dice: tuple[int, ...]


def begin(discipline: str, seat: int, ump: Ump) -> ShotPutAttempt | Finished:
    return _throw_next(seat, ShotPutAttempt(()), ump)


_THROW, _STOP = Throw(), Stop()  # actions are values: one of each serves every list


def legal(discipline: str, attempt: ShotPutAttempt) -> list[Action]:
    return [_THROW, _STOP]


def act(
    discipline: str, seat: int, attempt: ShotPutAttempt, action: Action, ump: Ump
) -> ShotPutAttempt | Finished:
    # ``discipline`` (always the Shot Put) keeps the signature of every attempt family
    if isinstance(action, Throw):
        return _throw_next(seat, attempt, ump)
    if isinstance(action, Stop):
        return Finished(sum(attempt.dice))
    raise IllegalActionError("in the Shot Put you may only throw the next die or stop")


def _throw_next(seat: int, attempt: ShotPutAttempt, ump: Ump) -> ShotPutAttempt | Finished:
    faces = ump.roll(1)
    ump.announce(Rolled(player=seat, dice=faces, what="shot", die=len(attempt.dice) + 1))
    dice = (*attempt.dice, *faces)
    if faces[0] == 1:
        ump.announce(Invalid(player=seat, reason=f"die {len(dice)} shows a 1"))
        return Finished(None)
    if len(dice) == SHOT_PUT_DICE:
        return Finished(sum(dice))
    return ShotPutAttempt(dice)
