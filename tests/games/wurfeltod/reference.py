"""A slow, obviously-correct reading of Wurfeltod rules W3 and W4, for tests only.

It shares no code with ``gamenight.games.wurfeltod``: categories are plain string
ids, and a booking is judged by trying every subset of the six physical dice as
the forming dice.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Sequence

PENALTY = 250

POINTS: dict[str, int] = {
    "any-pair": 50,
    "two-pair": 50,
    "1-1-1": 100,
    "2-2-2": 100,
    "3-3-3": 100,
    "4-4-4": 100,
    "5-5-5": 100,
    "6-6-6": 300,
    "sum-25": 500,
    "four-of-a-kind": 750,
    "three-pairs": 800,
    "two-triplets": 850,
    "four-and-pair": 900,
    "five-of-a-kind": 1000,
    "five-straight": 1000,
    "sequential-pairs": 1500,
    "six-of-a-kind": 2000,
    "six-straight": 2000,
    "face-value": 0,  # the sum x 10, computed below
}
IDS = tuple(POINTS)


# How many dice form each category (W4); other subsets are not even tried.
SIZES: dict[str, int] = {
    "any-pair": 2,
    "two-pair": 4,
    "four-of-a-kind": 4,
    "five-of-a-kind": 5,
    "five-straight": 5,
    **{f"{n}-{n}-{n}": 3 for n in range(1, 7)},
}


@functools.cache
def forms(category: str, dice: tuple[int, ...]) -> bool:
    """Whether exactly these dice form ``category`` (W4)."""
    s = sorted(dice)
    sizes = sorted(Counter(s).values())
    n = len(s)
    if category == "any-pair":
        return n == 2 and s[0] == s[1]
    if category == "two-pair":
        return n == 4 and sizes == [2, 2]
    if category in ("1-1-1", "2-2-2", "3-3-3", "4-4-4", "5-5-5", "6-6-6"):
        return s == [int(category[0])] * 3
    if category == "sum-25":
        return n == 6 and sum(s) >= 25
    if category == "four-of-a-kind":
        return n == 4 and sizes == [4]
    if category == "three-pairs":
        return n == 6 and sizes == [2, 2, 2]
    if category == "two-triplets":
        return n == 6 and sizes == [3, 3]
    if category == "four-and-pair":
        return n == 6 and sizes == [2, 4]
    if category == "five-of-a-kind":
        return n == 5 and sizes == [5]
    if category == "five-straight":
        return s in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6])
    if category == "sequential-pairs":
        return n == 6 and s[0::2] == s[1::2] and s[0::2] == [s[0], s[0] + 1, s[0] + 2]
    if category == "six-of-a-kind":
        return n == 6 and sizes == [6]
    if category == "six-straight":
        return s == [1, 2, 3, 4, 5, 6]
    if category == "face-value":
        return n == 6
    raise KeyError(category)


def judge(category: str, aside: Sequence[int], final_roll: Sequence[int]) -> tuple[bool, int, bool]:
    """(satisfied, points, wurfeltod) of booking ``category`` (W3)."""
    dice = [(v, False) for v in aside] + [(v, True) for v in final_roll]
    best = -1  # most final-roll dice inside some forming subset; -1 = none forms
    size = SIZES.get(category, 6)
    for subset in itertools.combinations(dice, size):
        if forms(category, tuple(sorted(v for v, _ in subset))):
            best = max(best, sum(1 for _, rolled in subset if rolled))
    if best < 0:
        return False, 0, True
    points = 10 * sum(v for v, _ in dice) if category == "face-value" else POINTS[category]
    return True, points, best < len(final_roll)


def score(category: str, aside: Sequence[int], final_roll: Sequence[int]) -> int:
    """Points minus the penalty of booking ``category``."""
    _, points, wurfeltod = judge(category, aside, final_roll)
    return points - (PENALTY if wurfeltod else 0)
