"""Seat-order designs: which seat each entrant of a line-up takes on each play of a deal.

Rotations alone are not enough from three seats on: they put every entrant in every
seat, but keep the cyclic order, so entrant 1 always sits right after entrant 0.
In a game where a seat's lot depends on who plays just before it (the scores a
bot sees, the cards left to it), two identical bots then get different figures
(issue 45: two random bots in a 3-seat game got mean scores 1.03 and 0.00).

So a deal is played in every seat order, :func:`seat_orders`:

* up to :data:`FULL_UP_TO` (4) seats, all K! orders (2, 6, 24 plays of a deal). They
  come in blocks of K that are the rotations of one order, so every prefix of whole
  blocks is itself seat-balanced (every entrant once in every seat per block);
* beyond, a balanced Latin square (Williams design): K orders for even K, 2K for odd K
  (the square and its mirror image), in which every entrant sits in every seat
  equally often and directly follows every other entrant equally often.

``order[s]`` is the entrant (line-up position) sitting at seat ``s``.

>>> seat_orders(2)
((0, 1), (1, 0))
>>> seat_orders(3)
((0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 2, 1), (2, 1, 0), (1, 0, 2))
>>> len(seat_orders(4)), len(seat_orders(5)), len(seat_orders(6))
(24, 10, 6)
>>> seat_orders(6)[0]
(0, 1, 5, 2, 4, 3)
"""

from __future__ import annotations

import itertools
from functools import cache

FULL_UP_TO = 4  # every seat order up to this many seats; a balanced Latin square beyond


@cache
def seat_orders(k: int) -> tuple[tuple[int, ...], ...]:
    """The seat orders of a deal for ``k`` entrants (see the module docstring)."""
    if k <= 1:
        return (tuple(range(k)),)
    if k <= FULL_UP_TO:
        out: list[tuple[int, ...]] = []
        for rest in itertools.permutations(range(1, k)):
            base = (0, *rest)
            out.extend(tuple(base[(s + r) % k] for s in range(k)) for r in range(k))
        return tuple(out)
    return williams(k)


def williams(k: int) -> tuple[tuple[int, ...], ...]:
    """A Williams design: row ``i`` is ``first + i`` (mod k), ``first`` = 0, 1, k-1, 2,
    k-2, ...; for odd ``k`` the rows reversed follow, to balance who follows whom.

    >>> williams(4)
    ((0, 1, 3, 2), (1, 2, 0, 3), (2, 3, 1, 0), (3, 0, 2, 1))
    """
    first = [0] + [(j + 1) // 2 if j % 2 else k - j // 2 for j in range(1, k)]
    rows = [tuple((a + i) % k for a in first) for i in range(k)]
    if k % 2:
        rows += [row[::-1] for row in rows]
    return tuple(rows)


def entrant_at(k: int, order: int, seat: int) -> int:
    """The entrant at ``seat`` in seat order number ``order`` (taken modulo the design).

    >>> [entrant_at(3, 4, s) for s in range(3)]
    [2, 1, 0]
    """
    orders = seat_orders(k)
    return orders[order % len(orders)][seat]


def seated(lineup: tuple[str, ...], order: int) -> tuple[str, ...]:
    """The line-up in seat order number ``order``: the bot at each seat.

    >>> seated(("a", "b", "c"), 3)
    ('a', 'c', 'b')
    """
    return tuple(lineup[entrant_at(len(lineup), order, s)] for s in range(len(lineup)))
