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

LANES = 32
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
def _turn(
    box_value: Array,
    book_final: Array,
    book_class: Array,
    best: Array,
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

    ``aside_value[0]`` (nothing aside: the first roll, where a scratch is allowed)
    is the value of the whole turn. ``book_final``, ``book_class`` and ``best`` are
    scratch space.
    """
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
    t16 = box_value[0, 16]
    t17 = box_value[0, 17]
    t18 = box_value[0, 18]
    t19 = box_value[0, 19]
    t20 = box_value[0, 20]
    t21 = box_value[0, 21]
    t22 = box_value[0, 22]
    t23 = box_value[0, 23]
    t24 = box_value[0, 24]
    t25 = box_value[0, 25]
    t26 = box_value[0, 26]
    t27 = box_value[0, 27]
    t28 = box_value[0, 28]
    t29 = box_value[0, 29]
    t30 = box_value[0, 30]
    t31 = box_value[0, 31]
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
        t16 = max(t16, box_value[c, 16])  # best scratch (W2)
        t17 = max(t17, box_value[c, 17])  # best scratch (W2)
        t18 = max(t18, box_value[c, 18])  # best scratch (W2)
        t19 = max(t19, box_value[c, 19])  # best scratch (W2)
        t20 = max(t20, box_value[c, 20])  # best scratch (W2)
        t21 = max(t21, box_value[c, 21])  # best scratch (W2)
        t22 = max(t22, box_value[c, 22])  # best scratch (W2)
        t23 = max(t23, box_value[c, 23])  # best scratch (W2)
        t24 = max(t24, box_value[c, 24])  # best scratch (W2)
        t25 = max(t25, box_value[c, 25])  # best scratch (W2)
        t26 = max(t26, box_value[c, 26])  # best scratch (W2)
        t27 = max(t27, box_value[c, 27])  # best scratch (W2)
        t28 = max(t28, box_value[c, 28])  # best scratch (W2)
        t29 = max(t29, box_value[c, 29])  # best scratch (W2)
        t30 = max(t30, box_value[c, 30])  # best scratch (W2)
        t31 = max(t31, box_value[c, 31])  # best scratch (W2)
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
    v16 = box_value[FACE, 16]
    v17 = box_value[FACE, 17]
    v18 = box_value[FACE, 18]
    v19 = box_value[FACE, 19]
    v20 = box_value[FACE, 20]
    v21 = box_value[FACE, 21]
    v22 = box_value[FACE, 22]
    v23 = box_value[FACE, 23]
    v24 = box_value[FACE, 24]
    v25 = box_value[FACE, 25]
    v26 = box_value[FACE, 26]
    v27 = box_value[FACE, 27]
    v28 = box_value[FACE, 28]
    v29 = box_value[FACE, 29]
    v30 = box_value[FACE, 30]
    v31 = box_value[FACE, 31]

    # Best booking that brings a Wurfeltod, or of Face Value Total: per final multiset.
    for f in range(final_face_points.shape[0]):
        face = final_face_points[f]
        b0 = max(t0 - PENALTY, face + v0)  # any open box with a Wurfeltod (W3)
        b1 = max(t1 - PENALTY, face + v1)  # any open box with a Wurfeltod (W3)
        b2 = max(t2 - PENALTY, face + v2)  # any open box with a Wurfeltod (W3)
        b3 = max(t3 - PENALTY, face + v3)  # any open box with a Wurfeltod (W3)
        b4 = max(t4 - PENALTY, face + v4)  # any open box with a Wurfeltod (W3)
        b5 = max(t5 - PENALTY, face + v5)  # any open box with a Wurfeltod (W3)
        b6 = max(t6 - PENALTY, face + v6)  # any open box with a Wurfeltod (W3)
        b7 = max(t7 - PENALTY, face + v7)  # any open box with a Wurfeltod (W3)
        b8 = max(t8 - PENALTY, face + v8)  # any open box with a Wurfeltod (W3)
        b9 = max(t9 - PENALTY, face + v9)  # any open box with a Wurfeltod (W3)
        b10 = max(t10 - PENALTY, face + v10)  # any open box with a Wurfeltod (W3)
        b11 = max(t11 - PENALTY, face + v11)  # any open box with a Wurfeltod (W3)
        b12 = max(t12 - PENALTY, face + v12)  # any open box with a Wurfeltod (W3)
        b13 = max(t13 - PENALTY, face + v13)  # any open box with a Wurfeltod (W3)
        b14 = max(t14 - PENALTY, face + v14)  # any open box with a Wurfeltod (W3)
        b15 = max(t15 - PENALTY, face + v15)  # any open box with a Wurfeltod (W3)
        b16 = max(t16 - PENALTY, face + v16)  # any open box with a Wurfeltod (W3)
        b17 = max(t17 - PENALTY, face + v17)  # any open box with a Wurfeltod (W3)
        b18 = max(t18 - PENALTY, face + v18)  # any open box with a Wurfeltod (W3)
        b19 = max(t19 - PENALTY, face + v19)  # any open box with a Wurfeltod (W3)
        b20 = max(t20 - PENALTY, face + v20)  # any open box with a Wurfeltod (W3)
        b21 = max(t21 - PENALTY, face + v21)  # any open box with a Wurfeltod (W3)
        b22 = max(t22 - PENALTY, face + v22)  # any open box with a Wurfeltod (W3)
        b23 = max(t23 - PENALTY, face + v23)  # any open box with a Wurfeltod (W3)
        b24 = max(t24 - PENALTY, face + v24)  # any open box with a Wurfeltod (W3)
        b25 = max(t25 - PENALTY, face + v25)  # any open box with a Wurfeltod (W3)
        b26 = max(t26 - PENALTY, face + v26)  # any open box with a Wurfeltod (W3)
        b27 = max(t27 - PENALTY, face + v27)  # any open box with a Wurfeltod (W3)
        b28 = max(t28 - PENALTY, face + v28)  # any open box with a Wurfeltod (W3)
        b29 = max(t29 - PENALTY, face + v29)  # any open box with a Wurfeltod (W3)
        b30 = max(t30 - PENALTY, face + v30)  # any open box with a Wurfeltod (W3)
        b31 = max(t31 - PENALTY, face + v31)  # any open box with a Wurfeltod (W3)
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
            b16 = max(b16, points + box_value[c, 16])
            b17 = max(b17, points + box_value[c, 17])
            b18 = max(b18, points + box_value[c, 18])
            b19 = max(b19, points + box_value[c, 19])
            b20 = max(b20, points + box_value[c, 20])
            b21 = max(b21, points + box_value[c, 21])
            b22 = max(b22, points + box_value[c, 22])
            b23 = max(b23, points + box_value[c, 23])
            b24 = max(b24, points + box_value[c, 24])
            b25 = max(b25, points + box_value[c, 25])
            b26 = max(b26, points + box_value[c, 26])
            b27 = max(b27, points + box_value[c, 27])
            b28 = max(b28, points + box_value[c, 28])
            b29 = max(b29, points + box_value[c, 29])
            b30 = max(b30, points + box_value[c, 30])
            b31 = max(b31, points + box_value[c, 31])
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
        book_final[f, 16] = b16
        book_final[f, 17] = b17
        book_final[f, 18] = b18
        book_final[f, 19] = b19
        book_final[f, 20] = b20
        book_final[f, 21] = b21
        book_final[f, 22] = b22
        book_final[f, 23] = b23
        book_final[f, 24] = b24
        book_final[f, 25] = b25
        book_final[f, 26] = b26
        book_final[f, 27] = b27
        book_final[f, 28] = b28
        book_final[f, 29] = b29
        book_final[f, 30] = b30
        book_final[f, 31] = b31
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
        b16 = book_final[f, 16]
        b17 = book_final[f, 17]
        b18 = book_final[f, 18]
        b19 = book_final[f, 19]
        b20 = book_final[f, 20]
        b21 = book_final[f, 21]
        b22 = book_final[f, 22]
        b23 = book_final[f, 23]
        b24 = book_final[f, 24]
        b25 = book_final[f, 25]
        b26 = book_final[f, 26]
        b27 = book_final[f, 27]
        b28 = book_final[f, 28]
        b29 = book_final[f, 29]
        b30 = book_final[f, 30]
        b31 = book_final[f, 31]
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
            b16 = max(b16, points + box_value[c, 16])
            b17 = max(b17, points + box_value[c, 17])
            b18 = max(b18, points + box_value[c, 18])
            b19 = max(b19, points + box_value[c, 19])
            b20 = max(b20, points + box_value[c, 20])
            b21 = max(b21, points + box_value[c, 21])
            b22 = max(b22, points + box_value[c, 22])
            b23 = max(b23, points + box_value[c, 23])
            b24 = max(b24, points + box_value[c, 24])
            b25 = max(b25, points + box_value[c, 25])
            b26 = max(b26, points + box_value[c, 26])
            b27 = max(b27, points + box_value[c, 27])
            b28 = max(b28, points + box_value[c, 28])
            b29 = max(b29, points + box_value[c, 29])
            b30 = max(b30, points + box_value[c, 30])
            b31 = max(b31, points + box_value[c, 31])
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
        book_class[cl, 16] = b16
        book_class[cl, 17] = b17
        book_class[cl, 18] = b18
        book_class[cl, 19] = b19
        book_class[cl, 20] = b20
        book_class[cl, 21] = b21
        book_class[cl, 22] = b22
        book_class[cl, 23] = b23
        book_class[cl, 24] = b24
        book_class[cl, 25] = b25
        book_class[cl, 26] = b26
        book_class[cl, 27] = b27
        book_class[cl, 28] = b28
        book_class[cl, 29] = b29
        book_class[cl, 30] = b30
        book_class[cl, 31] = b31

    for k in range(LAST_LEVEL, -1, -1):
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
            w16 = 0.0
            w17 = 0.0
            w18 = 0.0
            w19 = 0.0
            w20 = 0.0
            w21 = 0.0
            w22 = 0.0
            w23 = 0.0
            w24 = 0.0
            w25 = 0.0
            w26 = 0.0
            w27 = 0.0
            w28 = 0.0
            w29 = 0.0
            w30 = 0.0
            w31 = 0.0
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
                    w16 += pr * book_class[cl, 16]
                    w17 += pr * book_class[cl, 17]
                    w18 += pr * book_class[cl, 18]
                    w19 += pr * book_class[cl, 19]
                    w20 += pr * book_class[cl, 20]
                    w21 += pr * book_class[cl, 21]
                    w22 += pr * book_class[cl, 22]
                    w23 += pr * book_class[cl, 23]
                    w24 += pr * book_class[cl, 24]
                    w25 += pr * book_class[cl, 25]
                    w26 += pr * book_class[cl, 26]
                    w27 += pr * book_class[cl, 27]
                    w28 += pr * book_class[cl, 28]
                    w29 += pr * book_class[cl, 29]
                    w30 += pr * book_class[cl, 30]
                    w31 += pr * book_class[cl, 31]
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
                m16 = best[n, 16]
                m17 = best[n, 17]
                m18 = best[n, 18]
                m19 = best[n, 19]
                m20 = best[n, 20]
                m21 = best[n, 21]
                m22 = best[n, 22]
                m23 = best[n, 23]
                m24 = best[n, 24]
                m25 = best[n, 25]
                m26 = best[n, 26]
                m27 = best[n, 27]
                m28 = best[n, 28]
                m29 = best[n, 29]
                m30 = best[n, 30]
                m31 = best[n, 31]
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
                    m16 = max(m16, best[n, 16])
                    m17 = max(m17, best[n, 17])
                    m18 = max(m18, best[n, 18])
                    m19 = max(m19, best[n, 19])
                    m20 = max(m20, best[n, 20])
                    m21 = max(m21, best[n, 21])
                    m22 = max(m22, best[n, 22])
                    m23 = max(m23, best[n, 23])
                    m24 = max(m24, best[n, 24])
                    m25 = max(m25, best[n, 25])
                    m26 = max(m26, best[n, 26])
                    m27 = max(m27, best[n, 27])
                    m28 = max(m28, best[n, 28])
                    m29 = max(m29, best[n, 29])
                    m30 = max(m30, best[n, 30])
                    m31 = max(m31, best[n, 31])
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
                best[p, 16] = m16
                best[p, 17] = m17
                best[p, 18] = m18
                best[p, 19] = m19
                best[p, 20] = m20
                best[p, 21] = m21
                best[p, 22] = m22
                best[p, 23] = m23
                best[p, 24] = m24
                best[p, 25] = m25
                best[p, 26] = m26
                best[p, 27] = m27
                best[p, 28] = m28
                best[p, 29] = m29
                best[p, 30] = m30
                best[p, 31] = m31
                q0 = max(book_class[cl, 0], m0)
                q1 = max(book_class[cl, 1], m1)
                q2 = max(book_class[cl, 2], m2)
                q3 = max(book_class[cl, 3], m3)
                q4 = max(book_class[cl, 4], m4)
                q5 = max(book_class[cl, 5], m5)
                q6 = max(book_class[cl, 6], m6)
                q7 = max(book_class[cl, 7], m7)
                q8 = max(book_class[cl, 8], m8)
                q9 = max(book_class[cl, 9], m9)
                q10 = max(book_class[cl, 10], m10)
                q11 = max(book_class[cl, 11], m11)
                q12 = max(book_class[cl, 12], m12)
                q13 = max(book_class[cl, 13], m13)
                q14 = max(book_class[cl, 14], m14)
                q15 = max(book_class[cl, 15], m15)
                q16 = max(book_class[cl, 16], m16)
                q17 = max(book_class[cl, 17], m17)
                q18 = max(book_class[cl, 18], m18)
                q19 = max(book_class[cl, 19], m19)
                q20 = max(book_class[cl, 20], m20)
                q21 = max(book_class[cl, 21], m21)
                q22 = max(book_class[cl, 22], m22)
                q23 = max(book_class[cl, 23], m23)
                q24 = max(book_class[cl, 24], m24)
                q25 = max(book_class[cl, 25], m25)
                q26 = max(book_class[cl, 26], m26)
                q27 = max(book_class[cl, 27], m27)
                q28 = max(book_class[cl, 28], m28)
                q29 = max(book_class[cl, 29], m29)
                q30 = max(book_class[cl, 30], m30)
                q31 = max(book_class[cl, 31], m31)
                if k == 0:
                    q0 = max(q0, t0)
                    q1 = max(q1, t1)
                    q2 = max(q2, t2)
                    q3 = max(q3, t3)
                    q4 = max(q4, t4)
                    q5 = max(q5, t5)
                    q6 = max(q6, t6)
                    q7 = max(q7, t7)
                    q8 = max(q8, t8)
                    q9 = max(q9, t9)
                    q10 = max(q10, t10)
                    q11 = max(q11, t11)
                    q12 = max(q12, t12)
                    q13 = max(q13, t13)
                    q14 = max(q14, t14)
                    q15 = max(q15, t15)
                    q16 = max(q16, t16)
                    q17 = max(q17, t17)
                    q18 = max(q18, t18)
                    q19 = max(q19, t19)
                    q20 = max(q20, t20)
                    q21 = max(q21, t21)
                    q22 = max(q22, t22)
                    q23 = max(q23, t23)
                    q24 = max(q24, t24)
                    q25 = max(q25, t25)
                    q26 = max(q26, t26)
                    q27 = max(q27, t27)
                    q28 = max(q28, t28)
                    q29 = max(q29, t29)
                    q30 = max(q30, t30)
                    q31 = max(q31, t31)
                w0 += pr * q0
                w1 += pr * q1
                w2 += pr * q2
                w3 += pr * q3
                w4 += pr * q4
                w5 += pr * q5
                w6 += pr * q6
                w7 += pr * q7
                w8 += pr * q8
                w9 += pr * q9
                w10 += pr * q10
                w11 += pr * q11
                w12 += pr * q12
                w13 += pr * q13
                w14 += pr * q14
                w15 += pr * q15
                w16 += pr * q16
                w17 += pr * q17
                w18 += pr * q18
                w19 += pr * q19
                w20 += pr * q20
                w21 += pr * q21
                w22 += pr * q22
                w23 += pr * q23
                w24 += pr * q24
                w25 += pr * q25
                w26 += pr * q26
                w27 += pr * q27
                w28 += pr * q28
                w29 += pr * q29
                w30 += pr * q30
                w31 += pr * q31
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
            aside_value[a, 16] = w16
            aside_value[a, 17] = w17
            aside_value[a, 18] = w18
            aside_value[a, 19] = w19
            aside_value[a, 20] = w20
            aside_value[a, 21] = w21
            aside_value[a, 22] = w22
            aside_value[a, 23] = w23
            aside_value[a, 24] = w24
            aside_value[a, 25] = w25
            aside_value[a, 26] = w26
            aside_value[a, 27] = w27
            aside_value[a, 28] = w28
            aside_value[a, 29] = w29
            aside_value[a, 30] = w30
            aside_value[a, 31] = w31
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
                    best[p, 16] = w16
                    best[p, 17] = w17
                    best[p, 18] = w18
                    best[p, 19] = w19
                    best[p, 20] = w20
                    best[p, 21] = w21
                    best[p, 22] = w22
                    best[p, 23] = w23
                    best[p, 24] = w24
                    best[p, 25] = w25
                    best[p, 26] = w26
                    best[p, 27] = w27
                    best[p, 28] = w28
                    best[p, 29] = w29
                    best[p, 30] = w30
                    best[p, 31] = w31
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
                    best[p, 16] = max(best[p, 16], w16)
                    best[p, 17] = max(best[p, 17], w17)
                    best[p, 18] = max(best[p, 18], w18)
                    best[p, 19] = max(best[p, 19], w19)
                    best[p, 20] = max(best[p, 20], w20)
                    best[p, 21] = max(best[p, 21], w21)
                    best[p, 22] = max(best[p, 22], w22)
                    best[p, 23] = max(best[p, 23], w23)
                    best[p, 24] = max(best[p, 24], w24)
                    best[p, 25] = max(best[p, 25], w25)
                    best[p, 26] = max(best[p, 26], w26)
                    best[p, 27] = max(best[p, 27], w27)
                    best[p, 28] = max(best[p, 28], w28)
                    best[p, 29] = max(best[p, 29], w29)
                    best[p, 30] = max(best[p, 30], w30)
                    best[p, 31] = max(best[p, 31], w31)


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
def _scratch(
    level_start: Array, aside_pair_start: Array, class_final: Array, final_face_points: Array
) -> tuple[Array, Array, Array, Array, Array]:
    """The arrays :func:`_turn` writes: box values, bookings, best asides, aside values."""
    return (
        np.empty((N_COLUMNS, LANES)),
        np.empty((final_face_points.shape[0], LANES)),
        np.empty((class_final.shape[0], LANES)),
        np.empty((U(level_start[LAST_LEVEL + 1]), LANES)),
        np.empty((aside_pair_start.shape[0] - 1, LANES)),
    )


@_jit()
def _solve_states(
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
    n = states.shape[0]
    box_value, book_final, book_class, best, aside_value = _scratch(
        level_start, aside_pair_start, class_final, final_face_points
    )
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


@_jit()
def _one_turn(
    column_value: Array,
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
) -> Array:
    box_value, book_final, book_class, best, aside_value = _scratch(
        level_start, aside_pair_start, class_final, final_face_points
    )
    for c in range(N_COLUMNS):
        for lane in range(LANES):  # every lane the same state
            box_value[c, lane] = column_value[c]
    _turn(
        box_value,
        book_final,
        book_class,
        best,
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
    return aside_value[:, 0].copy()


_ENTRIES: tuple[Any, ...] = (_solve_states, _one_turn)  # the others are compiled into these
_lock = threading.Lock()
_ready: list[bool] = []


def ready(structure: tuple[Array, ...]) -> None:
    """Compile the kernels (or load them from the cache) once per process.

    numba leaves LLVM's SLP vectorizer off by default (numba#8705, a miscompile
    elsewhere); these kernels need it, so it is on while they compile and off
    again after. Then compiling is switched off for them, so no later call can
    build (and cache) a version without it: every call has the same types.
    """
    with _lock:
        if _ready:
            return
        config: Any = numba.config
        before = config.SLP_VECTORIZE
        config.SLP_VECTORIZE = 1
        try:
            values = np.zeros(1)
            column_bit = np.full(N_COLUMNS, -1, dtype=np.int64)
            _solve_states(np.zeros(0, dtype=np.int64), values, 0, 0, column_bit, *structure)
            _one_turn(np.full(N_COLUMNS, CLOSED), *structure)
        finally:
            config.SLP_VECTORIZE = before
        for entry in _ENTRIES:
            entry.disable_compile()
        _ready.append(True)


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
    ready(structure)
    _solve_states(states, values, n_single, face_boxes, column_bit, *structure)


def turn_values(column_value: Array, structure: tuple[Array, ...]) -> Array:
    """The value of rolling with each aside (by aside id) in one state, from
    ``column_value[c]``, the value after booking column ``c`` (``CLOSED`` if none)."""
    ready(structure)
    return _one_turn(column_value, *structure)
