"""The option the solved policy tables take at a decision.

The backward inductions keep, besides values, the policy they followed: the
choice per state and column.  :func:`position_dist`, the live odds and the target
distributions follow those tables; bots and hints follow :func:`best_option`.
Both pick by the one tie rule (:mod:`gamenight.solve.ties`) over options listed
in the same order, so they agree; :func:`table_option` reads the tables back as
an option so that a test can check it.

Only the :class:`ExpectedScore` and :class:`Target` policies have tables (a
utility is solved for values alone).  For a target the tables hold the
single-attempt target policy, which every attempt plays.

>>> from gamenight.games.decathlon.solver.situations import FreezeSituation
>>> table_option("discus", FreezeSituation((4, 6, 6), (2, 4), 3, 20))
(4,)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gamenight.games.decathlon.solver import freeze_dp
from gamenight.games.decathlon.solver.attempts import AttemptTables
from gamenight.games.decathlon.solver.common import threshold_for
from gamenight.games.decathlon.solver.freeze_events import FreezeSolution
from gamenight.games.decathlon.solver.freeze_events import _game as _freeze_game
from gamenight.games.decathlon.solver.heights import HeightSolution
from gamenight.games.decathlon.solver.long_jump import (
    DICE as LJ_DICE,
)
from gamenight.games.decathlon.solver.long_jump import (
    RUN_UP_LIMIT,
    LongJumpSolution,
    _jump_game,
    _run_up_game,
)
from gamenight.games.decathlon.solver.objectives import ExpectedScore, Target
from gamenight.games.decathlon.solver.races import RaceSolution
from gamenight.games.decathlon.solver.shot_put import ShotPutSolution
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
from gamenight.games.decathlon.solver.solved import solved

Policy = ExpectedScore | Target


def table_option(
    event: str,
    situation: Situation,
    objective: Policy | None = None,
    *,
    attempts: int | None = None,
) -> Option:
    """The option the policy tables of ``objective`` take at ``situation``.

    Raises :class:`NoDecisionError` where the tables hold no choice (a forced
    move, or a throw that leaves the attempt invalid).
    """
    objective = ExpectedScore() if objective is None else objective
    solution = solved(event, attempts)
    if isinstance(solution, RaceSolution):
        assert isinstance(situation, SprintSituation | HurdlesSituation)
        return _race(solution, situation, objective)
    if isinstance(solution, HeightSolution):
        assert isinstance(situation, HeightSituation)
        return _height(solution, situation, objective)
    if isinstance(solution, ShotPutSolution):
        assert isinstance(situation, ShotPutSituation)
        return _shot_put(solution, situation, objective)
    if isinstance(solution, FreezeSolution):
        assert isinstance(situation, FreezeSituation)
        return _discus_javelin(solution, situation, objective)
    assert isinstance(solution, LongJumpSolution) and isinstance(situation, LongJumpSituation)
    return _long_jump(solution, situation, objective)


def _shot_put(solution: ShotPutSolution, s: ShotPutSituation, objective: Policy) -> Option:
    pass_, col = _pass(solution.tables, s.attempt, s.best, objective)
    n, x = len(s.dice), sum(s.dice)
    if n == 0:
        raise NoDecisionError("the first die is always thrown")
    return ("stop", "throw")[int(pass_.settle[n, x, col])]


def _discus_javelin(solution: FreezeSolution, s: FreezeSituation, objective: Policy) -> Option:
    rule = solution.rule
    pass_, col = _pass(solution.tables, s.attempt, s.best, objective)
    m, x = rule.dice - len(s.frozen), sum(s.frozen)
    if not s.thrown:
        return ("stop", "rethrow")[int(pass_.settle[m, x, col])]
    allowed = tuple(sorted((f for f in s.thrown if f in rule.allowed), reverse=True))
    return _freeze(_freeze_game(rule), pass_, m, x, col, allowed, s.thrown, "high")


def _long_jump(solution: LongJumpSolution, s: LongJumpSituation, objective: Policy) -> Option:
    lj, col = _pass(solution.tables, s.attempt, s.best, objective)
    if s.phase == "jump":
        ordered = tuple(sorted(s.thrown, reverse=True))
        return _freeze(_jump_game(), lj.jump, len(s.thrown), sum(s.frozen), col, ordered, s.thrown)
    m, x = LJ_DICE - len(s.frozen), sum(s.frozen)
    if not s.thrown:
        return ("jump", "rethrow")[int(lj.run_up.settle[m, x, col])]
    ordered = tuple(sorted(s.thrown))
    return _freeze(_run_up_game(), lj.run_up, m, x, col, ordered, s.thrown, "low")


def _pass(
    tables: AttemptTables[Any], attempt: int, best: int | None, objective: Policy
) -> tuple[Any, int]:
    """The pass whose policy plays this attempt, and the column of ``objective``."""
    if isinstance(objective, ExpectedScore):
        return tables.passes[attempt].solved, 0 if best is None else best
    t = threshold_for(objective, tables.spec.min_score, tables.spec.max_score)
    return tables.passes[tables.attempts].solved, tables.target_column(t)


def _freeze(
    game: freeze_dp.FreezeGame,
    solved_pass: freeze_dp.FreezePass,
    m: int,
    x: int,
    col: int,
    ordered: tuple[int, ...],
    thrown: tuple[int, ...],
    keep: str = "high",
) -> Option:
    """The freeze the tables take: ``j + 1`` of the ``ordered`` (best first) dice."""
    throws = game.throws[m]
    choice, dead = solved_pass.choice[m], solved_pass.dead[m]
    assert throws is not None and choice is not None and dead is not None
    gain = np.zeros(m, dtype=np.int64)
    legal = np.zeros(m, dtype=bool)
    gain[: len(ordered)] = np.cumsum(ordered)
    legal[: len(ordered)] = True
    if keep == "low":
        gain = np.minimum(gain, RUN_UP_LIMIT + 1)
    rows = np.flatnonzero((throws.gain == gain).all(axis=1) & (throws.legal == legal).all(axis=1))
    assert len(rows) == 1, f"throw {thrown} not among the reduced throws"
    xi = int(np.searchsorted(game.reach[m], x))
    if bool(dead[xi, rows[0]]):
        raise NoDecisionError("no legal freeze: the attempt is invalid")
    j = int(choice[xi, rows[0], col])
    return tuple(sorted(ordered[: j + 1]))


def _race(sol: RaceSolution, s: SprintSituation | HurdlesSituation, objective: Policy) -> Option:
    if isinstance(s, HurdlesSituation):
        i, r, so_far = 0, s.rethrows_left, 0
    else:
        i, r, so_far = s.set_index, s.rethrows_left, s.score_so_far
    if r == 0:
        raise NoDecisionError("no rethrow left: the set is frozen")
    score = sum(sol.race.six if face == 6 else face for face in s.dice)
    k = int(np.flatnonzero(sol.scores == score)[0])
    if isinstance(objective, ExpectedScore):
        pick = sol.ev_choice[i, r, k]
    else:
        need = threshold_for(objective, sol.low, sol.high) - so_far
        n = min(max(need, sol.need_low), sol.need_high) - sol.need_low
        pick = sol.hit_choice[i, r, n, k]
    return ("freeze", "rethrow")[int(pick)]


def _height(sol: HeightSolution, s: HeightSituation, objective: Policy) -> Option:
    i = sol.bar.heights.index(s.height)
    b = sol._best_index(s.best, s.height)
    col = sol._column(objective)
    if not s.committed:
        return ("jump", "skip", "retire")[int(sol.choice[i, b, col])]
    if len(sol.bar.dice_counts) == 1:
        raise NoDecisionError("a committed high jumper just jumps: no choice")
    return int(sol.bar.dice_counts[int(sol.dice_choice[i, s.jumps_used, b, col])])


__all__ = ["table_option"]
