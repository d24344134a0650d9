"""Seeds: drawn secretly, committed to before play, and derived for every use.

* :func:`draw_seed` draws a 128-bit game seed from :mod:`secrets`.
* :func:`commitment` is sha256 over the seed, the game id, its rules version,
  the options and the dice scheme. A front end shows its :func:`fingerprint`
  while the game runs and reveals the seed only at the end; anyone can then
  recompute the commitment and re-derive every die (``docs/fairness.md``).
  :func:`committed_scheme` tells which dice scheme a commitment binds (games
  committed before dice scheme 2 bind scheme 1), so old records replay exactly.
* :func:`dice_seed` is the one key-derivation step of player entropy (issue 24,
  ``docs/fairness.md``): in a room every seated player adds a *contribution*
  after the server committed to its seed, and the game's dice come from
  HMAC-SHA256 keyed with the server seed over all contributions in seat order.
  The server cannot steer the dice (it committed before any contribution), nor
  can a player (the server seed is secret until the end). The commitment of such
  a game binds :data:`PLAYERS` so no one can later claim it used the seed alone.
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
>>> played = commitment(7, "decathlon", "1", {}, entropy=PLAYERS)
>>> played != commitment(7, "decathlon", "1", {}), committed_scheme(played, 7, "decathlon", "1", {})
(True, None)
>>> committed_scheme(played, 7, "decathlon", "1", {}, entropy=PLAYERS)
2
>>> dice_seed(7, ["a1", None, "b2"]) == dice_seed(7, ["a1", None, "b2"])
True
>>> len({dice_seed(7, ["a1", None, "b2"]), dice_seed(7, ["a1", None, "b3"]),
...      dice_seed(8, ["a1", None, "b2"]), dice_seed(7, ["b2", None, "a1"])})
4
>>> 0 <= dice_seed(7, []) < 2**128
True
>>> derive(7, "bot", 0) != derive(7, "bot", 1) != derive(8, "bot", 0)
True
>>> 0 <= derive(7, "bot", 0) < 2**64
True
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any, Final

from gamenight.core.dice import DICE_SCHEME
from gamenight.core.text import TextError, check_characters

SEED_BITS = 128
COMMITMENT_SCHEME = "sha256-v2"  # v1: before the dice scheme was part of the payload
# The entropy schemes: where a game's dice seed comes from. A record names its own
# (header field ``entropy``; format 3 and older records are SERVER).
SERVER: Final = "server"  # the committed seed is the dice seed (local games, --seed)
# the dice seed is dice_seed(server seed, contributions); a silent seat's part was made
# by the server at random (rooms created before players-v2: it cannot be checked)
PLAYERS_V1: Final = "players-v1"
# as players-v1, and a silent seat's server-made part is server_part(seed, seat): fixed
# by the commitment before any player's part was seen, and checked by every verifier
PLAYERS: Final = "players-v2"
PLAYER_SCHEMES: Final = (PLAYERS_V1, PLAYERS)  # the dice take the players' contributions
ENTROPY_SCHEMES: Final = (SERVER, PLAYERS_V1, PLAYERS)
MAX_CONTRIBUTION_CHARS = 200
MAX_SEED_DIGITS: Final = 80
"""The longest seed in decimal digits, everywhere: given (``--seed``, the menu) and read
back from a record. A drawn seed has 39; a longer one given could never be resumed."""


def check_seed(seed: int) -> int:
    """``seed`` if it is a seed a record can hold, else ValueError saying the limit.

    >>> check_seed(7)
    7
    >>> check_seed(10**80)
    Traceback (most recent call last):
    ...
    ValueError: a seed is a whole number, 0 or more, of at most 80 digits (this one has 81)
    """
    if seed < 0 or seed >= 10**MAX_SEED_DIGITS:
        digits = len(str(abs(seed)))
        raise ValueError(
            f"a seed is a whole number, 0 or more, of at most {MAX_SEED_DIGITS} digits"
            + (f" (this one has {digits})" if seed >= 0 else "")
        )
    return seed


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
    entropy: str = SERVER,
) -> str:
    """sha256 (hex) over the canonical JSON of seed, game, rules version, options and
    dice scheme. Dice scheme 1 keeps the older payload (no ``dice`` key, ``sha256-v1``)
    so commitments made before scheme 2 still check. A game whose dice take the
    players' contributions (``entropy=PLAYERS``) says so in the payload: the key
    ``entropy`` and ``"scheme":"sha256-v3"``."""
    fields: dict[str, Any] = {
        "scheme": "sha256-v1" if dice == 1 else COMMITMENT_SCHEME,
        "seed": str(seed),
        "game": game_id,
        "rules_version": rules_version,
        "options": options,
    }
    if dice != 1:
        fields["dice"] = dice
    if entropy != SERVER:
        fields.update(scheme="sha256-v3", entropy=entropy)
    return hashlib.sha256(_canonical(fields)).hexdigest()


def _canonical(value: Any) -> bytes:
    """Canonical JSON: sorted keys, no spaces, ASCII only (every hash here uses it)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def committed_scheme(
    commitment_hex: str,
    seed: int,
    game_id: str,
    rules_version: str,
    options: Mapping[str, Any],
    *,
    entropy: str = SERVER,
) -> int | None:
    """The dice scheme ``commitment_hex`` binds for this seed, game and entropy scheme,
    or None when it matches none (the seed, the options or the entropy scheme are not
    the committed ones)."""
    schemes = (DICE_SCHEME, 1) if entropy == SERVER else (DICE_SCHEME,)
    for dice in schemes:
        made = commitment(seed, game_id, rules_version, options, dice=dice, entropy=entropy)
        if made == commitment_hex:
            return dice
    return None


