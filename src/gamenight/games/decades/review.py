"""The Decades' reviewer (issue 42): its placements, reviewed in hindsight.

The Decades has no exact solver: what a placement of Year Extension tokens is worth
depends on the correct years, which no team knows when it places them. After the game
they are known, so each placement is scored **in hindsight**: the points that round's
answers score with the tokens placed, against the best placement for the team's own
answers (T4, T5), with the opponent's card as it was played (a removed token does not
count, a cancelled answer scores nothing). All four categories count, even after an
early win (T6) ended the round. It is labelled hindsight everywhere: a "loss" here is
what the correct years made of a choice, not a mistake one could have seen.

Thresholds: a loss of 1 point is an inaccuracy, 4 (a near miss turned into nothing) a
mistake, 8 (a whole hit) a blunder.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamenight.core.i18n import N_
from gamenight.core.options import Options
from gamenight.core.review import Measure, Reviewer, Valued
from gamenight.games.decades.actions import Action, CancelAnswer, Extend, RemoveToken
from gamenight.games.decades.boards import SIDES
from gamenight.games.decades.rules import DecadesState, other
from gamenight.games.decades.scoring import score_answer

HINDSIGHT = Measure(
    key="hindsight",
    name=N_("points of the round's answers, in hindsight"),
    unit="points",
    thresholds=(1.0, 4.0, 8.0),
)


def placement_points(state: DecadesState, end: DecadesState, seat: int, action: Extend) -> float:
    """What ``seat``'s answers in ``state``'s round score with ``action``'s tokens, the
    correct years and the opponent's card (from ``end``'s log of that round) known."""
    log = end.log[state.round - 1]
    attack = log.targets[other(seat)]
    tokens = action.tokens
    if isinstance(attack, RemoveToken):
        tokens = tuple(t for t in tokens if t.length != attack.length)
    cancelled = attack.category if isinstance(attack, CancelAnswer) else None
    side = SIDES[state.sides[seat]]
    total = 0
    for index, question in enumerate(state.card().questions):
        total += score_answer(
            state.answers[seat][index],
            tokens,
            question.year,
            side,
            cancelled=cancelled == question.category,
        ).points
    return float(total)


def label(action: Extend) -> str:
    """A placement in words: ``2@1987 4@1990`` (length @ first year), or no tokens."""
    return " ".join(t.label() for t in action.tokens) or "no tokens"


class DecadesReviewer:
    measures: tuple[Measure, ...] = (HINDSIGHT,)
    judged = 0
    hindsight = True
    graph = ""
    note = N_("in hindsight: placements are scored with the correct years, known only later")

    def __init__(self, players: int) -> None:
        self.players = players

    def start(self, state: DecadesState) -> None:
        return None

    def final(self, state: DecadesState) -> tuple[float, ...]:
        return tuple(float(s) for s in state.scores)

    def scale(self, stage: str | None) -> None:
        return None  # the best placements' points (core.review)

    def decision(
        self, state: DecadesState, seat: int, legal: Sequence[Action], end: Any
    ) -> Valued | None:
        if state.phase != "extend" or len(end.log) < state.round:
            return None
        placements = [a for a in legal if isinstance(a, Extend)]
        if len(placements) != len(legal):
            return None
        return Valued(
            labels=tuple(label(a) for a in placements),
            values=tuple((placement_points(state, end, seat, a),) for a in placements),
        )


def reviewer(options: Options, players: int, build: bool | None = None) -> Reviewer:
    """``GameInfo.reviewer``: hindsight review of the placements (nothing to build)."""
    return DecadesReviewer(players)
