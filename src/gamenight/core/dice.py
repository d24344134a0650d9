"""Dice sources owned by the engine.

A dice source is an immutable value stored inside a game state. Rolling returns
the faces and the *next* source, so states stay immutable and a game is a pure
function of its seed and its actions.

:class:`SeededDice` derives every die from ``blake2b(seed, counter)`` with
rejection sampling, so dice are fair and identical on every platform and Python
version. :class:`ScriptedDice` replays fixed values, for rule tests.

>>> faces, nxt = SeededDice(seed=7).roll(3)
>>> len(faces), all(1 <= f <= 6 for f in faces), nxt.counter
(3, True, 3)
>>> SeededDice(seed=7).roll(3)[0] == faces
True
>>> ScriptedDice(values=(6, 6, 1)).roll(2)
((6, 6), ScriptedDice(values=(6, 6, 1), position=2))
"""

from __future__ import annotations

import hashlib

import msgspec

from gamenight.core.errors import DiceExhaustedError


class SeededDice(msgspec.Struct, frozen=True, tag="seeded"):
    """Fair dice from a seed; ``counter`` counts the dice drawn so far."""

    seed: int
    counter: int = 0

    def roll(self, n: int, sides: int = 6) -> tuple[tuple[int, ...], SeededDice]:
        faces = tuple(_die(self.seed, self.counter + i, sides) for i in range(n))
        return faces, SeededDice(seed=self.seed, counter=self.counter + n)


class ScriptedDice(msgspec.Struct, frozen=True, tag="scripted"):
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


def _die(seed: int, index: int, sides: int) -> int:
    # 252 = 42 * 6: reject bytes >= the largest multiple of `sides` to stay unbiased.
    limit = 256 - 256 % sides
    salt = 0
    while True:
        digest = hashlib.blake2b(f"{seed}:{index}:{salt}".encode(), digest_size=16).digest()
        for byte in digest:
            if byte < limit:
                return byte % sides + 1
        salt += 1
