"""The umpire: throws the engine's dice and writes down what happened.

One umpire lives for the duration of a single ``apply`` (or ``start``) call.
It is the only mutable object in the rules and never escapes the call, so the
game stays a pure function of its state and action.
"""

from __future__ import annotations

from typing import Any

from gamenight.core.dice import DiceSource
from gamenight.core.events import LooseEvent as Event


class Umpire:
    def __init__(self, dice: DiceSource) -> None:
        self.dice = dice
        self.events: list[Event] = []

    def throw(self, seat: int, n: int, /, **data: Any) -> tuple[int, ...]:
        """Throw ``n`` dice for ``seat`` and report a ``roll`` event."""
        faces, self.dice = self.dice.roll(n)
        self.events.append(Event("roll", seat, {"dice": list(faces), **data}))
        return faces

    def draw(self, sides: int) -> int:
        """A uniform number in 1..sides (drawing the starting order, D2)."""
        (value,), self.dice = self.dice.roll(1, sides=sides)
        return value

    def announce(self, kind: str, seat: int | None = None, /, **data: Any) -> None:
        self.events.append(Event(kind, seat, data))
