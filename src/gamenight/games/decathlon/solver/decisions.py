"""The decision API: the value of every legal option at an engine decision point."""

from __future__ import annotations

from gamenight.games.decathlon.solver.freeze_events import FreezeSolution
from gamenight.games.decathlon.solver.heights import HeightSolution
from gamenight.games.decathlon.solver.long_jump import LongJumpSolution
from gamenight.games.decathlon.solver.objectives import (
    AnyObjective,
    ExpectedScore,
    Target,
    Utility,
)
from gamenight.games.decathlon.solver.races import RaceSolution
from gamenight.games.decathlon.solver.shot_put import ShotPutSolution
from gamenight.games.decathlon.solver.situations import (
    FreezeSituation,
    HeightSituation,
    HurdlesSituation,
    LongJumpSituation,
    Option,
    ShotPutSituation,
    Situation,
    SprintSituation,
)
from gamenight.games.decathlon.solver.solved import solved
from gamenight.solve.ties import best_key


def _mismatch(event: str, situation: Situation) -> TypeError:
    return TypeError(f"{type(situation).__name__} is not a situation of {event}")


def option_values(
    event: str,
    situation: Situation,
    objective: AnyObjective | None = None,
    *,
    attempts: int | None = None,
    points: bool = False,
) -> dict[Option, float]:
    """Value of every legal option in ``situation`` under optimal play afterwards.

    For :class:`ExpectedScore` a value is the expected final event result (no
    valid result counting 0; sprint values include ``score_so_far``); for
    :class:`Target` it is the probability that the final result reaches the target;
    for a :class:`Utility` it is ``E[u(final result)]`` (its tables are solved on
    first use, in a few ms, and cached).
    The options and their keys are described in :mod:`.situations`.  Raises
    :class:`NoDecisionError` where the rules leave nothing to choose.

    With ``points`` (a :class:`Target` only) a value is instead the expected event
    result under the target policy: the tie-break of that policy.  Options are
    listed in the solver's order (:mod:`.situations`), which breaks exact ties.
    """
    objective = ExpectedScore() if objective is None else objective
    solution = solved(event, attempts)
    if isinstance(solution, RaceSolution):
        if not isinstance(situation, SprintSituation | HurdlesSituation) or (
            isinstance(situation, HurdlesSituation) != (event == "110m-hurdles")
        ):
            raise _mismatch(event, situation)
        return solution.option_values(situation, objective, points)
    if isinstance(solution, LongJumpSolution):
        if not isinstance(situation, LongJumpSituation):
            raise _mismatch(event, situation)
        return solution.option_values(situation, objective, points)
    if isinstance(solution, ShotPutSolution):
        if not isinstance(situation, ShotPutSituation):
            raise _mismatch(event, situation)
        return solution.option_values(situation, objective, points)
    if isinstance(solution, FreezeSolution):
        if not isinstance(situation, FreezeSituation):
            raise _mismatch(event, situation)
        return solution.option_values(situation, objective, points)
    if not isinstance(situation, HeightSituation):
        raise _mismatch(event, situation)
    assert isinstance(solution, HeightSolution)
    return solution.option_values(situation, objective, points)


def best_option(
    event: str,
    situation: Situation,
    objective: AnyObjective | None = None,
    *,
    attempts: int | None = None,
) -> Option:
    """The optimal option by the one tie rule (:mod:`gamenight.solve.ties`), which the
    solver's policy tables follow too: the highest value; near-ties (within 1e-12)
    go, for a :class:`Target`, to the higher expected result under the target
    policy, for a :class:`Utility` to the higher expected score, then to the first
    option listed.
    """
    objective = ExpectedScore() if objective is None else objective
    values = option_values(event, situation, objective, attempts=attempts)
    if len(values) == 1:
        return next(iter(values))
    secondary = None
    if isinstance(objective, Target):
        secondary = option_values(event, situation, objective, attempts=attempts, points=True)
    elif isinstance(objective, Utility):
        secondary = option_values(event, situation, ExpectedScore(), attempts=attempts)
    return best_key(values, secondary)


def situation_value(
    event: str,
    situation: Situation,
    objective: AnyObjective | None = None,
    *,
    attempts: int | None = None,
) -> float:
    """Value of ``situation`` with optimal play: the best option's value."""
    return max(option_values(event, situation, objective, attempts=attempts).values())
