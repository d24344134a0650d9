"""The set events: 100 m, 400 m, 1500 m (D4) and the 110 m Hurdles (D5).

Dice are thrown a set at a time (the hurdles are one set of 5). After each
throw the player freezes the set or rethrows it whole; rethrows are shared
across the event. With no rethrow left a throw is frozen automatically (D4),
so the player is only asked while a rethrow remains.
"""

from __future__ import annotations

import msgspec

from gamenight.core.errors import IllegalActionError
from gamenight.games.decathlon.actions import Action, Freeze, Rethrow
from gamenight.games.decathlon.attempt import Finished
from gamenight.games.decathlon.disciplines import RETHROWS, SET_RULES, TERMS, set_score
from gamenight.games.decathlon.events import Froze, Rolled, Ump


class SetsAttempt(msgspec.Struct, frozen=True, gc=False, tag="sets"):
    """A run in progress: ``thrown`` is the current set as last thrown."""

    rethrows_left: int
    frozen_sets: tuple[tuple[int, ...], ...]
    thrown: tuple[int, ...]  # the current set is number len(frozen_sets) + 1


def begin(discipline: str, seat: int, ump: Ump) -> SetsAttempt | Finished:
    rule = SET_RULES[discipline]
    thrown = ump.roll(rule.set_size)
    ump.announce(Rolled(player=seat, dice=thrown, what="set", set_no=1))
    return _settle(discipline, seat, SetsAttempt(RETHROWS, (), thrown), ump)


_RETHROW = Rethrow()
_KEEP = {n: Freeze(tuple(range(n))) for n in range(1, 9)}  # the whole set of n dice


def legal(discipline: str, attempt: SetsAttempt) -> list[Action]:
    keep = _KEEP[len(attempt.thrown)]
    return [keep, _RETHROW] if attempt.rethrows_left > 0 else [keep]


def act(
    discipline: str, seat: int, attempt: SetsAttempt, action: Action, ump: Ump
) -> SetsAttempt | Finished:
    if isinstance(action, Freeze):
        if action != _KEEP[len(attempt.thrown)] and sorted(action.dice) != list(
            range(len(attempt.thrown))
        ):
            raise IllegalActionError(
                "in the {event} a set is frozen whole: freeze positions {positions} or "
                "rethrow the set",
                event=TERMS[discipline],
                positions=tuple(range(len(attempt.thrown))),
            )
        return _freeze(discipline, seat, attempt, ump, auto=False)
    if isinstance(action, Rethrow):
        if attempt.rethrows_left == 0:  # unreachable: _settle freezes first
            raise IllegalActionError("no rethrows are left in the {event}", event=TERMS[discipline])
        left = attempt.rethrows_left - 1
        thrown = ump.roll(len(attempt.thrown))
        ump.announce(
            Rolled(
                player=seat,
                dice=thrown,
                what="set",
                set_no=len(attempt.frozen_sets) + 1,
                rethrow=True,
                rethrows_left=left,
            )
        )
        return _settle(
            discipline,
            seat,
            msgspec.structs.replace(attempt, rethrows_left=left, thrown=thrown),
            ump,
        )
    raise IllegalActionError(
        "in the {event} you may only freeze the set or rethrow it", event=TERMS[discipline]
    )


def _freeze(
    discipline: str, seat: int, attempt: SetsAttempt, ump: Ump, *, auto: bool
) -> SetsAttempt | Finished:
    rule = SET_RULES[discipline]
    frozen_sets = (*attempt.frozen_sets, attempt.thrown)
    ump.announce(
        Froze(player=seat, what="set", set_no=len(frozen_sets), dice=attempt.thrown, auto=auto)
    )
    if len(frozen_sets) == rule.sets:
        return Finished(set_score(discipline, [d for s in frozen_sets for d in s]))
    thrown = ump.roll(rule.set_size)
    ump.announce(Rolled(player=seat, dice=thrown, what="set", set_no=len(frozen_sets) + 1))
    return _settle(discipline, seat, SetsAttempt(attempt.rethrows_left, frozen_sets, thrown), ump)


def _settle(discipline: str, seat: int, attempt: SetsAttempt, ump: Ump) -> SetsAttempt | Finished:
    # D4/D5: once no rethrows are left, every later throw is frozen automatically.
    if attempt.rethrows_left == 0:
        return _freeze(discipline, seat, attempt, ump, auto=True)
    return attempt
