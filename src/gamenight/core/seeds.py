"""Seeds: drawn secretly, committed to before play, and derived for every use.

* :func:`draw_seed` draws a 128-bit game seed from :mod:`secrets`.
* :func:`commitment` is sha256 over the seed, the game id, its rules version,
  the options and the dice scheme. A front end shows its :func:`fingerprint`
  while the game runs and reveals the seed only at the end; anyone can then
  recompute the commitment and re-derive every die (``docs/fairness.md``).
  :func:`committed_scheme` tells which dice scheme a commitment binds (games
  committed before dice scheme 2 bind scheme 1), so old records replay exactly.
* :func:`derive` is the one key-derivation step for every other stream that
  comes from a game seed (bots, series games): keyed blake2b, so no derived seed
  tells anything about the game seed or another derived seed.

>>> c = commitment(7, "decathlon", "1", {"variant": "points"})
>>> c == commitment(7, "decathlon", "1", {"variant": "points"})
True
>>> c == commitment(8, "decathlon", "1", {"variant": "points"})
False
>>> fingerprint(c) == c[:12]
True
>>> committed_scheme(c, 7, "decathlon", "1", {"variant": "points"})
2
>>> old = commitment(7, "decathlon", "1", {"variant": "points"}, dice=1)
>>> committed_scheme(old, 7, "decathlon", "1", {"variant": "points"}), old == c
(1, False)
>>> committed_scheme(c, 8, "decathlon", "1", {"variant": "points"}) is None
True
>>> derive(7, "bot", 0) != derive(7, "bot", 1) != derive(8, "bot", 0)
True
>>> 0 <= derive(7, "bot", 0) < 2**64
True
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping
from typing import Any

from gamenight.core.dice import DICE_SCHEME

SEED_BITS = 128
COMMITMENT_SCHEME = "sha256-v2"  # v1: before the dice scheme was part of the payload


def draw_seed() -> int:
    """A fresh secret game seed of 128 bits."""
    return secrets.randbits(SEED_BITS)


def commitment(
    seed: int,
    game_id: str,
    rules_version: str,
    options: Mapping[str, Any],
    *,
    dice: int = DICE_SCHEME,
) -> str:
    """sha256 (hex) over the canonical JSON of seed, game, rules version, options and
    dice scheme. Dice scheme 1 keeps the older payload (no ``dice`` key, ``sha256-v1``)
    so commitments made before scheme 2 still check."""
    fields: dict[str, Any] = {
        "scheme": "sha256-v1" if dice == 1 else COMMITMENT_SCHEME,
        "seed": str(seed),
        "game": game_id,
        "rules_version": rules_version,
        "options": options,
    }
    if dice != 1:
        fields["dice"] = dice
    payload = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(payload.encode("ascii")).hexdigest()


def committed_scheme(
    commitment_hex: str, seed: int, game_id: str, rules_version: str, options: Mapping[str, Any]
) -> int | None:
    """The dice scheme ``commitment_hex`` binds for this seed and game, or None when it
    matches none (the seed or the options are not the committed ones)."""
    for dice in (DICE_SCHEME, 1):
        if commitment(seed, game_id, rules_version, options, dice=dice) == commitment_hex:
            return dice
    return None


def fingerprint(commitment_hex: str) -> str:
    """The short form shown on the table: the first 12 hex digits."""
    return commitment_hex[:12]


def derive(seed: int, purpose: str, index: int = 0) -> int:
    """A 64-bit seed for ``purpose`` (e.g. ``"bot"``) number ``index``, from ``seed``.

    Keyed blake2b: the game seed is the key, so derived seeds are independent
    of each other and reveal nothing about it.
    """
    if seed < 0:
        raise ValueError("seeds are non-negative integers")
    key = seed.to_bytes(max(1, (seed.bit_length() + 7) // 8), "big")[-64:]
    digest = hashlib.blake2b(
        f"{purpose}:{index}".encode(), key=key, digest_size=8, person=b"gamenight-derive"
    ).digest()
    return int.from_bytes(digest, "big")