def dice_seed(server_seed: int, contributions: Sequence[str | None]) -> int:
    """The dice seed of a game with player entropy (:data:`PLAYER_SCHEMES`): the first
    16 bytes, big-endian, of HMAC-SHA256 keyed with the server seed's decimal digits
    (ASCII) over the canonical JSON ``{"contributions": [...], "scheme": "players-v1"}``
    (the same in players-v2), one entry per seat in seat order (``null`` for a bot seat).
    Changing any one contribution, or their order, gives an unrelated seed."""
    if server_seed < 0:
        raise ValueError("seeds are non-negative integers")
    message = _canonical({"contributions": list(contributions), "scheme": PLAYERS_V1})
    digest = hmac.new(str(server_seed).encode("ascii"), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:16], "big")


def server_part(server_seed: int, seat: int) -> str:
    """The contribution the server makes for ``seat`` when its player sent none in time
    (:data:`PLAYERS`): 32 hex digits, the first 16 bytes of HMAC-SHA256 keyed with the
    server seed's decimal digits (ASCII) over the canonical JSON ``{"scheme":
    "server-part-v1", "seat": <seat>}``. The commitment fixed it before any player's part
    was seen, so the server cannot choose it after seeing them; it stays secret with the
    seed, and anyone re-derives it once the seed is revealed.

    >>> server_part(5, 0)
    '217ed2036c9fe238b4577b5478265f6a'
    """
    if server_seed < 0:
        raise ValueError("seeds are non-negative integers")
    message = _canonical({"scheme": "server-part-v1", "seat": seat})
    return hmac.new(str(server_seed).encode("ascii"), message, hashlib.sha256).hexdigest()[:32]


def check_contribution(value: object) -> str:
    """``value`` as a contribution: a string of 1 to MAX_CONTRIBUTION_CHARS characters
    (a random hex string, a word, or both) with no character the text policy refuses
    (:func:`gamenight.core.text.check_characters`: control and bidirectional control
    characters...; other format characters such as ZWJ are kept), NFC-normalised so
    the same word typed on two machines is the same contribution; else ValueError.
    Surrounding spaces are kept: they are part of the value.

    >>> check_contribution("Cafe\u0301 \u200d") == "Caf\u00e9 \u200d"
    True

    >>> check_contribution("9f2c  ein Wort")
    '9f2c  ein Wort'
    >>> check_contribution("")
    Traceback (most recent call last):
    ValueError: a contribution is 1 to 200 characters
    """
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_CONTRIBUTION_CHARS:
        raise ValueError(f"a contribution is 1 to {MAX_CONTRIBUTION_CHARS} characters")
    try:  # the one text policy (core.text): format characters such as ZWJ are kept
        check_characters(value, what="a contribution")
    except TextError as exc:
        raise ValueError(str(exc)) from None
    return unicodedata.normalize("NFC", value)


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
