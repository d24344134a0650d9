"""Compiled turn DP of the Wurfeltod solver (numba).

One call of :func:`turn_values` solves the turns of several states at once
(``LANES`` in a build, one for a query): every array has a trailing lane axis,
so the innermost loops run over lanes and compile to SIMD instructions. The
states of one batch share the turn's structure (see :mod:`.structure`) and
differ only in ``box_value[c, lane]``, the value of the rest of the game after
booking category column ``c`` (``CLOSED`` when that category has no open box).

Per turn (W2): after a roll with aside ``A`` and roll ``R`` the player books an
open box (W3), or sets aside ``A < A' < A + R`` and rolls the rest; after the
first roll they may also scratch. ``best_even``/``best_odd`` hold, for each pair
of the current and the previous level, the best aside value reachable from it,
so a whole level of keep choices costs one max per distinct rolled value.

Compiled code is cached in gamenight's cache directory (``<cache>/numba``, see
:func:`~.table.cache_root`), never next to the installed sources, so a
read-only install works. The directory is given to numba for these functions
only: ``numba.config.CACHE_DIR`` is set while they are decorated (numba picks
each function's cache locator then) and restored at once.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
from numba import njit

from gamenight.games.wurfeltod.categories import CATEGORIES, WURFELTOD_PENALTY, Category
from gamenight.games.wurfeltod.solver.table import cache_root

__all__ = ["CLOSED", "LANES", "numba_cache_dir", "solve_states", "turn_values"]

LANES = 64
CLOSED = -1.0e18  # value of a closed box; finite, so fastmath may assume no infinities
PENALTY = float(WURFELTOD_PENALTY)  # W3
N_COLUMNS = len(CATEGORIES)
FACE = CATEGORIES.index(Category.FACE_VALUE)
LAST_LEVEL = 5  # five dice aside: one die rolled, the player must book (W2)

Array = Any  # numba arrays are untyped for mypy
F = TypeVar("F", bound=Callable[..., None])


def numba_cache_dir() -> str:
    """Where the compiled kernels are cached: ``<gamenight cache>/numba``."""
    return os.path.join(cache_root(), "numba")


def _jit(
    *, cache: bool, fastmath: bool = False, nogil: bool = False, parallel: bool = False
) -> Callable[[F], F]:
    """``numba.njit`` that keeps the Python signature visible to mypy and caches the
    compiled code in :func:`numba_cache_dir` (for this function only)."""
    decorate = njit(cache=cache, fastmath=fastmath, nogil=nogil, parallel=parallel)

    def jit(function: F) -> F:
        config: Any = numba.config
        before = config.CACHE_DIR
        config.CACHE_DIR = numba_cache_dir()
        try:  # numba chooses the function's cache locator now, from CACHE_DIR
            return cast(F, decorate(function))
        finally:
            config.CACHE_DIR = before

    return jit


@_jit(cache=True, fastmath=True, nogil=True)
def turn_values(
    box_value: Array,
    book_final: Array,
    book_class: Array,
    best_even: Array,
    best_odd: Array,
    aside_value: Array,
    level_start: Array,
    aside_level_start: Array,
    aside_pair_start: Array,
    pair_class: Array,
    pair_probability: Array,
    class_final: Array,
    class_start: Array,
    class_column: Array,
    class_points: Array,
    final_start: Array,
    final_column: Array,
    final_points: Array,
    final_face_points: Array,
    succ_start: Array,
    succ_pair: Array,
) -> None:
    """Fill ``aside_value[a, lane]``: the expected value of rolling with aside ``a``.

    ``aside_value[0]`` (nothing aside: the first roll, where a scratch is
    allowed) is the value of the whole turn. ``book_final``, ``book_class``,
    ``best_even`` and ``best_odd`` are scratch space. The lane count is taken
    from ``box_value`` at run time on purpose: LLVM then vectorises the lane
    loops (with alias checks), while a constant count gets unrolled into
    scalar code.
    """
    lanes = box_value.shape[1]
    top = np.empty(lanes)
    floor = np.empty(lanes)
    w = np.empty(lanes)
    for lane in range(lanes):
        m = box_value[0, lane]
        for c in range(1, N_COLUMNS):
            m = max(m, box_value[c, lane])
        top[lane] = m  # best scratch (W2)
        floor[lane] = m - PENALTY  # booking any open box with a Wurfeltod (W3)

    # Best booking that brings a Wurfeltod, or of Face Value Total: per final multiset.
    for f in range(final_face_points.shape[0]):
        face = final_face_points[f]
        for lane in range(lanes):
            book_final[f, lane] = max(floor[lane], face + box_value[FACE, lane])
        for e in range(final_start[f], final_start[f + 1]):
            c = final_column[e]
            pts = final_points[e]
            for lane in range(lanes):
                book_final[f, lane] = max(book_final[f, lane], pts + box_value[c, lane])
    # Best booking of all: per booking class, adding the Wurfeltod-free categories.
    for cl in range(class_final.shape[0]):
        f = class_final[cl]
        for lane in range(lanes):
            book_class[cl, lane] = book_final[f, lane]
        for e in range(class_start[cl], class_start[cl + 1]):
            c = class_column[e]
            pts = class_points[e]
            for lane in range(lanes):
                book_class[cl, lane] = max(book_class[cl, lane], pts + box_value[c, lane])

    for k in range(LAST_LEVEL, -1, -1):
        cur = best_even if k % 2 == 0 else best_odd
        nxt = best_odd if k % 2 == 0 else best_even
        base = level_start[k]
        for a in range(aside_level_start[k], aside_level_start[k + 1]):
            for lane in range(lanes):
                w[lane] = 0.0
            for p in range(aside_pair_start[a], aside_pair_start[a + 1]):
                cl = pair_class[p]
                pr = pair_probability[p]
                i = p - base
                if k == LAST_LEVEL:  # one die rolled: the player must book (W2)
                    for lane in range(lanes):
                        w[lane] += pr * book_class[cl, lane]
                    continue
                s = succ_start[p]
                count = succ_start[p + 1] - s
                # Fused loops for the common counts of distinct rolled values.
                if k > 0 and count == 1:
                    n0 = succ_pair[s]
                    for lane in range(lanes):
                        keep = nxt[n0, lane]
                        cur[i, lane] = keep
                        w[lane] += pr * max(book_class[cl, lane], keep)
                elif k > 0 and count == 2:
                    n0 = succ_pair[s]
                    n1 = succ_pair[s + 1]
                    for lane in range(lanes):
                        keep = max(nxt[n0, lane], nxt[n1, lane])
                        cur[i, lane] = keep
                        w[lane] += pr * max(book_class[cl, lane], keep)
                elif k > 0 and count == 3:
                    n0 = succ_pair[s]
                    n1 = succ_pair[s + 1]
                    n2 = succ_pair[s + 2]
                    for lane in range(lanes):
                        keep = max(max(nxt[n0, lane], nxt[n1, lane]), nxt[n2, lane])
                        cur[i, lane] = keep
                        w[lane] += pr * max(book_class[cl, lane], keep)
                elif k > 0 and count == 4:
                    n0 = succ_pair[s]
                    n1 = succ_pair[s + 1]
                    n2 = succ_pair[s + 2]
                    n3 = succ_pair[s + 3]
                    for lane in range(lanes):
                        keep = max(
                            max(nxt[n0, lane], nxt[n1, lane]), max(nxt[n2, lane], nxt[n3, lane])
                        )
                        cur[i, lane] = keep
                        w[lane] += pr * max(book_class[cl, lane], keep)
                else:
                    n0 = succ_pair[s]
                    for lane in range(lanes):
                        cur[i, lane] = nxt[n0, lane]
                    for e in range(s + 1, s + count):
                        n = succ_pair[e]
                        for lane in range(lanes):
                            cur[i, lane] = max(cur[i, lane], nxt[n, lane])
                    for lane in range(lanes):
                        q = max(book_class[cl, lane], cur[i, lane])
                        if k == 0:
                            q = max(q, top[lane])
                        w[lane] += pr * q
            for lane in range(lanes):
                aside_value[a, lane] = w[lane]
            # Best aside reachable from each pair of this aside, this aside included.
            for p in range(aside_pair_start[a], aside_pair_start[a + 1]):
                i = p - base
                if k == LAST_LEVEL:
                    for lane in range(lanes):
                        cur[i, lane] = w[lane]
                else:
                    for lane in range(lanes):
                        cur[i, lane] = max(cur[i, lane], w[lane])


@_jit(cache=True, nogil=True)
def _gather(
    values: Array,
    state: int,
    n_single: int,
    face_boxes: int,
    column_bit: Array,
    box_value: Array,
    lane: int,
) -> None:
    """Value after booking each column from ``state``; ``CLOSED`` for used or absent boxes."""
    face_used = state >> n_single
    for c in range(N_COLUMNS):
        bit = column_bit[c]
        if c == FACE:
            if face_used < face_boxes:
                box_value[c, lane] = values[state + (1 << n_single)]
            else:
                box_value[c, lane] = CLOSED
        elif bit < 0 or (state >> bit) & 1:
            box_value[c, lane] = CLOSED
        else:
            box_value[c, lane] = values[state | (1 << bit)]


@_jit(cache=True, nogil=True)
def solve_states(
    states: Array,
    values: Array,
    n_single: int,
    face_boxes: int,
    column_bit: Array,
    level_start: Array,
    aside_level_start: Array,
    aside_pair_start: Array,
    pair_class: Array,
    pair_probability: Array,
    class_final: Array,
    class_start: Array,
    class_column: Array,
    class_points: Array,
    final_start: Array,
    final_column: Array,
    final_points: Array,
    final_face_points: Array,
    succ_start: Array,
    succ_pair: Array,
) -> None:
    """Set ``values[s]`` for every ``s`` in ``states``; their successors must be solved.

    All states must have the same number of used boxes, so they depend only on
    states with one more used box; they are solved ``LANES`` at a time. The GIL is
    released, so the builder runs one call per core on disjoint chunks of states
    from plain Python threads: a ``parallel=True`` (prange) kernel solved no faster
    and took most of the first build's compile time (about 5 of 9 CPU seconds).
    """
    n = states.shape[0]
    batches = (n + LANES - 1) // LANES
    widest = 0
    for k in range(LAST_LEVEL + 1):
        widest = max(widest, level_start[k + 1] - level_start[k])
    n_finals = final_face_points.shape[0]
    n_classes = class_final.shape[0]
    n_asides = aside_pair_start.shape[0] - 1
    box_value = np.empty((N_COLUMNS, LANES))
    book_final = np.empty((n_finals, LANES))
    book_class = np.empty((n_classes, LANES))
    best_even = np.empty((widest, LANES))
    best_odd = np.empty((widest, LANES))
    aside_value = np.empty((n_asides, LANES))
    for b in range(batches):
        for lane in range(LANES):
            i = min(b * LANES + lane, n - 1)  # pad the last batch with a repeat
            _gather(values, states[i], n_single, face_boxes, column_bit, box_value, lane)
        turn_values(
            box_value,
            book_final,
            book_class,
            best_even,
            best_odd,
            aside_value,
            level_start,
            aside_level_start,
            aside_pair_start,
            pair_class,
            pair_probability,
            class_final,
            class_start,
            class_column,
            class_points,
            final_start,
            final_column,
            final_points,
            final_face_points,
            succ_start,
            succ_pair,
        )
        for lane in range(LANES):
            i = b * LANES + lane
            if i < n:
                values[states[i]] = aside_value[0, lane]
