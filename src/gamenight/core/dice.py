"""Dice sources owned by the engine.

A dice source is an immutable value stored inside a game state. Rolling returns
the faces and the *next* source, so states stay immutable and a game is a pure
function of its seed and its actions.

:class:`SeededDice` derives every die from blake2b of the seed with rejection
sampling, so dice are fair and identical on every platform and Python version.
Dice scheme 2 (the default) hashes once per *block* of eight dice: die ``i`` is
read from bytes ``8*(i % 8)`` to ``8*(i % 8) + 7`` of
``blake2b(f"{seed}:{i // 8}", digest_size=64)``, the first byte below the largest
multiple of ``sides`` giving ``byte % sides + 1``. Scheme 1 (records written
before format 3) hashed once per die; it is kept so old records and saved games
replay exactly. docs/fairness.md gives both recipes.
:class:`ScriptedDice` replays fixed values, for rule tests.

>>> faces, nxt = SeededDice(seed=7).roll(3)
>>> len(faces), all(1 <= f <= 6 for f in faces), nxt.counter
(3, True, 3)
>>> SeededDice(seed=7).roll(3)[0] == faces
True
>>> ScriptedDice(values=(6, 6, 1)).roll(2)
((6, 6), ScriptedDice(values=(6, 6, 1), position=2))
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import msgspec

from gamenight.core.errors import DiceExhaustedError

try:  # hashlib's own blake2b, without hashlib's OpenSSL (a percent of `solve`, issue 29)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - an interpreter without CPython's _blake2
    from hashlib import blake2b

DICE_SCHEME = 2  # the scheme new games use; see the module docstring


class SeededDice(msgspec.Struct, frozen=True, gc=False, tag="seeded"):
    """Fair dice from a seed; ``counter`` counts the dice drawn so far.

    ``scheme`` names the derivation (module docstring); a die's value depends
    only on the seed and its number, never on how the dice were grouped in throws:

    >>> a, nxt = SeededDice(seed=3).roll(5)
    >>> b, _ = nxt.roll(4)
    >>> a + b == SeededDice(seed=3).roll(9)[0]
    True
    >>> SeededDice(seed=3, scheme=1).roll(9)[0] == a + b  # the old derivation differs
    False
    """

    seed: int
    counter: int = 0
    scheme: int = DICE_SCHEME

    def roll(self, n: int, sides: int = 6) -> tuple[tuple[int, ...], SeededDice]:
        start, seed = self.counter, self.seed
        end, lane = start + n, start & 7
        if self.scheme == 2:
            if lane + n <= 8:  # most throws: one block (every decision throws dice)
                return _faces(seed, start >> 3, sides)[lane : lane + n], SeededDice(seed, end, 2)
            first, last = start >> 3, (end - 1) >> 3
            row = _faces(seed, first, sides)
            while first < last:  # a throw across blocks of eight
                first += 1
                row += _faces(seed, first, sides)
            return row[lane : lane + n], SeededDice(seed, end, 2)
        return tuple(_die_v1(seed, i, sides) for i in range(start, end)), SeededDice(seed, end, 1)


class ScriptedDice(msgspec.Struct, frozen=True, gc=False, tag="scripted"):
    """Dice that come out in a fixed order; used by rule tests."""

    values: tuple[int, ...]
    position: int = 0

    def roll(self, n: int, sides: int = 6) -> tuple[tuple[int, ...], ScriptedDice]:
        end = self.position + n
        if end > len(self.values):
            raise DiceExhaustedError(
                f"scripted dice exhausted: asked for {n} more after "
                f"{self.position} of {len(self.values)} values"
            )
        faces = self.values[self.position : end]
        if any(not 1 <= f <= sides for f in faces):
            raise DiceExhaustedError(f"scripted faces {faces} are not all in 1..{sides}")
        return faces, ScriptedDice(values=self.values, position=end)


DiceSource = SeededDice | ScriptedDice


def dice_for_scheme(seed: int, scheme: int) -> SeededDice:
    """Fresh dice of ``scheme``; an unknown scheme is refused with ValueError."""
    if scheme not in (1, 2):
        raise ValueError(f"unknown dice scheme {scheme!r} (this gamenight knows 1 and 2)")
    return SeededDice(seed=seed, scheme=scheme)


@lru_cache(maxsize=256)
def _seed_hasher(seed: int) -> Any:
    """blake2b (64 bytes) having read ``f"{seed}:"``: copied per block, which is cheaper
    than a new hasher and spares writing a long seed out in decimal for every block."""
    hasher = blake2b(digest_size=64)
    hasher.update(f"{seed}:".encode())
    return hasher


@lru_cache(maxsize=4096)
def _faces(seed: int, block: int, sides: int) -> tuple[int, ...]:
    """The eight dice of ``block`` (dice ``8*block`` to ``8*block + 7``) with ``sides``.

    One 64-byte digest serves the eight dice; the cache makes a throw of several dice
    (and the next throw) cost one hash, and stays small (~1 MB).
    """
    hasher = _seed_hasher(seed).copy()
    hasher.update(str(block).encode())
    digest = hasher.digest()  # = blake2b(f"{seed}:{block}", digest_size=64)
    if sides < 256:
        # the usual case, all in C: each die's first byte accepted (88% of blocks for d6)
        faces = digest[::8].translate(_face_table(sides))
        if 0 not in faces:
            return tuple(faces)
    limit = 256 - 256 % sides
    return tuple(
        _lane_die(digest, lane, sides, limit) or _die_v1(seed, block * 8 + lane, sides)
        for lane in range(8)
    )


@lru_cache(maxsize=64)
def _face_table(sides: int) -> bytes:
    """byte -> face for ``sides`` < 256; 0 marks a rejected byte."""
    limit = 256 - 256 % sides
    return bytes(byte % sides + 1 if byte < limit else 0 for byte in range(256))


def _lane_die(digest: bytes, lane: int, sides: int, limit: int) -> int:
    """The die of ``lane``: its first of eight bytes below ``limit``; 0 if all are rejected
    (below 1e-14 for six sides, but the rule must be total: then the scheme-1 die)."""
    for byte in digest[lane * 8 : lane * 8 + 8]:
        if byte < limit:
            return byte % sides + 1
    return 0


def _die_v1(seed: int, index: int, sides: int) -> int:
    # 252 = 42 * 6: reject bytes >= the largest multiple of `sides` to stay unbiased.
    limit = 256 - 256 % sides
    salt = 0
    while True:
        digest = blake2b(f"{seed}:{index}:{salt}".encode(), digest_size=16).digest()
        for byte in digest:
            if byte < limit:
                return byte % sides + 1
        salt += 1
