"""Game-agnostic solving tools shared by the games' solvers.

:mod:`gamenight.solve.dice` has exact throw probabilities for six-sided dice.
"""

from gamenight.solve.dice import (
    FACES,
    Dice,
    ThrowTable,
    face_counts,
    is_sub_multiset,
    multisets,
    ordered_count,
    probability,
    remove,
    sub_multisets,
    sum_counts,
    sum_probability_at_least,
    throw_table,
)

__all__ = [
    "FACES",
    "Dice",
    "ThrowTable",
    "face_counts",
    "is_sub_multiset",
    "multisets",
    "ordered_count",
    "probability",
    "remove",
    "sub_multisets",
    "sum_counts",
    "sum_probability_at_least",
    "throw_table",
]
