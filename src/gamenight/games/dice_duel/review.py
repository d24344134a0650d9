"""Kniffel Dice Duel's reviewer (issue 42): decisions valued turn by turn.

Dice Duel has no whole-game solver; its exact values are the turn-optimal ones
(:mod:`.advisor`): the expected value of the chip taken this turn, by expectimax over
the rest of the turn. So the one measure, **expected chip value this turn**, says what
a choice cost within its turn only; there is no expected final score, no luck and no
graph. Thresholds: 2 points an inaccuracy, 5 a mistake, 10 a blunder.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from gamenight.core.i18n import N_
from gamenight.core.options import Options
from gamenight.core.review import Measure, Reviewer, Valued
from gamenight.games.dice_duel import advisor
from gamenight.games.dice_duel.game import GAME

TURN = Measure(
    key="turn",
    name=N_("expected chip value this turn"),
    unit="points",
    thresholds=(2.0, 5.0, 10.0),
)


class DiceDuelReviewer:
    measures: tuple[Measure, ...] = (TURN,)
    judged = 0
    hindsight = False
    graph = ""
    note = N_("values are turn by turn: what a choice cost within its turn")

    def __init__(self, players: int) -> None:
        self.players = players

    def start(self, state: Any) -> None:
        return None

    def final(self, state: Any) -> tuple[float, ...]:
        return tuple(float(s) for s in GAME.results(state).scores)

    def scale(self, stage: str | None) -> None:
        return None

    def decision(
        self, state: Any, seat: int, legal: Sequence[msgspec.Struct], end: Any
    ) -> Valued | None:
        view = GAME.view(state, seat)
        try:
            # legal holds this game's actions
            values = advisor.option_values(view, legal)  # type: ignore[arg-type]
        except (ValueError, KeyError):
            return None
        if any(a not in values for a in legal):
            return None
        return Valued(
            # legal holds this game's actions
            labels=tuple(advisor.label(a, view) for a in legal),  # type: ignore[arg-type]
            # legal holds this game's actions
            values=tuple((values[a],) for a in legal),  # type: ignore[index]
        )


def reviewer(options: Options, players: int, build: bool | None = None) -> Reviewer:
    """``GameInfo.reviewer``: turn-optimal values (nothing to build)."""
    return DiceDuelReviewer(players)
