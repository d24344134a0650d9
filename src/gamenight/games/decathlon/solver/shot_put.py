"""Shot Put (D7): dice one at a time, up to 8; a 1 is an invalid attempt.

State after ``n`` good dice totalling ``x``: stop (score ``x``) or throw the next
die, which is a 1 (invalid) with probability 1/6 and otherwise adds 2..6.
"""

from __future__ import annotations

import msgspec
import numpy as np

from gamenight.games.decathlon.solver.attempts import (
    AttemptPass,
    AttemptTables,
    Reader,
    solve_attempts,
)
from gamenight.games.decathlon.solver.common import Floats, Ints, checked_dice, take
from gamenight.games.decathlon.solver.events import event_spec
from gamenight.games.decathlon.solver.objectives import AnyObjective, Target
from gamenight.games.decathlon.solver.situations import NoDecisionError, Option, ShotPutSituation
from gamenight.solve.ties import TIE_EPS, best_index

DICE = 8
TOP = 6 * DICE
GOOD = np.arange(2, 7)  # faces that keep the attempt valid
STOP, THROW = 0, 1


class ShotPutPass(msgspec.Struct, frozen=True):
    """``post_*[n, x]``: value after ``n`` good dice totalling ``x`` (best choice);
    ``throw_*[n, x]``: value of throwing die ``n + 1`` from there."""

    post_p: Floats
    post_e: Floats
    throw_p: Floats
    throw_e: Floats
    settle: Ints


def _reach(n: int) -> Ints:
    return np.arange(2 * n, 6 * n + 1)


class ShotPutModel:
    """One shot put attempt as an :class:`~attempts.AttemptModel`."""

    top = TOP

    def backward(self, reward_p: Floats, reward_e: Floats) -> ShotPutPass:
        cols = reward_p.shape[1]
        shape = (DICE + 1, TOP + 7, cols)  # room for x + 6 beyond the top
        post_p, post_e = np.zeros(shape), np.zeros(shape)
        throw_p, throw_e = np.zeros(shape), np.zeros(shape)
        settle = np.zeros(shape, dtype=np.int64)
        post_p[DICE, : TOP + 1], post_e[DICE, : TOP + 1] = reward_p[:-1], reward_e[:-1]
        for n in range(DICE - 1, -1, -1):
            xs = _reach(n)
            nxt = xs[:, None] + GOOD[None, :]
            throw_p[n, xs] = (reward_p[-1] + post_p[n + 1, nxt].sum(axis=1)) / 6
            throw_e[n, xs] = (reward_e[-1] + post_e[n + 1, nxt].sum(axis=1)) / 6
            if n == 0:
                continue  # D7: the first die must be thrown
            both_p = np.stack((reward_p[xs], throw_p[n, xs]))
            both_e = np.stack((reward_e[xs], throw_e[n, xs]))
            pick = best_index(both_p, both_e, axis=0)
            settle[n, xs] = pick
            post_p[n, xs], post_e[n, xs] = take(both_p, pick, 0), take(both_e, pick, 0)
        return ShotPutPass(post_p, post_e, throw_p, throw_e, settle)

    def values(self, reward: Floats) -> ShotPutPass:
        """Value tables only, for a utility (one reward per column): :meth:`backward`'s
        ``*_p`` tables bit for bit, at a third of the cost. The tie rule's pick is kept
        (stop unless throwing is better by more than ``TIE_EPS``: the value of a near
        tie is the stop's, as there). No policy is kept; the ``*_e`` tables alias the
        ``*_p`` ones."""
        cols = reward.shape[1]
        shape = (DICE + 1, TOP + 7, cols)  # room for x + 6 beyond the top
        post, throw = np.zeros(shape), np.zeros(shape)
        post[DICE, : TOP + 1] = reward[:-1]
        for n in range(DICE - 1, -1, -1):
            xs = _reach(n)
            nxt = xs[:, None] + GOOD[None, :]
            throw[n, xs] = (reward[-1] + post[n + 1, nxt].sum(axis=1)) / 6
            if n > 0:  # D7: the first die must be thrown
                stop, go = reward[xs], throw[n, xs]
                post[n, xs] = np.where(stop >= go - TIE_EPS, stop, go)
        return ShotPutPass(post, post, throw, throw, np.zeros((0, 0, 0), dtype=np.int64))

    def root(self, solved: ShotPutPass) -> Floats:
        root: Floats = solved.throw_p[0, 0]
        return root

    def forward(self, solved: ShotPutPass) -> Floats:
        cols = solved.throw_p.shape[2]
        dist = np.zeros((TOP + 2, cols))
        mass = np.zeros((TOP + 7, cols))
        mass[0] = 1.0  # about to throw the first die
        for n in range(DICE):
            xs = _reach(n)
            if n > 0:
                stop_now = solved.settle[n, xs] == STOP
                held = mass[xs]  # masks multiply (exact: finite masses), no where copies
                dist[xs] += held * stop_now
                mass[xs] = held * np.logical_not(stop_now)
            dist[-1] += mass[xs].sum(axis=0) / 6
            nxt = np.zeros_like(mass)
            for face in GOOD:
                nxt[xs + face] += mass[xs] / 6
            mass = nxt
        dist[: TOP + 1] += mass[: TOP + 1]
        return dist


Pass = AttemptPass[ShotPutPass]


def _stop(x: int) -> Reader[ShotPutPass]:
    def read(p: Pass, col: int) -> float:
        return float(p.reward_p[x, col])

    return read


def _throw(n: int, x: int) -> Reader[ShotPutPass]:
    def read(p: Pass, col: int) -> float:
        return float(p.solved.throw_p[n, x, col])

    return read


class ShotPutSolution:
    """Solved shot put: summary figures and option values."""

    def __init__(self, attempts: int) -> None:
        self.tables: AttemptTables[ShotPutPass] = solve_attempts(
            ShotPutModel(), event_spec("shot-put"), attempts
        )
        self.summary = self.tables.summary

    def option_values(
        self, situation: ShotPutSituation, objective: AnyObjective, points: bool = False
    ) -> dict[Option, float]:
        s = situation
        self.tables.check(s.attempt, s.best)
        dice = checked_dice(s.dice, "dice")
        if 1 in dice:
            raise NoDecisionError("a 1 was thrown: the attempt is invalid")
        n, x = len(dice), sum(dice)
        if n >= DICE:
            if n > DICE:
                raise ValueError("shot put uses at most 8 dice")
            raise NoDecisionError("all 8 dice are thrown: the attempt is over")

        def value(read: Reader[ShotPutPass]) -> float:
            if points:
                assert isinstance(objective, Target), "points are a target's tie-break"
                return self.tables.points(objective, read)
            return self.tables.value(s.attempt, s.best, objective, read)

        throw = value(_throw(n, x))
        if n == 0:
            return {"throw": throw}
        return {"stop": value(_stop(x)), "throw": throw}
