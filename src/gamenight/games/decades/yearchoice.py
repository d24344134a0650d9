"""The exact year for a new answer: the best of all 40 board years (bots only).

The objective is :func:`planner.best_placement`'s: the expected T5 points of the
answers so far plus the new one, with the best legal extension tokens for them
(T4). Scanning 40 years with that exhaustive search would cost 40 searches, so
the search is split by decade row instead:

* tokens never leave their row, so a placement is one *row placement* per row,
  and rows interact only through the one-token-of-each-length rule;
* every row placement of the 2-, 3- and 4-year tokens (starts anywhere in the
  row) is tabulated once, with the interval each year of the row then covers;
* for one row, the gain of every row placement for the old answers, and for a
  new answer on each of the row's 10 years, is a few numpy look-ups in the
  answers' window tables (:meth:`planner.Valuer.row_table`); a row placement is
  legal when all its starts are answer years (T4: a token goes under an answer);
* the rows are then joined by the sets of token lengths each one uses.

>>> from gamenight.games.decades.boards import SIDES
>>> from gamenight.games.decades.planner import Valuer
>>> sure = tuple(1.0 if y == 2013 else 0.0 for y in range(1980, 2020))
>>> best_year([], [], Valuer(sure, SIDES["B"]))  # every bet up to 3 years early hits: earliest
2010
>>> best_year([2016], [Valuer(sure, SIDES["B"])], Valuer(sure, SIDES["B"]))  # lets 2013-2016 hit
2013
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Protocol

import numpy as np
import numpy.typing as npt

from gamenight.games.decades.boards import DECADES, FIRST_YEAR, decade_row
from gamenight.games.decades.tokens import TOKEN_LENGTHS

ROW = 10  # years per decade row (T1)
MASKS = 1 << len(TOKEN_LENGTHS)  # sets of token lengths, as bit masks
IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


class Valuer(Protocol):
    """What this module asks of a team's belief (``planner.Valuer`` is one; planner
    imports this module, so the type is said here, not imported)."""

    def interval(self, low: int, high: int) -> float: ...

    def row_table(self, row: int) -> FloatArray: ...


class RowPlacements:
    """Every placement of the optional tokens inside one row, starts anywhere.

    Sorted by the set of lengths used (``mask``), so a maximum per set is one
    ``np.maximum.reduceat`` over ``groups``.
    """

    def __init__(self) -> None:
        found: list[tuple[tuple[int, int, int], ...]] = [()]  # (length bit, start, end)
        for bit, length in enumerate(TOKEN_LENGTHS):
            spots = [(bit, s, s + length - 1) for s in range(ROW - length + 1)]
            found += [
                (*tokens, spot)
                for tokens in found
                for spot in spots
                if all(spot[1] > end or spot[2] < start for _, start, end in tokens)
            ]
        found.sort(key=lambda tokens: sum(1 << bit for bit, _, _ in tokens))
        count = len(found)
        self.mask = np.zeros(count, np.int64)
        self.starts = np.zeros(count, np.int64)  # bit j: a token starts on the row's year j
        self.low = np.tile(np.arange(ROW), (count, 1))  # covered interval of each year
        self.high = self.low.copy()
        for index, tokens in enumerate(found):
            for bit, start, end in tokens:
                self.mask[index] |= 1 << bit
                self.starts[index] |= 1 << start
                self.low[index, start : end + 1] = start
                self.high[index, start : end + 1] = end
        self.groups = np.searchsorted(self.mask, np.arange(MASKS))


@cache
def row_placements() -> RowPlacements:
    return RowPlacements()


# (set, part of it) pairs, for joining rows by the token lengths they use
_SUBSETS = tuple((m, s) for m in range(MASKS) for s in range(MASKS) if s & m == s)


def _join(values: Sequence[FloatArray]) -> FloatArray:
    """Best total gain using at most the lengths in each set, over these rows' values."""
    best = np.zeros(MASKS)
    for row in values:
        joined = np.full(MASKS, -np.inf)
        for m, s in _SUBSETS:
            joined[m] = max(joined[m], best[m ^ s] + row[s])
        best = joined
    return best


def year_values(answers: Sequence[int], valuers: Sequence[Valuer], valuer: Valuer) -> FloatArray:
    """For each board year, the best placement total with a new answer (``valuer``) there."""
    table = row_placements()
    bits = 1 << np.arange(ROW)
    old = np.zeros((len(DECADES), MASKS))  # best gain per row and length set, old answers
    new = np.zeros((len(DECADES), MASKS, ROW))  # the same with the new answer on year j
    for r, decade in enumerate(DECADES):
        gain = np.zeros(len(table.mask))
        taken = 0
        for answer, v in zip(answers, valuers, strict=True):
            if decade_row(answer) == decade:
                j = answer - decade
                win = v.row_table(r)
                gain += win[table.low[:, j], table.high[:, j]] - win[j, j]
                taken |= 1 << j
        extra = table.starts & ~taken  # starts with no old answer on them
        win = valuer.row_table(r)
        both = gain[:, None] + win[table.low, table.high] - np.diag(win)[None, :]
        # T4, with the new answer on year j: every start is an old answer's year or j
        legal = (extra[:, None] == 0) | (extra[:, None] == bits[None, :])
        both = np.where(legal, both, -np.inf)
        old[r] = np.maximum.reduceat(np.where(extra == 0, gain, -np.inf), table.groups)
        new[r] = np.maximum.reduceat(both, table.groups, axis=0)
    base = sum(v.interval(a, a) for a, v in zip(answers, valuers, strict=True))
    totals = np.empty(len(DECADES) * ROW)
    full = MASKS - 1
    for r in range(len(DECADES)):
        rest = _join([old[o] for o in range(len(DECADES)) if o != r])
        joined = (new[r] + rest[full ^ np.arange(MASKS)][:, None]).max(axis=0)
        singles = np.diag(valuer.row_table(r))
        totals[r * ROW : (r + 1) * ROW] = base + singles + joined
    return totals


def best_year(answers: Sequence[int], valuers: Sequence[Valuer], valuer: Valuer) -> int:
    """The board year whose best placement total is highest (the earliest on a tie)."""
    return FIRST_YEAR + int(np.argmax(year_values(answers, valuers, valuer)))
