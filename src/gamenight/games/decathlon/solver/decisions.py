"""The decision API: the value of every legal option at an engine decision point."""

from __future__ import annotations

from gamenight.games.decathlon.solver.common import TIE_EPS
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


def _mismatch(event: str, situation: Situation) -> TypeError:
    return TypeError(f"{type(situation).__name__} is not a situation of {event}")


def option_values(
    event: str,
    situation: Situation,
    objective: AnyObjective | None = None,
    *,
    attempts: int | None = None,
) -> dict[Option, float]:
    """Value of every legal option in ``situation`` under optimal play afterwards.

    For :class:`ExpectedScore` a value is the expected final event result (no
    valid result counting 0; sprint values include ``score_so_far``); for
    :class:`Target` it is the probability that the final result reaches the target;
    for a :class:`Utility` it is ``E[u(final result)]`` (its tables are solved on
    first use, in a few ms, and cached).
    The options and their keys are described in :mod:`.situations`.  Raises
    :class:`NoDecisionError` where the rules leave nothing to choose.
    """
    objective = ExpectedScore() if objective is None else objective
    solution = solved(event, attempts)
    if isinstance(solution, RaceSolution):
        if not isinstance(situation, SprintSituation | HurdlesSituation) or (
            isinstance(situation, HurdlesSituation) != (event == "110m-hurdles")
        ):
            raise _mismatch(event, situation)
        return solution.option_values(situation, objective)
    if isinstance(solution, LongJumpSolution):
        if not isinstance(situation, LongJumpSituation):
            raise _mismatch(event, situation)
        return solution.option_values(situation, objective)
    if isinstance(solution, ShotPutSolution):
        if not isinstance(situation, ShotPutSituation):
            raise _mismatch(event, situation)
        return solution.option_values(situation, objective)
    if isinstance(solution, FreezeSolution):
        if not isinstance(situation, FreezeSituation):
            raise _mismatch(event, situation)
        return solution.option_values(situation, objective)
    if not isinstance(situation, HeightSituation):
        raise _mismatch(event, situation)
    assert isinstance(solution, HeightSolution)
    return solution.option_values(situation, objective)


def best_option(
    event: str,
    situation: Situation,
    objective: AnyObjective | None = None,
    *,
    attempts: int | None = None,
) -> Option:
    """An optimal option: the highest value; near-ties (within 1e-12) go to the
    higher expected score for a :class:`Target` or :class:`Utility`, then to the
    first option listed.
    """
    objective = ExpectedScore() if objective is None else objective
    values = option_values(event, situation, objective, attempts=attempts)
    top = max(values.values())
    tied = [option for option, value in values.items() if value >= top - TIE_EPS]
    if len(tied) > 1 and isinstance(objective, Target | Utility):
        points = option_values(event, situation, ExpectedScore(), attempts=attempts)
        return max(tied, key=lambda option: points[option])
    return tied[0]


def situation_value(
    event: str,
    situation: Situation,
    objective: AnyObjective | None = None,
    *,
    attempts: int | None = None,
) -> float:
    """Value of ``situation`` with optimal play: the best option's value."""
    return max(option_values(event, situation, objective, attempts=attempts).values())
