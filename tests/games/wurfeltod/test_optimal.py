"""The optimal Wurfeltod bot and its advisor, checked against the exact solver's full table.

The full value table is built once per test run (``full_table`` in conftest.py).
"""

from __future__ import annotations

import itertools
import math
import random
import statistics
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.cli.main import run
from gamenight.core.agents import Decision
from gamenight.core.dice import ScriptedDice, SeededDice
from gamenight.games.wurfeltod import advisor
from gamenight.games.wurfeltod import solver as S
from gamenight.games.wurfeltod.bots import BOTS, OptimalBot
from gamenight.games.wurfeltod.categories import Category
from gamenight.games.wurfeltod.game import GAME
from gamenight.games.wurfeltod.rules import (
    Action,
    Book,
    Entry,
    ScoreCard,
    Scratch,
    SetAside,
    WurfeltodState,
)
from gamenight.games.wurfeltod.solver.table import CACHE_ENV

C = Category
MC_GAMES = 1200  # about 22 ms a game through the engine; s.e. about 1730 / sqrt(N) = 50


def card(*bookings: tuple[Category, int, bool, bool]) -> ScoreCard:
    """A score card with these (category, points, Wurfeltod, scratch) bookings."""
    sheet = ScoreCard()
    for turn, (category, points, wurfeltod, scratch) in enumerate(bookings, start=1):
        box = sheet.next_box(category)
        assert box is not None
        sheet = sheet.with_entry(box, Entry(category, points, wurfeltod, scratch, (), (), turn))
    return sheet


def position(
    cards: tuple[ScoreCard, ...], current: int, aside: tuple[int, ...], rolled: tuple[int, ...]
) -> WurfeltodState:
    roll = 1 if not aside else 2  # W2: only "first roll or later" matters to the rules
    return WurfeltodState(
        dice=SeededDice(seed=0),
        cards=cards,
        current=current,
        turn=cards[current].booked() + 1,
        roll=roll,
        aside=aside,
        rolled=rolled,
    )


# Seat 1 of a two-player game: 50 + 210 points, one scratch and one Wurfeltod booked.
SEAT_1 = card(
    (C.ANY_PAIR, 50, False, False),
    (C.FACE_VALUE, 210, False, False),
    (C.SIX_OF_A_KIND, 0, False, True),
    (C.TRIPLE_TWOS, 0, True, False),
)
SEAT_1_USED = {C.ANY_PAIR: 1, C.FACE_VALUE: 1, C.SIX_OF_A_KIND: 1, C.TRIPLE_TWOS: 1}
SEAT_0 = card((C.TWO_PAIR, 50, False, False), (C.SIX_STRAIGHT, 2000, False, False))
FACE_VALUE_DONE = card((C.FACE_VALUE, 300, False, False), (C.FACE_VALUE, 120, True, False))

POSITIONS = {
    "new game, first roll": (position((ScoreCard(),), 0, (), (1, 1, 2, 3, 4, 4)), {}, 0),
    "seat 1, later roll": (
        position((SEAT_0, SEAT_1), 1, (1, 1, 4, 4), (4, 5)),
        SEAT_1_USED,
        50 + 210 - 250,
    ),
    "seat 1, first roll": (
        position((SEAT_0, SEAT_1), 1, (), (6, 5, 4, 3, 2, 2)),
        SEAT_1_USED,
        10,
    ),  # 50 + 210 - 250
    "one die rolled": (
        position((FACE_VALUE_DONE,), 0, (2, 3, 4, 5, 6), (1,)),
        {C.FACE_VALUE: 2},
        300 + 120 - 250,
    ),
}


def solver_name(action: Action, rolled: tuple[int, ...]) -> S.Option:
    if isinstance(action, SetAside):
        return S.SetAside(tuple(sorted(rolled[i] for i in action.dice)))
    if isinstance(action, Book):
        return S.Book(action.category)
    return S.Scratch(action.category)


@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_advisor_values_are_the_solvers_plus_the_booked_total(
    name: str, full_table: S.ValueTable
) -> None:
    state, used, total = POSITIONS[name]
    assert state.cards[state.current].total == total
    view = GAME.view(state, state.current)
    legal = GAME.legal_actions(state, state.current)
    solved = S.option_values(full_table, used, state.aside, state.rolled, not state.aside)
    got = advisor.option_values(full_table, view, legal)
    assert set(got) == set(legal)
    for action in legal:
        assert got[action] == pytest.approx(total + solved[solver_name(action, state.rolled)])
    # The engine's legal actions and the solver's options are the same choices (W2).
    assert {solver_name(a, state.rolled) for a in legal} == set(solved)
    best, value = advisor.best_action(full_table, view, legal)
    assert value == got[best] == max(got.values())
    assert value == pytest.approx(total + S.best_option(full_table, used, *_turn(state))[1])
    assert (
        OptimalBot(0, table=full_table).act(Decision("wurfeltod", state.current, view, legal))
        == best
    )


def _turn(state: WurfeltodState) -> tuple[tuple[int, ...], tuple[int, ...], bool]:
    return state.aside, state.rolled, not state.aside


