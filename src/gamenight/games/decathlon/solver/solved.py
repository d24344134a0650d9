"""One cached solver object per (event, attempts); the rest of the API reads it."""

from __future__ import annotations

from functools import cache

from gamenight.games.decathlon.solver.events import resolve_attempts
from gamenight.games.decathlon.solver.freeze_events import RULES as FREEZE_RULES
from gamenight.games.decathlon.solver.freeze_events import FreezeSolution
from gamenight.games.decathlon.solver.heights import BARS, HeightSolution
from gamenight.games.decathlon.solver.long_jump import LongJumpSolution
from gamenight.games.decathlon.solver.races import RACES, RaceSolution
from gamenight.games.decathlon.solver.shot_put import ShotPutSolution

SolvedEvent = RaceSolution | LongJumpSolution | ShotPutSolution | FreezeSolution | HeightSolution


@cache
def _solve(event: str, attempts: int) -> SolvedEvent:
    if event in RACES:
        return RaceSolution(event)
    if event == "long-jump":
        return LongJumpSolution(attempts)
    if event == "shot-put":
        return ShotPutSolution(attempts)
    if event in FREEZE_RULES:
        return FreezeSolution(event, attempts)
    if event in BARS:
        return HeightSolution(event)
    raise AssertionError(f"no solver for {event}")  # resolve_attempts checked the id


def solved(event: str, attempts: int | None = None) -> SolvedEvent:
    """The solved tables of ``event`` (solved on first use, then cached)."""
    return _solve(event, resolve_attempts(event, attempts))
