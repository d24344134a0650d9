"""What every attempt module shares: the end of an attempt and freeze validation."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations

import msgspec

from gamenight.core.errors import IllegalActionError, Term
from gamenight.games.decathlon.actions import Freeze


class Finished(msgspec.Struct, frozen=True, gc=False):
    """An attempt that is over; ``result`` is ``None`` for an invalid attempt."""

    result: int | None


@cache
def freeze_options(positions: tuple[int, ...]) -> tuple[Freeze, ...]:
    """Every non-empty set of ``positions`` to freeze, smallest sets first.

    >>> [f.dice for f in freeze_options((0, 2))]
    [(0,), (2,), (0, 2)]
    """
    # Listed at every decision (up to 255 sets for eight dice); actions are frozen
    # values, so one tuple per set of positions is shared.
    return tuple(
        Freeze(combo)
        for size in range(1, len(positions) + 1)
        for combo in combinations(positions, size)
    )


def checked_positions(action: Freeze, thrown: Sequence[int], event: Term) -> tuple[int, ...]:
    """The positions of ``action`` in increasing order, or an error naming the problem.

    ``event`` names the event (or its part: the Long Jump's run-up) for messages.
    """
    dice = action.dice
    if not dice:
        raise IllegalActionError(
            "in the {event} you must freeze at least one of the dice just thrown", event=event
        )
    picks = tuple(sorted(set(dice)))  # every freeze is checked: one pass in C, then the ends
    if picks[0] < 0 or picks[-1] >= len(thrown):
        bad = [i for i in dice if not 0 <= i < len(thrown)]
        raise IllegalActionError(
            "in the {event} {n} dice were just thrown (positions 0-{last}); "
            "there is no die at position {bad}",
            event=event,
            n=len(thrown),
            last=len(thrown) - 1,
            bad=bad[0],
        )
    if len(picks) != len(dice):
        raise IllegalActionError(
            "in the {event} each die may be frozen only once: {dice}", event=event, dice=dice
        )
    return picks


# POSITIONS[n]: the positions 0..n-1 of n dice (shared, not rebuilt per decision)
POSITIONS = tuple(tuple(range(n)) for n in range(9))


def values_at(thrown: Sequence[int], positions: Iterable[int]) -> tuple[int, ...]:
    return tuple([thrown[i] for i in positions])  # a list: no generator frame
