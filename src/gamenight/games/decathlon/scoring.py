"""Scoring (D11): event points, Championship honours, standings and the next order (D2).

>>> honours((27, 27, 25, 20))
(3, 3, 1, 0)
>>> honours((None, 12, 12))
(0, 3, 3)
>>> next_order((2, 0, 1), (5, 9, 5))
(1, 2, 0)
"""

from __future__ import annotations

from collections.abc import Sequence

Row = tuple[int | None, ...]  # one event's results by seat; None: no valid result

MEDALS = {1: 3, 2: 2, 3: 1}  # gold, silver, bronze (D11)


def honours(results: Row) -> tuple[int, ...]:
    """D11: a valid result ranks 1 + the number of strictly better valid results."""
    # Plain loops: ten calls a game, and generator frames cost more than the counting.
    out = []
    for result in results:
        if result is None:
            out.append(0)
            continue
        better = 0
        for other in results:
            if other is not None and other > result:
                better += 1
        out.append(_BY_BETTER[better] if better < len(_BY_BETTER) else 0)
    return tuple(out)


_BY_BETTER = tuple(MEDALS[rank] for rank in range(1, len(MEDALS) + 1))  # 0 better: gold


def points(results: Row) -> tuple[int, ...]:
    """D3, D11: no valid result counts 0 points."""
    return tuple(0 if r is None else r for r in results)


def totals(rows: Sequence[Row], players: int) -> tuple[int, ...]:
    """Running points totals over the finished events."""
    return tuple(sum(points(row)[seat] for row in rows) for seat in range(players))


def honour_totals(rows: Sequence[Row], players: int) -> tuple[int, ...]:
    return tuple(sum(honours(row)[seat] for row in rows) for seat in range(players))


def standings(variant: str, rows: Sequence[Row], players: int) -> tuple[int, ...]:
    """The score that decides the game: points, or honours in the Championship."""
    if variant == "championship":
        return honour_totals(rows, players)
    return totals(rows, players)


def next_order(previous: Sequence[int], standing: Sequence[int]) -> tuple[int, ...]:
    """D2: highest standing first; the stable sort keeps ties in the previous order."""
    return tuple(sorted(previous, key=standing.__getitem__, reverse=True))  # reverse is stable
