"""The Wurfeltod advisor's hints as data: ``advise(view, seat, legal) -> Advice``."""

from __future__ import annotations

import random
from pathlib import Path

import msgspec
import pytest

from gamenight.core import registry
from gamenight.core.advice import Advice
from gamenight.core.agents import Decision
from gamenight.core.dice import ScriptedDice, SeededDice
from gamenight.games.wurfeltod import advisor
from gamenight.games.wurfeltod.booking import evaluate
from gamenight.games.wurfeltod.bots import OptimalBot
from gamenight.games.wurfeltod.categories import Category
from gamenight.games.wurfeltod.game import GAME
from gamenight.games.wurfeltod.rules import Book, Scratch, SetAside, WurfeltodState
from gamenight.games.wurfeltod.solver import ValueTable, ValueTableError, ValueTableMissingError
from gamenight.games.wurfeltod.solver.table import CACHE_ENV

EXAMPLE = (1, 1, 2, 3, 4, 4, 4, 5, 3) + (6,) * 12


@pytest.fixture
def solved(full_table_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV, str(full_table_path))


def sampled_positions(seed: int, count: int) -> list[WurfeltodState]:
    """Positions met in a random two-player game."""
    rng = random.Random(seed)
    state: WurfeltodState = GAME.start(2, GAME.parse_options(), SeededDice(seed)).state
    seen = []
    while not GAME.is_terminal(state):
        seen.append(state)
        (seat,) = GAME.to_act(state)
        state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat))).state
    return rng.sample(seen, count)


def test_the_registry_names_advise() -> None:
    assert registry.get("wurfeltod").advisor is advisor.advise


def test_without_a_table_advise_raises_one_line_saying_how_to_build_it() -> None:
    state = GAME.start(1, GAME.parse_options(), ScriptedDice(EXAMPLE)).state
    with pytest.raises(ValueTableMissingError) as caught:
        advisor.advise(GAME.view(state, 0), 0, GAME.legal_actions(state, 0))
    message = str(caught.value)
    assert "\n" not in message and "gamenight solve wurfeltod" in message


def test_a_corrupt_table_is_a_table_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    (tmp_path / "wurfeltod-values.bin").write_bytes(b"not a table\n")
    state = GAME.start(1, GAME.parse_options(), ScriptedDice(EXAMPLE)).state
    with pytest.raises(ValueTableError, match="cannot be used"):
        advisor.advise(GAME.view(state, 0), 0, GAME.legal_actions(state, 0))


@pytest.mark.usefixtures("solved")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_best_option_is_the_optimal_bots_choice_and_round_trips(
    seed: int, full_table: ValueTable
) -> None:
    bot = OptimalBot(0, table=full_table)
    for state in sampled_positions(seed, 8):
        (seat,) = GAME.to_act(state)
        view, legal = GAME.view(state, seat), GAME.legal_actions(state, seat)
        advice = advisor.advise(view, seat, legal)
        assert advice is not None
        choice = bot.act(Decision("wurfeltod", seat, view, legal))
        assert GAME.decode_action(advice.best_option.action) == choice
        assert msgspec.json.decode(msgspec.json.encode(advice), type=Advice) == advice
        # Every value is the advisor's, best first; one option per distinct choice.
        values = advisor.option_values(full_table, view, legal)
        leading = [float(o.values[0] or 0.0) for o in advice.options]
        assert leading == sorted(leading, reverse=True)
        for option in advice.options:
            action = GAME.decode_action(option.action)
            assert action in legal
            assert option.values[0] == pytest.approx(values[action])
            assert option.values[1] == pytest.approx(values[action] - leading[0])
        distinct = {advisor.solver_option(a, view.rolled) for a in legal}
        assert len(advice.options) == len(distinct)


@pytest.mark.usefixtures("solved")
def test_bookings_carry_points_now_and_the_wurfeltod_warning() -> None:
    state: WurfeltodState = GAME.start(1, GAME.parse_options(), ScriptedDice(EXAMPLE)).state
    state = GAME.apply(state, 0, SetAside((0, 1, 4, 5))).state
    state = GAME.apply(state, 0, SetAside((0,))).state  # aside 1 1 4 4 4, rolled 3
    advice = advisor.advise(GAME.view(state, 0), 0, GAME.legal_actions(state, 0))
    assert advice is not None
    assert [o.name for o in advice.objectives] == list(advisor.OBJECTIVES)
    by_label = {o.label: o for o in advice.options}
    assert by_label["book 4-4-4"].values[2:] == (100.0, -250.0)  # W3: the 3 is left out
    assert by_label["book Face Value Total ×10"].values[2:] == (170.0, 0.0)
    assert by_label["book Sum Total 25+"].values[2:] == (0.0, -250.0)
    # The best booking *now* (points less penalty) is Face Value; the best play is another.
    best_now = advice.options[advice.objectives[2].best]
    assert GAME.decode_action(best_now.action) == Book(Category.FACE_VALUE)
    bookings = evaluate((1, 1, 4, 4, 4), (3,))
    warned = [c for c in Category if bookings[c].wurfeltod]
    assert advice.note.startswith("Booking now brings a Wurfeltod (-250) in: ")
    assert "4-4-4" in advice.note and "Face Value" not in advice.note and len(warned) == 18


@pytest.mark.usefixtures("solved")
def test_scratches_are_worth_zero_now_and_set_asides_have_no_booking_values() -> None:
    state = GAME.start(1, GAME.parse_options(), ScriptedDice(EXAMPLE)).state
    advice = advisor.advise(GAME.view(state, 0), 0, GAME.legal_actions(state, 0))
    assert advice is not None
    for option in advice.options:
        action = GAME.decode_action(option.action)
        if isinstance(action, Scratch):
            assert option.values[2:] == (0.0, 0.0)
        elif isinstance(action, SetAside):
            assert option.values[2:] == (None, None)


def test_nothing_to_advise_once_the_game_is_over() -> None:
    state = GAME.start(1, GAME.parse_options(), ScriptedDice(EXAMPLE)).state
    done = GAME.view(WurfeltodState(state.dice, state.cards, finished=True), 0)
    assert advisor.advise(done, 0, []) is None
