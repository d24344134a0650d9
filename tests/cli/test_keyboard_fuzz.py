"""Keyboard input never crashes a game's UI: any text is a legal action or a message.

Two layers for each of the four games: the key parser (any text gives a legal action
or a message), and the whole terminal UI's ``ask`` (the prompt, the help and hints,
the error line) fed Rich markup, control characters and very long lines, at a table
whose players are named in markup.
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from gamenight.core import SeededDice, registry
from gamenight.terminal import ui_for
from gamenight.terminal.ui import Prompter, Seating

GAMES = ["decathlon", "decades", "dice-duel", "wurfeltod"]


def _parser(game_id: str) -> Callable[[str, Any, Any], Any]:
    """The game's key parser: its terminal UI's ``parse_command``, as a player reaches it."""
    parse: Callable[[str, Any, Any], Any] = ui_for(registry.get(game_id)).parse_command
    return parse


def _positions(game_id: str, count: int = 40) -> list[tuple[int, Any, list[Any]]]:
    """(seat, view, legal) met in a random game, as a human would be asked them."""
    game = registry.get(game_id).game
    rng = random.Random(7)
    state = game.start(2, game.parse_options(), SeededDice(seed=7)).state
    seen: list[tuple[int, Any, list[Any]]] = []
    while game.to_act(state) and len(seen) < count:
        seat = rng.choice(game.to_act(state))
        legal = game.legal_actions(state, seat)
        seen.append((seat, game.view(state, seat), legal))
        state = game.apply(state, seat, rng.choice(legal)).state
    return seen


POSITIONS = {game_id: _positions(game_id) for game_id in GAMES}
# Short words from the games' own vocabulary, digits and junk, mixed at random.
WORDS = st.sampled_from(
    ["r", "f", "s", "t", "j", "k", "x", "a", "b", "?", "h", "??", "1", "12", "135", "6", "9", "0",
     "2p", "fh", "ls", "pp", "4k", "f", "1987", "87", "4@1987", "none", "²", "٣", "-1",
     "", " ", ",", "keep", "all", "u", "undo"]
)  # fmt: skip
MARKUP = st.sampled_from(
    ["[/]", "[red]x[/blue]", "[bold red]Ann[/]", "[link=http://x]y[/link]", "\\[/]", "[", "]",
     "[/bold]", "[@click=app.quit]q[/]", ":smile:", "%s", "{0}", "{}"]
)  # fmt: skip
CONTROL = st.sampled_from(
    ["\x00", "\x1b", "\x1b[2J", "\x1b[3J", "\x1b]0;title\x07", "\r", "\t", "\x7f", "\x08",
     "\u200b", "\u202e", "\ufeff", "\x85", "\u2028", "\x0c", "\x0b"]
)  # fmt: skip
PIECE = st.one_of(WORDS, MARKUP, CONTROL, st.text(max_size=6))
LONG = st.one_of(
    st.text(min_size=500, max_size=3000),
    st.tuples(st.lists(PIECE, min_size=1, max_size=4).map(" ".join), st.integers(50, 400)).map(
        lambda t: " ".join([t[0]] * t[1])
    ),
    st.integers(1000, 20000).map(lambda n: "9" * n),
)
TEXT = st.one_of(
    st.text(max_size=12),
    st.lists(PIECE, max_size=6).map(" ".join),
    st.lists(PIECE, max_size=6).map("".join),
    LONG,
)


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXT, index=st.integers(min_value=0))
def test_any_text_is_a_legal_action_or_a_message(game_id: str, text: str, index: int) -> None:
    parse = _parser(game_id)
    _seat, view, legal = POSITIONS[game_id][index % len(POSITIONS[game_id])]
    result = parse(text, view, legal)
    assert isinstance(result, str) or result in legal, (text, result)


class _Done(Exception):
    """The scripted keyboard has no more keys."""


UIS = {game_id: ui_for(registry.get(game_id)) for game_id in GAMES}
NAMED_IN_MARKUP = Seating(["[/]", "[bold red]Ann[/]"], frozenset({0, 1}))


@pytest.mark.parametrize("game_id", GAMES)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(TEXT, MARKUP, CONTROL), index=st.integers(min_value=0))
def test_the_whole_ui_survives_any_line(game_id: str, text: str, index: int) -> None:
    """One line of anything at the game's question: a legal action, or a message and
    the question again; never a crash, never markup read from what was typed, and
    never a typed control sequence sent to the terminal."""
    seat, view, legal = POSITIONS[game_id][index % len(POSITIONS[game_id])]
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None)
    keys = iter([text])
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        for key in keys:
            return key
        raise _Done

    prompter = Prompter(console, reader=read, secret_reader=read)
    try:
        action = UIS[game_id].ask(prompter, view, legal, seat, NAMED_IN_MARKUP)
    except _Done:
        pass  # asked again after a message: what a typo must do
    else:
        assert action in legal
    assert NAMED_IN_MARKUP.names[seat] in prompts[0]
    assert "\x1b" not in out.getvalue()  # typed controls are shown (^[), never sent
