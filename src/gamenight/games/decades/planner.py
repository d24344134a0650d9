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

from gamenight.games.decades.boards import DECADES, FIRST_YEAR, YEARS, BoardSide, decade_row
from gamenight.games.decades.scoring import FAR, HIT, NEAR, OTHER_DECADE
from gamenight.games.decades.tokens import TOKEN_LENGTHS, Placement, covered, legal_placements


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


# (window length, the first years where such a window stays in its decade row)
_WINDOW_STARTS = tuple(
    (n, tuple(y for y in YEARS if decade_row(y) == decade_row(y + n - 1)))
    for n in (1, *TOKEN_LENGTHS)
)


def choose_year(answers: Sequence[int], valuers: Sequence[Valuer], valuer: Valuer) -> int:
    """The year for a new answer, before the later questions are known.

    Candidates are the best year alone and the best first year of a 2-, 3- and
    4-year window for this belief; each is judged by the best placement over the
    answers so far plus this one (later answers are unknown, so they are
    ignored), and the tokens are re-planned exactly once all six are in.
    """
    candidates: list[int] = []
    for length, fits in _WINDOW_STARTS:
        start = max(fits, key=lambda y: valuer.interval(y, y + length - 1))
        if start not in candidates:
            candidates.append(start)
    best_year, best_total = candidates[0], float("-inf")
    for year in candidates:
        _, total = best_placement([*answers, year], [*valuers, valuer])
        if total > best_total + 1e-12:
            best_year, best_total = year, total
    return best_year
