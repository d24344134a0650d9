"""What every legal engine action is worth under optimal solitaire play.

The bridge between the engine and the exact solver: it reads a seat's view
(the card of the player to act, the dice aside, the dice just rolled), asks the
solver's value table, and answers in the engine's own actions. The solver names
its options by dice *values* (``SetAside((1, 1, 4))``), the engine by dice
*positions* (``SetAside((0, 1, 4))``); the two ``Book``/``Scratch`` classes are
distinct types with the same names, so everything is translated here.

Values are **expected final scores**: what the player to act has already
booked (points minus 250 per Wurfeltod, W5) plus the expected score still to
come if they take the action and play optimally afterwards. The table
maximises a single player's own score, which is optimal for solitaire and a
strong heuristic in a multiplayer game, where winning is what counts.

>>> from gamenight.games.wurfeltod.categories import Category
>>> used_boxes(ScoreCard())
{}
>>> solver_option(SetAside((0, 2)), rolled=(4, 1, 4, 6))
SetAside(dice=(4, 4))
>>> solver_option(Book(Category.SUM_25), rolled=(4, 1))
Book(category=<Category.SUM_25: 'sum-25'>)
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence

from gamenight.games.wurfeltod.categories import Category
from gamenight.games.wurfeltod.game import WurfeltodView
from gamenight.games.wurfeltod.rules import Action, Book, ScoreCard, Scratch, SetAside
from gamenight.games.wurfeltod.solver import (
    TYPICAL_BUILD_SECONDS,
    Option,
    ValueTable,
    ValueTableError,
    ValueTableMissingError,
    load_table,
)
from gamenight.games.wurfeltod.solver import Book as SolverBook
from gamenight.games.wurfeltod.solver import Scratch as SolverScratch
from gamenight.games.wurfeltod.solver import SetAside as SolverSetAside
from gamenight.games.wurfeltod.solver import option_values as solver_option_values

__all__ = [
    "BUILD_ADVICE",
    "best_action",
    "option_values",
    "ranked_options",
    "solver_option",
    "table_or_reason",
    "used_boxes",
]

BUILD_ADVICE = (
    f"run `gamenight solve wurfeltod` to build it (takes about {TYPICAL_BUILD_SECONDS} s)"
)


def used_boxes(card: ScoreCard) -> dict[Category, int]:
    """How many boxes of each category ``card`` has booked; scratches use a box too (W2)."""
    return dict(Counter(entry.category for entry in card.boxes if entry is not None))


def solver_option(action: Action, rolled: Sequence[int]) -> Option:
    """The solver's name for an engine action: set-asides by the dice values they keep."""
    if isinstance(action, SetAside):
        return SolverSetAside(tuple(sorted(rolled[i] for i in action.dice)))
    if isinstance(action, Book):
        return SolverBook(action.category)
    if isinstance(action, Scratch):
        return SolverScratch(action.category)
    raise TypeError(f"{action!r} is not a Wurfeltod action")


def option_values(
    table: ValueTable, view: WurfeltodView, legal: Sequence[Action]
) -> dict[Action, float]:
    """The expected final score of the player to act after each of ``legal`` (optimal play).

    Set-asides of the same dice values from different positions are worth the
    same. Raises ValueError when the game is over or an action is not legal
    in the view's position.
    """
    if view.finished or not view.rolled:
        raise ValueError("the game is over: there is nothing to advise")
    card = view.cards[view.current]
    values = solver_option_values(
        table, used_boxes(card), view.aside, view.rolled, first_roll=view.first_roll
    )
    result: dict[Action, float] = {}
    for action in legal:
        option = solver_option(action, view.rolled)
        if option not in values:
            raise ValueError(f"{action!r} is not a legal option in this position")
        result[action] = card.total + values[option]
    return result


def best_action(
    table: ValueTable, view: WurfeltodView, legal: Sequence[Action]
) -> tuple[Action, float]:
    """An optimal action and its expected final score; ties go to the first in ``legal``."""
    values = option_values(table, view, legal)
    best = max(legal, key=values.__getitem__)  # max keeps the first of equal values
    return best, values[best]


def ranked_options(
    table: ValueTable, view: WurfeltodView, legal: Sequence[Action]
) -> list[tuple[Action, float]]:
    """One engine action per distinct option (the first in ``legal`` that keeps those dice
    values), best first; equal values keep the order of ``legal``."""
    values = option_values(table, view, legal)
    seen: set[Option] = set()
    distinct: list[tuple[Action, float]] = []
    for action in legal:
        option = solver_option(action, view.rolled)
        if option not in seen:
            seen.add(option)
            distinct.append((action, values[action]))
    return sorted(distinct, key=lambda pair: -pair[1])  # sorted is stable


def table_or_reason(path: str | os.PathLike[str] | None = None) -> ValueTable | str:
    """The full-game value table, or a one-line reason it cannot be used and how to fix it."""
    try:
        table = load_table(path)
    except ValueTableMissingError:
        table = None
    except ValueTableError as exc:  # corrupt or stale: a rebuild replaces it
        return f"the value table cannot be used ({exc}); {BUILD_ADVICE}"
    if table is None:
        return f"no optimal-play value table yet: {BUILD_ADVICE}"
    return table
