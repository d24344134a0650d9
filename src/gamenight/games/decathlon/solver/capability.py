"""The Decathlon's solver capability (:class:`gamenight.core.solver.Solver`).

``gamenight solve decathlon`` reaches the exact per-discipline solvers through
this object, so the command line holds no Decathlon code. The one option,
``events``, names the disciplines to solve (default: all ten), as the game's
option of the same name does. Solving takes about 0.13 s and is not cached on
disk, so ``rebuild`` changes nothing.

>>> solution = SOLVER.solve({"events": "hurdles"})
>>> solution.columns()[:3]
('event', 'EV', 'SD')
>>> solution.rows()[0][:2]
('110 Metre Hurdles', '21.3754')
>>> solution.to_json()["events"][0]["p_at_least"]["5"]
1.0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gamenight.core.options import OptionSpec
from gamenight.core.solver import Progress
from gamenight.games.decathlon.disciplines import ALIASES, EVENT_IDS
from gamenight.games.decathlon.solver.table import (
    EventSolution,
    solution_table_rows,
    solve_event,
    target_probabilities,
)

EVENTS_OPTION = OptionSpec(
    "events",
    "multi",
    "the events to solve, comma-separated (default: all ten)",
    default=list(EVENT_IDS),
    choices=EVENT_IDS,
    aliases=ALIASES,
)


@dataclass(frozen=True)
class DecathlonSolution:
    """The expected-score policy of each chosen discipline: EV, SD, range, P(invalid)."""

    solutions: tuple[EventSolution, ...]
    title: str = "Decathlon: optimal expected-score play (exact)"

    def columns(self) -> Sequence[str]:
        return ("event", "EV", "SD", "min", "max", "P(no valid result)")

    def rows(self) -> Sequence[Sequence[str]]:
        rows = [
            (
                row["name"],
                f"{row['ev']:.4f}",
                f"{row['sd']:.4f}",
                _opt(row["min"]),
                _opt(row["max"]),
                f"{row['p_invalid']:.6f}",
            )
            for row in solution_table_rows([s.event for s in self.solutions])
        ]
        if len(self.solutions) == len(EVENT_IDS):
            total = sum(s.ev for s in self.solutions)
            rows.append(("Decathlon total", f"{total:.4f}", "", "", "", ""))
        return rows

    def to_json(self) -> Any:
        out = []
        for solution in self.solutions:
            data = solution.to_json()
            data["p_at_least"] = {
                str(t): p for t, p in target_probabilities(solution.event).items()
            }
            data["p_more_than"] = {
                str(t): p for t, p in target_probabilities(solution.event, strict=True).items()
            }
            out.append(data)
        return {"game": "decathlon", "objective": "expected-score", "events": out}


class DecathlonSolver:
    """Solves the chosen disciplines exactly (backward induction, in memory)."""

    options: tuple[OptionSpec, ...] = (EVENTS_OPTION,)

    def solve(
        self, options: dict[str, Any], *, rebuild: bool = False, progress: Progress | None = None
    ) -> DecathlonSolution:
        raw = options.get("events")
        chosen: list[str] = EVENTS_OPTION.parse(raw) if raw is not None else list(EVENT_IDS)
        solutions = []
        for done, discipline in enumerate(chosen):
            solutions.append(solve_event(discipline))
            if progress is not None:
                progress(done + 1, len(chosen))
        return DecathlonSolution(tuple(solutions))


def _opt(value: int | None) -> str:
    return "—" if value is None else str(value)


SOLVER = DecathlonSolver()
