"""Compiled turn DP of the Wurfeltod solver (numba). GENERATED: do not edit.

Written by :mod:`.kernel_source` (edit its template, then run
``python -m gamenight.games.wurfeltod.solver.kernel_source``).

:func:`solve_states` solves the turns of ``LANES`` states at once; each lane is
its own local variable, so the per-lane work stays in registers and compiles to
SIMD instructions (LLVM's SLP vectorizer, switched on for these functions only
in :func:`ready`). The states of one batch share the turn's structure (see
:mod:`.structure`) and differ only in ``box_value[c, lane]``, the value of the
rest of the game after booking category column ``c`` (``CLOSED`` when that
category has no open box).

Per turn (W2): after a roll with aside ``A`` and roll ``R`` the player books an
open box (W3), or sets aside ``A < A' < A + R`` and rolls the rest; after the
first roll they may also scratch. ``best[p]`` holds, for each pair ``p`` of a
level, the best aside value reachable from it (first without, then with its own
aside), so a whole level of keep choices costs one max per distinct rolled value.

Compiled code is cached in gamenight's cache directory (``<cache>/numba``, see
:func:`~.table.cache_root`), never next to the installed sources, so a
read-only install works. The directory is given to numba for these functions
only: ``numba.config.CACHE_DIR`` is set while they are decorated (numba picks
each function's cache locator then) and restored at once.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
from numba import njit

from gamenight.games.wurfeltod.categories import CATEGORIES, WURFELTOD_PENALTY, Category
from gamenight.games.wurfeltod.solver.table import cache_root

__all__ = ["CLOSED", "LANES", "numba_cache_dir", "ready", "solve_states", "turn_values"]

LANES = 16
CLOSED = -1.0e18  # value of a closed box; finite, so fastmath may assume no infinities
PENALTY = float(WURFELTOD_PENALTY)  # W3
N_COLUMNS = len(CATEGORIES)
FACE = CATEGORIES.index(Category.FACE_VALUE)
LAST_LEVEL = 5  # five dice aside: one die rolled, the player must book (W2)
U: Any = np.intp  # structure indices are uint32: widened, LLVM knows them non-negative

Array = Any  # numba arrays are untyped for mypy
F = TypeVar("F", bound=Callable[..., Any])


def numba_cache_dir() -> str:
    """Where the compiled kernels are cached: ``<gamenight cache>/numba``."""
    return os.path.join(cache_root(), "numba")


def _jit(*, fastmath: bool = False) -> Callable[[F], F]:
    """``numba.njit`` (cached, GIL released) that keeps the Python signature visible
    to mypy and caches the compiled code in :func:`numba_cache_dir` (for this
    function only)."""
    decorate = njit(cache=True, fastmath=fastmath, nogil=True)

    def jit(function: F) -> F:
        config: Any = numba.config
        before = config.CACHE_DIR
        config.CACHE_DIR = numba_cache_dir()
        try:  # numba chooses the function's cache locator now, from CACHE_DIR
            return cast(F, decorate(function))
        finally:
            config.CACHE_DIR = before

    return jit


@_jit(fastmath=True)
def _bookings(
    box_value: Array,
    book_final: Array,
    book_class: Array,
    extra: Array,
    class_final: Array,
    class_start: Array,
    class_column: Array,
    class_points: Array,
    final_start: Array,
    final_column: Array,
    final_points: Array,
    final_face_points: Array,
) -> None:
    """The best booking of each booking class, and in ``extra[0]`` the best scratch."""
    t0 = box_value[0, 0]
    t1 = box_value[0, 1]
    t2 = box_value[0, 2]
    t3 = box_value[0, 3]
    t4 = box_value[0, 4]
    t5 = box_value[0, 5]
    t6 = box_value[0, 6]
    t7 = box_value[0, 7]
    t8 = box_value[0, 8]
    t9 = box_value[0, 9]
    t10 = box_value[0, 10]
    t11 = box_value[0, 11]
    t12 = box_value[0, 12]
    t13 = box_value[0, 13]
    t14 = box_value[0, 14]
    t15 = box_value[0, 15]
    for c in range(1, N_COLUMNS):
        t0 = max(t0, box_value[c, 0])  # best scratch (W2)
        t1 = max(t1, box_value[c, 1])  # best scratch (W2)
        t2 = max(t2, box_value[c, 2])  # best scratch (W2)
        t3 = max(t3, box_value[c, 3])  # best scratch (W2)
        t4 = max(t4, box_value[c, 4])  # best scratch (W2)
        t5 = max(t5, box_value[c, 5])  # best scratch (W2)
        t6 = max(t6, box_value[c, 6])  # best scratch (W2)
        t7 = max(t7, box_value[c, 7])  # best scratch (W2)
        t8 = max(t8, box_value[c, 8])  # best scratch (W2)
        t9 = max(t9, box_value[c, 9])  # best scratch (W2)
        t10 = max(t10, box_value[c, 10])  # best scratch (W2)
        t11 = max(t11, box_value[c, 11])  # best scratch (W2)
        t12 = max(t12, box_value[c, 12])  # best scratch (W2)
        t13 = max(t13, box_value[c, 13])  # best scratch (W2)
        t14 = max(t14, box_value[c, 14])  # best scratch (W2)
        t15 = max(t15, box_value[c, 15])  # best scratch (W2)
    extra[0, 0] = t0
    extra[0, 1] = t1
    extra[0, 2] = t2
    extra[0, 3] = t3
    extra[0, 4] = t4
    extra[0, 5] = t5
    extra[0, 6] = t6
    extra[0, 7] = t7
    extra[0, 8] = t8
    extra[0, 9] = t9
    extra[0, 10] = t10
    extra[0, 11] = t11
    extra[0, 12] = t12
    extra[0, 13] = t13
    extra[0, 14] = t14
    extra[0, 15] = t15
    v0 = box_value[FACE, 0]
    v1 = box_value[FACE, 1]
    v2 = box_value[FACE, 2]
    v3 = box_value[FACE, 3]
    v4 = box_value[FACE, 4]
    v5 = box_value[FACE, 5]
    v6 = box_value[FACE, 6]
    v7 = box_value[FACE, 7]
    v8 = box_value[FACE, 8]
    v9 = box_value[FACE, 9]
    v10 = box_value[FACE, 10]
    v11 = box_value[FACE, 11]
    v12 = box_value[FACE, 12]
    v13 = box_value[FACE, 13]
    v14 = box_value[FACE, 14]
    v15 = box_value[FACE, 15]
    t0 -= PENALTY  # booking any open box with a Wurfeltod (W3)
    t1 -= PENALTY  # booking any open box with a Wurfeltod (W3)
    t2 -= PENALTY  # booking any open box with a Wurfeltod (W3)
    t3 -= PENALTY  # booking any open box with a Wurfeltod (W3)
    t4 -= PENALTY  # booking any open box with a Wurfeltod (W3)
    t5 -= PENALTY  # booking any open box with a Wurfeltod (W3)
    t6 -= PENALTY  # booking any open box with a Wurfeltod (W3)
    t7 -= PENALTY  # booking any open box with a Wurfeltod (W3)
    t8 -= PENALTY  # booking any open box with a Wurfeltod (W3)
    t9 -= PENALTY  # booking any open box with a Wurfeltod (W3)
    t10 -= PENALTY  # booking any open box with a Wurfeltod (W3)
    t11 -= PENALTY  # booking any open box with a Wurfeltod (W3)
    t12 -= PENALTY  # booking any open box with a Wurfeltod (W3)
    t13 -= PENALTY  # booking any open box with a Wurfeltod (W3)
    t14 -= PENALTY  # booking any open box with a Wurfeltod (W3)
    t15 -= PENALTY  # booking any open box with a Wurfeltod (W3)

    # Best booking that brings a Wurfeltod, or of Face Value Total: per final multiset.
    for f in range(final_face_points.shape[0]):
        face = final_face_points[f]
        b0 = max(t0, face + v0)
        b1 = max(t1, face + v1)
        b2 = max(t2, face + v2)
        b3 = max(t3, face + v3)
        b4 = max(t4, face + v4)
        b5 = max(t5, face + v5)
        b6 = max(t6, face + v6)
        b7 = max(t7, face + v7)
        b8 = max(t8, face + v8)
        b9 = max(t9, face + v9)
        b10 = max(t10, face + v10)
        b11 = max(t11, face + v11)
        b12 = max(t12, face + v12)
        b13 = max(t13, face + v13)
        b14 = max(t14, face + v14)
        b15 = max(t15, face + v15)
        for e in range(U(final_start[f]), U(final_start[f + 1])):
            c = U(final_column[e])
            points = final_points[e]
            b0 = max(b0, points + box_value[c, 0])
            b1 = max(b1, points + box_value[c, 1])
            b2 = max(b2, points + box_value[c, 2])
            b3 = max(b3, points + box_value[c, 3])
            b4 = max(b4, points + box_value[c, 4])
            b5 = max(b5, points + box_value[c, 5])
            b6 = max(b6, points + box_value[c, 6])
            b7 = max(b7, points + box_value[c, 7])
            b8 = max(b8, points + box_value[c, 8])
            b9 = max(b9, points + box_value[c, 9])
            b10 = max(b10, points + box_value[c, 10])
            b11 = max(b11, points + box_value[c, 11])
            b12 = max(b12, points + box_value[c, 12])
            b13 = max(b13, points + box_value[c, 13])
            b14 = max(b14, points + box_value[c, 14])
            b15 = max(b15, points + box_value[c, 15])
        book_final[f, 0] = b0
        book_final[f, 1] = b1
        book_final[f, 2] = b2
        book_final[f, 3] = b3
        book_final[f, 4] = b4
        book_final[f, 5] = b5
        book_final[f, 6] = b6
        book_final[f, 7] = b7
        book_final[f, 8] = b8
        book_final[f, 9] = b9
        book_final[f, 10] = b10
        book_final[f, 11] = b11
        book_final[f, 12] = b12
        book_final[f, 13] = b13
        book_final[f, 14] = b14
        book_final[f, 15] = b15
    # Best booking of all: per booking class, adding the Wurfeltod-free categories.
    for cl in range(class_final.shape[0]):
        f = U(class_final[cl])
        b0 = book_final[f, 0]
        b1 = book_final[f, 1]
        b2 = book_final[f, 2]
        b3 = book_final[f, 3]
        b4 = book_final[f, 4]
        b5 = book_final[f, 5]
        b6 = book_final[f, 6]
        b7 = book_final[f, 7]
        b8 = book_final[f, 8]
        b9 = book_final[f, 9]
        b10 = book_final[f, 10]
        b11 = book_final[f, 11]
        b12 = book_final[f, 12]
        b13 = book_final[f, 13]
        b14 = book_final[f, 14]
        b15 = book_final[f, 15]
        for e in range(U(class_start[cl]), U(class_start[cl + 1])):
            c = U(class_column[e])
            points = class_points[e]
            b0 = max(b0, points + box_value[c, 0])
            b1 = max(b1, points + box_value[c, 1])
            b2 = max(b2, points + box_value[c, 2])
            b3 = max(b3, points + box_value[c, 3])
            b4 = max(b4, points + box_value[c, 4])
            b5 = max(b5, points + box_value[c, 5])
            b6 = max(b6, points + box_value[c, 6])
            b7 = max(b7, points + box_value[c, 7])
            b8 = max(b8, points + box_value[c, 8])
            b9 = max(b9, points + box_value[c, 9])
            b10 = max(b10, points + box_value[c, 10])
            b11 = max(b11, points + box_value[c, 11])
            b12 = max(b12, points + box_value[c, 12])
            b13 = max(b13, points + box_value[c, 13])
            b14 = max(b14, points + box_value[c, 14])
            b15 = max(b15, points + box_value[c, 15])
        book_class[cl, 0] = b0
        book_class[cl, 1] = b1
        book_class[cl, 2] = b2
        book_class[cl, 3] = b3
        book_class[cl, 4] = b4
        book_class[cl, 5] = b5
        book_class[cl, 6] = b6
        book_class[cl, 7] = b7
        book_class[cl, 8] = b8
        book_class[cl, 9] = b9
        book_class[cl, 10] = b10
        book_class[cl, 11] = b11
        book_class[cl, 12] = b12
        book_class[cl, 13] = b13
        book_class[cl, 14] = b14
        book_class[cl, 15] = b15


@_jit(fastmath=True)
def _level(
    k: int,
    book_class: Array,
    best: Array,
    aside_value: Array,
    extra: Array,
    aside_level_start: Array,
    aside_pair_start: Array,
    pair_class: Array,
    pair_probability: Array,
    succ_start: Array,
    succ_pair: Array,
) -> None:
    """The asides with ``k`` dice; the level with ``k + 1`` must be done."""
    # The scratch on the first roll (k = 0) only (W2); extra[1] is CLOSED.
    x0 = extra[min(k, 1), 0]
    x1 = extra[min(k, 1), 1]
    x2 = extra[min(k, 1), 2]
    x3 = extra[min(k, 1), 3]
    x4 = extra[min(k, 1), 4]
    x5 = extra[min(k, 1), 5]
    x6 = extra[min(k, 1), 6]
    x7 = extra[min(k, 1), 7]
    x8 = extra[min(k, 1), 8]
    x9 = extra[min(k, 1), 9]
    x10 = extra[min(k, 1), 10]
    x11 = extra[min(k, 1), 11]
    x12 = extra[min(k, 1), 12]
    x13 = extra[min(k, 1), 13]
    x14 = extra[min(k, 1), 14]
    x15 = extra[min(k, 1), 15]
    for a in range(U(aside_level_start[k]), U(aside_level_start[k + 1])):
        w0 = 0.0
        w1 = 0.0
        w2 = 0.0
        w3 = 0.0
        w4 = 0.0
        w5 = 0.0
        w6 = 0.0
        w7 = 0.0
        w8 = 0.0
        w9 = 0.0
        w10 = 0.0
        w11 = 0.0
        w12 = 0.0
        w13 = 0.0
        w14 = 0.0
        w15 = 0.0
        for p in range(U(aside_pair_start[a]), U(aside_pair_start[a + 1])):
            cl = U(pair_class[p])
            pr = pair_probability[p]
            if k == LAST_LEVEL:  # one die rolled: the player must book (W2)
                w0 += pr * book_class[cl, 0]
                w1 += pr * book_class[cl, 1]
                w2 += pr * book_class[cl, 2]
                w3 += pr * book_class[cl, 3]
                w4 += pr * book_class[cl, 4]
                w5 += pr * book_class[cl, 5]
                w6 += pr * book_class[cl, 6]
                w7 += pr * book_class[cl, 7]
                w8 += pr * book_class[cl, 8]
                w9 += pr * book_class[cl, 9]
                w10 += pr * book_class[cl, 10]
                w11 += pr * book_class[cl, 11]
                w12 += pr * book_class[cl, 12]
                w13 += pr * book_class[cl, 13]
                w14 += pr * book_class[cl, 14]
                w15 += pr * book_class[cl, 15]
                continue
            s = U(succ_start[p])
            n = U(succ_pair[s])
            m0 = best[n, 0]
            m1 = best[n, 1]
            m2 = best[n, 2]
            m3 = best[n, 3]
            m4 = best[n, 4]
            m5 = best[n, 5]
            m6 = best[n, 6]
            m7 = best[n, 7]
            m8 = best[n, 8]
            m9 = best[n, 9]
            m10 = best[n, 10]
            m11 = best[n, 11]
            m12 = best[n, 12]
            m13 = best[n, 13]
            m14 = best[n, 14]
            m15 = best[n, 15]
            for e in range(s + 1, U(succ_start[p + 1])):
                n = U(succ_pair[e])
                m0 = max(m0, best[n, 0])
                m1 = max(m1, best[n, 1])
                m2 = max(m2, best[n, 2])
                m3 = max(m3, best[n, 3])
                m4 = max(m4, best[n, 4])
                m5 = max(m5, best[n, 5])
                m6 = max(m6, best[n, 6])
                m7 = max(m7, best[n, 7])
                m8 = max(m8, best[n, 8])
                m9 = max(m9, best[n, 9])
                m10 = max(m10, best[n, 10])
                m11 = max(m11, best[n, 11])
                m12 = max(m12, best[n, 12])
                m13 = max(m13, best[n, 13])
                m14 = max(m14, best[n, 14])
                m15 = max(m15, best[n, 15])
            best[p, 0] = m0
            best[p, 1] = m1
            best[p, 2] = m2
            best[p, 3] = m3
            best[p, 4] = m4
            best[p, 5] = m5
            best[p, 6] = m6
            best[p, 7] = m7
            best[p, 8] = m8
            best[p, 9] = m9
            best[p, 10] = m10
            best[p, 11] = m11
            best[p, 12] = m12
            best[p, 13] = m13
            best[p, 14] = m14
            best[p, 15] = m15
            w0 += pr * max(max(book_class[cl, 0], m0), x0)
            w1 += pr * max(max(book_class[cl, 1], m1), x1)
            w2 += pr * max(max(book_class[cl, 2], m2), x2)
            w3 += pr * max(max(book_class[cl, 3], m3), x3)
            w4 += pr * max(max(book_class[cl, 4], m4), x4)
            w5 += pr * max(max(book_class[cl, 5], m5), x5)
            w6 += pr * max(max(book_class[cl, 6], m6), x6)
            w7 += pr * max(max(book_class[cl, 7], m7), x7)
            w8 += pr * max(max(book_class[cl, 8], m8), x8)
            w9 += pr * max(max(book_class[cl, 9], m9), x9)
            w10 += pr * max(max(book_class[cl, 10], m10), x10)
            w11 += pr * max(max(book_class[cl, 11], m11), x11)
            w12 += pr * max(max(book_class[cl, 12], m12), x12)
            w13 += pr * max(max(book_class[cl, 13], m13), x13)
            w14 += pr * max(max(book_class[cl, 14], m14), x14)
            w15 += pr * max(max(book_class[cl, 15], m15), x15)
        aside_value[a, 0] = w0
        aside_value[a, 1] = w1
        aside_value[a, 2] = w2
        aside_value[a, 3] = w3
        aside_value[a, 4] = w4
        aside_value[a, 5] = w5
        aside_value[a, 6] = w6
        aside_value[a, 7] = w7
        aside_value[a, 8] = w8
        aside_value[a, 9] = w9
        aside_value[a, 10] = w10
        aside_value[a, 11] = w11
        aside_value[a, 12] = w12
        aside_value[a, 13] = w13
        aside_value[a, 14] = w14
        aside_value[a, 15] = w15
        # Best aside reachable from each pair of this aside, this aside included.
        for p in range(U(aside_pair_start[a]), U(aside_pair_start[a + 1])):
            if k == LAST_LEVEL:
                best[p, 0] = w0
                best[p, 1] = w1
                best[p, 2] = w2
                best[p, 3] = w3
                best[p, 4] = w4
                best[p, 5] = w5
                best[p, 6] = w6
                best[p, 7] = w7
                best[p, 8] = w8
                best[p, 9] = w9
                best[p, 10] = w10
                best[p, 11] = w11
                best[p, 12] = w12
                best[p, 13] = w13
                best[p, 14] = w14
                best[p, 15] = w15
            else:
                best[p, 0] = max(best[p, 0], w0)
                best[p, 1] = max(best[p, 1], w1)
                best[p, 2] = max(best[p, 2], w2)
                best[p, 3] = max(best[p, 3], w3)
                best[p, 4] = max(best[p, 4], w4)
                best[p, 5] = max(best[p, 5], w5)
                best[p, 6] = max(best[p, 6], w6)
                best[p, 7] = max(best[p, 7], w7)
                best[p, 8] = max(best[p, 8], w8)
                best[p, 9] = max(best[p, 9], w9)
                best[p, 10] = max(best[p, 10], w10)
                best[p, 11] = max(best[p, 11], w11)
                best[p, 12] = max(best[p, 12], w12)
                best[p, 13] = max(best[p, 13], w13)
                best[p, 14] = max(best[p, 14], w14)
                best[p, 15] = max(best[p, 15], w15)


@_jit()
def _turn(
    box_value: Array,
    book_final: Array,
    book_class: Array,
    best: Array,
    aside_value: Array,
    extra: Array,
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

    ``aside_value[0]`` (nothing aside: the first roll, where a scratch is allowed)
    is the value of the whole turn. ``book_final``, ``book_class``, ``best`` and
    ``extra[0]`` are scratch space; ``extra[1]`` must hold ``CLOSED``.
    """
    _bookings(
        box_value,
        book_final,
        book_class,
        extra,
        class_final,
        class_start,
        class_column,
        class_points,
        final_start,
        final_column,
        final_points,
        final_face_points,
    )
    for k in range(LAST_LEVEL, -1, -1):
        _level(
            k,
            book_class,
            best,
            aside_value,
            extra,
            aside_level_start,
            aside_pair_start,
            pair_class,
            pair_probability,
            succ_start,
            succ_pair,
        )


