"""Backward induction and forward distributions for "freeze at least one" dice games.

Long Jump (run-up and jump, D6), Discus and Javelin (D10) share one shape.  A
state is ``(m, x)``: ``m`` dice are still unfrozen and the frozen dice add up to
``x``.  From a state the ``m`` dice are thrown; the player must freeze ``j >= 1``
of them, reaching the *post-freeze* state ``(m - j, x + gain)``, where the player
may be allowed to stop (take a terminal value) or must continue by throwing the
``m - j`` dice left.

Dominance keeps this small: with ``j`` fixed, freezing the ``j`` best dice
(highest allowed values; for the run-up, the lowest values) is never worse, so
each throw offers at most ``m`` options.  A throw is therefore reduced to the
gains of its ``m`` options, and throws with equal gains are merged, their
probabilities added (never weighting sorted patterns uniformly).  The full set
of legal freezes is still valued exactly by the decision API, which reads the
post-freeze tables directly.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import cache
from typing import Literal

import msgspec
import numpy as np

from gamenight.games.decathlon.solver.common import Bools, Floats, Ints, take
from gamenight.solve.dice import throw_table
from gamenight.solve.ties import best_index

STOP, CONTINUE = 0, 1


class ThrowOptions(msgspec.Struct, frozen=True):
    """A throw of ``m`` dice reduced to its freeze options.

    Row ``o`` is one merged outcome with probability ``probs[o]``; freezing
    ``j + 1`` dice gains ``gain[o, j]`` and is legal iff ``legal[o, j]`` (before
    any cap on the frozen total).  A row with no legal option is an invalid attempt.
    """

    probs: Floats
    gain: Ints
    legal: Bools


@cache
def throw_options(
    m: int, allowed: tuple[int, ...], best: Literal["high", "low"], clip: int | None = None
) -> ThrowOptions:
    """Reduce a throw of ``m`` dice when only ``allowed`` faces may be frozen.

    ``best="high"`` freezes the highest allowed dice first, ``"low"`` the lowest.
    ``clip`` caps gains (any gain above a cap is equally invalid), which merges
    more outcomes.
    """
    table = throw_table(m)
    faces = table.faces
    ok = np.isin(faces, allowed)
    count = ok.sum(axis=1)
    if best == "high":
        ordered = -np.sort(-np.where(ok, faces, 0), axis=1)
    else:
        ordered = np.sort(np.where(ok, faces, 99), axis=1)
    legal = np.arange(m)[None, :] < count[:, None]
    gain = np.where(legal, np.cumsum(np.where(ordered == 99, 0, ordered), axis=1), 0)
    if clip is not None:
        gain = np.minimum(gain, clip)
    rows = np.concatenate((gain, legal.astype(np.int64)), axis=1)
    unique, inverse = np.unique(rows, axis=0, return_inverse=True)
    probs: Floats = np.bincount(inverse.ravel(), table.probs, len(unique)).astype(np.float64)
    return ThrowOptions(
        probs=probs, gain=unique[:, :m].astype(np.int64), legal=unique[:, m:].astype(bool)
    )


class FreezeGame(msgspec.Struct, frozen=True):
    """One freezing game: ``n`` dice, frozen totals up to ``top``.

    ``throws[m]`` are the reduced throws of ``m`` dice (entry 0 unused);
    ``reach[m]`` the frozen totals possible with ``m`` dice unfrozen; ``cap`` the
    largest legal frozen total (the run-up's 8, D6) or ``None``.
    """

    n: int
    top: int
    cap: int | None
    throws: tuple[ThrowOptions | None, ...]
    reach: tuple[Ints, ...]


class FreezePass(msgspec.Struct, frozen=True):
    """Backward-induction tables of one pass, for ``cols`` objective columns.

    ``post_*[m, x]`` value the post-freeze state (after the best stop/continue
    choice), ``throw_*[m, x]`` the value of throwing the ``m`` unfrozen dice,
    ``settle[m, x]`` is STOP or CONTINUE, and ``choice[m]`` (reach x outcome x
    column) the index ``j`` of the chosen option (freeze ``j + 1`` dice).
    """

    post_p: Floats
    post_e: Floats
    throw_p: Floats
    throw_e: Floats
    settle: Ints
    choice: tuple[Ints | None, ...]
    dead: tuple[Bools | None, ...]


def _targets(game: FreezeGame, m: int) -> tuple[Ints, ThrowOptions, Bools, Ints, Ints]:
    """For ``m`` dice to throw: the reachable sums ``xs``, their throws, which freezes
    are legal (within the cap), and the post-freeze ``(m, x)`` each freeze leads to."""
    xs = game.reach[m]
    throws = game.throws[m]
    assert throws is not None
    target_x = xs[:, None, None] + throws.gain[None]
    cap = game.top if game.cap is None else game.cap
    legal = throws.legal[None] & (target_x <= cap)
    target_m = (m - 1 - np.arange(m))[None, None, :]
    return xs, throws, legal, target_m, np.minimum(target_x, game.top)


def backward(
    game: FreezeGame,
    stop_p: Floats,
    stop_e: Floats,
    can_stop: Sequence[bool],
    invalid_p: Floats,
    invalid_e: Floats,
) -> FreezePass:
    """Solve all columns at once.

    ``stop_*[m, x]`` is the terminal value of stopping at post-freeze ``(m, x)``
    (read only where ``can_stop[m]``; with ``m = 0`` stopping is forced);
    ``invalid_*`` the value of an invalid attempt, per column.
    """
    n, size = game.n, game.top + 1
    cols = invalid_p.shape[0]
    shape = (n + 1, size, cols)
    # Every post-freeze (m, x) is a row of cols values; two rows follow them: an
    # illegal option's -inf and a dead throw's invalid value. The options are gathered
    # by row number, each from its row or one of those two (issue 29: no masked
    # copies of the gathers, which were a twentieth of the solve).
    illegal_row, invalid_row = (n + 1) * size, (n + 1) * size + 1
    rows_p, rows_e = (
        np.full((invalid_row + 1, cols), np.nan),
        np.full((invalid_row + 1, cols), np.nan),
    )
    rows_p[illegal_row], rows_e[illegal_row] = -np.inf, -np.inf
    rows_p[invalid_row], rows_e[invalid_row] = invalid_p, invalid_e
    post_p, post_e = rows_p[:illegal_row].reshape(shape), rows_e[:illegal_row].reshape(shape)
    throw_p, throw_e = np.full(shape, np.nan), np.full(shape, np.nan)
    settle = np.zeros(shape, dtype=np.int64)
    choice: list[Ints | None] = [None]
    dead: list[Bools | None] = [None]
    post_p[0], post_e[0] = stop_p[0], stop_e[0]
    for m in range(1, n + 1):
        xs, throws, legal, target_m, target_x = _targets(game, m)
        # Options first, (option, reach, throw, column): one whole-row np.take of each
        # table, and each option's slice contiguous for best_index's passes. A dead
        # throw (no legal option) reads the invalid row as its first option, which
        # best_index picks (the others are -inf): its value is the invalid attempt's.
        rows = np.where(legal, target_m * size + target_x, illegal_row).transpose(2, 0, 1)
        is_dead: Bools = np.logical_not(legal.any(axis=2))
        rows = np.ascontiguousarray(rows)
        rows[0][is_dead] = invalid_row
        opt_p, opt_e = np.take(rows_p, rows, axis=0), np.take(rows_e, rows, axis=0)
        index = best_index(opt_p, opt_e, axis=0)
        got_p, got_e = take(opt_p, index, axis=0), take(opt_e, index, axis=0)
        throw_p[m, xs] = np.tensordot(throws.probs, got_p, axes=([0], [1]))
        throw_e[m, xs] = np.tensordot(throws.probs, got_e, axes=([0], [1]))
        choice.append(index)
        dead.append(is_dead)
        if can_stop[m]:
            both_p = np.stack((stop_p[m, xs], throw_p[m, xs]))
            both_e = np.stack((stop_e[m, xs], throw_e[m, xs]))
            pick = best_index(both_p, both_e, axis=0)
            settle[m, xs] = pick
            post_p[m, xs] = take(both_p, pick, axis=0)
            post_e[m, xs] = take(both_e, pick, axis=0)
        else:
            settle[m, xs] = CONTINUE
            post_p[m, xs], post_e[m, xs] = throw_p[m, xs], throw_e[m, xs]
    return FreezePass(post_p, post_e, throw_p, throw_e, settle, tuple(choice), tuple(dead))


_NO_INDEX = np.zeros(0, dtype=np.int64)


def backward_values(
    game: FreezeGame,
    stop_p: Floats,
    can_stop: Sequence[bool],
    invalid_p: Floats,
) -> FreezePass:
    """:func:`backward`'s value tables alone, with one reward per column (a utility).

    Plain maxima replace the tie-breaking argmax (ties do not change a value), no
    policy is kept (``settle``, ``choice``, ``dead`` are empty), and the ``*_e``
    tables alias the ``*_p`` ones: what option values read, at about half the cost.

    The options are maximised one at a time into a reused work buffer (this thread's:
    bots solve in worker threads), a few throws at a time so that the block stays in
    the CPU's cache, never as one (reach x throw x option x column) temporary: the win
    tables' build (issue 27) spent a third of its time in the kernel mapping and
    faulting such temporaries. The expectation over the throws is
    the same BLAS product as before, so every value is bit for bit the same.
    """
    n, size = game.n, game.top + 1
    cols = invalid_p.shape[0]
    shape = (n + 1, size, cols)
    post_p, throw_p = np.full(shape, np.nan), np.full(shape, np.nan)
    post_p[0] = stop_p[0]
    rows_of = post_p.reshape((n + 1) * size, cols)
    for m in range(1, n + 1):
        xs, throws, rows, legal_t, dead = _value_targets(game, m)
        n_throws = len(throws.probs)
        got = _work("got", (n_throws, len(xs), cols))  # throw x reach x column
        step = max(1, CACHE_BLOCK // (len(xs) * cols))  # throws per block: cache-sized
        part = _work("part", (step, len(xs), cols))
        for t in range(0, n_throws, step):
            block, end = got[t : t + step], min(t + step, n_throws)
            into = part[: end - t]
            np.take(rows_of, rows[0, t:end], axis=0, out=block)  # freeze one die...
            np.copyto(block, -np.inf, where=np.logical_not(legal_t[0, t:end]))
            for j in range(1, m):  # ... or j + 1
                np.take(rows_of, rows[j, t:end], axis=0, out=into)
                np.maximum(block, into, out=block, where=legal_t[j, t:end])
        if dead is not None:
            got[dead] = invalid_p
        if cols > 1:  # the product tensordot made of (reach, throw, column) before
            flat = got.reshape(n_throws, len(xs) * cols)
            at = np.dot(throws.probs.reshape(1, n_throws), flat).reshape(len(xs), cols)
        else:  # one column: there tensordot's operand was a transposed view, kept so
            at = np.tensordot(throws.probs, got.transpose(1, 0, 2).copy(), axes=([0], [1]))
        throw_p[m, xs] = at
        if can_stop[m]:
            post_p[m, xs] = np.maximum(stop_p[m, xs], throw_p[m, xs])
        else:
            post_p[m, xs] = throw_p[m, xs]
    empty = (None,) * (n + 1)
    return FreezePass(post_p, post_p, throw_p, throw_p, _NO_INDEX, empty, empty)


def _value_targets(
    game: FreezeGame, m: int
) -> tuple[Ints, ThrowOptions, Ints, Bools, Bools | None]:
    """:func:`_targets` laid out for :func:`backward_values`, throw first: per option
    ``j`` the flat post-freeze row ``(m', x')`` of each (throw, reach) and whether it
    is legal (broadcast over the columns); and the (throw, reach) with no legal
    option (None if there is none)."""
    found = _VALUE_TARGETS.get((id(game), m))
    if found is not None and found[0] is game:
        return found[1]
    xs, throws, legal, target_m, target_x = _targets(game, m)
    size = game.top + 1
    rows = (target_m * size + target_x).transpose(2, 1, 0)  # option, throw, reach
    legal_t = legal.transpose(2, 1, 0)[..., None]
    dead = np.logical_not(legal.any(axis=2)).T
    out = (
        xs,
        throws,
        np.ascontiguousarray(rows),
        np.ascontiguousarray(legal_t),
        dead if dead.any() else None,
    )
    _VALUE_TARGETS[(id(game), m)] = (game, out)  # games are few and live for good
    return out


_VALUE_TARGETS: dict[
    tuple[int, int], tuple[FreezeGame, tuple[Ints, ThrowOptions, Ints, Bools, Bools | None]]
] = {}


_local = threading.local()
CACHE_BLOCK = 1 << 15  # floats of the work block the options are maximised in (256 KB)


def _work(name: str, shape: tuple[int, ...]) -> Floats:
    """A reused float buffer of ``shape`` (contents undefined), one per name and thread:
    the large passes run chunk after chunk with the same shapes."""
    pool: dict[tuple[str, tuple[int, ...]], Floats] = _local.__dict__.setdefault("pool", {})
    found = pool.get((name, shape))
    if found is None:
        if len(pool) > 16:  # other shapes (the decision API's one-column passes...)
            pool.clear()
        found = pool[(name, shape)] = np.empty(shape)
    return found


def forward(game: FreezeGame, solved: FreezePass, entry: Floats) -> tuple[Floats, Floats]:
    """Follow the solved policy of every column from ``entry`` (mass about to be thrown).

    Returns ``(stopped, invalid)``: ``stopped[m, x, c]`` is the probability that
    column ``c``'s policy stops at post-freeze ``(m, x)``, ``invalid[c]`` that its
    attempt turns invalid.
    """
    n, size = game.n, game.top + 1
    cols = entry.shape[2]
    arriving = np.zeros((n + 1) * size * cols)
    stopped = np.zeros_like(entry)
    invalid = np.zeros(cols)
    col = np.arange(cols)
    for m in range(n, -1, -1):
        xs = game.reach[m]
        here = arriving.reshape(n + 1, size, cols)[m, xs]
        if m == 0:
            stopped[0, xs] = here
            continue
        stop_now = solved.settle[m, xs] == STOP
        # Masks multiply (exact: the masses are finite) rather than select with
        # 3-argument np.where, which copies (issue 29).
        stopped[m, xs] = here * stop_now
        mass = entry[m, xs] + here * np.logical_not(stop_now)
        throws = game.throws[m]
        index, is_dead = solved.choice[m], solved.dead[m]
        assert throws is not None and index is not None and is_dead is not None
        weight = mass[:, None, :] * throws.probs[None, :, None]
        if is_dead.any():
            invalid += (weight * is_dead[..., None]).sum(axis=(0, 1))
            weight *= np.logical_not(is_dead)[..., None]  # a dead throw moves nothing
        outcome = np.arange(len(throws.probs))[None, :, None]
        gain = np.take(throws.gain, outcome * m + index)  # gain[outcome, index]
        # a dead throw's (weightless) mass may land anywhere in range; the others' is in it
        to_x = np.minimum(xs[:, None, None] + gain, game.top)
        to_m = m - 1 - index
        flat = ((to_m * size + to_x) * cols + col).ravel()
        arriving += np.bincount(flat, weights=weight.ravel(), minlength=arriving.size)
    return stopped, invalid
