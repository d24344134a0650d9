"""The Discus (even dice) and the Javelin (odd dice), D10.

After every throw the player freezes at least one allowed die among the dice
just thrown; with none allowed the attempt is invalid. Then they stop or
rethrow the unfrozen dice; with every die frozen the attempt ends by itself.
The result is the sum of the frozen dice. A throw showing exactly one allowed
die leaves no choice, so that die is frozen automatically.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

import msgspec

from gamenight.core.errors import IllegalActionError
from gamenight.games.decathlon.actions import Action, Freeze, Rethrow, Stop
from gamenight.games.decathlon.attempt import Finished, checked_positions, freeze_options, values_at
from gamenight.games.decathlon.disciplines import FREEZE_RULES, TERMS
from gamenight.games.decathlon.events import Froze, Invalid, Rolled, Ump

Phase = Literal["freeze", "rethrow-or-stop"]


class ThrowAttempt(msgspec.Struct, frozen=True, gc=False, tag="throw"):
    """``frozen``: dice frozen so far; ``thrown``: dice just thrown (empty after a freeze)."""

    phase: Phase
    frozen: tuple[int, ...]
    thrown: tuple[int, ...]


@lru_cache(maxsize=1 << 15)  # asked at every decision and view; ~19,000 throws exist
def allowed_positions(discipline: str, thrown: tuple[int, ...]) -> tuple[int, ...]:
    """Positions of the dice just thrown that may be frozen (D10 parity)."""
    parity = FREEZE_RULES[discipline].parity
    return tuple(i for i, v in enumerate(thrown) if v % 2 == parity)


def begin(discipline: str, seat: int, ump: Ump) -> ThrowAttempt | Finished:
    thrown = ump.roll(FREEZE_RULES[discipline].dice)
    ump.announce(Rolled(player=seat, dice=thrown, what="throw"))
    return _settle(discipline, seat, ThrowAttempt("freeze", (), thrown), ump)


_RETHROW, _STOP = Rethrow(), Stop()  # actions are values: one of each serves every list


def legal(discipline: str, attempt: ThrowAttempt) -> list[Action]:
    if attempt.phase == "rethrow-or-stop":
        return [_RETHROW, _STOP]
    return list(freeze_options(allowed_positions(discipline, attempt.thrown)))


def act(
    discipline: str, seat: int, attempt: ThrowAttempt, action: Action, ump: Ump
) -> ThrowAttempt | Finished:
    rule, event = FREEZE_RULES[discipline], TERMS[discipline]
    if attempt.phase == "rethrow-or-stop":
        if isinstance(action, Stop):
            return Finished(sum(attempt.frozen))
        if isinstance(action, Rethrow):
            left = rule.dice - len(attempt.frozen)
            thrown = ump.roll(left)
            ump.announce(Rolled(player=seat, dice=thrown, what="throw", rethrow=True))
            return _settle(discipline, seat, ThrowAttempt("freeze", attempt.frozen, thrown), ump)
        raise IllegalActionError(
            "in the {event} you may stop or rethrow the unfrozen dice now", event=event
        )
    if not isinstance(action, Freeze):
        if rule.word == "even":
            raise IllegalActionError(
                "in the {event} you must first freeze at least one even die just thrown",
                event=event,
            )
        raise IllegalActionError(
            "in the {event} you must first freeze at least one odd die just thrown", event=event
        )
    picks = checked_positions(action, attempt.thrown, event)
    for i in picks:
        if attempt.thrown[i] % 2 != rule.parity:
            shows = {"i": i, "face": attempt.thrown[i], "event": event}
            if rule.word == "even":
                raise IllegalActionError(
                    "the die at position {i} shows {face}: only even dice may be frozen in "
                    "the {event}",
                    **shows,
                )
            raise IllegalActionError(
                "the die at position {i} shows {face}: only odd dice may be frozen in the {event}",
                **shows,
            )
    return _freeze(discipline, seat, attempt, picks, ump, auto=False)


def _settle(discipline: str, seat: int, attempt: ThrowAttempt, ump: Ump) -> ThrowAttempt | Finished:
    allowed = allowed_positions(discipline, attempt.thrown)
    if not allowed:
        word = FREEZE_RULES[discipline].word
        shown = ", ".join(map(str, attempt.thrown))
        reason = f"no {word} die among {shown}: nothing may be frozen"
        ump.announce(Invalid(player=seat, reason=reason))
        return Finished(None)
    if len(allowed) == 1:
        return _freeze(discipline, seat, attempt, allowed, ump, auto=True)
    return attempt


def _freeze(
    discipline: str,
    seat: int,
    attempt: ThrowAttempt,
    picks: tuple[int, ...],
    ump: Ump,
    *,
    auto: bool,
) -> ThrowAttempt | Finished:
    values = values_at(attempt.thrown, picks)
    frozen = attempt.frozen + values
    ump.announce(Froze(player=seat, what="throw", dice=values, frozen=frozen, auto=auto))
    if len(frozen) == FREEZE_RULES[discipline].dice:
        return Finished(sum(frozen))
    return ThrowAttempt("rethrow-or-stop", frozen, ())
