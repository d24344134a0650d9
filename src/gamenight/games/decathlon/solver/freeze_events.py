"""Discus and Javelin (D10): freeze allowed dice, stop or rethrow the rest.

One :mod:`freeze_dp` game each: discus 5 dice freezing even values, javelin 6
dice freezing odd values.  A throw with no allowed die is an invalid attempt; the
player may stop after any freeze, and must once every die is frozen.
"""

from __future__ import annotations

from functools import cache

import msgspec
import numpy as np

from gamenight.games.decathlon.solver import freeze_dp
from gamenight.games.decathlon.solver.attempts import (
    AttemptPass,
    AttemptTables,
    Reader,
    solve_attempts,
)
from gamenight.games.decathlon.solver.common import Floats, checked_dice
from gamenight.games.decathlon.solver.events import event_spec
from gamenight.games.decathlon.solver.objectives import AnyObjective, Target
from gamenight.games.decathlon.solver.situations import FreezeSituation, NoDecisionError, Option
from gamenight.solve.dice import freeze_options

TOP = 30  # 5 sixes or 6 fives


class FreezeRule(msgspec.Struct, frozen=True):
    """Which event: the number of dice and the faces that may be frozen (D10)."""

    event: str
    dice: int
    allowed: tuple[int, ...]


DISCUS = FreezeRule("discus", 5, (2, 4, 6))
JAVELIN = FreezeRule("javelin", 6, (1, 3, 5))
RULES = {rule.event: rule for rule in (DISCUS, JAVELIN)}


@cache
def _game(rule: FreezeRule) -> freeze_dp.FreezeGame:
    n, low, high = rule.dice, min(rule.allowed), max(rule.allowed)
    throws = tuple(
        freeze_dp.throw_options(m, rule.allowed, "high") if m else None for m in range(n + 1)
    )
    # With k = n - m frozen allowed dice (all of one parity, step 2 apart).
    reach = tuple(np.arange(low * (n - m), high * (n - m) + 1, 2) for m in range(n + 1))
    return freeze_dp.FreezeGame(n, TOP, None, throws, reach)


class FreezeModel:
    """One discus or javelin attempt as an :class:`~attempts.AttemptModel`."""

    top = TOP

    def __init__(self, rule: FreezeRule) -> None:
        self.rule = rule
        self.game = _game(rule)

    def backward(self, reward_p: Floats, reward_e: Floats) -> freeze_dp.FreezePass:
        n = self.rule.dice
        stop_p = np.broadcast_to(reward_p[: TOP + 1], (n + 1, *reward_p[: TOP + 1].shape))
        stop_e = np.broadcast_to(reward_e[: TOP + 1], stop_p.shape)
        can_stop = [True] * n + [False]  # no stopping before the first freeze
        return freeze_dp.backward(self.game, stop_p, stop_e, can_stop, reward_p[-1], reward_e[-1])

    def values(self, reward: Floats) -> freeze_dp.FreezePass:
        """Value tables only, for a utility (:func:`freeze_dp.backward_values`)."""
        n = self.rule.dice
        stop = np.broadcast_to(reward[: TOP + 1], (n + 1, *reward[: TOP + 1].shape))
        return freeze_dp.backward_values(self.game, stop, [True] * n + [False], reward[-1])

    def root(self, solved: freeze_dp.FreezePass) -> Floats:
        root: Floats = solved.throw_p[self.rule.dice, 0]
        return root

    def forward(self, solved: freeze_dp.FreezePass) -> Floats:
        n = self.rule.dice
        cols = solved.throw_p.shape[2]
        entry = np.zeros((n + 1, TOP + 1, cols))
        entry[n, 0] = 1.0
        stopped, invalid = freeze_dp.forward(self.game, solved, entry)
        return np.vstack((stopped.sum(axis=0), invalid[None, :]))


Pass = AttemptPass[freeze_dp.FreezePass]


def _post(m: int, x: int) -> Reader[freeze_dp.FreezePass]:
    def read(p: Pass, col: int) -> float:
        return float(p.solved.post_p[m, x, col])

    return read


def _throw(m: int, x: int) -> Reader[freeze_dp.FreezePass]:
    def read(p: Pass, col: int) -> float:
        return float(p.solved.throw_p[m, x, col])

    return read


def _stop(x: int) -> Reader[freeze_dp.FreezePass]:
    def read(p: Pass, col: int) -> float:
        return float(p.reward_p[x, col])

    return read


class FreezeSolution:
    """Solved discus or javelin: summary figures and option values."""

    def __init__(self, event: str, attempts: int) -> None:
        self.rule = RULES[event]
        self.tables: AttemptTables[freeze_dp.FreezePass] = solve_attempts(
            FreezeModel(self.rule), event_spec(event), attempts
        )
        self.summary = self.tables.summary

    def option_values(
        self, situation: FreezeSituation, objective: AnyObjective, points: bool = False
    ) -> dict[Option, float]:
        s, n = situation, self.rule.dice
        self.tables.check(s.attempt, s.best)
        frozen = checked_dice(s.frozen, "frozen")
        thrown = checked_dice(s.thrown, "thrown")
        if any(face not in self.rule.allowed for face in frozen):
            raise ValueError(f"{self.rule.event} may only freeze {self.rule.allowed}: {frozen}")
        total, m = sum(frozen), n - len(frozen)
        if m < 0:
            raise ValueError(f"{self.rule.event} has {n} dice")

        def value(read: Reader[freeze_dp.FreezePass]) -> float:
            if points:
                assert isinstance(objective, Target), "points are a target's tie-break"
                return self.tables.points(objective, read)
            return self.tables.value(s.attempt, s.best, objective, read)

        if thrown:
            if len(thrown) != m:
                raise ValueError("every unfrozen die is thrown")
            allowed = tuple(face for face in thrown if face in self.rule.allowed)
            if not allowed:
                raise NoDecisionError("no allowed die among those thrown: invalid attempt")
            return {
                sub: value(_post(m - len(sub), total + sum(sub)))
                for sub in freeze_options(allowed, "high")
            }
        if not frozen:
            raise NoDecisionError("an attempt starts by throwing every die")
        if m == 0:
            raise NoDecisionError("every die is frozen: the attempt is over")
        return {"stop": value(_stop(total)), "rethrow": value(_throw(m, total))}
