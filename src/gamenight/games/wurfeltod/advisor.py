"""What every legal engine action is worth under optimal solitaire play, as data.

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

:func:`advise` (the game's registered advisor) packs all of it into an
:class:`~gamenight.core.advice.Advice` any front end can render: one option per
distinct choice, best first, with its expected final score, its gap to the best,
and for bookings what they score now and whether they bring a Wurfeltod (W3).

>>> from gamenight.games.wurfeltod.categories import Category
>>> used_boxes(ScoreCard())
{}
>>> solver_option(SetAside((0, 2)), rolled=(4, 1, 4, 6))
SetAside(dice=(4, 4))
>>> solver_option(Book(Category.SUM_25), rolled=(4, 1))
Book(category=<Category.SUM_25: 'sum-25'>)
"""

from __future__ import annotations

import functools
import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from gamenight.core.advice import Advice, Objective
from gamenight.core.advice import Option as AdviceOption
from gamenight.core.game import to_json
from gamenight.games.wurfeltod.booking import evaluate
from gamenight.games.wurfeltod.categories import (
    CATEGORY_LABELS,
    WURFELTOD_PENALTY,
    Category,
)
from gamenight.games.wurfeltod.game import WurfeltodView
from gamenight.games.wurfeltod.rules import Action, Book, ScoreCard, Scratch, SetAside
from gamenight.games.wurfeltod.solver import (
    TYPICAL_BUILD_SECONDS,
    Option,
    ValueTable,
    ValueTableError,
    ValueTableMissingError,
    build_time_text,
    default_table_path,
    load_table,
    require_table,
)
from gamenight.games.wurfeltod.solver import Book as SolverBook
from gamenight.games.wurfeltod.solver import Scratch as SolverScratch
from gamenight.games.wurfeltod.solver import SetAside as SolverSetAside
from gamenight.games.wurfeltod.solver import option_values as solver_option_values
from gamenight.solve.ties import best_of

__all__ = [
    "BUILD_ADVICE",
    "OBJECTIVES",
    "advise",
    "best_action",
    "label",
    "option_values",
    "ranked_options",
    "shared_table",
    "solver_option",
    "table_or_reason",
    "used_boxes",
]

BUILD_ADVICE = f"run `gamenight solve wurfeltod` to build it (takes {build_time_text()})"


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
    """An optimal action and its expected final score; near-ties go to the first in
    ``legal`` (the one tie rule, :mod:`gamenight.solve.ties`)."""
    values = option_values(table, view, legal)
    best = best_of(list(legal), [values[a] for a in legal])
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


def table_or_reason(
    path: str | os.PathLike[str] | None = None,
) -> ValueTable | ValueTableError:
    """The full-game value table, or an error whose one line says why it cannot be used
    and how to fix it."""
    try:
        table = load_table(path)
    except ValueTableMissingError:
        table = None
    except ValueTableError as exc:  # corrupt or stale: a rebuild replaces it
        return ValueTableError(
            "the value table cannot be used ({problem}); run `gamenight solve wurfeltod` "
            "to build it (takes about {seconds} s)",
            problem=exc,
            seconds=TYPICAL_BUILD_SECONDS,
        )
    if table is None:
        return _not_built()
    return table


def _not_built() -> ValueTableMissingError:
    return ValueTableMissingError(
        "no optimal-play value table yet: run `gamenight solve wurfeltod` "
        "to build it (takes about {seconds} s)",
        seconds=TYPICAL_BUILD_SECONDS,
    )


def shared_table() -> ValueTable:
    """The full-game value table at the default path, loaded once per process while the
    file is unchanged; raises ValueTableMissingError saying how to build it."""
    path = default_table_path()
    try:
        stat = path.stat()
        stamp = (stat.st_mtime_ns, stat.st_size)
    except OSError:
        stamp = None  # require_table reports the missing file
    return _load_table(path, stamp)


@functools.lru_cache(maxsize=2)
def _load_table(path: Path, stamp: tuple[int, int] | None) -> ValueTable:
    return require_table(path)


