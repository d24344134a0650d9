"""The fair-dice check a seated terminal makes at the end, as the browser does
(docs/fairness.md, "Online: every player adds to the dice"): the revealed seed matches
the commitment noted before the game, the record's commitment is that one, every part
the server made for a silent seat follows from the seed, and this player's own
contribution is in the record, unchanged.
"""

from __future__ import annotations

import json
import secrets
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from gamenight.core.i18n import _
from gamenight.core.seeds import committed_scheme, dice_seed, fingerprint, server_part

PLAYER_ENTROPY = ("players-v1", "players-v2")


def new_contribution() -> str:
    """This player's part of the dice: 32 random hex digits (as the browser sends).

    >>> len(new_contribution()), new_contribution() != new_contribution()
    (32, True)
    """
    return secrets.token_hex(16)


@dataclass
class Check:
    """What the check found: ``ok`` and one line per finding (in the player's language)."""

    ok: bool = True
    lines: list[str] = field(default_factory=list)

    def fail(self, line: str) -> None:
        self.ok = False
        self.lines.append(line)


def header_of(record: str) -> dict[str, Any]:
    """The record's header (its first JSON line); ValueError if there is none."""
    first = record.split("\n", 1)[0]
    header = json.loads(first)
    if not isinstance(header, dict):
        raise ValueError("the record has no header")
    return header


def check(record: str, noted: str | None, mine: tuple[int, str] | None) -> Check:
    """Check the finished room's ``record`` against the commitment ``noted`` at first
    sight and ``mine`` (this seat, its contribution as sent)."""
    found = Check()
    try:
        head = header_of(record)
        seed = int(str(head["seed"]))
        game, version = str(head["game"]), str(head["rules_version"])
        options, commitment = head["options"], str(head["commitment"])
        entropy = str(head.get("entropy", "server"))
        parts = head.get("contributions") or []
    except (ValueError, KeyError, TypeError):
        found.fail(_("The record from the server cannot be read, so the dice cannot be checked."))
        return found
    if noted is not None and commitment != noted:
        found.fail(
            _(
                "The record's commitment {record} is not the one noted before the game, {noted}."
            ).format(record=fingerprint(commitment), noted=fingerprint(noted))
        )
    if committed_scheme(commitment, seed, game, version, options, entropy=entropy) is None:
        found.fail(_("The revealed seed does not match the commitment: the dice were changed."))
    else:
        found.lines.append(
            _(
                "The revealed seed matches the commitment {fingerprint} noted before the game."
            ).format(fingerprint=fingerprint(noted or commitment))
        )
    if entropy in PLAYER_ENTROPY:
        values = [p.get("value") if isinstance(p, dict) else None for p in parts]
        try:
            dice_seed(seed, values)
        except (TypeError, ValueError):
            found.fail(_("The record's contributions cannot be read."))
        if entropy == "players-v2":
            made = [p for p in parts if isinstance(p, dict) and p.get("by") == "server"]
            for part in made:
                seat = int(part.get("seat", -1))
                if part.get("value") != server_part(seed, seat):
                    found.fail(
                        _(
                            "The part the server made for seat {seat} "
                            "does not follow from the seed."
                        ).format(seat=seat + 1)
                    )
        if mine is not None:
            seat, value = mine
            value = unicodedata.normalize("NFC", value)
            theirs = values[seat] if 0 <= seat < len(values) else None
            if theirs == value:
                found.lines.append(_("Your own contribution is in the record, unchanged."))
            else:
                found.fail(_("Your own contribution is not in the record as you sent it."))
    return found
