"""Judging a booking: how each category would turn out with the final dice (W3, W4).

The answers come from the tables built once from the categories' shapes
(:mod:`gamenight.games.wurfeltod.tables`); they are imported on the first call, so
importing the rules (to list the games) pulls in no numpy.

>>> result = evaluate(aside=(1, 1, 4, 4, 4), final_roll=(3,))
>>> result[Category.TRIPLE_FOURS]
Booking(satisfied=True, points=100, wurfeltod=True)
>>> result[Category.FACE_VALUE]
Booking(satisfied=True, points=170, wurfeltod=False)
>>> result[Category.SUM_25].satisfied
False
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gamenight.games.wurfeltod.categories import Booking, Category, check_dice


def evaluate(aside: Sequence[int], final_roll: Sequence[int]) -> Mapping[Category, Booking]:
    """How booking each of the 19 categories would turn out with these dice (W3, W4).

    ``aside`` are the dice set aside before the final roll (possibly none) and
    ``final_roll`` the dice thrown in it; together six dice. Table driven: one
    dictionary lookup plus building the result.
    """
    check_dice(aside, final_roll)
    from gamenight.games.wurfeltod.tables import pair_tables  # numpy: on first use only

    tables = pair_tables()
    pair = tables.pair_index[(tuple(sorted(aside)), tuple(sorted(final_roll)))]
    return tables.bookings(pair)
