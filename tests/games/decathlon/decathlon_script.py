"""Helpers for Decathlon tests: scripted games and stepping through them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamenight.core.dice import ScriptedDice
from gamenight.core.game import to_json
from gamenight.games.decathlon.actions import Action
from gamenight.games.decathlon.events import DecathlonEvent as Event
from gamenight.games.decathlon.game import GAME
from gamenight.games.decathlon.rules import DecathlonState


def identity_draws(players: int) -> tuple[int, ...]:
    """Starting-order draws (D2) that keep seat order 0, 1, 2, ..."""
    return tuple(range(players, 1, -1))


def chain(*groups: Sequence[int]) -> list[int]:
    """Scripted dice written as one group per throw or attempt."""
    return [value for group in groups for value in group]


def new_game(
    dice: Sequence[int],
    *,
    players: int = 1,
    events: str | list[str] | None = None,
    variant: str = "points",
    draws: Sequence[int] | None = None,
) -> tuple[DecathlonState, list[Event]]:
    """A game on scripted dice; the starting order is seat order unless ``draws`` says."""
    raw: dict[str, object] = {"variant": variant}
    if events is not None:
        raw["events"] = events
    script = tuple(identity_draws(players) if draws is None else draws) + tuple(dice)
    step = GAME.start(players, GAME.parse_options(raw), ScriptedDice(values=script))
    return step.state, list(step.events)


def play(state: DecathlonState, *actions: Action) -> tuple[DecathlonState, list[Event]]:
    """Apply ``actions`` in turn, each by the seat to act; returns the state and events."""
    events: list[Event] = []
    for action in actions:
        (seat,) = GAME.to_act(state)
        step = GAME.apply(state, seat, action)
        state = step.state
        events.extend(step.events)
    return state, events


def kind(event: Event) -> str:
    """An event's kind (its JSON tag), e.g. ``"roll"``."""
    tag: str = type(event).__struct_config__.tag  # type: ignore[assignment]
    return tag


def kinds(events: Sequence[Event], which: str) -> list[Any]:
    """The events of one kind (typed loosely: tests read their fields)."""
    return [e for e in events if kind(e) == which]


def data(event: Event) -> dict[str, Any]:
    """An event's fields as JSON, without its kind, player and audience."""
    fields: dict[str, Any] = to_json(event)
    return {k: v for k, v in fields.items() if k not in ("kind", "player", "audience")}
