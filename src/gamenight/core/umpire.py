"""The umpire: the one events idiom every game uses.

An umpire lives for a single ``start`` or ``apply`` call. It throws the
state's dice and writes down what happened; the call ends by putting the
umpire's dice back into the new state and returning its events. It is the only
mutable object in the rules and never escapes the call, so a game stays a pure
function of its state and action.

>>> from gamenight.core.dice import ScriptedDice
>>> from gamenight.core.events import Event
>>> class Rolled(Event, frozen=True, tag="rolled"):
...     dice: tuple[int, ...]
>>> umpire = Umpire(ScriptedDice(values=(3, 5)))
>>> umpire.announce(Rolled(dice=umpire.roll(2)))
>>> umpire.events, umpire.dice.position
((Rolled(dice=(3, 5), audience=None),), 2)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from gamenight.core.dice import DiceSource
from gamenight.core.events import Event

E = TypeVar("E", bound=Event)


class Umpire(Generic[E]):
    """Throws dice and collects the events of one rules call."""

    __slots__ = ("_events", "announce", "dice")  # one per action: lean to make and read

    announce: Callable[[E], None]
    """Write down ``event`` (the events list's own ``append``: called several times per
    action, so no Python frame in between)."""

    def __init__(self, dice: DiceSource) -> None:
        self.dice: DiceSource = dice
        self._events: list[E] = []
        self.announce = self._events.append

    def roll(self, n: int, sides: int = 6) -> tuple[int, ...]:
        """Throw ``n`` dice with ``sides`` sides; the umpire keeps the next source."""
        faces, self.dice = self.dice.roll(n, sides)
        return faces

    @property
    def events(self) -> tuple[E, ...]:
        return tuple(self._events)
