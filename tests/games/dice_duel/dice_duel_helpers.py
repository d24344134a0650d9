"""Shared helpers for the Dice Duel tests: scripted positions and playouts.

(A plain module, not a conftest, so its name cannot clash with other games' tests.)
"""

from __future__ import annotations

import random
from typing import Any

from msgspec.structs import replace

from gamenight.core.dice import DiceSource, ScriptedDice, SeededDice
from gamenight.games.dice_duel.events import DiceDuelEvent
from gamenight.games.dice_duel.game import GAME
from gamenight.games.dice_duel.rules import Action, DiceDuelState

Step = tuple[DiceDuelState, tuple[DiceDuelEvent, ...]]


def start(players: int, *dice: int, mode: str = "multi") -> Step:
    """A new game whose dice come out as scripted (the first value draws the starter)."""
    step = GAME.start(players, GAME.parse_options({"mode": mode}), ScriptedDice(values=dice))
    return step.state, step.events


def act(state: DiceDuelState, action: Action) -> Step:
    """Apply ``action`` for the player to act."""
    step = GAME.apply(state, state.current, action)
    return step.state, step.events


def position(state: DiceDuelState, *dice: int, **fields: Any) -> DiceDuelState:
    """``state`` with some fields replaced and the next dice scripted."""
    return replace(state, dice=ScriptedDice(values=dice), **fields)


def kind(event: DiceDuelEvent) -> str:
    """The event's JSON ``"kind"`` (its tag)."""
    return str(event.__struct_config__.tag)


def kinds(events: tuple[DiceDuelEvent, ...]) -> list[str]:
    return [kind(e) for e in events]


def playout(
    players: int, mode: str, seed: int, choose_seed: int, dice: DiceSource | None = None
) -> list[DiceDuelState]:
    """Every state of one game played by uniformly random legal actions."""
    rng = random.Random(choose_seed)
    step = GAME.start(players, GAME.parse_options({"mode": mode}), dice or SeededDice(seed=seed))
    states = [step.state]
    for _ in range(5000):
        state = states[-1]
        if GAME.is_terminal(state):
            return states
        seat = GAME.to_act(state)[0]
        states.append(GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat))).state)
    raise AssertionError("a random game did not finish in 5000 actions")
