"""Seeds: drawn secretly, committed to before play, and derived for every use.

* :func:`draw_seed` draws a 128-bit game seed from :mod:`secrets`.
* :func:`commitment` is sha256 over the seed, the game id, its rules version and
  the options. A front end shows its :func:`fingerprint` while the game runs and
  reveals the seed only at the end; anyone can then recompute the commitment and
  re-derive every die (``docs/fairness.md``).
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

SEED_BITS = 128
COMMITMENT_SCHEME = "sha256-v1"


def draw_seed() -> int:
    """A fresh secret game seed of 128 bits."""
    return secrets.randbits(SEED_BITS)


def commitment(seed: int, game_id: str, rules_version: str, options: Mapping[str, Any]) -> str:
    """sha256 (hex) over the canonical JSON of seed, game, rules version and options."""
    payload = json.dumps(
        {
            "scheme": COMMITMENT_SCHEME,
            "seed": str(seed),
            "game": game_id,
            "rules_version": rules_version,
            "options": options,
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,
    )
    return hashlib.sha256(payload.encode("ascii")).hexdigest()


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