@_jit()
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


@_jit()
def _solve_states(
    states: Array,
    values: Array,
    n_single: int,
    face_boxes: int,
    column_bit: Array,
    box_value: Array,
    book_final: Array,
    book_class: Array,
    best: Array,
    aside_value: Array,
    extra: Array,
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
    n = states.shape[0]
    for b in range((n + LANES - 1) // LANES):
        for lane in range(LANES):
            i = min(b * LANES + lane, n - 1)  # pad the last batch with a repeat
            _gather(values, states[i], n_single, face_boxes, column_bit, box_value, lane)
        _turn(
            box_value,
            book_final,
            book_class,
            best,
            aside_value,
            extra,
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


def scratch(structure: tuple[Array, ...]) -> tuple[Array, ...]:
    """The arrays :func:`_turn` writes (box values, bookings, best asides, aside
    values, the scratch row over a row of ``CLOSED``), for one call of a kernel."""
    level_start, _, aside_pair_start, _, _, class_final, *_, final_face_points, _, _ = structure
    return (
        np.empty((N_COLUMNS, LANES)),
        np.empty((len(final_face_points), LANES)),
        np.empty((len(class_final), LANES)),
        np.empty((int(level_start[LAST_LEVEL + 1]), LANES)),
        np.empty((len(aside_pair_start) - 1, LANES)),
        np.full((2, LANES), CLOSED),
    )


_lock = threading.Lock()
_frozen: set[str] = set()  # the entries compiled (or loaded) in this process


def _call(entry: Any, *args: Any) -> Any:
    """Call a kernel entry; the first call in a process compiles it (or loads it
    from the cache).

    numba leaves LLVM's SLP vectorizer off by default (numba#8705, a miscompile
    elsewhere); these kernels need it, so it is on while one compiles and off
    again after. Then compiling is switched off for the entry, so no later call
    can build (and cache) a version without it: every call has the same types.
    """
    name = entry.__name__
    if name not in _frozen:
        with _lock:
            if name not in _frozen:
                config: Any = numba.config
                before = config.SLP_VECTORIZE
                config.SLP_VECTORIZE = 1
                try:
                    result = entry(*args)
                finally:
                    config.SLP_VECTORIZE = before
                entry.disable_compile()
                _frozen.add(name)
                return result
    return entry(*args)


def ready(structure: tuple[Array, ...]) -> None:
    """Compile :func:`solve_states` (or load it from the cache) now, on no states:
    the builder does it once before its threads start."""
    column_bit = np.full(N_COLUMNS, -1, dtype=np.int64)
    solve_states(np.zeros(0, dtype=np.int64), np.zeros(1), 0, 0, column_bit, structure)


def solve_states(
    states: Array,
    values: Array,
    n_single: int,
    face_boxes: int,
    column_bit: Array,
    structure: tuple[Array, ...],
) -> None:
    """Set ``values[s]`` for every ``s`` in ``states``; their successors must be solved.

    All states must have the same number of used boxes, so they depend only on
    states with one more used box; they are solved ``LANES`` at a time. The GIL is
    released, so the builder runs one call per core on disjoint chunks of states
    from plain Python threads (a ``parallel=True`` kernel was no faster and took
    most of the first build's compile time).
    """
    buffers = scratch(structure)
    _call(_solve_states, states, values, n_single, face_boxes, column_bit, *buffers, *structure)


def turn_values(column_value: Array, structure: tuple[Array, ...]) -> Array:
    """The value of rolling with each aside (by aside id) in one state, from
    ``column_value[c]``, the value after booking column ``c`` (``CLOSED`` if none).
    The turn kernel itself is the entry (every lane the same state), compiled or
    loaded from the cache on the first query; a build that compiled it leaves it ready."""
    box_value, *buffers = scratch(structure)
    box_value[:] = column_value[:, np.newaxis]
    _call(_turn, box_value, *buffers, *structure)
    return buffers[3][:, 0].copy()  # aside_value, lane 0
