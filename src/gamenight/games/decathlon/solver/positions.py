"""The final result distribution of an event from any position inside it (EV policy).

:func:`position_dist` answers: a player stands at this point of the event -- dice
frozen, rethrows or attempts used, a best result posted, a height reached -- and
plays the rest of the event with the expected-score policy (the ``optimal`` bot's).
What is the distribution of their final event result?

Positions are the decision :class:`~.situations.Situation` classes (the acting
player's position), plus :class:`AttemptStart` for a player waiting for their
next attempt (or their first throw of a race or bar of a height event).  At a
decision the option :func:`~.decisions.best_option` picks is followed, so the
first step is exactly the ``optimal`` bot's choice; from there on the solved
policy tables are followed (they pick by the same tie rule over the same order of
options, so they agree with the decision API: :mod:`.policy`).

Every family gets *distribution tables*: the backward induction of the solver
run again with a vector per state -- the distribution of the outcome -- in place
of a value, under the already solved EV policy:

* races (D4, D5): ``D[i, r]``, the distribution of the score still to come on
  throwing set ``i`` with ``r`` rethrows left (the EV policy does not depend on the
  frozen total, so the total only shifts it);
* heights (D8, D9): ``C[i, b]`` before choosing at height ``i`` with best ``b``, and
  ``J[i, u, b]`` committed there after ``u`` failed jumps;
* 3-attempt events (D3): per attempt ``a`` and best so far ``b`` (the column of the
  solver's pass), the outcome distribution of this attempt from every state of the
  attempt (:func:`freeze_tables`, shot put), then chained through the remaining
  attempts by ``F[a][b]``, the final best from the start of attempt ``a``.

Distributions use the solver's convention: entry ``k`` is the probability of the
valid result ``min_score + k``, the last entry that of no valid result.

>>> d = position_dist("shot-put", AttemptStart(4, 30))  # every attempt used: 30 stands
>>> float(d[30 - 2]), float(d.sum())
(1.0, 1.0)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

import numpy as np

from gamenight.games.decathlon.solver import freeze_dp
from gamenight.games.decathlon.solver.attempts import AttemptTables
from gamenight.games.decathlon.solver.common import Floats, checked_dice
from gamenight.games.decathlon.solver.decisions import best_option
from gamenight.games.decathlon.solver.events import event_spec, resolve_attempts
from gamenight.games.decathlon.solver.freeze_events import FreezeSolution
from gamenight.games.decathlon.solver.freeze_events import _game as _freeze_game
from gamenight.games.decathlon.solver.heights import JUMP, JUMPS, SKIP, HeightSolution
from gamenight.games.decathlon.solver.long_jump import (
    DICE as LJ_DICE,
)
from gamenight.games.decathlon.solver.long_jump import (
    RUN_UP_LIMIT,
    LongJumpSolution,
    _jump_game,
    _run_up_game,
)
from gamenight.games.decathlon.solver.races import FREEZE, RETHROWS, RaceSolution
from gamenight.games.decathlon.solver.shot_put import DICE as SP_DICE
from gamenight.games.decathlon.solver.shot_put import GOOD, STOP, ShotPutSolution, _reach
from gamenight.games.decathlon.solver.situations import (
    FreezeSituation,
    HeightSituation,
    HurdlesSituation,
    LongJumpSituation,
    NoDecisionError,
    Option,
    ShotPutSituation,
    Situation,
    SprintSituation,
)
from gamenight.games.decathlon.solver.solved import SolvedEvent, solved

POSITION_CACHE = 1 << 14


@dataclass(frozen=True)
class AttemptStart:
    """A player about to start attempt ``attempt`` with ``best`` their best valid result.

    For a race or a height event ``AttemptStart(1)`` is the start of the event;
    ``attempt`` one past the last means the event is over for them (``best`` stands).
    """

    attempt: int = 1
    best: int | None = None


Position = Situation | AttemptStart


def position_dist(event: str, position: Position, *, attempts: int | None = None) -> Floats:
    """The final result distribution of ``event`` from ``position`` under the EV policy.

    Read-only array: entry ``k`` is P(valid result ``min_score + k``), the last
    entry P(no valid result).  Cached per position.
    """
    return _position_dist(event, position, resolve_attempts(event, attempts))


def position_pmf(
    event: str, position: Position, *, attempts: int | None = None
) -> tuple[dict[int, float], float]:
    """``(pmf, p_invalid)`` as in :class:`~.table.EventSolution`: ``pmf`` over every
    valid result ``min_score..max_score``.

    >>> pmf, invalid = position_pmf("110m-hurdles", HurdlesSituation(0, (6, 6, 6, 6, 5)))
    >>> pmf[29], invalid
    (1.0, 0.0)
    """
    dist = position_dist(event, position, attempts=attempts)
    low = event_spec(event).min_score
    return {low + k: float(p) for k, p in enumerate(dist[:-1])}, float(dist[-1])


@lru_cache(maxsize=POSITION_CACHE)
def _position_dist(event: str, position: Position, attempts: int) -> Floats:
    tables = _tables(event, attempts)
    out = tables.dist(position)
    out.setflags(write=False)
    return out


@cache
def _tables(event: str, attempts: int) -> _Dists:
    solution = solved(event, attempts)
    if isinstance(solution, RaceSolution):
        return RaceDists(event, solution)
    if isinstance(solution, HeightSolution):
        return HeightDists(event, solution)
    return AttemptDists(event, attempts, solution)


class _Dists:
    event: str

    def dist(self, position: Position) -> Floats:
        raise NotImplementedError


def _unit(size: int, k: int) -> Floats:
    out = np.zeros(size)
    out[k] = 1.0
    return out


def _shift(vec: Floats, by: int) -> Floats:
    """``vec`` moved ``by`` places up (entries pushed off either end must be 0)."""
    out = np.zeros_like(vec)
    if by >= 0:
        out[by:] = vec[: len(vec) - by]
    else:
        out[: len(vec) + by] = vec[-by:]
    return out


def _chosen(event: str, situation: Situation, attempts: int) -> Option | None:
    """The EV-optimal option at ``situation``; ``None`` where nothing is to be chosen."""
    try:
        return best_option(event, situation, attempts=attempts)
    except NoDecisionError:
        return None


# ----- races (D4, D5) -------------------------------------------------------------------
class RaceDists(_Dists):
    """``D[i, r, k]``: P(the sets ``i..`` score ``total_low + k``), throwing set ``i``."""

    def __init__(self, event: str, sol: RaceSolution) -> None:
        self.event, self.sol = event, sol
        race, lo, hi = sol.race, sol.total_low, sol.total_high
        self.lo, width = lo, hi - lo + 1
        table = np.zeros((race.sets + 1, RETHROWS + 1, width))
        table[race.sets, :, -lo] = 1.0
        for i in range(race.sets - 1, -1, -1):
            for r in range(RETHROWS + 1):
                acc = np.zeros(width)
                for k, (score, p) in enumerate(zip(sol.scores, sol.probs, strict=True)):
                    if r == 0 or sol.ev_choice[i, r, k] == FREEZE:
                        acc += p * _shift(table[i + 1, r], int(score))
                    else:
                        acc += p * table[i, r - 1]
                table[i, r] = acc
        self.table = table

    def _final(self, remaining: Floats, so_far: int) -> Floats:
        totals = _shift(remaining, so_far)
        low = self.sol.low - self.lo
        return np.concatenate((totals[low : low + self.sol.high - self.sol.low + 1], [0.0]))

    def dist(self, position: Position) -> Floats:
        race = self.sol.race
        if isinstance(position, AttemptStart):
            if position.attempt == 1:
                return self._final(self.table[0, RETHROWS], 0)
            return _finished(self.event, position.best)
        if isinstance(position, HurdlesSituation):
            i, r, dice, so_far = 0, position.rethrows_left, position.dice, 0
        elif isinstance(position, SprintSituation):
            i, r = position.set_index, position.rethrows_left
            dice, so_far = position.dice, position.score_so_far
        else:
            raise TypeError(f"{type(position).__name__} is not a position of {self.event}")
        choice = _chosen(self.event, position, 1)
        if choice == "rethrow":
            return self._final(self.table[i, r - 1], so_far)
        faces = checked_dice(dice, "dice")
        score = sum(race.six if face == 6 else face for face in faces)
        return self._final(self.table[i + 1, r], so_far + score)


def _finished(event: str, best: int | None) -> Floats:
    spec = event_spec(event)
    size = spec.max_score - spec.min_score + 2
    return _unit(size, size - 1 if best is None else best - spec.min_score)


# ----- heights (D8, D9) -----------------------------------------------------------------
class HeightDists(_Dists):
    """``C[i, b]`` before choosing at height ``i``; ``J[i, u, b]`` committed, ``u`` failed.

    Vectors run over the best index (0: none, ``j + 1``: ``heights[j]``).
    """

    def __init__(self, event: str, sol: HeightSolution) -> None:
        self.event, self.sol = event, sol
        heights = sol.bar.heights
        n, nb = len(heights), len(heights) + 1
        eye = np.eye(nb)
        choose = np.zeros((n + 1, nb, nb))
        choose[n] = eye
        jumps = np.zeros((n, JUMPS + 1, nb, nb))
        for i in range(n - 1, -1, -1):
            jumps[i, JUMPS] = eye
            won = choose[i + 1, i + 1]
            for used in range(JUMPS - 1, -1, -1):
                q = sol.clear[i][sol.dice_choice[i, used, :, 0]][:, None]
                jumps[i, used] = q * won[None, :] + (1 - q) * jumps[i, used + 1]
            pick = sol.choice[i, :, 0][:, None]
            choose[i] = np.where(
                pick == JUMP, jumps[i, 0], np.where(pick == SKIP, choose[i + 1], eye)
            )
        self.choose, self.jumps = choose, jumps
        spec = event_spec(event)
        self.index = np.array([h - spec.min_score for h in heights])
        self.size = spec.max_score - spec.min_score + 2

    def _final(self, by_best: Floats) -> Floats:
        out = np.zeros(self.size)
        out[self.index] = by_best[1:]
        out[-1] = by_best[0]
        return out

    def dist(self, position: Position) -> Floats:
        sol = self.sol
        if isinstance(position, AttemptStart):
            if position.attempt == 1:
                return self._final(self.choose[0, 0])
            return _finished(self.event, position.best)
        if not isinstance(position, HeightSituation):
            raise TypeError(f"{type(position).__name__} is not a position of {self.event}")
        heights = sol.bar.heights
        i = heights.index(position.height) if position.height in heights else -1
        if i < 0:
            raise ValueError(f"{self.event} bar heights are {heights}, got {position.height}")
        b = 0 if position.best is None else heights.index(position.best) + 1
        choice = _chosen(self.event, position, 1)
        if not position.committed:
            if choice == "jump":
                return self._final(self.jumps[i, 0, b])
            if choice == "skip":
                return self._final(self.choose[i + 1, b])
            return _finished(self.event, position.best)
        used = position.jumps_used
        if choice is None:  # a committed high jumper: the jumps are thrown for them
            return self._final(self.jumps[i, used, b])
        assert isinstance(choice, int)
        q = float(sol.clear[i][sol.bar.dice_counts.index(choice)])
        won = self.choose[i + 1, i + 1]
        return self._final(q * won + (1 - q) * self.jumps[i, used + 1, b])


# ----- 3-attempt events (D3) ------------------------------------------------------------
@dataclass(frozen=True)
class FreezeDists:
    """Outcome distributions of one attempt for one column of a :mod:`freeze_dp` pass.

    ``post[m, x]`` after a freeze (with the solved stop/continue choice),
    ``throw[m, x]`` on throwing the ``m`` unfrozen dice; vectors over the attempt's
    outcome (``0..top``, last: invalid).
    """

    post: Floats
    throw: Floats


def freeze_tables(
    game: freeze_dp.FreezeGame,
    solved_pass: freeze_dp.FreezePass,
    col: int,
    can_stop: list[bool],
    stop: Callable[[int, int], Floats],
    invalid: Floats,
) -> FreezeDists:
    """Run :func:`freeze_dp.backward`'s recursion with outcome vectors, column ``col``.

    ``stop(m, x)`` is the outcome vector of stopping at post-freeze ``(m, x)``.
    """
    n, size, width = game.n, game.top + 1, len(invalid)
    post = np.zeros((n + 1, size, width))
    throw = np.zeros_like(post)
    for x in game.reach[0]:
        post[0, x] = stop(0, int(x))
    for m in range(1, n + 1):
        xs = game.reach[m]
        throws, index, dead = game.throws[m], solved_pass.choice[m], solved_pass.dead[m]
        assert throws is not None and index is not None and dead is not None
        pick = index[:, :, col]  # reach x outcome
        rows = np.arange(len(throws.probs))[None, :]
        to_x = np.minimum(xs[:, None] + throws.gain[rows, pick], game.top)
        to_m = m - 1 - pick
        got = np.where(dead[..., None], invalid, post[to_m, np.where(dead, 0, to_x)])
        throw[m, xs] = np.einsum("o,xor->xr", throws.probs, got)
        if can_stop[m]:
            settle = solved_pass.settle[m, xs, col] == freeze_dp.STOP
            stops = np.array([stop(m, int(x)) for x in xs])
            post[m, xs] = np.where(settle[:, None], stops, throw[m, xs])
        else:
            post[m, xs] = throw[m, xs]
    return FreezeDists(post, throw)


class AttemptDists(_Dists):
    """Long Jump, Shot Put, Discus, Javelin: in-attempt tables chained over attempts."""

    def __init__(self, event: str, attempts: int, sol: SolvedEvent) -> None:
        assert isinstance(sol, LongJumpSolution | ShotPutSolution | FreezeSolution)
        self.event, self.attempts, self.sol = event, attempts, sol
        spec = event_spec(event)
        self.low, self.high = spec.min_score, spec.max_score
        tables: AttemptTables[Any] = sol.tables
        top = self.top = tables.model.top
        self.width = top + 2  # outcome vectors: 0..top, then invalid
        # F[a][b]: distribution of the final best (index 0..top, 0 = none) from the
        # start of attempt a with best b.
        self.start: dict[int, Floats] = {attempts + 1: np.eye(top + 1)}
        for a in range(attempts, 0, -1):
            outcomes = tables.model.forward(tables.passes[a].solved)
            cols = range(top + 1) if a > 1 else range(1)
            table = np.zeros((top + 1, top + 1))
            for b in cols:
                table[b] = self.chain(a, b, outcomes[:, b])
            self.start[a] = table
        self._columns: dict[tuple[int, int], object] = {}

    def chain(self, attempt: int, best: int, outcome: Floats) -> Floats:
        """The final best from an outcome vector of attempt ``attempt`` with ``best``."""
        after = self.start[attempt + 1]
        nxt = after[np.maximum(np.arange(self.top + 1), best)]
        by_best: Floats = outcome[:-1] @ nxt + outcome[-1] * after[best]
        return by_best

    def _final(self, by_best: Floats) -> Floats:
        return np.concatenate((by_best[self.low : self.high + 1], by_best[:1]))

    def _column(self, attempt: int, best: int) -> object:
        key = (attempt, best)
        found = self._columns.get(key)
        if found is None:
            found = self._solve_column(attempt, best)
            self._columns[key] = found
        return found

    def _solve_column(self, attempt: int, col: int) -> object:
        passed = self.sol.tables.passes[attempt].solved
        invalid = _unit(self.width, self.width - 1)

        def at(x: int) -> Floats:
            return _unit(self.width, x)

        if isinstance(self.sol, FreezeSolution):
            assert isinstance(passed, freeze_dp.FreezePass)
            n = self.sol.rule.dice
            return freeze_tables(
                _freeze_game(self.sol.rule),
                passed,
                col,
                [True] * n + [False],
                lambda m, x: at(x),
                invalid,
            )
        if isinstance(self.sol, LongJumpSolution):
            from gamenight.games.decathlon.solver.long_jump import LongJumpPass

            assert isinstance(passed, LongJumpPass)
            jump = freeze_tables(
                _jump_game(),
                passed.jump,
                col,
                [True] + [False] * LJ_DICE,
                lambda m, x: at(x),
                invalid,
            )
            run_up = freeze_tables(
                _run_up_game(),
                passed.run_up,
                col,
                [True] * LJ_DICE + [False],
                lambda m, x: jump.throw[LJ_DICE - m, 0],
                invalid,
            )
            return run_up, jump
        return self._shot_put_column(passed, col)

    def _shot_put_column(self, passed: object, col: int) -> FreezeDists:
        from gamenight.games.decathlon.solver.shot_put import ShotPutPass

        assert isinstance(passed, ShotPutPass)
        size = self.top + 7
        post = np.zeros((SP_DICE + 1, size, self.width))
        throw = np.zeros_like(post)
        eye = np.eye(self.width)
        xs = _reach(SP_DICE)
        post[SP_DICE, xs] = eye[xs]
        for n in range(SP_DICE - 1, -1, -1):
            xs = _reach(n)
            nxt = xs[:, None] + GOOD[None, :]
            throw[n, xs] = (eye[-1] + post[n + 1, nxt].sum(axis=1)) / 6
            if n == 0:
                continue
            settle = passed.settle[n, xs, col] == STOP
            post[n, xs] = np.where(settle[:, None], eye[xs], throw[n, xs])
        return FreezeDists(post, throw)

    def dist(self, position: Position) -> Floats:
        if isinstance(position, AttemptStart):
            a, best = position.attempt, position.best
            if not 1 <= a <= self.attempts + 1:
                raise ValueError(f"attempt must be 1..{self.attempts + 1}, got {a}")
            if a == 1 and best is not None:
                raise ValueError("no best result can exist before the first attempt")
            return self._final(self.start[a][0 if best is None else best])
        outcome = self._outcome(position)
        attempt = position.attempt  # type: ignore[union-attr]  # only attempt positions get here
        best = position.best  # type: ignore[union-attr]  # only attempt positions get here
        return self._final(self.chain(attempt, 0 if best is None else best, outcome))

    def _outcome(self, position: Position) -> Floats:
        """This attempt's outcome vector from a decision position."""
        event, sol = self.event, self.sol
        invalid = _unit(self.width, self.width - 1)
        # AttemptStart returned above
        choice = _chosen(event, position, self.attempts)  # type: ignore[arg-type]
        if isinstance(position, ShotPutSituation) and isinstance(sol, ShotPutSolution):
            dice = checked_dice(position.dice, "dice")
            if 1 in dice:
                return invalid
            table = self._column(position.attempt, _col(position.best))
            assert isinstance(table, FreezeDists)
            n, x = len(dice), sum(dice)
            if choice == "stop" or n == SP_DICE:
                return _unit(self.width, x)
            out: Floats = table.throw[n, x]
            return out
        if isinstance(position, FreezeSituation) and isinstance(sol, FreezeSolution):
            table = self._column(position.attempt, _col(position.best))
            assert isinstance(table, FreezeDists)
            frozen = checked_dice(position.frozen, "frozen")
            total, m = sum(frozen), sol.rule.dice - len(frozen)
            if choice is None:
                if position.thrown:  # no allowed die thrown: invalid
                    return invalid
                if not frozen:  # the attempt's first throw is still to come
                    out = table.throw[m, 0]
                    return out
                return _unit(self.width, total)
            if choice == "stop":
                return _unit(self.width, total)
            if choice == "rethrow":
                out = table.throw[m, total]
                return out
            assert isinstance(choice, tuple)
            out = table.post[m - len(choice), total + sum(choice)]
            return out
        if isinstance(position, LongJumpSituation) and isinstance(sol, LongJumpSolution):
            found = self._column(position.attempt, _col(position.best))
            assert isinstance(found, tuple)
            run_up, jump = found
            frozen = checked_dice(position.frozen, "frozen")
            total = sum(frozen)
            if position.phase == "jump":
                if choice is None:
                    raise NoDecisionError("a jump position is always a freeze decision")
                assert isinstance(choice, tuple)
                m = len(position.thrown) - len(choice)
                out = jump.post[m, total + sum(choice)]
                return out
            if choice is None:
                if not frozen and not position.thrown:  # the run-up's first throw
                    out = run_up.throw[LJ_DICE, 0]
                    return out
                return invalid  # stepped over
            if choice == "jump":
                out = jump.throw[len(frozen), 0]
                return out
            m = LJ_DICE - len(frozen)
            if choice == "rethrow":
                out = run_up.throw[m, total]
                return out
            assert isinstance(choice, tuple)
            x = total + sum(choice)
            if x > RUN_UP_LIMIT:
                return invalid
            out = run_up.post[m - len(choice), x]
            return out
        raise TypeError(f"{type(position).__name__} is not a position of {event}")


def _col(best: int | None) -> int:
    return 0 if best is None else best
