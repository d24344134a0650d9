"""Keyboard input for the Decathlon, as pure functions of the text, view and legal actions.

Presentation only (the terminal front end): what keys mean, prompts, help and
the words for each action. Rulings ids stay in comments: help is player-facing.

Dice are named by their position on screen, counted from 1: ``13``, ``1 3`` or
``1,3`` freeze the first and third dice just thrown (up to 8 dice, so every
digit is one position). ``a`` freezes every die that may be frozen.

>>> from gamenight.games.decathlon.actions import Freeze, Rethrow
>>> view = DecathlonView(seat=0, players=1, variant="points", disciplines=("discus",),
...     discipline="discus", discipline_no=0, order=(0,), to_act=0, phase="freeze",
...     thrown=(6, 3, 2), freezable=(0, 2))
>>> legal = [Freeze((0,)), Freeze((2,)), Freeze((0, 2))]
>>> parse_command("1 3", view, legal)
Freeze(dice=(0, 2))
>>> parse_command("12", view, legal)
'die 2 shows 3: only even dice may be frozen in the Discus'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from gamenight.games.decathlon.actions import (
    Action,
    Freeze,
    Jump,
    Rethrow,
    Retire,
    Skip,
    Stop,
    Throw,
    Vault,
)
from gamenight.games.decathlon.disciplines import FREEZE_RULES, MAX_VAULT_DICE, NAMES
from gamenight.games.decathlon.view import DecathlonView
from gamenight.terminal.ui import is_number
from gamenight.terminal.words import plural

WORDS: dict[str, type[Action]] = {
    "r": Rethrow,
    "rethrow": Rethrow,
    "j": Jump,
    "jump": Jump,
    "s": Stop,
    "stop": Stop,
    "t": Throw,
    "throw": Throw,
    "k": Skip,
    "skip": Skip,
    "x": Retire,
    "retire": Retire,
}
KEEP_WORDS = ("", "f", "freeze", "keep")
FREEZE_PHASES = ("run-up-freeze", "jump-freeze", "freeze")


def parse_command(text: str, view: DecathlonView, legal: Sequence[Action]) -> Action | str:
    """The action ``text`` asks for, or a message saying what is wrong with it."""
    raw = text.strip().lower()
    phase = view.phase
    if phase == "keep-or-rethrow":
        if raw in KEEP_WORDS or _positions(raw) == list(range(1, len(view.thrown) + 1)):
            return _legal(Freeze(tuple(range(len(view.thrown)))), legal, view)
        return _word(raw, legal, view)
    if phase in FREEZE_PHASES:
        return _freeze(raw, view, legal)
    if phase == "vault-dice":
        if is_number(raw):
            return _legal(Vault(int(raw)), legal, view)
        return f"how many dice for this jump? type a number from 1 to {MAX_VAULT_DICE}"
    if phase == "jump-or-skip" and is_number(raw) and view.discipline == "pole-vault":
        return "first choose j to jump this height; then you pick the number of dice"
    return _word(raw, legal, view)


def prompt(view: DecathlonView) -> str:
    """The short question for the decision at hand."""
    return {
        "keep-or-rethrow": "f/Enter freeze, r rethrow",
        "run-up-freeze": "freeze which dice? (positions, e.g. 13)",
        "jump-freeze": "freeze which dice? (positions, e.g. 13)",
        "freeze": "freeze which dice? (positions, e.g. 13)",
        "rethrow-or-jump": "r rethrow, j jump",
        "throw-or-stop": "t throw the next die, s stop",
        "rethrow-or-stop": "r rethrow, s stop",
        "jump-or-skip": "j jump, k skip, x retire",
        "vault-dice": f"how many dice? (1-{MAX_VAULT_DICE})",
    }.get(view.phase, "")


def help_text(view: DecathlonView) -> str:
    """What every key means at this decision, and the rule behind it."""
    name = NAMES.get(view.discipline or "", "")
    event = view.discipline or ""
    lines = {
        "keep-or-rethrow": [
            "f or Enter: freeze this set (keep the throw) and go on.",
            "r: rethrow the whole set; it costs one of the 5 shared rethrows.",
            "With no rethrow left every throw is frozen automatically.",
        ],
        "run-up-freeze": [
            "Type the positions of the dice to freeze, e.g. 13 or 1 3; a freezes all.",
            "At least one die; if the frozen run-up dice total more than 8 you step over.",
        ],
        "rethrow-or-jump": [
            "r: rethrow the unfrozen dice (you must then freeze at least one more).",
            "j: jump, throwing as many dice as you froze in the run-up.",
        ],
        "jump-freeze": [
            "Type the positions of the dice to freeze, e.g. 13 or 1 3; a freezes all.",
            "At least one; the rest are rethrown until all are frozen.",
        ],
        "throw-or-stop": [
            "t: throw the next die (a 1 fouls the attempt); s: stop and keep the total.",
        ],
        "freeze": [
            "Type the positions of the dice to freeze, e.g. 13 or 1 3; a freezes every "
            f"{FREEZE_RULES[event].word if event in FREEZE_RULES else ''} die.",
            f"In the {name} only {FREEZE_RULES[event].word if event in FREEZE_RULES else ''} "
            "dice may be frozen, at least one per throw.",
        ],
        "rethrow-or-stop": [
            "r: rethrow the unfrozen dice (with no allowed die the attempt is invalid).",
            "s: stop; the frozen dice are your result.",
        ],
        "jump-or-skip": [
            "j: go for this height: up to 3 jumps, no bail-out after a miss.",
            "k: skip this height; x: retire from the event (keeping what you cleared).",
        ],
        "vault-dice": [
            f"Type how many dice to throw, 1 to {MAX_VAULT_DICE}: the jump clears if "
            "they total at least the bar and none shows a 1.",
        ],
    }.get(view.phase, [])
    return "\n".join([*lines, "?: this help, with the value of every option (exact solver)."])


def describe(action: Action, view: DecathlonView) -> str:
    """Short words for an action with its key, as a player would say it (hints)."""
    if isinstance(action, Freeze):
        if view.phase == "keep-or-rethrow":
            return "freeze (f)"
        positions = " ".join(str(i + 1) for i in action.dice)
        values = " ".join(str(view.thrown[i]) for i in action.dice if i < len(view.thrown))
        return f"freeze {positions} (showing {values})"
    if isinstance(action, Vault):
        return f"jump with {plural(action.dice, 'die', 'dice')} ({action.dice})"
    key = next(k for k, v in WORDS.items() if v is type(action) and len(k) == 1)
    return f"{type(action).__name__.lower()} ({key})"


def _freeze(raw: str, view: DecathlonView, legal: Sequence[Action]) -> Action | str:
    n = len(view.thrown)
    if raw in ("a", "all"):
        return _legal(Freeze(tuple(view.freezable)), legal, view)
    positions = _positions(raw)
    if positions is None:
        return f"type the positions of the dice to freeze (1-{n}), e.g. 13 or 1 3; ? for help"
    if not positions:
        return "freeze at least one die: type its position, e.g. 1"
    bad = [p for p in positions if not 1 <= p <= n]
    if bad:
        thrown = plural(n, "die was", "dice were")
        return f"there is no die {bad[0]}: {thrown} just thrown (positions 1-{n})"
    if len(set(positions)) != len(positions):
        return "each die can be frozen only once"
    for p in positions:
        if p - 1 not in view.freezable:
            event = view.discipline or ""
            word = FREEZE_RULES[event].word if event in FREEZE_RULES else "allowed"
            return (
                f"die {p} shows {view.thrown[p - 1]}: "
                f"only {word} dice may be frozen in the {NAMES.get(event, 'event')}"
            )
    return _legal(Freeze(tuple(sorted(p - 1 for p in positions))), legal, view)


def _positions(raw: str) -> list[int] | None:
    """Digits separated by nothing, spaces or commas; ``None`` if anything else is typed."""
    if not re.fullmatch(r"[\d\s,]*", raw):
        return None
    return [int(c) for c in raw if is_number(c)]


def _word(raw: str, legal: Sequence[Action], view: DecathlonView) -> Action | str:
    kind = WORDS.get(raw)
    if kind is None:
        return f"'{raw}' is not a choice here: {prompt(view)} (? for help)"
    for action in legal:
        if type(action) is kind:
            return action
    return f"you cannot {kind.__name__.lower()} now: {prompt(view)}"


def _legal(action: Action, legal: Sequence[Action], view: DecathlonView) -> Action | str:
    if action in legal:
        return action
    if isinstance(action, Vault):
        return f"throw 1 to {MAX_VAULT_DICE} dice, not {action.dice}"
    return f"that is not allowed now: {prompt(view)}"
