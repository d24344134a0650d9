"""Wurfeltod rules: the state, the actions and the pure transitions (W1-W5).

A turn (W2): the engine rolls six dice for the player to act. After every roll
the player either *books* an open box (W3) or *sets aside* some, but not all,
of the dice just rolled and the engine rolls the rest. Right after the first
roll only, the player may instead *scratch*: book 0 in an open box with no
Wurfeltod. Once a single die has been rolled with five aside there is nothing
left to set aside, so only bookings are legal.

Whether a booking scores and whether it brings a Wurfeltod is judged by
:func:`gamenight.games.wurfeltod.booking.evaluate` from the dice set aside
and the dice of the final roll.

The module speaks the rules dialect every game speaks: :func:`start`,
:func:`to_act`, :func:`legal_actions` and :func:`apply`. Every rules call runs one
:class:`~gamenight.core.umpire.Umpire`: it throws the dice and collects the typed
events (:data:`WurfeltodEvent`) the call returns in its
:class:`~gamenight.core.game.Transition`.

>>> from gamenight.core.dice import ScriptedDice
>>> step = start(1, {}, ScriptedDice(values=(1, 1, 2, 3, 4, 4, 4, 5, 3)))
>>> step.state.rolled, [type(e).__name__ for e in step.events]
((1, 1, 2, 3, 4, 4), ['TurnBegan', 'Rolled'])
>>> step = apply(step.state, 0, SetAside(dice=(0, 1, 4, 5)))
>>> step.state.aside, step.state.rolled
((1, 1, 4, 4), (4, 5))
>>> step.events[0]
DiceSetAside(player=0, positions=(0, 1, 4, 5), dice=(1, 1, 4, 4), audience=None)
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Sequence

import msgspec

from gamenight.core.dice import DiceSource
from gamenight.core.errors import IllegalActionError, Term
from gamenight.core.events import Event
from gamenight.core.game import Transition
from gamenight.core.options import Options
from gamenight.core.umpire import Umpire
from gamenight.games.wurfeltod.booking import evaluate
from gamenight.games.wurfeltod.categories import (
    BOXES_PER_CATEGORY,
    CATEGORIES,
    CATEGORY_LABELS,
    SCRATCH,
    WURFELTOD_PENALTY,
    Booking,
    Category,
)

__all__ = [
    "BOXES",
    "DICE",
    "TURNS",
    "Action",
    "Book",
    "Booked",
    "DiceSetAside",
    "Entry",
    "GameOver",
    "Rolled",
    "ScoreCard",
    "Scratch",
    "Scratched",
    "SetAside",
    "TurnBegan",
    "WurfeltodEvent",
    "WurfeltodState",
    "apply",
    "legal_actions",
    "start",
    "to_act",
]

DICE = 6
TURNS = 20  # W1: one turn per box

BOXES: tuple[Category, ...] = tuple(
    category for category in CATEGORIES for _ in range(BOXES_PER_CATEGORY[category])
)
"""The score sheet, box by box: the 19 categories in sheet order, Face Value Total twice (W1)."""

BOXES_OF: dict[Category, tuple[int, ...]] = {
    c: tuple(i for i, box in enumerate(BOXES) if box is c) for c in CATEGORIES
}
"""Each category's boxes on the sheet, first to last."""
_NONE = (None,) * len(BOXES)  # what an empty sheet holds, box by box

_CATEGORY_IDS = frozenset(c.value for c in CATEGORIES)


# ----- actions --------------------------------------------------------------------------------


class SetAside(msgspec.Struct, frozen=True, tag="set-aside"):
    """Set aside the just-rolled dice at these 0-based positions (increasing) and roll the rest."""

    dice: tuple[int, ...]


class Book(msgspec.Struct, frozen=True, tag="book"):
    """Stop and book an open box of ``category`` (Face Value Total: its next free box)."""

    category: Category


class Scratch(msgspec.Struct, frozen=True, tag="scratch"):
    """Right after the first roll only: book 0 in an open box, with no Wurfeltod (W2)."""

    category: Category


