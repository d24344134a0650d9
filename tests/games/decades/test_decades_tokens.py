"""Extension token placement (T4): every illegal placement is refused with a clear message."""

from __future__ import annotations

import re
from itertools import product

import msgspec
import pytest
from decades_helpers import act, answer_all, card, data, keep_all, kind, start, tokens
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.core.errors import IllegalActionError
from gamenight.games.decades.game import GAME
from gamenight.games.decades.rules import DecadesState, Extend
from gamenight.games.decades.tokens import (
    Placement,
    canonical,
    covered,
    legal_placements,
    placement_error,
)

ANSWERS = (1984, 1986, 1988, 1995, 2019, 2019)  # two answers may share a year


def _extend_step() -> DecadesState:
    cards = [card(f"c{i}", (1981, 1991, 2001, 2011, 1982, 1992)) for i in range(4)]
    state, _ = start(cards)
    state, _ = keep_all(
        state, ("blocked",) * 2 + ("cancel-answer",) * 2, ("blocked",) * 2 + ("cancel-answer",) * 2
    )
    state, _ = answer_all(state, ANSWERS, (1980,) * 6)
    assert state.phase == "extend"
    return state


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (
            ((4, 1984), (2, 1986)),
            "the 4-year token (1984-1987) and the 2-year token (1986-1987) overlap",
        ),
        (
            ((2, 1988), (3, 1986)),
            "the 3-year token (1986-1988) and the 2-year token (1988-1989) overlap",
        ),
        (((4, 2019),), "the 4-year token at 2019 would cover 2019-2022 and leave the 2010s row"),
        (((2, 2019),), "the 2-year token at 2019 would cover 2019-2020 and leave the 2010s row"),
        (((3, 1985),), "the 3-year token must start under one of your answer tokens"),
        (((2, 1996),), "1996 has none"),
        (((2, 1984), (2, 1995)), "the 2-year token can be placed only once"),
        (((5, 1984),), "there is no 5-year token"),
        (((1, 1984),), "there is no 1-year token"),
        (((2, 2030),), "2030 is not on the board"),
    ],
)
def test_illegal_placements_are_refused_with_a_clear_message(
    spec: tuple[tuple[int, int], ...], message: str
) -> None:
    state = _extend_step()
    with pytest.raises(IllegalActionError, match=re.escape(message)):
        GAME.apply(state, 0, tokens(*spec))
    # the refused action left nothing behind
    assert state.pending == (None, None)


def test_decade_row_crossing_is_refused_in_the_middle_of_the_board() -> None:
    state = _extend_step()
    with pytest.raises(IllegalActionError, match="leave the 1980s row"):
        GAME.apply(state, 0, tokens((3, 1988)))  # 1988-1990 would reach into the 1990s


def test_legal_placements_are_accepted_in_any_order_and_stored_canonically() -> None:
    state = _extend_step()
    state, events = act(state, 0, tokens((4, 1995), (2, 1984), (3, 1986)))
    assert state.pending[0] == Extend((Placement(2, 1984), Placement(3, 1986), Placement(4, 1995)))
    assert [kind(e) for e in events] == ["ready", "chosen"]
    assert events[0].audience is None and "choice" not in data(events[0])
    assert events[1].audience == (0,)


def test_no_token_at_all_is_legal() -> None:
    state = _extend_step()
    assert Extend(()) in GAME.legal_actions(state, 0)
    state, _ = act(state, 0, Extend(()))
    assert state.pending[0] == Extend(())


def test_adjacent_tokens_do_not_overlap() -> None:
    answers = (1984, 1986)
    assert placement_error((Placement(2, 1984), Placement(3, 1986)), answers) is None
    assert placement_error((Placement(3, 1984), Placement(2, 1986)), answers) is not None
    assert covered(1986, (Placement(2, 1984), Placement(3, 1986))) == (1986, 1988)
    assert covered(1984, (Placement(2, 1984), Placement(3, 1986))) == (1984, 1985)


def _brute_force(answers: tuple[int, ...]) -> set[tuple[Placement, ...]]:
    """Every combination of optional tokens anywhere on the board that T4 allows."""
    spots: list[list[Placement | None]] = [
        [None, *(Placement(length, y) for y in range(1980, 2020))] for length in (2, 3, 4)
    ]
    found = set()
    for combo in product(*spots):
        placed = tuple(t for t in combo if t is not None)
        if placement_error(placed, answers) is None:
            found.add(canonical(placed))
    return found


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1980, 2019), min_size=1, max_size=6))
def test_enumeration_matches_brute_force(years: list[int]) -> None:
    answers = tuple(years)
    listed = legal_placements(answers)
    assert len(set(listed)) == len(listed)
    assert set(listed) == _brute_force(answers)
    for placed in listed:
        for token in placed:  # each token lies under an answer and inside its row
            assert token.start in answers
            assert token.end // 10 == token.start // 10


def test_enumeration_is_small() -> None:
    worst = legal_placements((1980, 1982, 1984, 1990, 1992, 1994))
    assert 1 < len(worst) < 400
    assert (
        msgspec.json.decode(msgspec.json.encode(worst[-1]), type=tuple[Placement, ...]) == worst[-1]
    )
