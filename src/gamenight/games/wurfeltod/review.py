"""Wurfeltod's reviewer (issue 42): every decision valued by the exact solitaire table.

One measure, **expected final score** (points): the acting player's booked points
(minus 250 per Wurfeltod, W5) plus the expected score still to come after the
option under optimal solitaire play (:mod:`.advisor`). Losses are exact for
solitaire; with opponents, the table maximises one's own score, not the chance to
win, and the review says so in its measure's name only through "expected".

Thresholds (a game is worth about 9,070 points, and greedy play loses about 560 of
them over some 130 decisions): a loss of 25 points is an inaccuracy, 100 a mistake,
300 a blunder.

Needs the value table (``gamenight solve wurfeltod``); without it the reviewer raises
``BuildNeededError`` unless asked to build (a few seconds).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamenight.core.i18n import N_
from gamenight.core.options import Options
from gamenight.core.review import Measure, Reviewer, Valued
from gamenight.games.wurfeltod import advisor
from gamenight.games.wurfeltod.game import GAME
from gamenight.games.wurfeltod.rules import Action, WurfeltodState
from gamenight.games.wurfeltod.solver import ValueTable, ValueTableMissingError
from gamenight.games.wurfeltod.solver.policy import expected_score

POINTS = Measure(
    key="points", name=N_("expected final score"), unit="points", thresholds=(25.0, 100.0, 300.0)
)


class WurfeltodReviewer:
    measures: tuple[Measure, ...] = (POINTS,)
    judged = 0
    hindsight = False
    graph = "score"
    note = ""

    def __init__(self, table: ValueTable, players: int) -> None:
        self.table = table
        self.players = players

    def scale(self, stage: str | None) -> float:
        return expected_score(self.table)

    def start(self, state: WurfeltodState) -> tuple[float, ...]:
        return (expected_score(self.table),) * self.players

    def final(self, state: WurfeltodState) -> tuple[float, ...]:
        return tuple(float(card.total) for card in state.cards)

    def decision(
        self, state: WurfeltodState, seat: int, legal: Sequence[Action], end: Any
    ) -> Valued | None:
        view = GAME.view(state, seat)
        if view.finished or not view.rolled or view.current != seat:
            return None
        values = advisor.option_values(self.table, view, legal)
        return Valued(
            labels=tuple(advisor.label(a, view.rolled) for a in legal),
            values=tuple((values[a],) for a in legal),
        )


def reviewer(options: Options, players: int, build: bool | None = None) -> Reviewer:
    """``GameInfo.reviewer``: needs the value table; ``build=True`` builds a missing one."""
    try:
        table = advisor.shared_table()
    except ValueTableMissingError:
        if not build:
            raise
        from gamenight.games.wurfeltod.solver import build_table

        build_table()
        table = advisor.shared_table()
    return WurfeltodReviewer(table, players)
