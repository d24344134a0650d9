"""The fixed shape of one Wurfeltod turn, as flat index arrays for the compiled turn DP.

Everything here is the same for every state; only the values of the boxes
differ. Three observations keep the per-state work small:

- Booking a box whose category is not satisfied, or is satisfied with a
  Wurfeltod (W3), is worth ``points - 250 + value-after``, which depends only
  on the six final dice, not on how they split into aside and final roll. So
  it is folded once per final multiset (462 of them), with Face Value Total,
  which never brings a Wurfeltod. The Wurfeltod-free bookings of the other
  categories depend on the split, but only 1,882 distinct (final dice,
  Wurfeltod-free categories) *booking classes* occur among the 11,914 pairs,
  so the best booking is computed once per class.
- Setting aside ``K`` from roll ``R`` (aside ``A``) leads to aside ``A + K``
  with ``A < A + K < A + R`` (W2). The best such choice is a max over one added
  die at a time (``succ``, one entry per distinct rolled value) through the
  best aside reachable from the next level, instead of listing all ~77k
  sub-multisets.
- Pairs are ordered by aside, so the expectation over one roll is a
  contiguous sum.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gamenight.games.wurfeltod.categories import (
    CATEGORIES,
    DICE,
    FACES,
    WURFELTOD_PENALTY,
    Category,
)
from gamenight.games.wurfeltod.tables import pair_tables

__all__ = ["FACE_COLUMN", "TurnStructure", "turn_structure"]

FACE_COLUMN = CATEGORIES.index(Category.FACE_VALUE)

Index = npt.NDArray[np.uint32]  # unsigned: the kernel widens them knowing they are >= 0
Float64 = npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class TurnStructure:
    """Index arrays of one turn. Aside ids are multiset ids 0..461 (sizes 0 to 5)."""

    level_start: Index
    """(7,) pairs with k dice aside are level_start[k]:level_start[k+1]."""
    aside_level_start: Index
    """(7,) asides with k dice are aside_level_start[k]:aside_level_start[k+1]."""
    aside_pair_start: Index
    """(463,) pairs of aside a are aside_pair_start[a]:aside_pair_start[a+1]."""
    pair_class: Index
    """(11914,) booking class of each pair."""
    pair_probability: Float64
    """(11914,) probability of the pair's roll, given its aside."""
    class_final: Index
    """Final multiset of each booking class, numbered 0..461 among six-dice multisets."""
    class_start: Index
    class_column: Index
    class_points: Float64
    """CSR per booking class: Wurfeltod-free satisfied categories but Face Value Total."""
    final_start: Index
    final_column: Index
    final_points: Float64
    """CSR per final multiset: satisfied categories but Face Value Total, points - 250."""
    final_face_points: Float64
    """(462,) Face Value Total points of each final multiset."""
    succ_start: Index
    succ_pair: Index
    """CSR per pair with at most 4 dice aside: the pairs with one more die aside
    (one per distinct rolled value)."""


def _csr(rows: list[list[int]]) -> tuple[Index, Index]:
    start = np.zeros(len(rows) + 1, dtype=np.uint32)
    start[1:] = np.cumsum([len(r) for r in rows])
    flat = np.array([x for r in rows for x in r], dtype=np.uint32)
    return start, flat


@functools.cache
def turn_structure() -> TurnStructure:
    """Build the index arrays (once per process, about 0.2 s)."""
    t = pair_tables()
    sizes = np.array([len(ms) for ms in t.multisets])
    aside_level_start = np.zeros(DICE + 1, dtype=np.uint32)
    aside_level_start[1:] = np.cumsum([np.count_nonzero(sizes == k) for k in range(DICE)])
    n_asides = int(aside_level_start[DICE])
    # Multisets are numbered by size, so the six-dice ones come right after the asides.
    final_of_pair = t.pair_final - n_asides

    # Pairs are ordered by aside id (see tables.py); the CSR below relies on it.
    assert np.all(np.diff(t.pair_aside) >= 0)
    aside_pair_start = np.searchsorted(t.pair_aside, np.arange(n_asides + 1)).astype(np.uint32)

    clean = t.satisfied & ~t.wurfeltod
    clean[:, FACE_COLUMN] = False
    class_of: dict[tuple[int, tuple[int, ...]], int] = {}
    pair_class = np.empty(t.pair_count, dtype=np.uint32)
    for p in range(t.pair_count):
        key = (int(final_of_pair[p]), tuple(np.flatnonzero(clean[p]).tolist()))
        pair_class[p] = class_of.setdefault(key, len(class_of))
    class_start, class_column = _csr([list(cols) for _, cols in class_of])
    class_final = np.array([f for f, _ in class_of], dtype=np.uint32)
    points_of_column = {
        j: int(t.points[t.satisfied[:, j]][0, j])
        for j in range(len(CATEGORIES))
        if j != FACE_COLUMN
    }
    class_points = np.array([points_of_column[j] for j in class_column.tolist()], dtype=np.float64)

    # One representative pair per final multiset: the first-roll pair (nothing aside).
    first_roll_pair = np.empty(len(t.multisets) - n_asides, dtype=np.int64)
    first_roll_pair[final_of_pair[: t.level_start[1]]] = np.arange(t.level_start[1])
    sat = t.satisfied[first_roll_pair].copy()
    sat[:, FACE_COLUMN] = False
    final_start, final_column = _csr([np.flatnonzero(row).tolist() for row in sat])
    final_points = np.array(
        [points_of_column[j] - WURFELTOD_PENALTY for j in final_column.tolist()], dtype=np.float64
    )
    final_face_points = t.points[first_roll_pair, FACE_COLUMN].astype(np.float64)

    succ_rows: list[list[int]] = []
    for p in range(t.level_start[DICE - 1]):
        aside = t.multisets[t.pair_aside[p]]
        roll = t.multisets[t.pair_roll[p]]
        row = []
        for v in FACES:
            if v in roll:
                rest = list(roll)
                rest.remove(v)
                row.append(t.pair_index[(tuple(sorted((*aside, v))), tuple(rest))])
        succ_rows.append(row)
    succ_start, succ_pair = _csr(succ_rows)

    return TurnStructure(
        level_start=np.array(t.level_start, dtype=np.uint32),
        aside_level_start=aside_level_start,
        aside_pair_start=aside_pair_start,
        pair_class=pair_class,
        pair_probability=t.multiset_probability[t.pair_roll].astype(np.float64),
        class_final=class_final,
        class_start=class_start,
        class_column=class_column,
        class_points=class_points,
        final_start=final_start,
        final_column=final_column,
        final_points=final_points,
        final_face_points=final_face_points,
        succ_start=succ_start,
        succ_pair=succ_pair,
    )
