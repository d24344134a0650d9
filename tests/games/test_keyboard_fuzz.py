"""Keyboard input never crashes a game's UI: any text is a legal action or a message."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.core import SeededDice, registry

PARSERS = {
    "decathlon": "gamenight.games.decathlon.commands",
    "dice-duel": "gamenight.games.dice_duel.terminal",
    "wurfeltod": "gamenight.games.wurfeltod.commands",
    "decades": "gamenight.terminal.decades_keys",
}


def _positions(game_id: str, count: int = 40) -> list[tuple[Any, list[Any]]]:
    """(view, legal) pairs met in a random game, as a human would be asked them."""
    game = registry.get(game_id).game
    rng = random.Random(7)
    state = game.start(2, game.parse_options(), SeededDice(seed=7)).state
    seen: list[tuple[Any, list[Any]]] = []
    while game.to_act(state) and len(seen) < count:
        seat = rng.choice(game.to_act(state))
        legal = game.legal_actions(state, seat)
        seen.append((game.view(state, seat), legal))
        state = game.apply(state, seat, rng.choice(legal)).state
    return seen


POSITIONS = {game_id: _positions(game_id) for game_id in PARSERS}
# Short words from the games' own vocabulary, digits and junk, mixed at random.
WORDS = st.sampled_from(
    ["r", "f", "s", "t", "j", "k", "x", "a", "b", "?", "1", "12", "135", "6", "9", "0",
     "2p", "fh", "ls", "pp", "4k", "f", "1987", "87", "4@1987", "none", "²", "٣", "-1",
     "", " ", ",", "keep", "all"]
)  # fmt: skip
TEXT = st.one_of(st.text(max_size=12), st.lists(WORDS, max_size=4).map(" ".join))


@pytest.mark.parametrize("game_id", sorted(PARSERS))
@settings(max_examples=300, deadline=None)
@given(text=TEXT, index=st.integers(min_value=0))
def test_any_text_is_a_legal_action_or_a_message(game_id: str, text: str, index: int) -> None:
    parse: Callable[[str, Any, Any], Any] = importlib.import_module(PARSERS[game_id]).parse_command
    view, legal = POSITIONS[game_id][index % len(POSITIONS[game_id])]
    result = parse(text, view, legal)
    assert isinstance(result, str) or result in legal, (text, result)
