"""The turn-optimal bot: exact expectimax tables, its choices, speed and strength."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from functools import cache

import numpy as np
import pytest
from dice_duel_helpers import start
from msgspec.structs import replace

from gamenight.core.agents import Agent, Decision
from gamenight.core.dice import SeededDice
from gamenight.games.dice_duel import expectimax
from gamenight.games.dice_duel.advisor import (
    best_action,
    kniffel_award,
    option_values,
    tables_for,
)
from gamenight.games.dice_duel.bots import BOTS, TurnOptimalBot
from gamenight.games.dice_duel.combinations import INDEX, is_kniffel, satisfied
from gamenight.games.dice_duel.events import DiceDuelEvent
from gamenight.games.dice_duel.expectimax import FIRST, HANDS, KEEPS, ChipValues, turn_tables
from gamenight.games.dice_duel.game import GAME, DiceDuelView
from gamenight.games.dice_duel.rules import Action, DiceDuelState, Roll, Stop, Take

NONE = float("-inf")


# ----- the tables against brute force over ordered dice ------------------------------------


def test_transition_rows_are_distributions() -> None:
    assert np.allclose(expectimax.TRANSITION.sum(axis=1), 1.0)
    assert np.isclose(FIRST.sum(), 1.0)
    assert len(HANDS) == 252 and len(KEEPS) == 210


def test_tables_match_brute_force_over_ordered_rolls() -> None:
    chips = (5.0, 0.0, 20.0, 25.0, 0.0, 40.0, 50.0)
    values = ChipValues(chips, kniffel_on=NONE, kniffel_off=70.0)  # a Kniffel is worth 70

    def stop(hand: tuple[int, ...]) -> float:
        if is_kniffel(hand):
            return 70.0
        return max([chips[INDEX[c]] for c in satisfied(hand)], default=0.0)

    def mean_after(keep: tuple[int, ...], value: Callable[[tuple[int, ...]], float]) -> float:
        outcomes = itertools.product(range(1, 7), repeat=5 - len(keep))
        total = sum(value(tuple(sorted(keep + rolled))) for rolled in outcomes)
        return total / 6.0 ** (5 - len(keep))

    @cache
    def after1(keep: tuple[int, ...]) -> float:
        return mean_after(keep, stop)

    @cache
    def best1(hand: tuple[int, ...]) -> float:
        keeps = (
            tuple(sorted(hand[i] for i in where))
            for size in range(5)
            for where in itertools.combinations(range(5), size)
        )
        return max(stop(hand), *(after1(k) for k in keeps))

    @cache
    def after2(keep: tuple[int, ...]) -> float:
        return mean_after(keep, best1)

    tables = turn_tables(values)
    assert np.allclose(tables.after[1], [after1(k) for k in KEEPS])
    assert np.allclose(tables.after[2], [after2(k) for k in KEEPS])
    assert np.allclose(tables.stop, [stop(h) for h in HANDS])


def test_extra_turn_is_a_fixed_point() -> None:
    chips = (5.0, 10.0, 20.0, 25.0, 30.0, 40.0, 50.0)
    x = turn_tables(ChipValues(chips, 50.0, NONE)).extra_turn
    assert 20 < x < 50
    # A fresh turn whose Kniffel is worth 50 + x is itself worth x.
    fixed = turn_tables(ChipValues(chips, NONE, 50.0 + x))
    assert _turn_value(fixed) == pytest.approx(x, abs=1e-6)


def _turn_value(tables: expectimax.TurnTables) -> float:
    best2 = np.maximum(tables.stop, tables.after[2][expectimax.SUB_KEEPS].max(axis=1))
    return float(FIRST @ best2)


# ----- award values ---------------------------------------------------------------------------


def test_kniffel_award_multi_and_solo() -> None:
    full = (4,) * 7
    empty = (0,) * 7
    assert kniffel_award(full, empty, 1) == (50.0, NONE)
    assert kniffel_award(full, empty, 2) == (100.0, NONE)
    last = (0, 0, 0, 0, 0, 0, 1)
    # One chip left: taking it ends the game and earns the last-chip bonus.
    assert kniffel_award(last, (1, 0, 0, 0, 0, 0, 0), 1) == (5.0, 70.0)
    # Solo: the best pair of picks empties the plate, the set-aside chip second.
    assert kniffel_award(last, (1, 0, 0, 0, 0, 0, 0), 2) == (NONE, 75.0)


# ----- decisions -------------------------------------------------------------------------------


def _position(faces: tuple[int, ...], rolls_used: int, **fields: object) -> DiceDuelState:
    state, _ = start(2, 1, 1, 2, 4, 5, 6)
    return replace(state, faces=faces, rolls_used=rolls_used, **fields)


def test_four_sixes_roll_for_the_kniffel() -> None:
    state = _position((6, 6, 1, 6, 6), rolls_used=2)
    view = GAME.view(state, 0)
    values = option_values(view)
    x = tables_for(view).extra_turn
    keep_sixes = Roll(keep=(0, 1, 3, 4))
    assert values[keep_sixes] == pytest.approx((5 * 40 + 50 + x) / 6)
    assert values[Take("four-of-a-kind")] == 40
    assert best_action(view, GAME.legal_actions(state, 0)) == keep_sixes


def test_takes_the_best_chip_when_done() -> None:
    state = _position((2, 3, 4, 5, 6), rolls_used=2)
    assert best_action(GAME.view(state, 0), GAME.legal_actions(state, 0)) == Take("large-straight")
    # Without a large straight on the plate no last roll beats the small straight.
    state = replace(state, plate=(4, 4, 4, 4, 4, 4, 0))
    assert best_action(GAME.view(state, 0), GAME.legal_actions(state, 0)) == Take("small-straight")


def test_last_chip_counts_its_bonus() -> None:
    state = _position((1, 1, 2, 2, 3), rolls_used=3, phase="pick", plate=(1, 0, 0, 0, 0, 0, 0))
    assert option_values(GAME.view(state, 0)) == {Take("two-pairs"): 25.0, Stop(): 0.0}


def test_kniffel_values_include_the_extra_turn() -> None:
    plate = (0, 0, 0, 0, 0, 0, 1)
    state = _position((3,) * 5, rolls_used=1, plate=plate, set_aside=(0, 0, 0, 1, 0, 0, 0))
    view = GAME.view(state, 0)
    values = option_values(view)
    x = tables_for(view).extra_turn
    assert values[Take("large-straight")] == 70.0  # ends the game: no extra turn
    assert values[Take("flush", "set-aside")] == pytest.approx(25.0 + x)


def test_option_values_cover_every_legal_action() -> None:
    state = _position((1, 2, 2, 5, 6), rolls_used=1)
    legal = GAME.legal_actions(state, 0)
    values = option_values(GAME.view(state, 0), legal)
    assert list(values) == legal
    assert option_values(GAME.view(state, 0)) == values


def test_bot_is_typed_against_the_game() -> None:
    # mypy checks this assignment: the bot takes Dice Duel views and returns its actions.
    bot: Agent[DiceDuelView, Action, DiceDuelEvent] = TurnOptimalBot(7)
    state = _position((2, 3, 4, 5, 6), rolls_used=1)
    decision = Decision("dice-duel", 0, GAME.view(state, 0), GAME.legal_actions(state, 0))
    assert bot.act(decision) == Take("large-straight")


def test_bot_is_registered_and_picks_legal_actions() -> None:
    bot = BOTS["turn-optimal"](7)
    assert bot.label == "turn-optimal"
    rng = random.Random(3)
    state = GAME.start(3, GAME.parse_options(), SeededDice(seed=5)).state
    while not GAME.is_terminal(state):
        seat = state.current
        legal = GAME.legal_actions(state, seat)
        action = bot.act(Decision("dice-duel", seat, GAME.view(state, seat), legal))
        assert action in legal
        state = GAME.apply(state, seat, action if rng.random() < 0.7 else legal[0]).state


# ----- speed and strength -----------------------------------------------------------------------


def _duel(seed: int) -> bool:
    """One seeded two-player game, turn-optimal against random; True if the bot wins alone."""
    rng = random.Random(seed)
    bot_seat = seed % 2  # alternate who sits first; the starter is drawn anyway
    state = GAME.start(2, GAME.parse_options(), SeededDice(seed=seed)).state
    while state.phase != "over":
        seat = state.current
        legal = GAME.legal_actions(state, seat)
        if seat == bot_seat:
            action = best_action(GAME.view(state, seat), legal)
        else:
            action = rng.choice(legal)
        state = GAME.apply(state, seat, action).state
    return GAME.results(state).winners == (bot_seat,)


def test_turn_optimal_beats_random_in_95_percent_of_2000_games() -> None:
    wins = sum(_duel(seed) for seed in range(2000))
    assert wins >= 0.95 * 2000, f"turn-optimal won {wins} of 2000"


def test_kniffel_prefers_the_set_aside_twin_on_a_tie() -> None:
    state = _position(
        (2,) * 5, rolls_used=1, plate=(4, 4, 4, 4, 4, 4, 3), set_aside=(0, 0, 0, 0, 0, 0, 1)
    )
    view = GAME.view(state, 0)
    values = option_values(view)
    assert values[Take("large-straight", "set-aside")] == values[Take("large-straight")]
    assert best_action(view, GAME.legal_actions(state, 0)) == Take("large-straight", "set-aside")
