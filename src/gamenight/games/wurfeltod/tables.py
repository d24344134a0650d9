"""Precomputed Wurfeltod booking tables over every (aside, final roll) pair.

A *pair* is a split of six dice into the multiset set aside and the multiset of
the final roll (at least one die), like ``((1, 1, 4, 4, 4), (3,))``. There are
11,914 pairs. For each pair and each category the arrays hold whether the
category is satisfied, its points and whether booking it brings a Wurfeltod
(W3, W4), so bots and the solver judge bookings with array lookups.

Pairs are numbered by aside size (0 to 5), then aside, then roll, both in
lexicographic order of their sorted dice; ``level_start[k]`` is the first pair
whose aside has ``k`` dice. Multisets (sorted dice tuples of size 0 to 6) have
their own numbering in ``multisets``.

>>> t = pair_tables()
>>> t.pair_count, len(t.multisets)
(11914, 924)
>>> p = t.pair_index[((1, 1, 4, 4, 4), (3,))]
>>> int(t.points[p, CATEGORIES.index(Category.FACE_VALUE)])
170
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gamenight.games.wurfeltod.categories import (
    CATEGORIES,
    DICE,
    FACES,
    FIXED_POINTS,
    FIXED_SHAPES,
    SUM_TOTAL_MINIMUM,
    Booking,
    Category,
)

__all__ = ["PairTables", "pair_tables", "roll_probability"]

Dice = tuple[int, ...]
IntArray = npt.NDArray[np.int32]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]


def roll_probability(dice: Dice) -> float:
    """Probability that rolling ``len(dice)`` fair dice shows exactly this multiset."""
    ways = math.factorial(len(dice))
    for face in FACES:
        ways //= math.factorial(dice.count(face))
    return ways / float(6 ** len(dice))


@dataclass(frozen=True, eq=False)
class PairTables:
    """Booking tables; arrays are read-only. Column ``j`` is category ``CATEGORIES[j]``."""

    multisets: tuple[Dice, ...]
    """Every sorted dice tuple of size 0 to 6, by size then lexicographically."""
    multiset_index: Mapping[Dice, int]
    multiset_counts: npt.NDArray[np.int8]
    """(multiset, face-1) -> how many dice show that face."""
    multiset_probability: FloatArray
    """Probability of each multiset as the outcome of rolling that many dice."""
    pair_index: Mapping[tuple[Dice, Dice], int]
    pair_aside: IntArray
    pair_roll: IntArray
    pair_final: IntArray
    """Multiset ids of the aside, the final roll and all six dice of each pair."""
    level_start: tuple[int, ...]
    """Pairs with ``k`` dice aside are ``level_start[k] : level_start[k + 1]``."""
    satisfied: BoolArray
    points: IntArray
    wurfeltod: BoolArray

    @property
    def pair_count(self) -> int:
        return len(self.pair_aside)

    def bookings(self, pair: int) -> dict[Category, Booking]:
        """Every category's booking for one pair."""
        sat = self.satisfied[pair].tolist()
        pts = self.points[pair].tolist()
        wt = self.wurfeltod[pair].tolist()
        return {c: Booking(sat[j], pts[j], wt[j]) for j, c in enumerate(CATEGORIES)}


def _build() -> PairTables:
    multisets = tuple(
        ms
        for size in range(DICE + 1)
        for ms in itertools.combinations_with_replacement(FACES, size)
    )
    multiset_index = {ms: i for i, ms in enumerate(multisets)}
    counts = np.array([[ms.count(f) for f in FACES] for ms in multisets], dtype=np.int8)
    probability = np.array([roll_probability(ms) for ms in multisets], dtype=np.float64)

    pairs: list[tuple[Dice, Dice]] = []
    level_start = []
    for k in range(DICE):
        level_start.append(len(pairs))
        for aside in itertools.combinations_with_replacement(FACES, k):
            for roll in itertools.combinations_with_replacement(FACES, DICE - k):
                pairs.append((aside, roll))
    level_start.append(len(pairs))

    aside_ids = np.array([multiset_index[a] for a, _ in pairs], dtype=np.int32)
    roll_ids = np.array([multiset_index[r] for _, r in pairs], dtype=np.int32)
    final_ids = np.array([multiset_index[tuple(sorted(a + r))] for a, r in pairs], dtype=np.int32)
    final = counts[final_ids].astype(np.int32)
    rolled = counts[roll_ids].astype(np.int32)
    total = final @ np.array(FACES, dtype=np.int32)

    n_pairs, n_cats = len(pairs), len(CATEGORIES)
    satisfied = np.zeros((n_pairs, n_cats), dtype=np.bool_)
    clean = np.zeros((n_pairs, n_cats), dtype=np.bool_)  # some forming choice holds the roll
    points = np.zeros((n_pairs, n_cats), dtype=np.int32)
    for j, category in enumerate(CATEGORIES):
        if category is Category.FACE_VALUE:
            # W4: all six dice form it, so it is always satisfied and never a Wurfeltod.
            satisfied[:, j] = True
            clean[:, j] = True
            points[:, j] = 10 * total
            continue
        if category is Category.SUM_25:
            satisfied[:, j] = total >= SUM_TOTAL_MINIMUM
            clean[:, j] = satisfied[:, j]
        else:
            for shape in FIXED_SHAPES[category]:
                needed = np.array(shape, dtype=np.int32)
                fits = np.all(final >= needed, axis=1)
                satisfied[:, j] |= fits
                # W3: the forming dice may take every final-roll die iff roll <= shape <= final.
                clean[:, j] |= fits & np.all(rolled <= needed, axis=1)
        points[:, j] = np.where(satisfied[:, j], FIXED_POINTS[category], 0)

    arrays: list[npt.NDArray[np.generic]] = [
        counts,
        probability,
        aside_ids,
        roll_ids,
        final_ids,
        satisfied,
        points,
    ]
    wurfeltod = ~clean
    arrays.append(wurfeltod)
    for array in arrays:
        array.setflags(write=False)
    return PairTables(
        multisets=multisets,
        multiset_index=multiset_index,
        multiset_counts=counts,
        multiset_probability=probability,
        pair_index={pair: i for i, pair in enumerate(pairs)},
        pair_aside=aside_ids,
        pair_roll=roll_ids,
        pair_final=final_ids,
        level_start=tuple(level_start),
        satisfied=satisfied,
        points=points,
        wurfeltod=wurfeltod,
    )


@functools.cache
def pair_tables() -> PairTables:
    """The booking tables, built once per process (about 0.1 s)."""
    return _build()
