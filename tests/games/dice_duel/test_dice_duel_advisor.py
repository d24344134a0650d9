"""The advisor: hints as data, the same choice as the turn-optimal bot."""

from __future__ import annotations

import msgspec
import pytest
from dice_duel_helpers import playout

from gamenight.core import registry
from gamenight.core.advice import Advice
from gamenight.core.agents import Decision
from gamenight.games.dice_duel.advisor import advise, option_key, option_values
from gamenight.games.dice_duel.bots import TurnOptimalBot
from gamenight.games.dice_duel.game import GAME
from gamenight.games.dice_duel.rules import DiceDuelState


def _positions() -> list[DiceDuelState]:
    """Sampled positions of random games: multi and solo, every phase."""
    states: list[DiceDuelState] = []
    for seed in range(4):
        for players, mode in ((2, "multi"), (4, "multi"), (1, "solo")):
            game = playout(players, mode, seed, seed + 100)
            states += [s for s in game[:: max(1, len(game) // 15)] if not GAME.is_terminal(s)]
    return states


POSITIONS = _positions()


def test_the_registry_finds_the_advisor() -> None:
    assert registry.get("dice-duel").advisor is advise


@pytest.mark.parametrize("index", range(0, len(POSITIONS), 3))
def test_best_option_is_the_bots_choice_and_every_value_is_there(index: int) -> None:
    state = POSITIONS[index]
    seat = GAME.to_act(state)[0]
    view, legal = GAME.view(state, seat), GAME.legal_actions(state, seat)
    advice = advise(view, seat, legal)
    assert advice is not None
    choice = TurnOptimalBot(1).act(Decision("dice-duel", seat, view, legal))
    assert GAME.decode_action(advice.best_option.action) == choice
    assert advice.options[0] == advice.best_option  # best first
    values = option_values(view, legal)
    actions = [GAME.decode_action(o.action) for o in advice.options]
    for option, action in zip(advice.options, actions, strict=True):
        assert option.values == (values[action],)
    # Every legal action is listed, or keeps the same faces as one that is.
    keys = [option_key(a, view) for a in actions]
    assert len(set(keys)) == len(keys)
    assert {option_key(a, view) for a in legal} == set(keys)
    ranked = [values[a] for a in actions[1:]]
    assert ranked == sorted(ranked, reverse=True)


@pytest.mark.parametrize("index", range(1, len(POSITIONS), 5))
def test_advice_round_trips_through_json_exactly(index: int) -> None:
    state = POSITIONS[index]
    seat = GAME.to_act(state)[0]
    advice = advise(GAME.view(state, seat), seat, GAME.legal_actions(state, seat))
    raw = msgspec.json.encode(advice)
    back = msgspec.json.decode(raw, type=Advice)
    assert back == advice and msgspec.json.encode(back) == raw


def test_nothing_to_advise_when_there_is_no_choice() -> None:
    final = playout(2, "multi", 1, 2)[-1]
    assert advise(GAME.view(final, None), None, []) is None
