"""Wurfeltod bots. ``random`` comes from the registry; ``greedy`` and ``optimal`` are here.

``greedy`` maximises the expected score of the current turn alone, penalty
included, with exact probabilities (:mod:`gamenight.games.wurfeltod.turn_plan`).
It values nothing beyond the turn, so:

* it takes whatever box pays most now, big boxes included;
* between options of equal value it books rather than rolls on, and books the
  box worth least (:func:`~gamenight.games.wurfeltod.turn_plan.category_worth`,
  then nominal points): forced zeros and scratches go into the cheapest box, not
  into Six of a Kind.

``optimal`` plays from the exact solitaire value table
(:mod:`gamenight.games.wurfeltod.solver`, built by ``gamenight solve wurfeltod``):
every decision maximises its own expected final score over the rest of the
game. That is optimal play for solitaire; with other players it still plays
for its own score, not for the win, so there it is a strong heuristic. Its
factory raises :class:`~gamenight.games.wurfeltod.solver.ValueTableMissingError`
(a GamenightError, shown by the CLI as one line) when no table is built.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from gamenight.core.agents import Agent, Decision
from gamenight.games.wurfeltod.categories import CATEGORIES, FIXED_POINTS, Category
from gamenight.games.wurfeltod.game import WurfeltodView
from gamenight.games.wurfeltod.rules import Action, Book, Scratch
from gamenight.games.wurfeltod.rules import WurfeltodEvent as Event
from gamenight.games.wurfeltod.turn_plan import category_worth, turn_plan
from gamenight.solve.ties import best_of

if TYPE_CHECKING:
    from gamenight.games.wurfeltod.solver import ValueTable

__all__ = ["BOTS", "GreedyBot", "OptimalBot", "greedy_action"]

FACE_VALUE_TOP = 360  # six sixes x 10: Face Value Total's nominal points for tie-breaks


def _cheapness(category: Category) -> tuple[float, int, int]:
    nominal = FIXED_POINTS.get(category, FACE_VALUE_TOP)
    return category_worth()[category], nominal, CATEGORIES.index(category)


def greedy_action(aside: Sequence[int], rolled: Sequence[int], legal: Sequence[Action]) -> Action:
    """The legal action with the best expected score for this turn (ties: see module doc).

    >>> legal = [Book(Category.TRIPLE_FOURS), Book(Category.FACE_VALUE)]
    >>> greedy_action((1, 1, 4, 4, 4), (3,), legal)
    Book(category=<Category.FACE_VALUE: 'face-value'>)
    """
    open_categories = frozenset(a.category for a in legal if isinstance(a, Book | Scratch))
    if not open_categories:
        return legal[0]
    plan = turn_plan(open_categories)
    # tie key: bookings (0) before rolls (1), then the cheapest category or the first roll
    valued: list[tuple[float, tuple[int, tuple[float, int, int] | tuple[()], int], Action]] = []
    for order, action in enumerate(legal):
        if isinstance(action, Book):
            value = plan.book_value(aside, rolled, action.category)
            key: tuple[int, tuple[float, int, int] | tuple[()], int] = (
                0, _cheapness(action.category), 0
            )  # fmt: skip
        elif isinstance(action, Scratch):
            value = 0.0  # W2: 0 points, no Wurfeltod
            key = (0, _cheapness(action.category), 1)
        else:
            value = plan.roll_on_value(aside, [rolled[i] for i in action.dice])
            key = (1, (), order)
        valued.append((value, key, action))
    # The one tie rule (gamenight.solve.ties) over the options in preference order.
    ranked = sorted(valued, key=lambda item: item[1])
    return best_of([a for _, _, a in ranked], [v for v, _, _ in ranked])


class GreedyBot:
    """Plays each turn for its own expected score (deterministic; the seed is unused)."""

    label = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def act(self, decision: Decision[WurfeltodView, Action]) -> Action:
        view = decision.view
        return greedy_action(view.aside, view.rolled, list(decision.legal))

    def observe(self, seat: int, events: Sequence[Event]) -> None:
        return None


class OptimalBot:
    """Plays for the best expected final score of its own card, from the value table
    (deterministic; the seed is unused)."""

    label = "optimal"

    def __init__(self, seed: int = 0, table: ValueTable | None = None) -> None:
        # The solver is imported here, not at the top: importing the bots must stay cheap.
        from gamenight.games.wurfeltod import advisor
        from gamenight.games.wurfeltod.solver import option_values

        self.seed = seed
        self.table = advisor.shared_table() if table is None else table
        self._best_action = advisor.best_action
        # The first query of a process loads the compiled turn kernel and the booking
        # tables (about 0.2 s): pay it now, so that every decision is fast.
        option_values(self.table, {}, (), (1, 2, 3, 4, 5, 6), first_roll=True)

    def act(self, decision: Decision[WurfeltodView, Action]) -> Action:
        action, _ = self._best_action(self.table, decision.view, decision.legal)
        return action

    def observe(self, seat: int, events: Sequence[Event]) -> None:
        return None


BOTS: dict[str, Callable[[int], Agent[WurfeltodView, Action, Event]]] = {
    "greedy": GreedyBot,
    "optimal": OptimalBot,
}
