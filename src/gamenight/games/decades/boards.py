"""The team board: the years 1980-2019 in four decade rows, and its bonus spaces (T1).

Board sides are data: add a :class:`BoardSide` to :data:`SIDES` to offer another
layout. Both shipped sides follow T1 exactly.

>>> SIDES["A"].bonus(1988), SIDES["A"].bonus(1989), SIDES["B"].bonus(2018)
(5, 0, 5)
>>> decade_row(1987), row_end(1987)
(1980, 1989)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

FIRST_YEAR = 1980
LAST_YEAR = 2019
YEARS = tuple(range(FIRST_YEAR, LAST_YEAR + 1))
DECADES = (1980, 1990, 2000, 2010)  # T1: one row per decade


@dataclass(frozen=True)
class BoardSide:
    """One side of a team board: which years carry a bonus, and how much."""

    name: str
    bonuses: tuple[tuple[int, int], ...]  # (year, bonus points)

    def bonus(self, year: int) -> int:
        """The bonus printed on ``year``'s space (0 for a plain space)."""
        return self.bonus_map.get(year, 0)

    @cached_property
    def bonus_map(self) -> dict[int, int]:
        return dict(self.bonuses)


# T1: the physical layout is not in the rulebook; these two sides are ours.
SIDES: Mapping[str, BoardSide] = {
    "A": BoardSide("A", ((1983, 3), (1988, 5), (1991, 3), (2002, 5), (2007, 3), (2015, 3))),
    "B": BoardSide("B", ((1986, 3), (1994, 3), (1997, 5), (2004, 3), (2011, 3), (2018, 5))),
}


def on_board(year: int) -> bool:
    return FIRST_YEAR <= year <= LAST_YEAR


def decade_row(year: int) -> int:
    """The first year of ``year``'s decade row."""
    return year - year % 10


def row_end(year: int) -> int:
    """The last year of ``year``'s decade row."""
    return decade_row(year) + 9


def decade_name(year: int) -> str:
    """'1980s' for any year of that row."""
    return f"{decade_row(year)}s"


def parse_sides(text: str) -> tuple[str, str]:
    """Parse the ``sides`` option ("A,B"); raises ValueError naming the problem.

    >>> parse_sides("b, a")
    ('B', 'A')
    """
    parts = [p.strip().upper() for p in text.split(",")]
    if len(parts) != 2 or not all(parts):
        raise ValueError(f"give one board side per team, like 'A,B' (got {text!r})")
    for part in parts:
        if part not in SIDES:
            raise ValueError(f"there is no board side {part!r} (sides: {', '.join(SIDES)})")
    return parts[0], parts[1]
