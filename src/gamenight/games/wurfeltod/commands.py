"""Keyboard commands for Wurfeltod: pure parsing of short input into a legal action.

* ``a 1 3`` or ``a13``: set aside dice 1 and 3 of the dice just rolled (numbered
  from 1 as shown) and roll the rest;
* ``b <key>``: book a box, e.g. ``b pp`` for Two Pair or ``b f`` for Face Value;
* ``x <key>``: scratch a box (0, no Wurfeltod), right after the first roll only.

>>> KEY_CATEGORY["4k"]
<Category.FOUR_OF_A_KIND: 'four-of-a-kind'>
>>> positions("1 3", 6)
(0, 2)
>>> positions("33", 6)
'die 3 is listed twice'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from gamenight.games.wurfeltod.categories import CATEGORY_LABELS, Category
from gamenight.games.wurfeltod.rules import Action, Book, Scratch, SetAside

__all__ = ["BOX_KEYS", "HELP", "KEY_CATEGORY", "find_category", "parse_command", "positions"]

BOX_KEYS: dict[Category, str] = {
    Category.ANY_PAIR: "p",
    Category.TWO_PAIR: "pp",
    Category.TRIPLE_ONES: "1",
    Category.TRIPLE_TWOS: "2",
    Category.TRIPLE_THREES: "3",
    Category.TRIPLE_FOURS: "4",
    Category.TRIPLE_FIVES: "5",
    Category.TRIPLE_SIXES: "6",
    Category.SUM_25: "s",
    Category.FOUR_OF_A_KIND: "4k",
    Category.THREE_PAIRS: "3p",
    Category.TWO_TRIPLETS: "tt",
    Category.FOUR_AND_PAIR: "4p",
    Category.FIVE_OF_A_KIND: "5k",
    Category.FIVE_STRAIGHT: "5s",
    Category.SEQUENTIAL_PAIRS: "sp",
    Category.SIX_OF_A_KIND: "6k",
    Category.SIX_STRAIGHT: "6s",
    Category.FACE_VALUE: "f",
}
"""The short key of each box, shown in the Key column of the score sheet."""


def _squash(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


KEY_CATEGORY: dict[str, Category] = {key: c for c, key in BOX_KEYS.items()}
# Also accept the category's id and label, ignoring case, spaces and punctuation.
_NAMES: dict[str, Category] = {
    **{_squash(c.value): c for c in Category},
    **{_squash(label): c for c, label in CATEGORY_LABELS.items()},
    **KEY_CATEGORY,
}

HELP = """\
Commands (dice are numbered from 1 as shown under "Just rolled"):
  a 1 3   set aside dice 1 and 3 of the dice just rolled, and roll the rest
          (also a13 or a 1,3); at least one die must stay to be rolled
  b KEY   stop and book the box KEY (keys are in the Key column of the sheet)
  x KEY   scratch: book 0 in box KEY with no Wurfeltod (first roll only)
  ?  h    this help, and the optimal play with the best options' expected final
          scores (once `gamenight solve wurfeltod` has built the value table)
  ??      the expected final score of every option
A booking scores its points if the six dice hold the category; if any die of
the last roll is not part of it, it also costs a Wurfeltod (-250)."""


class TurnView(Protocol):
    """The parts of the game's view the parser reads."""

    @property
    def rolled(self) -> tuple[int, ...]: ...

    @property
    def first_roll(self) -> bool: ...

    @property
    def open_boxes(self) -> tuple[Category, ...]: ...


_VERBS = (("aside", "a"), ("book", "b"), ("scratch", "x"), ("a", "a"), ("b", "b"), ("x", "x"))


def _split_verb(command: str) -> tuple[str, str] | None:
    """(verb letter, the rest) of a lower-case command, or None without a known verb."""
    for word, verb in _VERBS:
        if command.startswith(word):
            return verb, command[len(word) :].strip()
    return None


def find_category(text: str) -> Category | None:
    """The category named by a box key, id or label (``"pp"``, ``"two-pair"``, ``"Two Pair"``)."""
    return _NAMES.get(_squash(text))


def positions(text: str, rolled: int) -> tuple[int, ...] | str:
    """0-based positions from 1-based digits like ``"1 3"``/``"13"``/``"1,3"``, or an error."""
    found: list[int] = []
    for ch in text:
        if ch in " ,;-":
            continue
        # ASCII only: str.isdigit() also accepts '²', which int() then refuses.
        if ch not in "0123456789":
            return f"{ch!r} is not a die number: give dice numbers 1 to {rolled}, e.g. a 1 3"
        number = int(ch)
        if not 1 <= number <= rolled:
            return f"there is no die {number}: the dice just rolled are numbered 1 to {rolled}"
        if number - 1 in found:
            return f"die {number} is listed twice"
        found.append(number - 1)
    if not found:
        return "say which dice to set aside, e.g. a 1 3"
    return tuple(sorted(found))


def parse_command(text: str, view: TurnView, legal: Sequence[Action]) -> Action | str:
    """One of ``legal`` for ``text``, or a message saying what is wrong (pure; no I/O)."""
    command = text.strip().lower()
    if not command:
        return "type a command (? for help)"
    split = _split_verb(command)
    if split is None:
        return f"unknown command {text.strip()!r}: use a (set aside), b (book), x (scratch), ? help"
    verb, rest = split
    action: Action
    if verb == "a":
        n = len(view.rolled)
        if n == 1:
            return "only one die was rolled: you must book now (b KEY)"
        picked = positions(rest, n)
        if isinstance(picked, str):
            return picked
        if len(picked) == n:
            return "leave at least one die to roll; to stop here, book a box (b KEY)"
        action = SetAside(picked)
    else:
        if not rest:
            return f"say which box, e.g. {verb} pp (keys are in the Key column)"
        category = find_category(rest)
        if category is None:
            return f"no box {rest!r}: use a key from the Key column"
        if category not in view.open_boxes:
            return f"{CATEGORY_LABELS[category]} is already booked"
        if verb == "x" and not view.first_roll:
            return "you may scratch only right after the first roll; book a box (b KEY)"
        action = Book(category) if verb == "b" else Scratch(category)
    if action not in legal:
        return "that is not allowed now (? for help)"
    return action
