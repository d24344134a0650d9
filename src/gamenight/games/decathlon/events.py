"""What happens at the Decathlon table, as typed events (one frozen struct per kind).

Names: a *discipline* is one of the ten athletics contests (100 Metres ... 1500
Metres); an *event* is a :class:`gamenight.core.events.Event`, something an
action caused. The game option keeps the rulebook's word ``events`` (the
disciplines to play), but inside the code, states and views say ``discipline``,
so ``start(..., events=[...])`` returns events of one kind only: these.

Every event names its ``player`` (a seat) when one player caused it. The JSON
key ``kind`` is the tag; all events are public (the Decathlon hides nothing).

* :class:`StartingOrder` -- D2, drawn before the first discipline;
* :class:`DisciplineStart`, :class:`Turn` -- a discipline begins; a player's attempt;
* :class:`Rolled` -- dice thrown: ``what`` is "set", "run-up", "jump", "shot",
  "throw" or "height", with the details that apply;
* :class:`Froze` -- dice frozen (``auto``: the rules left no choice);
* :class:`Jumped` -- the Long Jump's jump (``dice``) or going for a bar (``height``);
* :class:`Invalid`, :class:`AttemptResult` -- an attempt's end;
* :class:`Bar`, :class:`Skipped`, :class:`Retired`, :class:`Cleared`,
  :class:`Missed`, :class:`Out` -- the height disciplines (D8, D9);
* :class:`DisciplineEnd` -- the results, the whole sheet so far and the totals;
* :class:`GameOver` -- the final scores.

>>> from gamenight.core.game import to_json
>>> to_json(Rolled(player=0, dice=(3, 5), what="shot", die=2))
{'kind': 'roll', 'player': 0, 'dice': [3, 5], 'what': 'shot', 'die': 2}
>>> import msgspec
>>> e = AttemptResult(player=1, attempt=2, result=None, best=17)
>>> msgspec.convert(to_json(e), DecathlonEvent) == e
True
"""

from __future__ import annotations

from typing import Literal

from gamenight.core.events import Event
from gamenight.core.umpire import Umpire

RollWhat = Literal["set", "run-up", "jump", "shot", "throw", "height"]


class StartingOrder(Event, frozen=True, tag="starting-order"):
    order: tuple[int, ...]
    draws: tuple[int, ...]


class DisciplineStart(Event, frozen=True, tag="discipline-start"):
    discipline: str
    order: tuple[int, ...]


class Turn(Event, frozen=True, tag="turn"):
    player: int
    discipline: str
    attempt: int
    attempts: int


class Rolled(Event, frozen=True, tag="roll"):
    """Dice thrown; the optional details say which throw it was."""

    player: int
    dice: tuple[int, ...]
    what: RollWhat
    set_no: int | None = None  # sets: the set, from 1
    rethrow: bool = False
    rethrows_left: int | None = None  # sets: after this rethrow
    die: int | None = None  # Shot Put: the die, from 1
    height: int | None = None  # heights: the bar
    jump: int | None = None  # heights: the jump at this bar, from 1


class Froze(Event, frozen=True, tag="freeze"):
    player: int
    what: Literal["set", "run-up", "jump", "throw"]
    dice: tuple[int, ...]
    frozen: tuple[int, ...] = ()  # every die frozen so far (not for sets)
    set_no: int | None = None
    auto: bool = False


class Jumped(Event, frozen=True, tag="jump"):
    """The Long Jump's jump with ``dice`` dice, or going for the bar at ``height``."""

    player: int
    dice: int | None = None
    height: int | None = None
    auto: bool = False


class Invalid(Event, frozen=True, tag="invalid"):
    player: int
    reason: str


class AttemptResult(Event, frozen=True, tag="result"):
    player: int
    attempt: int
    result: int | None
    best: int | None


class Bar(Event, frozen=True, tag="bar"):
    height: int


class Skipped(Event, frozen=True, tag="skip"):
    player: int
    height: int


class Retired(Event, frozen=True, tag="retire"):
    player: int
    height: int


class Cleared(Event, frozen=True, tag="clear"):
    player: int
    height: int
    jump: int
    total: int


class Missed(Event, frozen=True, tag="miss"):
    player: int
    height: int
    jump: int
    reason: str


class Out(Event, frozen=True, tag="out"):
    player: int
    height: int
    best: int | None


class DisciplineEnd(Event, frozen=True, tag="discipline-end"):
    """A discipline's results and the whole sheet so far (a late joiner can draw it)."""

    discipline: str
    results: tuple[int | None, ...]
    sheet: dict[str, tuple[int | None, ...]]
    totals: tuple[int, ...]
    honours: tuple[int, ...] | None = None  # the Championship only (D11)
    honour_totals: tuple[int, ...] | None = None


class GameOver(Event, frozen=True, tag="game-over"):
    scores: tuple[int, ...]


DecathlonEvent = (
    StartingOrder
    | DisciplineStart
    | Turn
    | Rolled
    | Froze
    | Jumped
    | Invalid
    | AttemptResult
    | Bar
    | Skipped
    | Retired
    | Cleared
    | Missed
    | Out
    | DisciplineEnd
    | GameOver
)


class Ump(Umpire[DecathlonEvent]):
    """The umpire of one Decathlon rules call (a subclass, not an alias: calling a
    subscripted generic goes through typing on every action)."""
