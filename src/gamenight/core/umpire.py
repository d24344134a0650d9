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

from typing import TypeVar

from gamenight.core.dice import DiceSource
from gamenight.core.events import Event

E = TypeVar("E", bound=Event)


class Umpire(list[E]):
    """Throws dice and collects the events of one rules call.

    The umpire *is* its notebook: a list of the events so far. One is made per
    action, so it is lean to make (no second object, no bound method) and
    ``announce`` is the list's own ``append``: no Python frame in between.
    """

    __slots__ = ("dice",)

    def __init__(self, dice: DiceSource) -> None:
        self.dice: DiceSource = dice  # list() starts empty: no list __init__ needed

    announce = list.append
    """Write down ``event``."""

    def roll(self, n: int, sides: int = 6) -> tuple[int, ...]:
        """Throw ``n`` dice with ``sides`` sides; the umpire keeps the next source."""
        faces, self.dice = self.dice.roll(n, sides)
        return faces

    @property
    def events(self) -> tuple[E, ...]:
        return tuple(self)
