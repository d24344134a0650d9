"""Exact probabilities for throws of fair six-sided dice, for every game's solver.

A throw of ``n`` dice is described here by its *sorted* faces (a multiset), because
solvers only care which values came up, not which die shows which.  Sorted
patterns are **not** equally likely: ``(1, 2)`` happens in 2 of the 36 ordered
throws, ``(1, 1)`` in only 1.  Every function here therefore weights a pattern by
its number of orderings, ``n! / (c1! * ... * c6!)``, out of ``6**n``.

>>> ordered_count((1, 2)), ordered_count((1, 1))
(2, 1)
>>> sum(ordered_count(d) for d in multisets(3)) == 6**3
True

Results are cached (``functools.cache``); arrays returned are read-only so a
cached table cannot be changed by a caller.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache
from math import factorial
from typing import Literal

import msgspec
import numpy as np
import numpy.typing as npt

FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
"""The faces of a six-sided die."""

Dice = tuple[int, ...]
"""Face values of some dice; sorted ascending wherever a multiset is meant."""


def _check_count(n: int) -> None:
    if n < 0:
        raise ValueError(f"number of dice must be >= 0, got {n}")


def _check_faces(dice: Dice) -> None:
    if not _FACE_SET.issuperset(dice):  # a C-level pass (the solvers check ~1,000 throws)
        face = next(face for face in dice if face not in _FACE_SET)
        raise ValueError(f"not a die face: {face!r} in {dice!r}")


_FACE_SET = frozenset(FACES)


@cache
def multisets(n: int) -> tuple[Dice, ...]:
    """All sorted outcomes of a throw of ``n`` dice, in lexicographic order.

    >>> len(multisets(5)), len(multisets(8))
    (252, 1287)
    >>> multisets(2)[:3]
    ((1, 1), (1, 2), (1, 3))
    >>> multisets(0)
    ((),)
    """
    _check_count(n)
    return tuple(itertools.combinations_with_replacement(FACES, n))


def face_counts(dice: Dice) -> tuple[int, int, int, int, int, int]:
    """How many dice show each face 1..6.

    >>> face_counts((6, 1, 6))
    (1, 0, 0, 0, 0, 2)
    """
    _check_faces(dice)
    count = dice.count
    return (count(1), count(2), count(3), count(4), count(5), count(6))


def ordered_count(dice: Dice) -> int:
    """Number of ordered throws (out of ``6**len(dice)``) showing these faces.

    >>> ordered_count((1, 2, 3)), ordered_count((4, 4, 4)), ordered_count((2, 5, 5))
    (6, 1, 3)
    """
    result = factorial(len(dice))
    for count in face_counts(dice):
        result //= factorial(count)
    return result


def probability(dice: Dice) -> float:
    """Probability that a throw of ``len(dice)`` dice shows exactly these faces.

    >>> probability((1, 2)) == 2 / 36
    True
    """
    return ordered_count(dice) / float(6 ** len(dice))


class ThrowTable(msgspec.Struct, frozen=True):
    """All sorted outcomes of a throw of ``n`` dice as numpy arrays.

    ``faces[i]`` is the i-th pattern of :func:`multisets` (ascending), ``counts[i]``
    its number of orderings (they sum to ``6**n``) and ``probs[i]`` its
    probability.
    """

    n: int
    faces: npt.NDArray[np.int64]
    counts: npt.NDArray[np.int64]
    probs: npt.NDArray[np.float64]


@cache
def throw_table(n: int) -> ThrowTable:
    """The outcome table of a throw of ``n`` dice (cached, read-only arrays).

    >>> table = throw_table(2)
    >>> table.faces.shape, int(table.counts.sum()), float(table.probs.sum())
    ((21, 2), 36, 1.0)
    """
    patterns = multisets(n)
    faces = np.array(patterns, dtype=np.int64).reshape(len(patterns), n)
    counts = np.array([ordered_count(d) for d in patterns], dtype=np.int64)
    probs = counts / float(6**n)
    for array in (faces, counts, probs):
        array.setflags(write=False)
    return ThrowTable(n=n, faces=faces, counts=counts, probs=probs)


@cache
def sum_counts(n: int) -> tuple[int, ...]:
    """``sum_counts(n)[s]`` = number of ordered throws of ``n`` dice totalling ``s``.

    The tuple runs from total 0 to ``6 * n``.

    >>> sum_counts(2)[7], sum_counts(2)[2], sum_counts(2)[12]
    (6, 1, 1)
    >>> sum(sum_counts(5)) == 6**5
    True
    """
    _check_count(n)
    counts = [1]
    for _ in range(n):
        nxt = [0] * (len(counts) + 6)
        for total, ways in enumerate(counts):
            for face in FACES:
                nxt[total + face] += ways
        counts = nxt
    return tuple(counts)


def sum_probability_at_least(n: int, total: int) -> float:
    """Probability that ``n`` dice total at least ``total``.

    >>> sum_probability_at_least(1, 5) == 2 / 6
    True
    >>> sum_probability_at_least(5, 5), sum_probability_at_least(5, 31)
    (1.0, 0.0)
    """
    counts = sum_counts(n)
    return sum(counts[max(total, 0) :]) / float(6**n)


@cache
def sub_multisets(dice: Dice) -> tuple[Dice, ...]:
    """The distinct non-empty sub-multisets of ``dice``, each sorted ascending.

    Ordered by size, then lexicographically.  This is the set of different ways to
    pick "at least one of the dice just thrown" when only face values matter.

    >>> sub_multisets((5, 2, 5))
    ((2,), (5,), (2, 5), (5, 5), (2, 5, 5))
    >>> sub_multisets(())
    ()
    """
    _check_faces(dice)
    ordered = tuple(sorted(dice))
    found = {
        sub for size in range(1, len(ordered) + 1) for sub in itertools.combinations(ordered, size)
    }
    return tuple(sorted(found, key=lambda sub: (len(sub), sub)))


def freeze_options(dice: Dice, keep: Literal["high", "low"]) -> tuple[Dice, ...]:
    """:func:`sub_multisets` in the solvers' order of options: fewer dice first,
    and among as many dice the better ones first (``keep="high"``: higher faces,
    ``"low"``: lower faces).

    The first option of each size is the one a solver's dominance argument keeps,
    so a near-tie (broken by :mod:`gamenight.solve.ties` towards the first listed)
    falls to the option the solver's policy tables hold.

    >>> freeze_options((2, 4, 4, 6), "high")[:4]
    ((6,), (4,), (2,), (4, 6))
    >>> freeze_options((5, 2, 5), "low")
    ((2,), (5,), (2, 5), (5, 5), (2, 5, 5))
    """
    subs = sub_multisets(dice)
    if keep == "low":
        return subs
    return tuple(sorted(subs, key=lambda sub: (len(sub), tuple(-face for face in reversed(sub)))))


def is_sub_multiset(sub: Dice, dice: Dice) -> bool:
    """Whether every face of ``sub`` can be taken from ``dice`` (with multiplicity).

    >>> is_sub_multiset((5, 5), (5, 2, 5)), is_sub_multiset((5, 5), (5, 2))
    (True, False)
    """
    have = Counter(dice)
    need = Counter(sub)
    return all(have[face] >= count for face, count in need.items())


def remove(dice: Dice, sub: Dice) -> Dice:
    """``dice`` without the faces of ``sub``, sorted; ``ValueError`` if not contained.

    >>> remove((6, 2, 5, 2), (2, 6))
    (2, 5)
    """
    left = Counter(dice)
    left.subtract(Counter(sub))
    if any(count < 0 for count in left.values()):
        raise ValueError(f"{sub!r} is not among the dice {dice!r}")
    return tuple(sorted(left.elements()))
