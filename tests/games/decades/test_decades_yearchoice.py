"""The bots' year choice is exact over all 40 board years (planner.choose_year)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.games.decades.boards import DECADES, SIDES, YEARS
from gamenight.games.decades.knowledge import LEVELS, belief
from gamenight.games.decades.planner import Valuer, best_placement, choose_year
from gamenight.games.decades.yearchoice import row_placements, year_values

beliefs = st.tuples(st.sampled_from(YEARS), st.sampled_from(sorted(LEVELS.values())))


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(YEARS), beliefs), max_size=5),
    beliefs,
    st.sampled_from(sorted(SIDES)),
)
def test_every_year_is_valued_as_the_exhaustive_search_does(
    earlier: list[tuple[int, tuple[int, float]]], new: tuple[int, float], side: str
) -> None:
    board = SIDES[side]
    answers = [year for year, _ in earlier]
    valuers = [Valuer(belief(*shape), board) for _, shape in earlier]
    valuer = Valuer(belief(*new), board)
    exhaustive = [best_placement([*answers, y], [*valuers, valuer])[1] for y in YEARS]
    assert list(year_values(answers, valuers, valuer)) == pytest.approx(exhaustive, abs=1e-9)
    chosen = choose_year(answers, valuers, valuer)
    assert exhaustive[chosen - YEARS[0]] == pytest.approx(max(exhaustive), abs=1e-9)


def test_a_bet_that_starts_a_token_for_an_earlier_answer() -> None:
    # Side A (+3 on 1983). The earlier answer 1985 is surely 1983: alone it is 2 off.
    # The new question is surely 1987. Around 1987 (the old candidates 1984-1987) the
    # best is 1984 with the 4-year token: 1987 hits (8), 1983 is 1 off (+4): 12. The
    # bet 1983 with the 4-year token (1983-1986) makes the earlier answer hit with its
    # bonus (11) and leaves the new one 1 off (+4): 15.
    sure = [tuple(1.0 if y == year else 0.0 for y in YEARS) for year in (1983, 1987)]
    earlier, new = (Valuer(p, SIDES["A"]) for p in sure)
    assert choose_year([1985], [earlier], new) == 1983
    assert best_placement([1985, 1983], [earlier, new])[1] == pytest.approx(15.0)
    window = max(best_placement([1985, y], [earlier, new])[1] for y in range(1984, 1988))
    assert window == pytest.approx(12.0)


def test_row_tables_are_the_interval_values() -> None:
    valuer = Valuer(belief(1999, 3.0), SIDES["A"])
    for row, decade in enumerate(DECADES):
        table = valuer.row_table(row)
        for low in range(10):
            for high in range(low, 10):
                assert table[low, high] == pytest.approx(
                    valuer.interval(decade + low, decade + high), abs=1e-12
                )


def test_row_placements_cover_every_legal_token_set() -> None:
    table = row_placements()
    # 2-, 3- and 4-year tokens, each optional, no overlap, inside 10 years
    brute = 0
    for two in [None, *range(9)]:
        for three in [None, *range(8)]:
            for four in [None, *range(7)]:
                spans = [
                    (s, s + n - 1) for n, s in ((2, two), (3, three), (4, four)) if s is not None
                ]
                brute += all(
                    a[1] < b[0] or b[1] < a[0] for i, a in enumerate(spans) for b in spans[i + 1 :]
                )
    assert len(table.mask) == brute
    assert list(table.mask) == sorted(table.mask)
