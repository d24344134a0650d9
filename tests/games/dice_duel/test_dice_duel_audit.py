"""Audit tests: rounds with extra turns (K5), solo turns (K7), bonuses (K6), malformed
actions and the turn-optimal bot's Kniffel values (the terminal's audit tests are in
tests/terminal/test_dice_duel_terminal.py)."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import msgspec
import pytest
from dice_duel_helpers import act, kinds, playout, start
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from gamenight.core.errors import IllegalActionError
from gamenight.games.dice_duel.advisor import option_values, tables_for
from gamenight.games.dice_duel.events import TurnBegan
from gamenight.games.dice_duel.expectimax import HAND_INDEX
from gamenight.games.dice_duel.game import GAME
from gamenight.games.dice_duel.rules import Roll, Stop, Take
from gamenight.games.dice_duel.scoring import score

NOTHING = (1, 2, 4, 5, 6)  # makes no combination at all
EMPTY = (0,) * 7


# ----- K5: extra turns stay inside the round ------------------------------------------------


def test_kniffel_by_the_last_player_keeps_the_round_open_until_the_extra_turn_ends() -> None:
    # Seat 0 starts; seat 1 closes the round with a Kniffel, then plays its extra turn.
    state, _ = start(2, 1, *NOTHING, 4, 4, 4, 4, 4, *NOTHING, *NOTHING)
    state, events = act(state, Stop())
    assert state.current == 1 and "set-aside" not in kinds(events)
    state, events = act(state, Take("flush"))
    assert kinds(events) == ["take", "turn", "roll"]
    assert events[1] == TurnBegan(player=1, round=1, extra=True)
    assert state.current == 1 and state.round == 1 and state.round_chip
    state, events = act(state, Stop())  # the extra turn ends: now the round is over
    assert kinds(events) == ["no-chip", "turn", "roll"]  # a chip was taken: nothing set aside
    assert state.current == 0 and state.round == 2 and not state.round_chip
    assert state.set_aside == EMPTY and state.chips[1][3] == 1


# ----- K7: solo turns ---------------------------------------------------------------------------


def test_solo_extra_turn_without_a_chip_sets_a_chip_aside() -> None:
    state, _ = start(1, 6, 6, 6, 6, 6, *NOTHING, *NOTHING, mode="solo")
    state, _ = act(state, Take("large-straight"))
    state, events = act(state, Take("four-of-a-kind"))  # the second Kniffel chip
    assert kinds(events) == ["take", "turn", "roll"]
    assert isinstance(events[1], TurnBegan) and events[1].extra
    state, events = act(state, Stop())
    # K7: the chipless extra turn is a turn like any other.
    assert kinds(events) == ["no-chip", "set-aside", "turn", "roll"]
    assert state.set_aside == (0, 0, 0, 0, 0, 0, 1) and state.plate[6] == 2


def test_solo_round_flag_starts_afresh_every_turn() -> None:
    state, _ = start(1, 1, 1, 2, 2, 3, *NOTHING, mode="solo")
    state, _ = act(state, Take("two-pairs"))
    # A new solo turn is a new round: no chip has been taken in it yet.
    assert state.round == 2 and not state.round_chip
    assert not GAME.view(state, 0).round_chip


def test_solo_plate_emptied_by_setting_aside_earns_no_bonus() -> None:
    state, _ = start(1, *NOTHING, mode="solo")
    state = replace(state, plate=(0, 0, 0, 0, 0, 0, 1), chips=((4, 4, 4, 4, 4, 4, 3),))
    state, events = act(state, Stop())
    assert kinds(events) == ["no-chip", "set-aside", "game-over"]
    assert state.last_chip is None
    results = GAME.results(state)
    # 670 in chips + gold 50 + six full stacks 180; no last-chip bonus (K6).
    assert results.scores == (900,)


# ----- K6: bonuses --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("chips", "gold", "silver", "stacks"),
    [
        ((1, 1, 1, 1, 1, 1, 1), 50, 0, 0),  # all seven: gold only, never silver too
        ((1, 1, 1, 1, 1, 1, 0), 0, 20, 0),  # exactly six: silver
        ((0, 1, 1, 1, 1, 1, 0), 0, 0, 0),  # five: nothing
        ((4, 4, 0, 0, 0, 0, 0), 0, 0, 60),  # two full stacks
        ((4, 1, 1, 1, 1, 1, 4), 50, 0, 60),
        ((3, 3, 3, 3, 3, 3, 0), 0, 20, 0),  # three of four is not a stack
        (EMPTY, 0, 0, 0),
    ],
)
def test_bonuses(chips: tuple[int, ...], gold: int, silver: int, stacks: int) -> None:
    s = score(chips, took_last_chip=False)
    assert (s.gold, s.silver, s.full_stacks, s.last_chip) == (gold, silver, stacks, 0)
    points = sum(n * v for n, v in zip(chips, (5, 10, 20, 25, 30, 40, 50), strict=True))
    assert s.total == points + gold + silver + stacks
    assert score(chips, took_last_chip=True).total == s.total + 20


def test_three_way_tie_shares_the_win() -> None:
    state, _ = start(3, 1, 1, 1, 2, 2, 3)
    state = replace(
        state,
        plate=(1, 0, 0, 0, 0, 0, 0),
        set_aside=(0, 0, 0, 0, 0, 0, 3),
        # Seat 0 takes the last chip: 5 + 20 bonus = 25, like the 25 of seats 1 and 2.
        chips=(EMPTY, (0, 0, 0, 1, 0, 0, 0), (1, 0, 1, 0, 0, 0, 0)),
    )
    state, events = act(state, Take("two-pairs"))
    assert kinds(events) == ["take", "game-over"]
    results = GAME.results(state)
    assert results.scores == (25, 25, 25)
    assert results.winners == (0, 1, 2) and results.ranks == (1, 1, 1)


# ----- K4: kept dice stay put ---------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=2, max_value=6), st.integers(0, 2**32), st.integers(0, 2**32))
def test_kept_dice_keep_their_faces(players: int, seed: int, choose: int) -> None:
    states = playout(players, "multi", seed, choose)
    for before, after in pairwise(states):
        same_turn = after.current == before.current and after.rolls_used == before.rolls_used + 1
        if same_turn and after.kept:
            kept = [i for i, k in enumerate(after.kept) if k]
            assert [after.faces[i] for i in kept] == [before.faces[i] for i in kept]


# ----- malformed actions built in Python ----------------------------------------------------------


@pytest.mark.parametrize(
    "action",
    [
        Take(["flush"]),  # type: ignore[arg-type]
        Take({"x": 1}),  # type: ignore[arg-type]
        Take("flush", ["plate"]),  # type: ignore[arg-type]
        Roll(keep=5),  # type: ignore[arg-type]
        Roll(keep=None),  # type: ignore[arg-type]
        Roll(keep=[0, 1]),  # type: ignore[arg-type]
    ],
)
def test_malformed_actions_are_refused_without_change(action: Any) -> None:
    state, _ = start(2, 1, 1, 1, 2, 2, 3)
    before = msgspec.json.encode(state)
    with pytest.raises(IllegalActionError):
        GAME.apply(state, 0, action)
    assert msgspec.json.encode(state) == before


# ----- the turn-optimal bot's Kniffel values ------------------------------------------------------


def test_solo_kniffel_first_pick_counts_the_best_second_pick_and_the_extra_turn() -> None:
    state, _ = start(1, 2, 2, 2, 2, 2, mode="solo")
    view = GAME.view(state, 0)
    values = option_values(view)
    x = tables_for(view).extra_turn
    assert 20 < x < 50
    # Large straight now, the other large straight second, then another turn.
    assert values[Take("large-straight")] == pytest.approx(50 + 50 + x)
    assert values[Take("two-pairs")] == pytest.approx(5 + 50 + x)
    assert tables_for(view).stop[HAND_INDEX[(2,) * 5]] == pytest.approx(100 + x)


def test_solo_kniffel_that_empties_the_plate_earns_no_extra_turn() -> None:
    state, _ = start(1, 2, 2, 2, 2, 2, mode="solo")
    state = replace(state, plate=(1, 0, 0, 0, 0, 0, 1))
    view = GAME.view(state, 0)
    values = option_values(view)
    # Both chips go: 50 + 5 and the last-chip bonus on whichever leaves second.
    assert values[Take("large-straight")] == pytest.approx(75.0)
    assert values[Take("two-pairs")] == pytest.approx(75.0)
    assert tables_for(view).stop[HAND_INDEX[(2,) * 5]] == pytest.approx(75.0)


def test_multi_kniffel_prefers_an_extra_turn_when_it_is_worth_more() -> None:
    # One Two-pairs chip left on the plate, a Large straight set aside.
    state, _ = start(2, 1, 6, 6, 6, 6, 6)
    state = replace(state, plate=(1, 0, 0, 0, 0, 0, 0), set_aside=(0, 0, 0, 0, 0, 0, 1))
    view = GAME.view(state, 0)
    values = option_values(view)
    x = tables_for(view).extra_turn
    assert values[Take("two-pairs")] == pytest.approx(25.0)  # ends the game
    assert values[Take("large-straight", "set-aside")] == pytest.approx(50 + x)
    assert x > 0
