"""Expected points under T5 for a belief over years, and the exact best placement.

These are the bots' arithmetic; the engine never calls them. A belief is a
probability for each board year (index ``year - 1980``).

>>> from gamenight.games.decades.boards import SIDES
>>> sure = tuple(1.0 if y == 1988 else 0.0 for y in range(1980, 2020))
>>> Valuer(sure, SIDES["A"]).interval(1988, 1988)  # exact hit on a +5 space
13.0
>>> Valuer(sure, SIDES["A"]).interval(1985, 1987)
4.0
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from gamenight.games.decades.boards import DECADES, FIRST_YEAR, YEARS, BoardSide, decade_row
from gamenight.games.decades.scoring import FAR, HIT, NEAR, OTHER_DECADE
from gamenight.games.decades.tokens import Placement, covered, legal_placements
from gamenight.games.decades.yearchoice import best_year

DECADE_STARTS = np.array([d - FIRST_YEAR for d in DECADES])  # board index of each row's start


class Valuer:
    """Expected T5 points of one answer whose covered years are ``low..high``."""

    def __init__(self, belief: Sequence[float], side: BoardSide) -> None:
        self.p = tuple(belief)
        self.cum = [0.0]
        self.bonus_cum = [0.0]
        for year, prob in zip(YEARS, self.p, strict=True):
            self.cum.append(self.cum[-1] + prob)
            self.bonus_cum.append(self.bonus_cum[-1] + prob * side.bonus(year))
        self.decade = {d: self._mass(d, d + 9) for d in DECADES}
        self._memo: dict[tuple[int, int], float] = {}
        self._tables: npt.NDArray[np.float64] | None = None

    def _mass(self, low: int, high: int) -> float:
        return self.cum[high - FIRST_YEAR + 1] - self.cum[low - FIRST_YEAR]

    def interval(self, low: int, high: int) -> float:
        key = (low, high)
        value = self._memo.get(key)
        if value is None:
            value = self._memo[key] = self._interval(low, high)
        return value

    def _interval(self, low: int, high: int) -> float:
        row = decade_row(low)
        inside = self._mass(low, high)
        bonus = self.bonus_cum[high - FIRST_YEAR + 1] - self.bonus_cum[low - FIRST_YEAR]
        near = 0.0
        if low - 1 >= row:
            near += self.p[low - 1 - FIRST_YEAR]
        if high + 1 <= row + 9:
            near += self.p[high + 1 - FIRST_YEAR]
        far = self.decade[row] - inside - near
        other = 1.0 - self.decade[row]
        return HIT * inside + bonus + NEAR * near + FAR * far + OTHER_DECADE * other

    def row_table(self, row: int) -> npt.NDArray[np.float64]:
        """``table[i, j]`` = :meth:`interval` of the years ``i..j`` of decade row ``row``
        (0 for 1980s ... 3 for 2010s), for ``i <= j``; all rows in one numpy pass."""
        if self._tables is None:
            self._tables = self._all_rows()
        table: npt.NDArray[np.float64] = self._tables[row]
        return table

    def _all_rows(self) -> npt.NDArray[np.float64]:
        p = np.array(self.p)
        cum, bonus_cum = np.array(self.cum), np.array(self.bonus_cum)
        low = DECADE_STARTS[:, None, None] + np.arange(10)[None, :, None]  # index year - 1980
        high = DECADE_STARTS[:, None, None] + np.arange(10)[None, None, :]
        inside = cum[high + 1] - cum[low]
        bonus = bonus_cum[high + 1] - bonus_cum[low]
        near = np.where(low % 10 > 0, p[np.maximum(low - 1, 0)], 0.0) + np.where(
            high % 10 < 9, p[np.minimum(high + 1, len(p) - 1)], 0.0
        )
        decade = np.array([self.decade[d] for d in DECADES])[:, None, None]
        far = decade - inside - near
        values = HIT * inside + bonus + NEAR * near + FAR * far + OTHER_DECADE * (1.0 - decade)
        return np.where(low <= high, values, 0.0)

    def answer(self, answer: int, tokens: Sequence[Placement]) -> float:
        low, high = covered(answer, tokens)
        return self.interval(low, high)


def best_placement(
    answers: Sequence[int], valuers: Sequence[Valuer]
) -> tuple[tuple[Placement, ...], float]:
    """The legal placement with the highest expected total, searched exhaustively.

    Each token adds a *gain* (the change of every answer it spans); placements
    differ only in their tokens, so the total is the base plus the gains.
    Ties keep the first placement in :func:`legal_placements` order.
    """
    base = sum(v.interval(a, a) for a, v in zip(answers, valuers, strict=True))
    gains: dict[Placement, float] = {}
    best: tuple[Placement, ...] = ()
    best_total = base
    for tokens in legal_placements(answers):
        total = base
        for token in tokens:
            gain = gains.get(token)
            if gain is None:
                gain = gains[token] = _gain(token, answers, valuers)
            total += gain
        if total > best_total + 1e-12:
            best, best_total = tokens, total
    return best, best_total


def _gain(token: Placement, answers: Sequence[int], valuers: Sequence[Valuer]) -> float:
    return sum(
        v.interval(token.start, token.end) - v.interval(a, a)
        for a, v in zip(answers, valuers, strict=True)
        if token.spans(a)
    )


def choose_year(answers: Sequence[int], valuers: Sequence[Valuer], valuer: Valuer) -> int:
    """The year for a new answer, before the later questions are known.

    Exact over all 40 board years: the year whose best placement over the answers
    so far plus this one is highest (later answers are unknown, so they are
    ignored; the tokens are re-planned exactly once all six are in). The search
    is split by decade row (:mod:`yearchoice`), so it costs about what one
    :func:`best_placement` does.
    """
    return best_year(answers, valuers, valuer)