def test_advisor_on_a_new_game(full_table: S.ValueTable) -> None:
    state = POSITIONS["new game, first roll"][0]
    view = GAME.view(state, 0)
    got = advisor.option_values(full_table, view, GAME.legal_actions(state, 0))
    # Dice with equal values are interchangeable: keeping either 1 is the same option.
    assert got[SetAside((0,))] == got[SetAside((1,))]
    assert got[SetAside((0, 4))] == got[SetAside((1, 5))]
    # The scratch of a box is worth the booking plus the Wurfeltod it avoids, when it scores 0.
    assert got[Scratch(C.SIX_STRAIGHT)] == pytest.approx(got[Book(C.SIX_STRAIGHT)] + 250)
    ranked = advisor.ranked_options(full_table, view, GAME.legal_actions(state, 0))
    assert len(ranked) == 19 + 19 + 34  # bookings, scratches, distinct set-asides
    assert [v for _, v in ranked] == sorted((v for _, v in ranked), reverse=True)


def test_best_first_roll_averages_to_the_value_of_a_new_game(full_table: S.ValueTable) -> None:
    """Over every first roll, weighted by its probability, the advisor's best value is the
    expected score of the whole game."""
    average = 0.0
    for roll in itertools.combinations_with_replacement(range(1, 7), 6):
        ways = math.factorial(6) // math.prod(math.factorial(roll.count(f)) for f in set(roll))
        state = position((ScoreCard(),), 0, (), roll)
        _, best = advisor.best_action(full_table, GAME.view(state, 0), GAME.legal_actions(state, 0))
        average += ways / 6**6 * best
    assert average == pytest.approx(S.expected_score(full_table), rel=1e-12)


def test_advisor_refuses_a_finished_game(full_table: S.ValueTable) -> None:
    state = GAME.start(1, GAME.parse_options(), SeededDice(seed=2)).state
    done = GAME.view(WurfeltodState(state.dice, state.cards, finished=True), 0)
    with pytest.raises(ValueError, match="over"):
        advisor.option_values(full_table, done, [])


@pytest.mark.slow
def test_monte_carlo_through_the_engine_agrees_with_the_exact_expectation(
    full_table_path: Path, full_table: S.ValueTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CACHE_ENV, str(full_table_path))
    bot = BOTS["optimal"](0)  # loads the table from the cache, as the CLI does
    scores: list[float] = []
    for seed in range(MC_GAMES):
        state = GAME.start(1, GAME.parse_options(), SeededDice(seed=seed)).state
        while not GAME.is_terminal(state):
            decision = Decision("wurfeltod", 0, GAME.view(state, 0), GAME.legal_actions(state, 0))
            state = GAME.apply(state, 0, bot.act(decision)).state
        scores.append(GAME.results(state).scores[0])
    mean = statistics.fmean(scores)
    error = statistics.stdev(scores) / math.sqrt(len(scores))
    exact = S.expected_score(full_table)
    assert exact == pytest.approx(9067.5764, abs=1e-3)
    z = (mean - exact) / error
    assert abs(z) < 4, f"mean {mean:.1f} +- {error:.1f} vs exact {exact:.1f}: z = {z:.2f}"


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    players=st.integers(min_value=1, max_value=3),
    detours=st.floats(min_value=0.0, max_value=0.5),
)
def test_the_bot_only_picks_legal_actions(
    seed: int, players: int, detours: float, full_table: S.ValueTable
) -> None:
    """Every decision is legal, also in odd positions: a share of the moves actually
    played are random, so the bot meets cards and dice it would not have chosen."""
    bot = OptimalBot(seed, table=full_table)
    rng = random.Random(seed)
    state: WurfeltodState = GAME.start(players, GAME.parse_options(), SeededDice(seed)).state
    while not GAME.is_terminal(state):
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        action = bot.act(Decision("wurfeltod", seat, GAME.view(state, seat), legal))
        assert action in legal
        if rng.random() < detours:
            action = rng.choice(legal)
        state = GAME.apply(state, seat, action).state
    assert all(c.booked() == 20 for c in state.cards)


def test_the_bot_books_a_six_straight_when_it_is_rolled(full_table: S.ValueTable) -> None:
    state = GAME.start(1, GAME.parse_options(), ScriptedDice((6, 5, 4, 3, 2, 1))).state
    decision = Decision("wurfeltod", 0, GAME.view(state, 0), GAME.legal_actions(state, 0))
    assert OptimalBot(0, table=full_table).act(decision) == Book(C.SIX_STRAIGHT)


def test_factory_without_a_table_raises_the_solvers_error() -> None:
    with pytest.raises(S.ValueTableMissingError, match="gamenight solve wurfeltod"):
        BOTS["optimal"](0)  # the autouse fixture points the cache at an empty directory


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        run(argv)
        raise SystemExit(0)
    out, err = capsys.readouterr()
    code = exit_info.value.code
    return int(code) if isinstance(code, int) else 0, out, err


PLAY_OPTIMAL = ["play", "wurfeltod", "--players", "bot:optimal", "--seed", "1"]


def test_cli_without_a_table_says_how_to_build_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    code, _, err = _run(PLAY_OPTIMAL, capsys)
    assert code == 2
    assert "Traceback" not in err
    (line,) = err.strip().splitlines()
    assert "no Wurfeltod value table" in line
    assert "run `gamenight solve wurfeltod` (takes about" in line and line.endswith(" s)")


def test_cli_with_a_corrupt_table_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    S.default_table_path().write_bytes(b"not a table\n")
    code, _, err = _run(PLAY_OPTIMAL, capsys)
    assert code == 2
    assert "Traceback" not in err and "not a Wurfeltod value table" in err


def test_cli_plays_optimal_against_greedy(
    full_table_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(CACHE_ENV, str(full_table_path))
    argv = ["play", "wurfeltod", "--players", "bot:optimal,bot:greedy", "--seed", "3"]
    code, out, err = _run(argv, capsys)
    assert code == 0, err
    assert "Final standings" in out and "optimal" in out
