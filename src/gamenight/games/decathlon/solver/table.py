"""Solved events as plain figures: distributions, summary rows and JSON."""

from __future__ import annotations

import math
from typing import TypedDict

import msgspec

from gamenight.games.decathlon.solver.events import EVENTS, event_spec
from gamenight.games.decathlon.solver.objectives import ExpectedScore, Objective, Target
from gamenight.games.decathlon.solver.solved import solved


class EventSolution(msgspec.Struct, frozen=True):
    """One event played by the optimal policy for ``objective``.

    ``value`` is the objective's optimal value (expected result, or probability of
    reaching the target).  ``pmf`` maps every integer ``min_score..max_score``
    (the rules' range of valid results) to its probability; it sums to
    ``1 - p_invalid``.  ``ev`` and ``sd`` count no valid result as 0 (D3, D11).
    """

    event: str
    name: str
    objective: Objective
    attempts: int
    value: float
    ev: float
    sd: float
    min_score: int
    max_score: int
    p_invalid: float
    pmf: dict[int, float]

    @property
    def lowest(self) -> int | None:
        """Lowest valid result with positive probability under the policy."""
        scores = [score for score, p in self.pmf.items() if p > 0]
        return min(scores) if scores else None

    @property
    def highest(self) -> int | None:
        """Highest valid result with positive probability under the policy."""
        scores = [score for score, p in self.pmf.items() if p > 0]
        return max(scores) if scores else None

    def prob_at_least(self, t: int) -> float:
        """P(valid result >= t) under this policy."""
        return sum(p for score, p in self.pmf.items() if score >= t)

    def to_json(self) -> dict[str, object]:
        """JSON-ready dict, PMF included (keys are result strings)."""
        objective: dict[str, object] = {"kind": "expected-score"}
        if isinstance(self.objective, Target):
            objective = {"kind": "target", "t": self.objective.t, "strict": self.objective.strict}
        return {
            "event": self.event,
            "name": self.name,
            "objective": objective,
            "attempts": self.attempts,
            "value": self.value,
            "ev": self.ev,
            "sd": self.sd,
            "min_score": self.min_score,
            "max_score": self.max_score,
            "lowest": self.lowest,
            "highest": self.highest,
            "p_invalid": self.p_invalid,
            "pmf": {str(score): p for score, p in self.pmf.items()},
        }


def solve_event(
    event: str, objective: Objective | None = None, *, attempts: int | None = None
) -> EventSolution:
    """Solve ``event`` for ``objective`` (default: expected score).

    ``attempts`` overrides the number of attempts of a 3-attempt event (D3);
    other events take only 1.  Tables are cached: only the first call per event
    does real work.

    >>> round(solve_event("110m-hurdles").ev, 4)
    21.3754
    """
    objective = ExpectedScore() if objective is None else objective
    solution = solved(event, attempts)
    summary = solution.summary
    spec = event_spec(event)
    dist = summary.dist(objective)
    scores = range(summary.min_score, summary.max_score + 1)
    pmf = {score: float(p) for score, p in zip(scores, dist[:-1], strict=True)}
    ev = sum(score * p for score, p in pmf.items())
    var = sum((score - ev) ** 2 * p for score, p in pmf.items()) + ev**2 * float(dist[-1])
    return EventSolution(
        event=event,
        name=spec.name,
        objective=objective,
        attempts=summary.attempts,
        value=summary.value(objective),
        ev=summary.ev if isinstance(objective, ExpectedScore) else ev,
        sd=math.sqrt(max(var, 0.0)),
        min_score=summary.min_score,
        max_score=summary.max_score,
        p_invalid=float(dist[-1]),
        pmf=pmf,
    )


def solve_all(objective: Objective | None = None) -> list[EventSolution]:
    """Every event in D1 order.  Solving an event builds all its tables at once:
    expected-score and every target, with their distributions."""
    return [solve_event(event, objective) for event in EVENTS]


def target_probabilities(
    event: str, *, strict: bool = False, attempts: int | None = None
) -> dict[int, float]:
    """Optimal P(result >= t) (``> t`` if ``strict``) for every t in the event's range.

    >>> target_probabilities("110m-hurdles")[5]
    1.0
    """
    summary = solved(event, attempts).summary
    return {
        t: summary.value(Target(t, strict)) for t in range(summary.min_score, summary.max_score + 1)
    }


class SolutionRow(TypedDict):
    """One line of ``gamenight solve decathlon``: policy figures of one event.

    ``min``/``max`` are the lowest and highest valid results the policy can reach
    (``None`` if it never gets a valid result).
    """

    event: str
    name: str
    ev: float
    sd: float
    min: int | None
    max: int | None
    p_invalid: float


def solution_table_rows(
    events: list[str] | None = None, objective: Objective | None = None
) -> list[SolutionRow]:
    """Summary rows in D1 order (or for ``events``), expected-score policy by default."""
    chosen = list(EVENTS) if events is None else [event_spec(e).event for e in events]
    rows: list[SolutionRow] = []
    for event in chosen:
        sol = solve_event(event, objective)
        rows.append(
            SolutionRow(
                event=sol.event,
                name=sol.name,
                ev=sol.ev,
                sd=sol.sd,
                min=sol.lowest,
                max=sol.highest,
                p_invalid=sol.p_invalid,
            )
        )
    return rows
