"""Exact within-turn expectimax for Wurfeltod: the best expected score of *this* turn.

A position inside a turn is a *pair*: the multiset of dice set aside and the
multiset just rolled (the numbering of :mod:`gamenight.games.wurfeltod.tables`).
Its value, given the categories still open, is the best of

* booking an open category: its points minus 250 if it brings a Wurfeltod (W3);
* scratching for 0, on the first roll only (W2);
* setting aside a proper, non-empty sub-multiset ``S`` of the roll (W2) and
  taking the expectation, with multinomial weights, over the roll of the rest.

So ``V(A, R) = max(book(A, R), [0 if A is empty], max_S W(A + S))`` with
``W(B) = sum_R' P(R') V(B, R')``. Nothing is valued beyond the end of the turn:
this is the greedy bot's model, not the optimal solitaire solver.

Positions are solved level by level, from five dice aside down to none; one
plan (about a millisecond) covers every position of a turn with those open
categories.

>>> plan = turn_plan(frozenset({Category.FACE_VALUE, Category.TRIPLE_FOURS}))
>>> plan.book_value((1, 1, 4, 4, 4), (3,), Category.TRIPLE_FOURS)  # 100 - 250
-150.0
>>> plan.book_value((1, 1, 4, 4, 4), (3,), Category.FACE_VALUE)
170.0
>>> plan.position_value((1, 1, 4, 4, 4), (3,))
170.0
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gamenight.games.wurfeltod.categories import CATEGORIES, WURFELTOD_PENALTY, Category
from gamenight.games.wurfeltod.tables import PairTables, pair_tables

__all__ = ["TurnPlan", "category_worth", "turn_plan"]

DICE = 6
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class _Layout:
    """Static structure shared by every plan: how pairs and multisets hang together."""

    tables: PairTables
    scores: FloatArray  # (pair, category) -> points - 250 x Wurfeltod
    levels: tuple[slice, ...]  # pairs with k dice aside
    aside_ids: tuple[slice, ...]  # multiset ids of the asides of size k, in pair order
    roll_probability: tuple[FloatArray, ...]  # by level: P(roll) of the 6 - k dice, pair order
    successors: tuple[IntArray, ...]  # by level: aside ids A + S, padded with the sentinel
    sentinel: int  # an index into W that always holds -inf


def _sub_multisets(roll: Sequence[int]) -> Iterable[tuple[int, ...]]:
    """Every proper, non-empty sub-multiset of ``roll`` (sorted tuples)."""
    counts = [(face, roll.count(face)) for face in sorted(set(roll))]
    for takes in itertools.product(*(range(n + 1) for _, n in counts)):
        size = sum(takes)
        if 0 < size < len(roll):
            yield tuple(f for (f, _), t in zip(counts, takes, strict=True) for _ in range(t))


@functools.cache
def _layout() -> _Layout:
    t = pair_tables()
    scores = t.points.astype(np.float64) - WURFELTOD_PENALTY * t.wurfeltod.astype(np.float64)
    sentinel = len(t.multisets)
    size_start = [0]
    for size in range(DICE + 1):
        size_start.append(size_start[-1] + math.comb(size + 5, 5))
    levels, aside_ids, probs, successors = [], [], [], []
    for k in range(DICE):
        level = slice(t.level_start[k], t.level_start[k + 1])
        n_asides, n_rolls = math.comb(k + 5, 5), math.comb(DICE - k + 5, 5)
        asides = slice(size_start[k], size_start[k + 1])
        rolls = np.arange(size_start[DICE - k], size_start[DICE - k + 1])
        # The tables number pairs by aside, then roll; check rather than trust it.
        expected_aside = np.repeat(np.arange(asides.start, asides.stop), n_rolls)
        if not (
            np.array_equal(t.pair_aside[level], expected_aside)
            and np.array_equal(t.pair_roll[level], np.tile(rolls, n_asides))
        ):
            raise RuntimeError("pair tables are not ordered by aside, then roll")
        width = 2 ** (DICE - k) - 2
        succ = np.full((level.stop - level.start, max(width, 1)), sentinel, dtype=np.int64)
        for row, pair in enumerate(range(level.start, level.stop)):
            aside = t.multisets[int(t.pair_aside[pair])]
            roll = t.multisets[int(t.pair_roll[pair])]
            targets = sorted(
                {t.multiset_index[tuple(sorted(aside + s))] for s in _sub_multisets(roll)}
            )
            succ[row, : len(targets)] = targets
        levels.append(level)
        aside_ids.append(asides)
        probs.append(t.multiset_probability[rolls])
        successors.append(succ)
    return _Layout(
        tables=t,
        scores=scores,
        levels=tuple(levels),
        aside_ids=tuple(aside_ids),
        roll_probability=tuple(probs),
        successors=tuple(successors),
        sentinel=sentinel,
    )


@dataclass(frozen=True, eq=False)
class TurnPlan:
    """Expected values of one turn's positions for a given set of open categories."""

    open: frozenset[Category]
    columns: tuple[int, ...]  # table columns of the open categories
    value: FloatArray  # (pair,) -> V: the best expected score from this position
    onward: FloatArray  # (multiset id,) -> W: expected value of rolling on with this aside
    expected: float  # the turn's value before the first roll

    def pair(self, aside: Sequence[int], rolled: Sequence[int]) -> int:
        return _layout().tables.pair_index[(tuple(sorted(aside)), tuple(sorted(rolled)))]

    def book_value(self, aside: Sequence[int], rolled: Sequence[int], category: Category) -> float:
        """Points minus the penalty of booking ``category`` now (W3)."""
        column = CATEGORIES.index(category)
        return float(_layout().scores[self.pair(aside, rolled), column])

    def roll_on_value(self, aside: Sequence[int], chosen: Sequence[int]) -> float:
        """Expected value of setting ``chosen`` aside (joining ``aside``) and rolling the rest."""
        dice = tuple(sorted((*aside, *chosen)))
        if not 0 < len(dice) < DICE:
            raise ValueError(f"cannot roll on with {len(dice)} dice aside")
        return float(self.onward[_layout().tables.multiset_index[dice]])

    def position_value(self, aside: Sequence[int], rolled: Sequence[int]) -> float:
        return float(self.value[self.pair(aside, rolled)])


