"""Exact turn values for Kniffel Dice Duel by expectimax over dice multisets.

Only which faces show matters, so a hand is a sorted 5-tuple (252 of them) and a
keep choice a sorted tuple of 0–4 faces (210). ``TRANSITION[k, h]`` is the
probability that keeping ``KEEPS[k]`` and rolling the rest gives ``HANDS[h]``
(multinomial weights from :mod:`gamenight.solve.dice`, no sampling). With
``stop[h]`` the value of ending the turn on hand ``h`` -- the best chip it earns,
or 0 for taking none (K4 revised: a chip may be declined, which matters when a
chip's worth is negative, e.g. one that ends the game behind):

* ``after[1] = TRANSITION @ stop`` — keep, roll once more, then stop;
* ``best1[h] = max(stop[h], max over keeps k inside h of after[1][k])``;
* ``after[2] = TRANSITION @ best1``, and ``best2`` likewise;
* a fresh turn is worth ``FIRST @ best2`` (the first roll throws all five).

What a hand is worth depends only on the chips it can earn, so tables are cached
by a :class:`ChipValues` key and repeated situations cost nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from gamenight.games.dice_duel.combinations import COMBINATIONS, is_kniffel, satisfies
from gamenight.solve.dice import multisets, sub_multisets, throw_table

Hand = tuple[int, ...]
Vector = npt.NDArray[np.float64]

HANDS: tuple[Hand, ...] = multisets(5)
HAND_INDEX: dict[Hand, int] = {h: i for i, h in enumerate(HANDS)}
KEEPS: tuple[Hand, ...] = tuple(k for size in range(5) for k in multisets(size))
KEEP_INDEX: dict[Hand, int] = {k: i for i, k in enumerate(KEEPS)}
FIRST: Vector = throw_table(5).probs  # same (lexicographic) order as HANDS


def _transition() -> Vector:
    matrix = np.zeros((len(KEEPS), len(HANDS)))
    for k, keep in enumerate(KEEPS):
        table = throw_table(5 - len(keep))
        for rolled, p in zip(table.faces, table.probs, strict=True):
            hand = tuple(sorted(keep + tuple(int(f) for f in rolled)))
            matrix[k, HAND_INDEX[hand]] += p
    return matrix


def _sub_keeps() -> npt.NDArray[np.intp]:
    """Row h lists the keeps inside HANDS[h] (keeping nothing included), padded by repeats."""
    rows = [
        [KEEP_INDEX[()]] + [KEEP_INDEX[s] for s in sub_multisets(hand) if len(s) < 5]
        for hand in HANDS
    ]
    width = max(len(r) for r in rows)
    return np.array([r + [r[0]] * (width - len(r)) for r in rows], dtype=np.intp)


TRANSITION: Vector = _transition()
SUB_KEEPS = _sub_keeps()
MAKES = np.array([[satisfies(h, c) for c in COMBINATIONS] for h in HANDS], dtype=np.float64)
KNIFFEL = np.array([is_kniffel(h) for h in HANDS])


@dataclass(frozen=True)
class ChipValues:
    """What the player can earn this turn: the key of the table cache.

    ``chips[i]`` is what a chip of combination i is worth (0 if none is on the
    plate). A Kniffel is worth ``max(kniffel_on + extra turn, kniffel_off)``:
    ``kniffel_on`` is its best award that leaves chips on the plate (so the extra
    turn follows), ``kniffel_off`` its best award that empties the plate and ends
    the game (-inf when impossible).
    """

    chips: tuple[float, ...]
    kniffel_on: float
    kniffel_off: float


@dataclass(frozen=True)
class TurnTables:
    """Expectimax values for one :class:`ChipValues`.

    ``after[r][k]`` is the expected chip value of keeping ``KEEPS[k]`` and rolling
    with ``r`` rolls left (r = 1, 2; index 0 is unused); ``stop[h]`` of ending the
    turn on ``HANDS[h]``; ``extra_turn`` the value of a fresh turn (a fixed point,
    since that turn may bring another Kniffel).
    """

    stop: Vector
    after: tuple[Vector, Vector, Vector]
    extra_turn: float


def _solve(values: ChipValues, extra_turn: float) -> tuple[Vector, Vector, Vector, float]:
    chips = np.array(values.chips)
    stop = np.maximum((MAKES * chips).max(axis=1), 0.0)  # 0: decline (K4)
    stop[KNIFFEL] = max(values.kniffel_on + extra_turn, values.kniffel_off, 0.0)
    after1 = TRANSITION @ stop
    best1 = np.maximum(stop, after1[SUB_KEEPS].max(axis=1))
    after2 = TRANSITION @ best1
    best2 = np.maximum(stop, after2[SUB_KEEPS].max(axis=1))
    return stop, after1, after2, float(FIRST @ best2)


@lru_cache(maxsize=4096)
def turn_tables(values: ChipValues) -> TurnTables:
    """The cached expectimax tables for ``values``.

    The extra turn a Kniffel brings is valued as a fresh turn with the same chips
    on offer (the one just taken ignored): ``x = turn value given x``, solved by
    iteration; it converges fast since a Kniffel comes in well under 1 turn in 10.
    """
    extra = 0.0
    for _ in range(100):
        stop, after1, after2, fresh = _solve(values, extra)
        if abs(fresh - extra) < 1e-9:
            break
        extra = fresh
    stop, after1, after2, fresh = _solve(values, extra)
    empty = np.zeros(len(KEEPS))
    return TurnTables(stop=stop, after=(empty, after1, after2), extra_turn=extra)
