"""Long Jump (D6): run-up with a frozen total of at most 8, then the jump.

Two :mod:`freeze_dp` games chained per pass.  The jump with ``k`` dice is a
freeze game that must go on until all ``k`` dice are frozen and scores their sum;
its value ``J(k)`` does not depend on the run-up total.  The run-up is a freeze
game over 5 dice that keeps the *lowest* dice (a lower frozen total leaves every
later option open), caps the frozen total at 8, and "stops" by jumping with the
``k = 5 - m`` frozen dice, worth ``J(k)``.
"""

from __future__ import annotations

from collections.abc import Callable
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
from gamenight.games.decathlon.solver.situations import (
    LongJumpSituation,
    NoDecisionError,
    Option,
)
from gamenight.solve.dice import freeze_options

DICE = 5
RUN_UP_LIMIT = 8  # D6: a frozen run-up total over 8 steps over
TOP = 6 * DICE


class LongJumpPass(msgspec.Struct, frozen=True):
    """The run-up and jump tables of one pass."""

    run_up: freeze_dp.FreezePass
    jump: freeze_dp.FreezePass


@cache
def _run_up_game() -> freeze_dp.FreezeGame:
    throws = tuple(
        freeze_dp.throw_options(m, (1, 2, 3, 4, 5, 6), "low", clip=RUN_UP_LIMIT + 1) if m else None
        for m in range(DICE + 1)
    )
    reach = tuple(
        np.arange(DICE - m, min(RUN_UP_LIMIT, 6 * (DICE - m)) + 1) for m in range(DICE + 1)
    )
    return freeze_dp.FreezeGame(DICE, RUN_UP_LIMIT, RUN_UP_LIMIT, throws, reach)


@cache
def _jump_game() -> freeze_dp.FreezeGame:
    throws = tuple(
        freeze_dp.throw_options(m, (1, 2, 3, 4, 5, 6), "high") if m else None
        for m in range(DICE + 1)
    )
    # m jump dice unfrozen out of any k <= 5: frozen total 0 .. 6 * (5 - m).
    reach = tuple(np.arange(0, 6 * (DICE - m) + 1) for m in range(DICE + 1))
    return freeze_dp.FreezeGame(DICE, TOP, None, throws, reach)


Pass = AttemptPass[LongJumpPass]


def _invalid(p: Pass, col: int) -> float:
    return float(p.reward_p[-1, col])


def _run_up_post(m: int, x: int) -> Reader[LongJumpPass]:
    def read(p: Pass, col: int) -> float:
        return float(p.solved.run_up.post_p[m, x, col])

    return read


def _run_up_throw(m: int, x: int) -> Reader[LongJumpPass]:
    def read(p: Pass, col: int) -> float:
        return float(p.solved.run_up.throw_p[m, x, col])

    return read


def _jump_start(k: int) -> Reader[LongJumpPass]:
    def read(p: Pass, col: int) -> float:
        return float(p.solved.jump.throw_p[k, 0, col])

    return read


def _jump_post(m: int, x: int) -> Reader[LongJumpPass]:
    def read(p: Pass, col: int) -> float:
        return float(p.solved.jump.post_p[m, x, col])

    return read


