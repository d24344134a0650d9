"""The one tie rule: which option a solver, a bot, an advisor or a policy table picks.

Every place in gamenight that picks "the best option" calls :func:`best_index`
(arrays: the dynamic-programming policy tables) or :func:`best_of` (a few
options: decision APIs, advisors, bots). The rule:

1. options whose primary value is within :data:`TIE_EPS` of the highest count as
   tied (float sums of the same exact value differ in their last bits);
2. among those, where a secondary value is given, the ones whose secondary is
   within :data:`TIE_EPS` of the highest secondary among them stay tied;
3. the first of the tied options, in the order the options are listed, wins.

Each game documents its order of options (for example "fewer dice frozen
first"), so a near-tie always falls to the same option, whatever the rounding.

>>> best_of(["stop", "rethrow"], [22.0, 21.999999999999996])
'stop'
>>> best_of(["a", "b", "c"], [0.5, 0.5, 0.2], [10.0, 12.0, 30.0])
'b'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

TIE_EPS = 1e-12
"""Values closer than this count as equal (both for primary and secondary values)."""

T = TypeVar("T")


def best_index(
    primary: npt.ArrayLike, secondary: npt.ArrayLike | None = None, axis: int = 0
) -> npt.NDArray[np.intp]:
    """Index of the best option along ``axis`` by the tie rule of this module.

    An option that is not legal carries ``-inf``; where every option is ``-inf``
    (or ``nan``) the first option's index is returned.

    >>> best_index([[0.3, 0.7], [0.3 + 1e-15, 0.2]], axis=0).tolist()
    [0, 0]
    """
    p = np.asarray(primary, dtype=np.float64)
    s = None
    if secondary is not None and secondary is not primary:  # itself: no tie is broken
        s = np.asarray(secondary, dtype=np.float64)
    n = p.shape[axis] if p.ndim else 0
    if n and p.size >= BY_OPTION * n and (s is None or s.shape == p.shape):
        return _by_option(p, s, axis)
    # ufunc reductions and in-place steps: what .max() - TIE_EPS computes, with less
    # overhead (the solves call this hundreds of times on small arrays, issue 29)
    top = np.maximum.reduce(p, axis=axis, keepdims=True)
    tied = p >= np.subtract(top, TIE_EPS, out=top)
    if s is not None:
        # the highest tied secondary, masked in the reduction: no where() copy
        s_top = np.maximum.reduce(s, axis=axis, keepdims=True, where=tied, initial=-np.inf)
        tied &= s >= np.subtract(s_top, TIE_EPS, out=s_top)
    index: npt.NDArray[np.intp] = tied.argmax(axis=axis)
    return index


BY_OPTION = 1024  # entries per option from which :func:`_by_option` is the cheaper way


def _by_option(
    p: npt.NDArray[np.float64], s: npt.NDArray[np.float64] | None, axis: int
) -> npt.NDArray[np.intp]:
    """:func:`best_index` as a few passes per option over its slice of ``axis``.

    The same comparisons, so the same index; but a reduction or an ``argmax`` across
    a middle axis runs one short strided loop per entry (the argmax first copies the
    array to put that axis last), where a pass over one option's slice is a single
    contiguous loop: half the time on the Decathlon's (reach x throw x option x
    column) tables (issue 29).

    >>> p = np.array([[1.0, 2.0, 5.0], [1.0 + 1e-15, 3.0, 5.0], [0.5, 3.0, 1.0]])  # 3 options
    >>> s = np.array([[0.0, 1.0, 1.0], [2.0, 1.0, 1.0], [9.0, 1.0, 0.0]])
    >>> _by_option(p, s, 0).tolist(), _by_option(p, None, 0).tolist()
    ([1, 1, 0], [0, 1, 0])
    """
    options = list(np.moveaxis(p, axis, 0))  # views: each option's slice
    top = options[0].copy()
    for option in options[1:]:
        np.maximum(top, option, out=top)
    top -= TIE_EPS
    tied = [np.greater_equal(option, top) for option in options]
    if s is not None:
        seconds = list(np.moveaxis(s, axis, 0))
        s_top = np.full(top.shape, -np.inf)
        for second, is_tied in zip(seconds, tied, strict=True):
            np.maximum(s_top, second, out=s_top, where=is_tied)
        s_top -= TIE_EPS
        for second, is_tied in zip(seconds, tied, strict=True):
            is_tied &= second >= s_top
    index = np.zeros(top.shape, dtype=np.intp)  # no option tied: the first, as argmax
    for j in range(len(tied) - 1, -1, -1):  # the first tied option written last
        np.copyto(index, j, where=tied[j])
    return index


def best_of(
    options: Sequence[T],
    primary: Sequence[float],
    secondary: Sequence[float] | None = None,
) -> T:
    """The option :func:`best_index` picks; ``primary[i]`` is the value of ``options[i]``.

    >>> best_of("abc", [1.0, 3.0, 3.0 - 1e-13])
    'b'
    """
    if not primary:
        raise ValueError("no option to pick from")
    return options[int(best_index(primary, secondary))]


def best_key(values: dict[T, float], secondary: dict[T, Any] | None = None) -> T:
    """The best key of ``values`` (listed order = the dict's order).

    >>> best_key({"jump": 0.5, "skip": 0.5 + 1e-14, "retire": 0.1})
    'jump'
    """
    keys = list(values)
    second = None if secondary is None else [float(secondary[k]) for k in keys]
    return best_of(keys, [values[k] for k in keys], second)
