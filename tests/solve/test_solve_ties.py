"""gamenight.solve.ties.best_index picks the same option whichever way it computes it:
by reductions across the options' axis (small tables) or one pass per option (large)."""

from __future__ import annotations

import numpy as np
import pytest

from gamenight.solve import ties
from gamenight.solve.ties import TIE_EPS, best_index


def _tables(rng: np.random.Generator, shape: tuple[int, ...]) -> np.ndarray:
    """Values with exact ties, near ties (within TIE_EPS), -inf and NaN."""
    values = rng.integers(0, 3, shape).astype(np.float64)
    values += rng.choice([0.0, TIE_EPS / 4, 2 * TIE_EPS], shape)
    values[rng.random(shape) < 0.1] = -np.inf
    values[rng.random(shape) < 0.01] = np.nan
    return values


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
@pytest.mark.parametrize("with_secondary", [False, True, "itself"])
def test_large_tables_pick_as_small_ones(
    axis: int, with_secondary: bool | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(7)
    shape: list[int] = [40, 31]
    shape.insert(axis % 3, 5)  # five options along ``axis``
    p = _tables(rng, tuple(shape))
    s = {False: None, True: _tables(rng, tuple(shape)), "itself": p}[with_secondary]
    assert p.size >= ties.BY_OPTION * p.shape[axis]  # the per-option way
    large = best_index(p, s, axis=axis)
    monkeypatch.setattr(ties, "BY_OPTION", p.size + 1)  # the reductions' way
    small = best_index(p, s, axis=axis)
    assert large.dtype == small.dtype and np.array_equal(large, small)
