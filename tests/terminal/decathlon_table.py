"""Scripted Decathlon positions for the terminal tests (as tests/games/decathlon does)."""

from __future__ import annotations

from collections.abc import Sequence

from gamenight.core.dice import ScriptedDice
from gamenight.games.decathlon.actions import Action, Stop, Throw
from gamenight.games.decathlon.events import DecathlonEvent
from gamenight.games.decathlon.game import GAME
from gamenight.games.decathlon.rules import DecathlonState


def chain(*groups: Sequence[int]) -> list[int]:
    """Scripted dice written as one group per throw or attempt."""
    return [value for group in groups for value in group]


def new_game(
    dice: Sequence[int], *, players: int = 1, events: str | None = None, variant: str = "points"
) -> tuple[DecathlonState, list[DecathlonEvent]]:
    """A game on scripted dice; the starting order (D2) is seat order."""
    raw: dict[str, object] = {"variant": variant}
    if events is not None:
        raw["events"] = events
    script = tuple(range(players, 1, -1)) + tuple(dice)
    step = GAME.start(players, GAME.parse_options(raw), ScriptedDice(values=script))
    return step.state, list(step.events)


def play(state: DecathlonState, *actions: Action) -> tuple[DecathlonState, list[DecathlonEvent]]:
    """Apply ``actions`` in turn, each by the seat to act."""
    events: list[DecathlonEvent] = []
    for action in actions:
        (seat,) = GAME.to_act(state)
        step = GAME.apply(state, seat, action)
        state = step.state
        events.extend(step.events)
    return state, events


def shot_put_at_22(variant: str) -> DecathlonState:
    """Shot put, attempt 3: the last seat has 6 6 6 4 = 22 and no valid attempt yet
    (as tests/games/decathlon/decathlon_positions.py)."""
    if variant == "points":
        dice = chain([6, 6, 6, 6, 2], [1], [1, 1], [1], [6, 6, 6, 4])
        state, _ = new_game(dice, players=2, events="shot", variant=variant)
        state, _ = play(state, *[Throw()] * 4, Stop(), *[Throw()] * 3)
    else:
        dice = chain([6, 6, 6, 6, 2], [6, 6], [1], [1, 1, 1], [1, 1], [6, 6, 6, 4])
        state, _ = new_game(dice, players=3, events="shot", variant=variant)
        state, _ = play(state, *[Throw()] * 4, Stop(), Throw(), Stop(), *[Throw()] * 3)
    return state
