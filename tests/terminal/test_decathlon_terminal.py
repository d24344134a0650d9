"""The terminal UI: pure input parsing, the ask loop, and what the screens show."""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator

import pytest
from decathlon_table import chain, new_game, play
from rich.console import Console
from rich.style import Style
from rich.text import Text

from gamenight.core.dice import SeededDice
from gamenight.games.decathlon.actions import (
    Action,
    Freeze,
    Jump,
    Rethrow,
    Retire,
    Skip,
    Stop,
    Throw,
    Vault,
)
from gamenight.games.decathlon.events import DecathlonEvent as Event
from gamenight.games.decathlon.game import GAME
from gamenight.games.decathlon.rules import DecathlonState
from gamenight.games.decathlon.view import DecathlonView
from gamenight.terminal.decathlon import (
    BARRED,
    FROZEN,
    THROWN,
    UI,
    dice_text,
    face,
    thrown_text,
)
from gamenight.terminal.decathlon_keys import help_text, parse_command, prompt
from gamenight.terminal.ui import Prompter, Seating

TABLE = Seating(["Ann", "Bob", "Cy"], frozenset({0}))


def _at(state: DecathlonState) -> tuple[DecathlonView, list[Action]]:
    (seat,) = GAME.to_act(state)
    return GAME.view(state, seat), GAME.legal_actions(state, seat)


def _parse(text: str, state: DecathlonState) -> Action | str:
    view, legal = _at(state)
    return parse_command(text, view, legal)


def _console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=120, color_system=None), out


# ----- parsing ---------------------------------------------------------------------------
def test_sprint_keys() -> None:
    state, _ = new_game([1, 2, 3, 4] * 4, events="100m")
    keep = Freeze((0, 1, 2, 3))
    for text in ("", "f", " F ", "keep", "1234"):
        assert _parse(text, state) == keep
    assert _parse("r", state) == Rethrow()
    assert _parse("j", state) == "you cannot jump now: f/Enter freeze, r rethrow"
    assert (
        _parse("zz", state) == "'zz' is not a choice here: f/Enter freeze, r rethrow (? for help)"
    )


def test_freeze_keys_name_positions_from_one() -> None:
    state, _ = new_game([4, 1, 2, 6, 2] + [1] * 20, events="long-jump")
    for text in ("13", "1 3", "3,1", " 1, 3 "):
        assert _parse(text, state) == Freeze((0, 2))
    assert _parse("a", state) == Freeze((0, 1, 2, 3, 4))
    assert _parse("6", state) == "there is no die 6: 5 dice were just thrown (positions 1-5)"
    assert _parse("0", state) == "there is no die 0: 5 dice were just thrown (positions 1-5)"
    assert _parse("22", state) == "each die can be frozen only once"
    assert _parse("", state) == "freeze at least one die: type its position, e.g. 1"
    assert str(_parse("x1", state)).startswith("type the positions of the dice to freeze (1-5)")


def test_discus_keys_refuse_odd_dice() -> None:
    state, _ = new_game([6, 3, 2, 5, 4] + [1] * 20, events="discus")
    assert _parse("12", state) == "die 2 shows 3: only even dice may be frozen in the Discus"
    assert _parse("a", state) == Freeze((0, 2, 4))
    state, _ = play(state, Freeze((0,)))
    assert (_parse("r", state), _parse("s", state)) == (Rethrow(), Stop())


def test_run_up_shot_put_and_height_keys() -> None:
    state, _ = new_game([2, 3, 4, 5, 6] + [1] * 20, events="long-jump")
    state, _ = play(state, Freeze((0,)))
    assert (_parse("r", state), _parse("J", state)) == (Rethrow(), Jump())
    assert str(_parse("s", state)).startswith("you cannot stop now")
    shot, _ = new_game([3] * 8, events="shot")
    assert (_parse("t", shot), _parse("stop", shot)) == (Throw(), Stop())
    high, _ = new_game([], events="high")
    assert [_parse(k, high) for k in ("j", "k", "x", "skip", "retire")] == [
        Jump(),
        Skip(),
        Retire(),
        Skip(),
        Retire(),
    ]


def test_pole_vault_keys() -> None:
    state, _ = new_game([6] * 8, events="pole")
    assert (
        _parse("5", state) == "first choose j to jump this height; then you pick the number of dice"
    )
    state, _ = play(state, Jump())
    assert _parse("5", state) == Vault(5)
    assert _parse("9", state) == "throw 1 to 8 dice, not 9"
    assert _parse("j", state) == "how many dice for this jump? type a number from 1 to 8"


def _keys(action: Action, view: DecathlonView) -> str:
    if isinstance(action, Freeze):
        return "f" if view.phase == "keep-or-rethrow" else "".join(str(i + 1) for i in action.dice)
    if isinstance(action, Vault):
        return str(action.dice)
    return {Rethrow: "r", Jump: "j", Stop: "s", Throw: "t", Skip: "k", Retire: "x"}[type(action)]