def _solve(open_categories: frozenset[Category]) -> TurnPlan:
    if not open_categories:
        raise ValueError("a turn needs at least one open category")
    lay = _layout()
    columns = tuple(sorted(CATEGORIES.index(c) for c in open_categories))
    book = lay.scores[:, columns].max(axis=1)
    onward = np.full(lay.sentinel + 1, -np.inf)
    value = np.empty(len(book))
    for k in range(DICE - 1, -1, -1):
        level = lay.levels[k]
        v = book[level]
        if k < DICE - 1:
            v = np.maximum(v, onward[lay.successors[k]].max(axis=1))
        if k == 0:
            v = np.maximum(v, 0.0)  # W2: the first-roll scratch books 0, no Wurfeltod
        value[level] = v
        if k > 0:
            ids = lay.aside_ids[k]
            grid = v.reshape(ids.stop - ids.start, -1)
            onward[ids] = grid @ lay.roll_probability[k]
    expected = float(value[lay.levels[0]] @ lay.roll_probability[0])
    value.setflags(write=False)
    onward.setflags(write=False)
    return TurnPlan(open_categories, columns, value, onward, expected)


@functools.lru_cache(maxsize=512)
def turn_plan(open_categories: frozenset[Category]) -> TurnPlan:
    """The plan for a turn with these categories open (cached)."""
    return _solve(open_categories)


@functools.cache
def category_worth() -> dict[Category, float]:
    """Expected score of a turn with only that category open: how much a box is worth alone.

    The greedy bot puts forced zeros and scratches in the box worth least.
    """
    return {c: turn_plan(frozenset({c})).expected for c in CATEGORIES}
