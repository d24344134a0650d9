"""Properties of the shared dice tools (gamenight.solve.dice)."""

from __future__ import annotations

import itertools
from collections import Counter
from math import comb, prod

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamenight.solve.dice import (
    face_counts,
    is_sub_multiset,
    multisets,
    ordered_count,
    probability,
    remove,
    sub_multisets,
    sum_counts,
    sum_probability_at_least,
    throw_table,
)

dice_lists = st.lists(st.integers(1, 6), min_size=0, max_size=7).map(tuple)


@pytest.mark.parametrize("n", range(0, 7))
def test_patterns_cover_every_ordered_throw_once(n: int) -> None:
    patterns = multisets(n)
    assert len(patterns) == comb(n + 5, 5)
    assert all(list(p) == sorted(p) for p in patterns)
    # Weighting each sorted pattern by its orderings counts every ordered throw once.
    ordered = Counter(tuple(sorted(t)) for t in itertools.product(range(1, 7), repeat=n))
    assert {p: ordered_count(p) for p in patterns} == dict(ordered)
    assert sum(probability(p) for p in patterns) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("n", range(0, 9))
def test_throw_table_matches_the_scalar_functions(n: int) -> None:
    table = throw_table(n)
    assert int(table.counts.sum()) == 6**n
    assert table.probs.sum() == pytest.approx(1.0, abs=1e-12)
    for row, count, p in zip(table.faces, table.counts, table.probs, strict=True):
        dice = tuple(int(f) for f in row)
        assert ordered_count(dice) == count and probability(dice) == p
    with pytest.raises(ValueError):
        table.probs[0] = 0.5  # cached tables are read-only


@pytest.mark.parametrize("n", range(0, 5))
def test_sum_counts_by_enumeration(n: int) -> None:
    totals = Counter(sum(t) for t in itertools.product(range(1, 7), repeat=n))
    counts = sum_counts(n)
    assert len(counts) == 6 * n + 1
    assert {s: c for s, c in enumerate(counts) if c} == dict(totals)
    for total in range(-1, 6 * n + 3):
        expected = sum(c for s, c in totals.items() if s >= total) / 6**n
        assert sum_probability_at_least(n, total) == pytest.approx(expected, abs=1e-15)


@given(dice_lists)
def test_sub_multisets_are_the_distinct_nonempty_picks(dice: tuple[int, ...]) -> None:
    subs = sub_multisets(dice)
    assert len(subs) == len(set(subs)) == prod(c + 1 for c in face_counts(dice)) - 1
    picks = {
        tuple(sorted(c))
        for size in range(1, len(dice) + 1)
        for c in itertools.combinations(dice, size)
    }
    assert set(subs) == picks
    assert [len(s) for s in subs] == sorted(len(s) for s in subs)


@given(dice_lists, st.data())
def test_remove_undoes_adding(dice: tuple[int, ...], data: st.DataObject) -> None:
    if not dice:
        assert remove(dice, ()) == ()
        return
    sub = data.draw(st.sampled_from(sub_multisets(dice)))
    assert is_sub_multiset(sub, dice)
    rest = remove(dice, sub)
    assert tuple(sorted(rest + sub)) == tuple(sorted(dice))
    extra = (*sub, 6, 6, 6, 6, 6, 6, 6, 6)
    assert not is_sub_multiset(extra, dice)
    with pytest.raises(ValueError):
        remove(dice, extra)


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError):
        multisets(-1)
    with pytest.raises(ValueError):
        face_counts((0, 3))
    with pytest.raises(ValueError):
        sub_multisets((7,))
    assert isinstance(throw_table(2).faces, np.ndarray)
