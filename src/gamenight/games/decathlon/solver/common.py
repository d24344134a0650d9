"""Numeric pieces shared by the event solvers.

Every solver runs its backward induction on several *columns* at once.  A column
is one objective: the expected result for one "best result so far" (3-attempt
events, D3), or the probability of reaching one target.  Each column carries two
values per state: the primary value ``P`` that the policy maximises and a
secondary value ``E`` used only to break ties (the one tie rule,
:func:`gamenight.solve.ties.best_index`):

* expected-score columns use ``E = P``, so near-ties go to the first option;
* target columns use ``E`` = expected result under the target policy, so a
  target policy that cannot change its chance of success still plays for points.
"""

from __future__ import annotations

import math

import msgspec
import numpy as np
import numpy.typing as npt

from gamenight.games.decathlon.solver.objectives import ExpectedScore, Objective, Target

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]


def take(values: Floats, index: Ints, axis: int) -> Floats:
    """``values`` picked at ``index`` along ``axis`` (that axis removed).

    What ``np.take_along_axis`` picks, as one flat ``np.take``: the offsets of the
    other axes are made once per shape (issue 29: building the index grids was most
    of each of the solve's ~700 picks).

    >>> values = np.arange(24.0).reshape(2, 3, 4)
    >>> take(values, np.array([[0, 3, 1], [2, 2, 0]]), axis=2).tolist()
    [[0.0, 7.0, 9.0], [14.0, 18.0, 20.0]]
    """
    key = (values.shape, axis)
    grid = _GRIDS.get(key)
    if grid is None:
        if len(_GRIDS) >= 256:
            _GRIDS.clear()
        shape = values.shape
        before, after = math.prod(shape[:axis]), math.prod(shape[axis + 1 :])
        offsets = np.arange(before)[:, None] * (shape[axis] * after) + np.arange(after)
        grid = _GRIDS[key] = (offsets.reshape(shape[:axis] + shape[axis + 1 :]), after)
    offsets, stride = grid
    picked: Floats = np.take(values, offsets + index * stride)  # C order, as ravel()
    return picked


# (shape, axis) -> (each kept position's flat offset, the stride of the axis)
_GRIDS: dict[tuple[tuple[int, ...], int], tuple[Ints, int]] = {}


def threshold_for(objective: Target, min_score: int, max_score: int) -> int:
    """The target threshold clipped to ``[min_score, max_score + 1]``.

    Any threshold at or below ``min_score`` means "any valid result" and any above
    ``max_score`` is unreachable, so the solved tables only hold that range.
    """
    return min(max(objective.threshold, min_score), max_score + 1)


class Summary(msgspec.Struct, frozen=True):
    """The solved figures of one event, as arrays.

    ``*_dist`` arrays are outcome distributions: entry ``i`` is the probability of
    the valid result ``min_score + i``, the last entry that of no valid result.
    Targets run over ``t = min_score .. max_score + 1``.
    """

    event: str
    attempts: int
    min_score: int
    max_score: int
    ev: float
    ev_dist: Floats
    target_p: Floats
    target_dist: Floats

    def dist(self, objective: Objective) -> Floats:
        """Outcome distribution under the optimal policy for ``objective``."""
        if isinstance(objective, ExpectedScore):
            return self.ev_dist
        t = threshold_for(objective, self.min_score, self.max_score)
        row: Floats = self.target_dist[t - self.min_score]
        return row

    def value(self, objective: Objective) -> float:
        """Optimal value of ``objective`` from the start of the event."""
        if isinstance(objective, ExpectedScore):
            return self.ev
        t = threshold_for(objective, self.min_score, self.max_score)
        return float(self.target_p[t - self.min_score])


def best_of_attempts(single: Floats, attempts: int) -> Floats:
    """Distribution of the best of ``attempts`` independent attempts (D3).

    ``single`` is one attempt's outcome distribution; no valid result ranks below
    every valid one.
    """
    cdf = np.cumsum(np.concatenate(([single[-1]], single[:-1])))
    cdf_best = cdf**attempts
    best = np.diff(np.concatenate(([0.0], cdf_best)))
    return np.concatenate((best[1:], best[:1]))


def checked_dice(dice: tuple[int, ...], what: str) -> tuple[int, ...]:
    """``dice`` sorted ascending; ``ValueError`` if a value is not a die face."""
    for face in dice:
        if not (isinstance(face, int) and 1 <= face <= 6):
            raise ValueError(f"{what}: {face!r} is not a die face in {dice!r}")
    return tuple(sorted(dice))
