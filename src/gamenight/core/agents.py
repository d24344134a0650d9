"""Agents: anything that picks actions from a seat's view.

An agent never sees the state, only a :class:`Decision`: the seat's view and
the legal actions. That makes bots unable to peek at hidden information.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from gamenight.core.events import Event


@dataclass(frozen=True)
class Decision:
    """What an agent is told when it must act."""

    game_id: str
    seat: int
    view: Any
    legal: Sequence[Any]


class Agent(Protocol):
    """Chooses one of ``decision.legal``; may watch the events it is allowed to see."""

    label: str

    def act(self, decision: Decision) -> Any: ...

    def observe(self, seat: int, events: Sequence[Event]) -> None: ...


class RandomAgent:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    label = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def act(self, decision: Decision) -> Any:
        return self._rng.choice(list(decision.legal))

    def observe(self, seat: int, events: Sequence[Event]) -> None:
        return None