Action = SetAside | Book | Scratch


# ----- events -----------------------------------------------------------------------------------


class TurnBegan(Event, frozen=True, tag="turn"):
    """``player`` begins their turn of round ``turn`` (W1)."""

    player: int
    turn: int


class Rolled(Event, frozen=True, tag="roll"):
    """The engine rolled ``dice`` for ``player``: roll number ``roll`` of the turn, with
    ``aside`` already set aside."""

    player: int
    roll: int
    dice: tuple[int, ...]
    aside: tuple[int, ...]


class DiceSetAside(Event, frozen=True, tag="set-aside"):
    """``player`` set aside the dice at ``positions`` of the roll (values ``dice``)."""

    player: int
    positions: tuple[int, ...]
    dice: tuple[int, ...]


class Booked(Event, frozen=True, tag="book"):
    """``player`` booked box ``box`` (W3): its points, whether it brought a Wurfeltod,
    the dice it was judged on and the player's new total (W5)."""

    player: int
    box: int
    category: Category
    points: int
    wurfeltod: bool
    aside: tuple[int, ...]
    final_roll: tuple[int, ...]
    total: int


class Scratched(Event, frozen=True, tag="scratch"):
    """``player`` scratched box ``box`` on the first roll: 0 points, no Wurfeltod (W2)."""

    player: int
    box: int
    category: Category
    aside: tuple[int, ...]
    final_roll: tuple[int, ...]
    total: int


class GameOver(Event, frozen=True, tag="game-over"):
    """Every player has taken 20 turns (W5); ``totals`` by seat."""

    totals: tuple[int, ...]


WurfeltodEvent = TurnBegan | Rolled | DiceSetAside | Booked | Scratched | GameOver
"""Every event a Wurfeltod rules call announces (JSON ``"kind"``: the tag)."""


# ----- score cards ----------------------------------------------------------------------------


class Entry(msgspec.Struct, frozen=True):
    """One booked box: what it scored and the dice it was booked with."""

    category: Category
    points: int
    wurfeltod: bool
    scratch: bool
    aside: tuple[int, ...]
    final_roll: tuple[int, ...]
    turn: int


class ScoreCard(msgspec.Struct, frozen=True):
    """One player's sheet: ``boxes[i]`` is box ``BOXES[i]``, None while open."""

    boxes: tuple[Entry | None, ...] = (None,) * len(BOXES)
    points: int = 0
    wurfeltods: int = 0
    total: int = 0  # W5: points - 250 per Wurfeltod

    def next_box(self, category: Category) -> int | None:
        """The first open box of ``category`` on the sheet, or None if all are booked."""
        boxes = self.boxes
        for i in BOXES_OF[category]:
            if boxes[i] is None:
                return i
        return None

    def open_categories(self) -> tuple[Category, ...]:
        """Categories with at least one open box, in sheet order.

        The categories of the open boxes, each once: the sheet lists a category's boxes
        together, in category order. One pass in C (issue 29: this ran for every view
        and every legal-action list, 19 scans of the sheet, most of the rules' time).

        >>> booked = Entry(Category.ANY_PAIR, 50, False, False, (), (1, 1, 2, 3, 4, 5), 1)
        >>> card = ScoreCard().with_entry(0, booked)
        >>> card.open_categories() == CATEGORIES[1:]
        True
        """
        return tuple(dict.fromkeys(itertools.compress(BOXES, map(operator.is_, self.boxes, _NONE))))

    def booked(self) -> int:
        return sum(entry is not None for entry in self.boxes)

    def with_entry(self, box: int, entry: Entry) -> ScoreCard:
        boxes = (*self.boxes[:box], entry, *self.boxes[box + 1 :])
        points = self.points + entry.points
        wurfeltods = self.wurfeltods + entry.wurfeltod  # W3: no limit on the count
        return ScoreCard(boxes, points, wurfeltods, points - WURFELTOD_PENALTY * wurfeltods)


# ----- the state --------------------------------------------------------------------------------


