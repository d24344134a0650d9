"""Issue 10 for Wurfeltod: typed text and player names are text, never Rich markup, and no
ruling id (W1-W5) ever reaches the screen."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from gamenight.core.agents import Decision
from gamenight.core.dice import ScriptedDice, SeededDice
from gamenight.core.errors import IllegalActionError
from gamenight.games.wurfeltod.bots import GreedyBot
from gamenight.games.wurfeltod.categories import Category
from gamenight.games.wurfeltod.game import GAME
from gamenight.games.wurfeltod.rules import Action, Book, Scratch, SetAside, WurfeltodState
from gamenight.games.wurfeltod.solver.table import CACHE_ENV
from gamenight.terminal.ui import Prompter, Seating
from gamenight.terminal.wurfeltod import UI, command_text

MARKUP = ["[/]", "[red]x[/blue]", "a [/]", "b [bold]", "x [/red]", "[link=x]b f", "\\[/]"]
RULING_ID = re.compile(r"\b[DKTW]\d+\b")
NAMES = ("[/]", "[bold red]Ann[/]")


@pytest.fixture(autouse=True)
def no_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))  # hints say how to build the table


def screen() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=120, color_system="truecolor", force_terminal=True), out


def plain(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def test_markup_typed_at_the_prompt_is_refused_as_text() -> None:
    console, out = screen()
    typed: Iterator[str] = iter([*MARKUP, "?", "b f"])
    prompts: list[str] = []

    def reader(prompt: str) -> str:
        prompts.append(prompt)
        return next(typed)

    state: WurfeltodState = GAME.start(2, GAME.parse_options(), ScriptedDice((6,) * 12)).state
    table = Seating(names=NAMES, humans=frozenset({0}))
    action = UI().ask(
        Prompter(console, reader), GAME.view(state, 0), GAME.legal_actions(state, 0), 0, table
    )
    assert action == Book(Category.FACE_VALUE)
    # The prompt names the player, then the keys (issue 41).
    assert prompts[0].startswith("[/]: ") and prompts[0].endswith(" > ")
    text = plain(out.getvalue())
    assert "unknown command '[/]'" in text
    assert "unknown command '[red]x[/blue]'" in text
    assert "no box '[/red]'" in text and "no box '[bold]'" in text
    assert text.count("✗") == len(MARKUP)


def test_markup_at_a_real_console_prompt_is_printed_as_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """No reader: the prompt goes through Rich's own input(), as at a real terminal."""
    console, out = screen()
    typed = iter(["[/]", "b f"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(typed))
    state: WurfeltodState = GAME.start(2, GAME.parse_options(), ScriptedDice((6,) * 12)).state
    table = Seating(names=NAMES, humans=frozenset({0, 1}))
    action = UI().ask(
        Prompter(console), GAME.view(state, 0), GAME.legal_actions(state, 0), 0, table
    )
    assert action == Book(Category.FACE_VALUE)
    text = plain(out.getvalue())
    assert "[/]: a 13 set aside" in text and "unknown command '[/]'" in text


def play_whole_game(names: tuple[str, ...], seed: int) -> str:
    """A two-seat game through the UI, as a session shows it: seat 0 is a human who first
    types markup at every prompt, then a legal command; seat 1 is the greedy bot."""
    console, out = screen()
    ui, bot = UI(), GreedyBot(1)
    table = Seating(names=names, humans=frozenset({0}))
    step = GAME.start(2, GAME.parse_options(), SeededDice(seed=seed))
    ui.show_events(console, step.events, table)
    state: WurfeltodState = step.state
    rng = iter(range(10**6))
    while not GAME.is_terminal(state):
        (seat,) = GAME.to_act(state)
        view, legal = GAME.view(state, seat), GAME.legal_actions(state, seat)
        action: Action
        if seat == 0:
            ui.show(console, view, seat, table)
            choice = legal[next(rng) % len(legal)]
            typed = iter([MARKUP[next(rng) % len(MARKUP)], "?", command_text(choice)])
            reader = lambda _, keys=typed: next(keys)  # noqa: E731
            action = ui.ask(Prompter(console, reader), view, legal, seat, table)
            assert action == choice
        else:
            action = bot.act(Decision("wurfeltod", seat, view, legal))
        step = GAME.apply(state, seat, action)
        ui.show_events(console, step.events, table)
        state = step.state
    ui.show_results(console, GAME.results(state), GAME.view(state, None), table)
    return plain(out.getvalue())


def test_player_names_with_markup_show_as_typed_through_a_whole_game() -> None:
    text = play_whole_game(NAMES, seed=5)
    assert "[/] rolls" in text and "[bold red]Ann[/] rolls" in text
    assert "— Turn 20: [bold red]Ann[/] —" in text
    assert "Final standings" in text
    assert re.search(r"\[bold red\]Ann\[/\]|\[/\]", text.splitlines()[-1])  # who won


def test_no_ruling_ids_on_screen() -> None:
    text = play_whole_game(("Ann", "Bob"), seed=6)
    assert "Final standings" in text and "(W5)" not in text
    assert not RULING_ID.findall(text), RULING_ID.findall(text)


def test_no_ruling_ids_in_refusals() -> None:
    """The engine's one-line refusals may be shown to a player by any front end."""
    first: WurfeltodState = GAME.start(1, GAME.parse_options(), ScriptedDice((1, 2) * 20)).state
    later = GAME.apply(first, 0, SetAside((0,))).state
    booked = GAME.apply(first, 0, Scratch(Category.ANY_PAIR)).state
    last = first
    for _ in range(5):
        last = GAME.apply(last, 0, SetAside((0,))).state
    cases: list[tuple[WurfeltodState, Action]] = [
        (later, Scratch(Category.ANY_PAIR)),
        (last, SetAside((0,))),
        (first, SetAside(())),
        (first, SetAside((0, 1, 2, 3, 4, 5))),
        (first, SetAside((7,))),
        (first, SetAside((1, 0))),
        (booked, Book(Category.ANY_PAIR)),
    ]
    for state, action in cases:
        with pytest.raises(IllegalActionError) as refused:
            GAME.apply(state, 0, action)
        assert not RULING_ID.findall(str(refused.value)), str(refused.value)
