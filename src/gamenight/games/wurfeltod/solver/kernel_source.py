"""Writes :mod:`.kernel`, the compiled turn DP, from the template below.

The kernel solves ``LANES`` states at once, and each lane is its own local
variable (``m0``, ``m1``, ...): the running maxima and the expectation over a
roll then stay in vector registers across the loops over successors and pairs,
and LLVM's SLP vectorizer packs the lanes into SIMD instructions. A loop over a
lane axis in memory (the kernel before issue 29's last pass) kept them in arrays,
with alias checks around every short loop, and was about 1.5x slower.

A template line holding ``_L_`` is written once per lane with ``_L_`` replaced by
the lane number; every other line is copied. ``tests/games/wurfeltod/solver/
test_kernel_source.py`` checks that the committed ``kernel.py`` is this module's
output, so edit the template here and run::

    python -m gamenight.games.wurfeltod.solver.kernel_source

>>> render(2).count("m1 = max(m1, best[n, 1])")
1
"""

from __future__ import annotations

import sys
from pathlib import Path

__all__ = ["KERNEL_PATH", "LANES", "render"]

# Two AVX-512 (four AVX2) vectors per row. 32 lanes solved no faster and took 1.6 s
# longer to compile (numba lowers every lane's statements); 8 and 12 were slower.
LANES = 16
KERNEL_PATH = Path(__file__).with_name("kernel.py")
TOKEN = "_L_"

TEMPLATE = '''\
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

LANES = {lanes}
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
    t_L_ = box_value[0, _L_]
    for c in range(1, N_COLUMNS):
        t_L_ = max(t_L_, box_value[c, _L_])  # best scratch (W2)
    extra[0, _L_] = t_L_
    v_L_ = box_value[FACE, _L_]
    t_L_ -= PENALTY  # booking any open box with a Wurfeltod (W3)

    # Best booking that brings a Wurfeltod, or of Face Value Total: per final multiset.
    for f in range(final_face_points.shape[0]):
        face = final_face_points[f]
        b_L_ = max(t_L_, face + v_L_)
        for e in range(U(final_start[f]), U(final_start[f + 1])):
            c = U(final_column[e])
            points = final_points[e]
            b_L_ = max(b_L_, points + box_value[c, _L_])
        book_final[f, _L_] = b_L_
    # Best booking of all: per booking class, adding the Wurfeltod-free categories.
    for cl in range(class_final.shape[0]):
        f = U(class_final[cl])
        b_L_ = book_final[f, _L_]
        for e in range(U(class_start[cl]), U(class_start[cl + 1])):
            c = U(class_column[e])
            points = class_points[e]
            b_L_ = max(b_L_, points + box_value[c, _L_])
        book_class[cl, _L_] = b_L_


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
    x_L_ = extra[min(k, 1), _L_]
    for a in range(U(aside_level_start[k]), U(aside_level_start[k + 1])):
        w_L_ = 0.0
        for p in range(U(aside_pair_start[a]), U(aside_pair_start[a + 1])):
            cl = U(pair_class[p])
            pr = pair_probability[p]
            if k == LAST_LEVEL:  # one die rolled: the player must book (W2)
                w_L_ += pr * book_class[cl, _L_]
                continue
            s = U(succ_start[p])
            n = U(succ_pair[s])
            m_L_ = best[n, _L_]
            for e in range(s + 1, U(succ_start[p + 1])):
                n = U(succ_pair[e])
                m_L_ = max(m_L_, best[n, _L_])
            best[p, _L_] = m_L_
            w_L_ += pr * max(max(book_class[cl, _L_], m_L_), x_L_)
        aside_value[a, _L_] = w_L_
        # Best aside reachable from each pair of this aside, this aside included.
        for p in range(U(aside_pair_start[a]), U(aside_pair_start[a + 1])):
            if k == LAST_LEVEL:
                best[p, _L_] = w_L_
            else:
                best[p, _L_] = max(best[p, _L_], w_L_)


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
'''


def render(lanes: int = LANES) -> str:
    """The text of ``kernel.py`` for ``lanes`` lanes."""
    out: list[str] = []
    for line in TEMPLATE.splitlines(keepends=True):
        if TOKEN in line:
            out.extend(line.replace(TOKEN, str(j)) for j in range(lanes))
        else:
            out.append(line)
    return "".join(out).replace("{lanes}", str(lanes))


def main() -> None:
    """Write ``kernel.py`` next to this module."""
    KERNEL_PATH.write_text(render(), encoding="utf-8")
    sys.stdout.write(f"wrote {KERNEL_PATH}\n")


if __name__ == "__main__":
    main()