def _advice_table() -> ValueTable:
    """The shared table, or a ValueTableError whose message is the hint's one line."""
    try:
        return shared_table()
    except ValueTableMissingError:
        raise _not_built() from None
    except ValueTableError:
        found = table_or_reason()  # the reason without the rebuild hint of require_table
        if isinstance(found, ValueTableError):
            raise found from None
        return found


OBJECTIVES = (
    "expected final score",
    "vs best",
    "points now",
    "Wurfeltod now",
)
"""The advice's columns: the leading value, its gap to the best option, and for a
booking what it scores now and its Wurfeltod penalty (``-250`` or ``0``; W3)."""


def label(action: Action, rolled: Sequence[int]) -> str:
    """``action`` in words, for people (the numbers are in the advice's columns).

    >>> label(SetAside((2, 3, 4)), rolled=(1, 1, 4, 4, 4, 3)), label(Book(Category.SUM_25), ())
    ('set aside 4 4 4', 'book Sum Total 25+')
    """
    if isinstance(action, SetAside):
        return "set aside " + " ".join(str(v) for v in sorted(rolled[i] for i in action.dice))
    verb = "book" if isinstance(action, Book) else "scratch"
    return f"{verb} {CATEGORY_LABELS[action.category]}"


def advise(view: WurfeltodView, seat: int | None, legal: Sequence[Action]) -> Advice | None:
    """Every distinct legal option valued by optimal solitaire play, best first.

    ``None`` when there is nothing to value (the game is over, or no legal
    action). Without a usable value table it raises a
    :class:`~gamenight.games.wurfeltod.solver.ValueTableError` whose one-line
    message says how to build one (``gamenight solve wurfeltod``).

    Columns (:data:`OBJECTIVES`): the expected final score of the player to act
    (what they have booked plus the expected rest of the game), its difference
    to the best option, and for a booking the points it scores now and its
    Wurfeltod penalty now (``-250`` when a die of the last roll is left out of
    the booking, W3); ``None`` where a column does not apply. A scratch scores
    0 with no Wurfeltod (W2).
    """
    if view.finished or not view.rolled or not legal:
        return None
    table = _advice_table()
    ranked = ranked_options(table, view, legal)
    best = ranked[0][1]
    bookings = evaluate(view.aside, view.rolled)
    options = []
    for action, value in ranked:
        points: float | None = None
        penalty: float | None = None
        if isinstance(action, Book):
            booking = bookings[action.category]
            points = float(booking.points)
            penalty = -float(WURFELTOD_PENALTY) if booking.wurfeltod else 0.0
        elif isinstance(action, Scratch):
            points, penalty = 0.0, 0.0
        options.append(
            AdviceOption(
                action=to_json(action),
                label=label(action, view.rolled),
                values=(value, value - best, points, penalty),
            )
        )
    books = [i for i, o in enumerate(options) if o.values[2] is not None]
    best_now = max(books, key=lambda i: _now(options[i]), default=0)
    player = view.cards[view.current]
    objectives = (
        Objective(
            name=OBJECTIVES[0],
            unit="points",
            best=0,
            note=(
                f"booked so far {player.total:,} plus the expected rest of the game under "
                "optimal solitaire play (points minus 250 per Wurfeltod)"
            ),
        ),
        Objective(name=OBJECTIVES[1], unit="points", best=0),
        Objective(name=OBJECTIVES[2], unit="points", best=best_now),
        Objective(name=OBJECTIVES[3], unit="points", best=best_now),
    )
    wurfeltods = [CATEGORY_LABELS[c] for c in view.open_boxes if bookings[c].wurfeltod]
    note = (
        "Booking now brings a Wurfeltod (-250) in: " + ", ".join(wurfeltods) + "."
        if wurfeltods
        else "No open box brings a Wurfeltod if booked now."
    )
    return Advice(objectives=objectives, options=tuple(options), note=note)


def _now(option: AdviceOption) -> float:
    points, penalty = option.values[2], option.values[3]
    return (points or 0.0) + (penalty or 0.0)