def _decisions(seed: int) -> Iterator[tuple[DecathlonView, list[Action]]]:
    rng = random.Random(seed)
    state = GAME.start(1 + seed % 3, GAME.parse_options(), SeededDice(seed=seed)).state
    while not GAME.is_terminal(state):
        view, legal = _at(state)
        yield view, legal
        (seat,) = GAME.to_act(state)
        state = GAME.apply(state, seat, rng.choice(legal)).state


@pytest.mark.parametrize("seed", range(6))
def test_every_legal_action_can_be_typed(seed: int) -> None:
    for view, legal in _decisions(seed):
        for action in legal:
            assert parse_command(_keys(action, view), view, legal) == action


# ----- the ask loop --------------------------------------------------------------------------
def test_ask_re_asks_on_typos_and_helps_on_question_mark() -> None:
    state, _ = new_game([4, 1, 2, 6, 2] + [1] * 20, players=1, events="long-jump")
    view, legal = _at(state)
    console, out = _console()
    typed = iter(["zz", "?", "9", "1 3"])
    prompts: list[str] = []

    def reader(prompt: str) -> str:
        prompts.append(prompt)
        return next(typed)

    action = UI().ask(Prompter(console=console, reader=reader), view, legal, 0, TABLE)
    assert action == Freeze((0, 2))
    text = out.getvalue()
    assert "type the positions of the dice to freeze (1-5)" in text
    assert "Type the positions of the dice to freeze" in text  # the help
    assert "Hint: the optimal play is to freeze" in text  # the exact solver's (issue 6)
    assert "there is no die 9" in text
    assert len(prompts) == 4 and prompts[0].startswith("Ann: freeze which dice?")


# ----- rendering -----------------------------------------------------------------------------
def test_show_draws_dice_and_the_d12_counters() -> None:
    console, out = _console()
    state, _ = new_game(chain([1, 2, 3, 4], [5, 6, 1, 1], [3] * 8), players=2, events="100m")
    state, _ = play(state, Freeze((0, 1, 2, 3)))
    UI().show(console, GAME.view(state, 0), 0, TABLE)
    text = out.getvalue()
    assert "100 Metres · event 1 of 1 · points game" in text
    assert "Ann to act · rethrows left 5 of 5 · set 2 of 2" in text
    lines = text.splitlines()
    frozen = next(line for line in lines if "frozen" in line)
    thrown = next(line for line in lines if "thrown" in line)
    assert all(face(v) in frozen for v in (1, 2, 3, 4))
    assert all(face(v) in thrown for v in (5, 6, 1))
    positions = lines[lines.index(thrown) - 1]
    assert positions.split("│")[1].split() == ["1", "2", "3", "4"]

    console, out = _console()
    state, _ = new_game([], players=2, events="pole")
    state, _ = play(state, Jump())
    UI().show(console, GAME.view(state, None), None, TABLE)
    assert "bar 10 · jumps used 0 of 3" in out.getvalue()

    console, out = _console()
    state, _ = new_game([4, 1, 2, 6, 2] + [1] * 9, events="long-jump")
    UI().show(console, GAME.view(state, 0), 0, TABLE)
    assert "attempt 1 of 3 · run-up total 0 of at most 8" in out.getvalue()


def test_show_events_narrates_and_draws_the_score_sheet_after_each_event() -> None:
    console, out = _console()
    ui = UI()
    step = GAME.start(2, GAME.parse_options({"events": "100m,high"}), SeededDice(seed=3))
    events: list[Event] = list(step.events)
    state = step.state
    rng = random.Random(1)
    while not GAME.is_terminal(state):
        (seat,) = GAME.to_act(state)
        step = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        ui.show_events(console, step.events, TABLE)
        events.extend(step.events)
        state = step.state
    text = out.getvalue()
    assert "Score sheet" in text and "100 Metres" in text
    assert text.count("Score sheet") == 1  # the last event's sheet is left to show_results
    assert "The bar is at 10" in text and "The decathlon is over" in text
    console, out = _console()
    UI().show_results(console, GAME.results(state), GAME.view(state, None), TABLE)
    final = out.getvalue()
    assert "Final standings" in final and "High Jump" in final and "🏆" in final


def test_show_results_in_the_championship_lists_honours_and_points() -> None:
    sets = [5, 5, 5, 5, 4, 1, 1, 1]
    state, _ = new_game(sets * 2, players=2, events="100m", variant="championship")
    state, _ = play(state, *[Freeze((0, 1, 2, 3))] * 4)
    console, out = _console()
    UI().show_results(console, GAME.results(state), GAME.view(state, None), TABLE)
    text = out.getvalue()
    assert "Honours" in text and "27 (3)" in text and "Points / honours" in text
    assert text.count("🏆") == 2


