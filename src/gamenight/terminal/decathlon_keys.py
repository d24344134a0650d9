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

from gamenight.core.i18n import _, ngettext, term
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
# decisions answered by one word (a key alone answers them on the full screen)
WORD_PHASES = (
    "keep-or-rethrow", "rethrow-or-jump", "throw-or-stop", "rethrow-or-stop", "jump-or-skip",
)  # fmt: skip


def event_name(event: str | None) -> str:
    """The event's name in the player's language (the shared vocabulary's term)."""
    return term(f"dec.event.{event}", NAMES[event]) if event in NAMES else ""


def _only_parity(event: str) -> str:
    """Which dice the event lets a player freeze, as a sentence (Discus: even, Javelin: odd)."""
    if event in FREEZE_RULES and FREEZE_RULES[event].word == "even":
        return _("only even dice may be frozen in the {event}").format(event=event_name(event))
    if event in FREEZE_RULES:
        return _("only odd dice may be frozen in the {event}").format(event=event_name(event))
    return _("only allowed dice may be frozen in the {event}").format(event=event_name(event))


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
        return _("how many dice for this jump? type a number from 1 to {n}").format(
            n=MAX_VAULT_DICE
        )
    if phase == "jump-or-skip" and is_number(raw) and view.discipline == "pole-vault":
        return _("first choose j to jump this height; then you pick the number of dice")
    return _word(raw, legal, view)


def prompt(view: DecathlonView) -> str:
    """The short question for the decision at hand."""
    which = _("freeze which dice? (positions, e.g. 13)")
    return {
        "keep-or-rethrow": _("f/Enter freeze, r rethrow"),
        "run-up-freeze": which,
        "jump-freeze": which,
        "freeze": which,
        "rethrow-or-jump": _("r rethrow, j jump"),
        "throw-or-stop": _("t throw the next die, s stop"),
        "rethrow-or-stop": _("r rethrow, s stop"),
        "jump-or-skip": _("j jump, k skip, x retire"),
        "vault-dice": _("how many dice? (1-{n})").format(n=MAX_VAULT_DICE),
    }.get(view.phase, "")


def help_text(view: DecathlonView) -> str:
    """What every key means at this decision, and the rule behind it."""
    event = view.discipline or ""
    even = event in FREEZE_RULES and FREEZE_RULES[event].word == "even"
    lines = {
        "keep-or-rethrow": [
            _("f or Enter: freeze this set (keep the throw) and go on."),
            _("r: rethrow the whole set; it costs one of the 5 shared rethrows."),
            _("With no rethrow left every throw is frozen automatically."),
        ],
        "run-up-freeze": [
            _("Type the positions of the dice to freeze, e.g. 13 or 1 3; a freezes all."),
            _("At least one die; if the frozen run-up dice total more than 8 you step over."),
        ],
        "rethrow-or-jump": [
            _("r: rethrow the unfrozen dice (you must then freeze at least one more)."),
            _("j: jump, throwing as many dice as you froze in the run-up."),
        ],
        "jump-freeze": [
            _("Type the positions of the dice to freeze, e.g. 13 or 1 3; a freezes all."),
            _("At least one; the rest are rethrown until all are frozen."),
        ],
        "throw-or-stop": [
            _("t: throw the next die (a 1 fouls the attempt); s: stop and keep the total."),
        ],
        "freeze": [
            _("Type the positions of the dice to freeze, e.g. 13 or 1 3; a freezes every even die.")
            if even
            else _(
                "Type the positions of the dice to freeze, e.g. 13 or 1 3; a freezes every odd die."
            ),
            _("In the {event} only even dice may be frozen, at least one per throw.")
            if even
            else _("In the {event} only odd dice may be frozen, at least one per throw."),
        ],
        "rethrow-or-stop": [
            _("r: rethrow the unfrozen dice (with no allowed die the attempt is invalid)."),
            _("s: stop; the frozen dice are your result."),
        ],
        "jump-or-skip": [
            _("j: go for this height: up to 3 jumps, no bail-out after a miss."),
            _("k: skip this height; x: retire from the event (keeping what you cleared)."),
        ],
        "vault-dice": [
            _(
                "Type how many dice to throw, 1 to {n}: the jump clears if "
                "they total at least the bar and none shows a 1."
            ),
        ],
    }.get(view.phase, [])
    shown = [line.format(event=event_name(event), n=MAX_VAULT_DICE) for line in lines]
    return "\n".join([*shown, _("?: this help, with the value of every option (exact solver).")])


def describe(action: Action, view: DecathlonView) -> str:
    """Short words for an action with its key, as a player would say it (hints)."""
    if isinstance(action, Freeze):
        if view.phase == "keep-or-rethrow":
            return _("freeze (f)")
        positions = " ".join(str(i + 1) for i in action.dice)
        values = " ".join(str(view.thrown[i]) for i in action.dice if i < len(view.thrown))
        return _("freeze {positions} (showing {values})").format(positions=positions, values=values)
    if isinstance(action, Vault):
        return ngettext("jump with {n} die ({n})", "jump with {n} dice ({n})", action.dice).format(
            n=action.dice
        )
    key = next(k for k, v in WORDS.items() if v is type(action) and len(k) == 1)
    return _("{action} ({key})").format(action=verb(type(action)), key=key)


def verb(kind: type[Action]) -> str:
    """The verb of an action kind, as the keys' help names it."""
    return {
        Rethrow: _("rethrow"),
        Jump: _("jump"),
        Stop: _("stop"),
        Throw: _("throw"),
        Skip: _("skip"),
        Retire: _("retire"),
        Freeze: _("freeze"),
        Vault: _("jump"),
    }.get(kind, kind.__name__.lower())


def _freeze(raw: str, view: DecathlonView, legal: Sequence[Action]) -> Action | str:
    n = len(view.thrown)
    if raw in ("a", "all"):
        return _legal(Freeze(tuple(view.freezable)), legal, view)
    positions = _positions(raw)
    if positions is None:
        return _(
            "type the positions of the dice to freeze (1-{n}), e.g. 13 or 1 3; ? for help"
        ).format(n=n)
    if not positions:
        return _("freeze at least one die: type its position, e.g. 1")
    bad = [p for p in positions if not 1 <= p <= n]
    if bad:
        return ngettext(
            "there is no die {p}: {n} die was just thrown (positions 1-{n})",
            "there is no die {p}: {n} dice were just thrown (positions 1-{n})",
            n,
        ).format(p=bad[0], n=n)
    if len(set(positions)) != len(positions):
        return _("each die can be frozen only once")
    for p in positions:
        if p - 1 not in view.freezable:
            return _("die {p} shows {value}: {rule}").format(
                p=p, value=view.thrown[p - 1], rule=_only_parity(view.discipline or "")
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
        return _("'{typed}' is not a choice here: {keys} (? for help)").format(
            typed=raw, keys=prompt(view)
        )
    for action in legal:
        if type(action) is kind:
            return action
    return _("you cannot {action} now: {keys}").format(action=verb(kind), keys=prompt(view))


def _legal(action: Action, legal: Sequence[Action], view: DecathlonView) -> Action | str:
    if action in legal:
        return action
    if isinstance(action, Vault):
        return _("throw 1 to {n} dice, not {dice}").format(n=MAX_VAULT_DICE, dice=action.dice)
    return _("that is not allowed now: {keys}").format(keys=prompt(view))