class LongJumpModel:
    """One long jump attempt as an :class:`~attempts.AttemptModel`."""

    top = TOP

    def backward(self, reward_p: Floats, reward_e: Floats) -> LongJumpPass:
        cols = reward_p.shape[1]
        jump_game, run_game = _jump_game(), _run_up_game()
        stop_p = np.zeros((DICE + 1, TOP + 1, cols))
        stop_e = np.zeros_like(stop_p)
        stop_p[0], stop_e[0] = reward_p[: TOP + 1], reward_e[: TOP + 1]
        jump = freeze_dp.backward(
            jump_game, stop_p, stop_e, [True] + [False] * DICE, reward_p[-1], reward_e[-1]
        )
        # Jumping from run-up post-freeze (m, x) uses k = 5 - m dice, whatever x is.
        run_stop_p = np.zeros((DICE + 1, RUN_UP_LIMIT + 1, cols))
        run_stop_e = np.zeros_like(run_stop_p)
        for m in range(DICE):
            run_stop_p[m] = jump.throw_p[DICE - m, 0]
            run_stop_e[m] = jump.throw_e[DICE - m, 0]
        run_up = freeze_dp.backward(
            run_game,
            run_stop_p,
            run_stop_e,
            [True] * DICE + [False],
            reward_p[-1],
            reward_e[-1],
        )
        return LongJumpPass(run_up, jump)

    def values(self, reward: Floats) -> LongJumpPass:
        """Value tables only, for a utility (:func:`freeze_dp.backward_values`)."""
        cols = reward.shape[1]
        stop = np.zeros((DICE + 1, TOP + 1, cols))
        stop[0] = reward[: TOP + 1]
        jump = freeze_dp.backward_values(_jump_game(), stop, [True] + [False] * DICE, reward[-1])
        run_stop = np.zeros((DICE + 1, RUN_UP_LIMIT + 1, cols))
        for m in range(DICE):
            run_stop[m] = jump.throw_p[DICE - m, 0]
        run_up = freeze_dp.backward_values(
            _run_up_game(), run_stop, [True] * DICE + [False], reward[-1]
        )
        return LongJumpPass(run_up, jump)

    def root(self, solved: LongJumpPass) -> Floats:
        root: Floats = solved.run_up.throw_p[DICE, 0]
        return root

    def forward(self, solved: LongJumpPass) -> Floats:
        run_game, jump_game = _run_up_game(), _jump_game()
        cols = solved.run_up.throw_p.shape[2]
        entry = np.zeros((DICE + 1, RUN_UP_LIMIT + 1, cols))
        entry[DICE, 0] = 1.0
        stopped, invalid = freeze_dp.forward(run_game, solved.run_up, entry)
        jump_entry = np.zeros((DICE + 1, TOP + 1, cols))
        for m in range(DICE):
            jump_entry[DICE - m, 0] = stopped[m].sum(axis=0)
        landed, _ = freeze_dp.forward(jump_game, solved.jump, jump_entry)
        return np.vstack((landed[0], invalid[None, :]))


class LongJumpSolution:
    """Solved long jump: summary figures and option values."""

    def __init__(self, attempts: int) -> None:
        self.tables: AttemptTables[LongJumpPass] = solve_attempts(
            LongJumpModel(), event_spec("long-jump"), attempts
        )
        self.summary = self.tables.summary

    def option_values(
        self, situation: LongJumpSituation, objective: AnyObjective, points: bool = False
    ) -> dict[Option, float]:
        s = situation
        self.tables.check(s.attempt, s.best)
        frozen = checked_dice(s.frozen, "frozen")
        thrown = checked_dice(s.thrown, "thrown")

        def value(read: Reader[LongJumpPass]) -> float:
            if points:
                assert isinstance(objective, Target), "points are a target's tie-break"
                return self.tables.points(objective, read)
            return self.tables.value(s.attempt, s.best, objective, read)

        if s.phase == "jump":
            return self._jump_options(frozen, thrown, value)
        if s.phase != "run-up":
            raise ValueError(f"unknown long jump phase {s.phase!r}")
        total = sum(frozen)
        if total > RUN_UP_LIMIT:
            raise NoDecisionError("the run-up stepped over (frozen total above 8): invalid")
        if thrown:
            if len(frozen) + len(thrown) != DICE:
                raise ValueError("a run-up throw throws every unfrozen die (5 in all)")
            options: dict[Option, float] = {}
            for sub in freeze_options(thrown, "low"):
                m, x = len(thrown) - len(sub), total + sum(sub)
                if x > RUN_UP_LIMIT:
                    options[sub] = value(_invalid)
                else:
                    options[sub] = value(_run_up_post(m, x))
            return options
        if not frozen:
            raise NoDecisionError("the run-up starts by throwing all 5 dice")
        if len(frozen) > DICE:
            raise ValueError("the run-up has 5 dice")
        m = DICE - len(frozen)
        jump = value(_jump_start(len(frozen)))
        if m == 0:
            return {"jump": jump}
        # Jumping is the run-up's "stop", listed first as the solver's tables do.
        return {"jump": jump, "rethrow": value(_run_up_throw(m, total))}

    def _jump_options(
        self,
        frozen: tuple[int, ...],
        thrown: tuple[int, ...],
        value: Callable[[Reader[LongJumpPass]], float],
    ) -> dict[Option, float]:
        if not thrown:
            raise NoDecisionError("in the jump every unfrozen die is rethrown; nothing to choose")
        if len(frozen) + len(thrown) > DICE:
            raise ValueError("a jump uses at most 5 dice")
        acc = sum(frozen)
        return {
            sub: value(_jump_post(len(thrown) - len(sub), acc + sum(sub)))
            for sub in freeze_options(thrown, "high")
        }
