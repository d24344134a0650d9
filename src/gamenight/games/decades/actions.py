"""The actions of The Decades: tagged msgspec structs (JSON key ``"type"``).

Four of them are *secret choices* made by both teams at once (T4, T7): keeping
action cards, an answer year, extension tokens and the action card played.
Until the game reveals such a choice, the other team and spectators see it as
a :class:`Hidden` placeholder (see ``DecadesGame.public_action``). ``Hidden`` is
a member of the action union, so a redacted history round-trips through JSON,
but it is never legal.

>>> import msgspec
>>> msgspec.json.encode(Hidden("answer"))
b'{"type":"hidden","step":"answer"}'
"""

from __future__ import annotations

from typing import Literal

import msgspec

from gamenight.games.decades.tokens import Placement

SecretStep = Literal["keep", "answer", "extend", "card"]


class Keep(msgspec.Struct, frozen=True, tag="keep"):
    """Keep these 4 of the 7 dealt action cards (card ids; order does not matter)."""

    cards: tuple[str, ...]


class Answer(msgspec.Struct, frozen=True, tag="answer"):
    """Bet on a year for the current category."""

    year: int


class Extend(msgspec.Struct, frozen=True, tag="extend"):
    """Place extension tokens (each optional; an empty tuple places none)."""

    tokens: tuple[Placement, ...] = ()


class PlayCard(msgspec.Struct, frozen=True, tag="play"):
    """Play one action card (by id) this round."""

    card: str


class RemoveToken(msgspec.Struct, frozen=True, tag="remove-token"):
    """Target of *Remove the Year Extension token*: the opponent's token of this length."""

    length: int


class CancelAnswer(msgspec.Struct, frozen=True, tag="cancel-answer"):
    """Target of *Cancel the answer*: the opponent's answer in this category."""

    category: str


class Hidden(msgspec.Struct, frozen=True, tag="hidden"):
    """How another team's secret choice looks before the reveal: only its step (T7).

    Never legal: it is a redaction, not a move.
    """

    step: SecretStep


Choice = Keep | Answer | Extend | PlayCard  # secret until both teams chose
Target = RemoveToken | CancelAnswer  # chosen in the open, after the reveal
Action = Keep | Answer | Extend | PlayCard | RemoveToken | CancelAnswer | Hidden
