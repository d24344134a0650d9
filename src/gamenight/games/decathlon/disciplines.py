"""The ten events: ids, names, families, dice counts and bar heights (D1, D4-D10).

>>> EVENT_IDS[0], EVENT_IDS[-1]
('100m', '1500m')
>>> family("400m"), family("pole-vault")
('sets', 'heights')
>>> sprint_score((5, 5, 3, 5, 4, 2, 4, 6))
22
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import msgspec

from gamenight.core.errors import Term

Family = Literal["sets", "long-jump", "shot-put", "freeze", "heights"]

# D1: the fixed order of the events.
EVENT_IDS: tuple[str, ...] = (
    "100m",
    "long-jump",
    "shot-put",
    "high-jump",
    "400m",
    "110m-hurdles",
    "discus",
    "pole-vault",
    "javelin",
    "1500m",
)

NAMES: dict[str, str] = {
    "100m": "100 Metres",
    "long-jump": "Long Jump",
    "shot-put": "Shot Put",
    "high-jump": "High Jump",
    "400m": "400 Metres",
    "110m-hurdles": "110 Metre Hurdles",
    "discus": "Discus",
    "pole-vault": "Pole Vault",
    "javelin": "Javelin",
    "1500m": "1500 Metres",
}
#: Each event's name as a term of the vocabulary (``dec.event.<id>``), for the rules'
#: refusals: a front end says it in the player's language (gamenight.core.i18n.said).
TERMS: dict[str, Term] = {event: Term("dec.event." + event, name) for event, name in NAMES.items()}

# Friendly spellings accepted by the `events` option (keys are lower case).
ALIASES: dict[str, str] = {
    "100": "100m",
    "100-m": "100m",
    "long": "long-jump",
    "longjump": "long-jump",
    "long_jump": "long-jump",
    "lj": "long-jump",
    "shot": "shot-put",
    "shotput": "shot-put",
    "shot_put": "shot-put",
    "sp": "shot-put",
    "high": "high-jump",
    "highjump": "high-jump",
    "high_jump": "high-jump",
    "hj": "high-jump",
    "400": "400m",
    "400-m": "400m",
    "hurdles": "110m-hurdles",
    "110": "110m-hurdles",
    "110m": "110m-hurdles",
    "110-hurdles": "110m-hurdles",
    "110m_hurdles": "110m-hurdles",
    "pole": "pole-vault",
    "polevault": "pole-vault",
    "pole_vault": "pole-vault",
    "pv": "pole-vault",
    "1500": "1500m",
    "1500-m": "1500m",
}

RETHROWS = 5  # D4, D5: rethrows shared across the event
ATTEMPTS = 3  # D3
RUN_UP_LIMIT = 8  # D6: frozen run-up dice may total at most 8
SHOT_PUT_DICE = 8  # D7
JUMPS_PER_HEIGHT = 3  # D8
MAX_VAULT_DICE = 8  # D9


class SetRule(msgspec.Struct, frozen=True):
    """A set event (D4, D5): dice thrown ``set_size`` at a time, ``sets`` sets."""

    set_size: int
    sets: int
    sixes_count_minus: bool


class FreezeRule(msgspec.Struct, frozen=True):
    """Discus or Javelin (D10): dice thrown and the parity that may be frozen."""

    dice: int
    parity: int  # value % 2 of the dice that may be frozen
    word: str  # "even" / "odd", for messages


class HeightRule(msgspec.Struct, frozen=True):
    """High Jump (D8) or Pole Vault (D9): the bar's range and how a jump is thrown."""

    first: int
    top: int
    step: int
    fixed_dice: int | None  # None: the jumper chooses 1..8 dice before each jump
    ones_fail: bool


SET_RULES: dict[str, SetRule] = {
    "100m": SetRule(4, 2, True),
    "400m": SetRule(2, 4, True),
    "1500m": SetRule(1, 8, True),
    "110m-hurdles": SetRule(5, 1, False),
}
FREEZE_RULES: dict[str, FreezeRule] = {
    "discus": FreezeRule(5, 0, "even"),
    "javelin": FreezeRule(6, 1, "odd"),
}
HEIGHT_RULES: dict[str, HeightRule] = {
    "high-jump": HeightRule(10, 30, 2, 5, False),
    "pole-vault": HeightRule(10, 48, 2, None, True),
}
LONG_JUMP_DICE = 5


def family(event: str) -> Family:
    """How an event is played: the module that runs it."""
    try:
        return EVENT_FAMILY[event]
    except KeyError:
        raise ValueError(f"unknown Decathlon event {event!r}") from None


def attempts(event: str) -> int:
    """Attempts per player: 3 for the interleaved events (D3), 1 for the rest.

    The height events have no attempts in this sense (D8, D9); they report 1.
    """
    try:
        return EVENT_ATTEMPTS[event]
    except KeyError:
        raise ValueError(f"unknown Decathlon event {event!r}") from None


# looked up at every decision, so tabled once (the rules index them directly)
EVENT_FAMILY: dict[str, Family] = {
    **{event: "sets" for event in SET_RULES},
    **{event: "freeze" for event in FREEZE_RULES},
    **{event: "heights" for event in HEIGHT_RULES},
    "long-jump": "long-jump",
    "shot-put": "shot-put",
}
EVENT_ATTEMPTS = {
    event: ATTEMPTS if kind in ("long-jump", "shot-put", "freeze") else 1
    for event, kind in EVENT_FAMILY.items()
}


def sprint_score(dice: Sequence[int]) -> int:
    """D4: dice showing 1-5 count their value; every six counts -6."""
    return sum(-6 if d == 6 else d for d in dice)


def set_score(event: str, dice: Sequence[int]) -> int:
    """The result of a set event from its frozen dice (D4 sprints, D5 hurdles)."""
    return sprint_score(dice) if SET_RULES[event].sixes_count_minus else sum(dice)