class WurfeltodState(msgspec.Struct, frozen=True):
    """A whole game. ``rolled`` is the roll the current player must answer."""

    dice: DiceSource
    cards: tuple[ScoreCard, ...]
    current: int = 0
    turn: int = 1  # W1: the round, 1..20; every player takes one turn per round
    roll: int = 1  # rolls so far this turn; the scratch needs roll == 1 (W2)
    aside: tuple[int, ...] = ()
    rolled: tuple[int, ...] = ()
    finished: bool = False

    @property
    def players(self) -> int:
        return len(self.cards)


# ----- transitions ------------------------------------------------------------------------------

Ump = Umpire[WurfeltodEvent]


def start(
    players: int, options: Options, dice: DiceSource
) -> Transition[WurfeltodState, WurfeltodEvent]:
    """A new game with the first player's first roll made (Wurfeltod has no options)."""
    umpire: Ump = Umpire(dice)
    state = WurfeltodState(dice=dice, cards=tuple(ScoreCard() for _ in range(players)))
    state = _begin_turn(umpire, state, 0, 1)
    return _done(umpire, state)


def to_act(state: WurfeltodState) -> tuple[int, ...]:
    """The seat to act: the current player's, none once the game is over."""
    return () if state.finished else (state.current,)


def legal_actions(state: WurfeltodState, seat: int) -> list[Action]:
    """Everything ``seat`` may do: bookings, scratches, then set-asides (nothing unless
    it is to act)."""
    if state.finished or seat != state.current:
        return []
    open_categories = state.cards[state.current].open_categories()
    actions: list[Action] = [_BOOK[c] for c in open_categories]
    if state.roll == 1:
        actions += [_SCRATCH[c] for c in open_categories]
    actions += _SET_ASIDES[len(state.rolled)]
    return actions


# Actions are frozen values: each is made once and shared by every legal-action list.
_BOOK = {c: Book(c) for c in CATEGORIES}
_SCRATCH = {c: Scratch(c) for c in CATEGORIES}
# W2: a proper, non-empty subset of the dice just rolled, for each number of dice rolled.
_SET_ASIDES: dict[int, tuple[SetAside, ...]] = {
    rolled: tuple(
        SetAside(c)
        for size in range(1, rolled)
        for c in itertools.combinations(range(rolled), size)
    )
    for rolled in range(DICE + 1)
}


def shared_actions() -> list[Action]:
    """Every action object the legal-action lists share (the codec indexes them by
    identity: issue 29)."""
    return [
        *_BOOK.values(),
        *_SCRATCH.values(),
        *(a for asides in _SET_ASIDES.values() for a in asides),
    ]


def apply(
    state: WurfeltodState, seat: int, action: Action
) -> Transition[WurfeltodState, WurfeltodEvent]:
    """``seat``'s ``action``; raises IllegalActionError saying what was wrong.

    ``seat`` must be the one to act (Game.apply checks the turn and the action's class).
    """
    if state.finished:
        raise IllegalActionError("the game is over; no more actions")
    umpire: Ump = Umpire(state.dice)
    if isinstance(action, SetAside):
        state = _set_aside(umpire, state, action.dice)
    elif isinstance(action, Book):
        box, category = _open_box(state, action.category)
        booking = evaluate(state.aside, state.rolled)[category]
        state = _book(umpire, state, box, category, booking, scratch=False)
    elif isinstance(action, Scratch):
        if state.roll != 1:  # W2
            raise IllegalActionError(
                "a scratch is only allowed right after the first roll; "
                "this is roll {roll}: book a box instead",
                roll=state.roll,
            )
        box, category = _open_box(state, action.category)
        state = _book(umpire, state, box, category, SCRATCH, scratch=True)
    else:
        raise IllegalActionError("{action} is not a Wurfeltod action", action=repr(action))
    return _done(umpire, state)


def _done(umpire: Ump, state: WurfeltodState) -> Transition[WurfeltodState, WurfeltodEvent]:
    return Transition(msgspec.structs.replace(state, dice=umpire.dice), umpire.events)