def test_frozen_thrown_and_barred_dice_are_styled_apart() -> None:
    frozen = dice_text([2, 4], FROZEN, "frozen")
    assert frozen.plain.startswith("frozen") and {s.style for s in frozen.spans} == {FROZEN}
    group = thrown_text([6, 3], freezable=(0,))
    row = group.renderables[1]
    assert isinstance(row, Text)
    shown = [s.style for s in row.spans if not isinstance(s.style, Style) or not s.style.meta]
    assert shown == [THROWN, BARRED]  # (the click spans of terminal.ui.die_key aside)


# ----- issue 10: markup, confirmations, no ruling ids ------------------------------------------
def _ask_keys(
    state: DecathlonState, typed: list[str], names: list[str] | None = None
) -> tuple[Action, str, list[str]]:
    """The UI's ask loop on scripted keys: the action, the screen and the prompts."""
    view, legal = _at(state)
    console, out = _console()
    keys, prompts = iter(typed), []

    def reader(prompt: str) -> str:
        prompts.append(prompt)
        return next(keys)

    table = Seating(names or ["Ann", "Bob", "Cy"], frozenset({0}))
    (seat,) = GAME.to_act(state)
    action = UI().ask(Prompter(console=console, reader=reader), view, legal, seat, table)
    return action, out.getvalue(), prompts


@pytest.mark.parametrize("markup", ["[/]", "[red]x[/blue]", "[bold]", "[link=x]"])
def test_markup_typed_at_the_f_r_and_j_k_x_prompts_is_shown_as_text(markup: str) -> None:
    sprint, _ = new_game([1, 2, 3, 4] * 4, events="100m")
    action, text, _ = _ask_keys(sprint, [markup, "r"])
    assert action == Rethrow()
    assert f"'{markup}' is not a choice here" in text
    high, _ = new_game([], events="high")
    action, text, _ = _ask_keys(high, [markup, "k"])
    assert action == Skip() and f"'{markup}' is not a choice here" in text


def test_a_player_named_in_markup_is_printed_as_text() -> None:
    names = ["[/]", "[bold red]Bob[/]"]
    state, _ = new_game([1, 2, 3, 4] * 8, players=2, events="100m")
    action, _, prompts = _ask_keys(state, ["?", "f"], names)
    assert action == Freeze((0, 1, 2, 3)) and prompts[0].startswith("[/]: f/Enter")
    console, out = _console()
    table = Seating(names, frozenset({0, 1}))
    UI().show(console, GAME.view(state, 0), 0, table)
    state, events = play(state, *[Freeze((0, 1, 2, 3))] * 4)
    UI().show_events(console, events, table)
    UI().show_results(console, GAME.results(state), GAME.view(state, None), table)
    text = out.getvalue()
    assert "[bold red]Bob[/]" in text and "[/]" in text


def test_x_asks_before_retiring_from_the_high_jump() -> None:
    state, _ = new_game([], events="high")
    action, _, prompts = _ask_keys(state, ["x", "n", "x", "y"])
    assert action == Retire()
    assert prompts[1].startswith("Retire from the High Jump for good")
    assert len(prompts) == 4  # asked again after "n"
    action, _, _ = _ask_keys(state, ["x", "", "k"])  # anything but yes keeps you in
    assert action == Skip()


def test_freezing_over_the_run_up_limit_warns_and_needs_a_yes() -> None:
    state, _ = new_game([4, 1, 2, 6, 2] + [1] * 20, events="long-jump")
    action, _, prompts = _ask_keys(state, ["14", "n", "2"])  # 4 + 6 = 10 > 8
    assert action == Freeze((1,))
    assert "takes the run-up to 10, more than 8" in prompts[1]
    action, _, prompts = _ask_keys(state, ["14", "yes"])
    assert action == Freeze((0, 3)) and len(prompts) == 2
    action, _, prompts = _ask_keys(state, ["13"])  # 4 + 2 = 6: no question
    assert action == Freeze((0, 2)) and len(prompts) == 1


@pytest.mark.parametrize("seed", range(3))
def test_no_ruling_ids_in_any_player_facing_text(seed: int) -> None:
    console, out = _console()
    ui = UI()
    variant = "championship" if seed % 2 else "points"
    step = GAME.start(2, GAME.parse_options({"variant": variant}), SeededDice(seed=seed))
    ui.show_events(console, step.events, TABLE)
    state = step.state
    rng = random.Random(seed)
    while not GAME.is_terminal(state):
        (seat,) = GAME.to_act(state)
        view, legal = GAME.view(state, seat), GAME.legal_actions(state, seat)
        ui.show(console, view, seat, TABLE)
        console.print(help_text(view))
        console.print(prompt(view))
        step = GAME.apply(state, seat, rng.choice(legal))
        ui.show_events(console, step.events, TABLE)
        state = step.state
    ui.show_results(console, GAME.results(state), GAME.view(state, None), TABLE)
    for spec in GAME.info.options:
        console.print(spec.help)
    assert not re.search(r"\b[DKTW]\d+\b", out.getvalue())
