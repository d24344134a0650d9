"""Scoring one answer token (T5).

An answer covers an interval of years inside its decade row (its own year, or
the span of the extension token under it). Against the correct year:

* covered: +8, plus the bonus printed on the correct year's space, if any;
* otherwise, same decade, nearest covered year 1 away: +4;
* otherwise, same decade: -1;
* correct year in another decade: -5.

A cancelled answer (T3) scores 0: no bonus, no penalty.

>>> from gamenight.games.decades.boards import SIDES
>>> score_answer(1987, (), 1987, SIDES["A"]).points
8
>>> score_answer(1988, (), 1988, SIDES["A"]).points  # exact hit on a +5 space
13
>>> score_answer(1989, (), 1990, SIDES["A"]).outcome
'other-decade'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import msgspec

from gamenight.games.decades.boards import BoardSide, decade_row
from gamenight.games.decades.tokens import Placement, covered

Outcome = Literal["hit", "near", "far", "other-decade", "cancelled"]

HIT = 8
NEAR = 4
FAR = -1
OTHER_DECADE = -5
BASE_POINTS: dict[str, int] = {
    "hit": HIT,
    "near": NEAR,
    "far": FAR,
    "other-decade": OTHER_DECADE,
    "cancelled": 0,
}


class AnswerScore(msgspec.Struct, frozen=True):
    """How one answer scored: what it covered, its outcome, base points and bonus."""

    answer: int
    low: int  # first covered year
    high: int  # last covered year
    outcome: Outcome
    base: int
    bonus: int

    @property
    def points(self) -> int:
        return self.base + self.bonus


def outcome_for(low: int, high: int, correct: int) -> Outcome:
    """T5's four cases for a covered interval ``low..high`` (all in one decade row)."""
    if low <= correct <= high:
        return "hit"
    if decade_row(correct) != decade_row(low):
        return "other-decade"
    distance = low - correct if correct < low else correct - high
    return "near" if distance == 1 else "far"


def score_answer(
    answer: int,
    tokens: Sequence[Placement],
    correct: int,
    side: BoardSide,
    *,
    cancelled: bool = False,
) -> AnswerScore:
    """Score ``answer`` with the team's (still counting) extension ``tokens``."""
    low, high = covered(answer, tokens)
    if cancelled:
        return AnswerScore(answer, low, high, "cancelled", 0, 0)
    outcome = outcome_for(low, high, correct)
    # T5: a bonus counts only when the correct year itself is covered.
    bonus = side.bonus(correct) if outcome == "hit" else 0
    return AnswerScore(answer, low, high, outcome, BASE_POINTS[outcome], bonus)