def _set_aside(umpire: Ump, state: WurfeltodState, positions: Sequence[int]) -> WurfeltodState:
    rolled = state.rolled
    # W2: set aside a proper, non-empty subset of the dice just rolled.
    if len(rolled) == 1:
        raise IllegalActionError(
            "only one die was rolled and nothing would be left to roll: book a box now"
        )
    if not isinstance(positions, tuple | list):
        raise IllegalActionError(
            "name the dice to set aside by position, not {positions}", positions=repr(positions)
        )
    if not positions:
        raise IllegalActionError("set aside at least one of the dice just rolled")
    for p in positions:
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < len(rolled):
            raise IllegalActionError(
                "there is no die {p} among the {n} dice just rolled (positions 0 to {last})",
                p=p,
                n=len(rolled),
                last=len(rolled) - 1,
            )
    if any(a >= b for a, b in itertools.pairwise(positions)):
        raise IllegalActionError(
            "list the dice to set aside once each, in increasing order, not {positions}",
            positions=list(positions),
        )
    if len(positions) == len(rolled):
        raise IllegalActionError("leave at least one die to roll; to stop here, book a box instead")
    chosen = tuple(rolled[p] for p in positions)
    state = msgspec.structs.replace(state, aside=state.aside + chosen)
    umpire.announce(DiceSetAside(player=state.current, positions=tuple(positions), dice=chosen))
    return _roll(umpire, state, len(rolled) - len(positions), state.roll + 1)


def _open_box(state: WurfeltodState, category: object) -> tuple[int, Category]:
    # A plain id string equals its Category, so it is accepted like one (and stored as one).
    if not isinstance(category, str) or category not in _CATEGORY_IDS:
        raise IllegalActionError("{category} is not a Wurfeltod category", category=repr(category))
    category = Category(category)
    box = state.cards[state.current].next_box(category)
    if box is None:
        raise IllegalActionError(  # W1
            "{box} is already booked",
            box=Term("wt.cat." + category.value, CATEGORY_LABELS[category]),
        )
    return box, category


def _book(
    umpire: Ump,
    state: WurfeltodState,
    box: int,
    category: Category,
    booking: Booking,
    *,
    scratch: bool,
) -> WurfeltodState:
    seat = state.current
    entry = Entry(
        category=category,
        points=booking.points,
        wurfeltod=booking.wurfeltod,
        scratch=scratch,
        aside=state.aside,
        final_roll=state.rolled,
        turn=state.turn,
    )
    card = state.cards[seat].with_entry(box, entry)
    cards = (*state.cards[:seat], card, *state.cards[seat + 1 :])
    state = msgspec.structs.replace(state, cards=cards)
    if scratch:
        umpire.announce(
            Scratched(
                player=seat,
                box=box,
                category=category,
                aside=entry.aside,
                final_roll=entry.final_roll,
                total=card.total,
            )
        )
    else:
        umpire.announce(
            Booked(
                player=seat,
                box=box,
                category=category,
                points=entry.points,
                wurfeltod=entry.wurfeltod,
                aside=entry.aside,
                final_roll=entry.final_roll,
                total=card.total,
            )
        )
    nxt = (seat + 1) % state.players
    turn = state.turn + (nxt == 0)
    if turn > TURNS:  # W5: every player has taken 20 turns
        umpire.announce(GameOver(totals=tuple(c.total for c in cards)))
        return msgspec.structs.replace(state, aside=(), rolled=(), roll=0, finished=True)
    return _begin_turn(umpire, state, nxt, turn)


def _begin_turn(umpire: Ump, state: WurfeltodState, seat: int, turn: int) -> WurfeltodState:
    state = msgspec.structs.replace(state, current=seat, turn=turn, aside=())
    umpire.announce(TurnBegan(player=seat, turn=turn))
    return _roll(umpire, state, DICE, 1)


def _roll(umpire: Ump, state: WurfeltodState, n: int, roll: int) -> WurfeltodState:
    faces = umpire.roll(n)
    state = msgspec.structs.replace(state, rolled=faces, roll=roll)
    umpire.announce(Rolled(player=state.current, roll=roll, dice=faces, aside=state.aside))
    return state
