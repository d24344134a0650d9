"""Exact solvers for the ten events of Reiner Knizia's Decathlon.

Each event is solved by backward induction over its exact state space, for two
objectives (:mod:`.objectives`): the expected result and, for every target
``t``, the probability of a result ``>= t`` (or ``> t``).  The decision API also
takes any :class:`Utility` of the result (``E[u(result)]``), solved on demand.  Solving is lazy and
cached per event; nothing is computed at import.

* :func:`solve_event`, :func:`solve_all`: optimal value, SD, P(no valid result)
  and the full result distribution under the optimal policy.
* :func:`option_values`, :func:`best_option`: values of every legal option at
  an engine decision point (situations in :mod:`.situations`).
* :func:`solution_table_rows`, :func:`target_probabilities`: figures for the CLI.
* :func:`position_dist`, :func:`position_pmf`: the final result distribution from
  any position inside an event under the expected-score policy (:mod:`.positions`).

See ``docs/solvers-decathlon.md`` for the formulations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamenight.core.lazy import on_first_use

# The names below are imported on first use (PEP 562): ``gamenight solve decathlon``
# imports only the solved tables (``table``), not the decision and position APIs
# (issue 29).
if TYPE_CHECKING:
    from gamenight.games.decathlon.solver.decisions import (
        best_option,
        option_values,
        situation_value,
    )
    from gamenight.games.decathlon.solver.events import EVENT_SPECS, EVENTS, EventSpec, event_spec
    from gamenight.games.decathlon.solver.objectives import (
        AnyObjective,
        ExpectedScore,
        Objective,
        Target,
        Utility,
    )
    from gamenight.games.decathlon.solver.positions import (
        AttemptStart,
        Position,
        position_dist,
        position_pmf,
    )
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
    from gamenight.games.decathlon.solver.table import (
        EventSolution,
        SolutionRow,
        solution_table_rows,
        solve_all,
        solve_event,
        target_probabilities,
    )

_HOME = {
    "best_option": "decisions",
    "option_values": "decisions",
    "situation_value": "decisions",
    "EVENT_SPECS": "events",
    "EVENTS": "events",
    "EventSpec": "events",
    "event_spec": "events",
    "AnyObjective": "objectives",
    "ExpectedScore": "objectives",
    "Objective": "objectives",
    "Target": "objectives",
    "Utility": "objectives",
    "AttemptStart": "positions",
    "Position": "positions",
    "position_dist": "positions",
    "position_pmf": "positions",
    "FreezeSituation": "situations",
    "HeightSituation": "situations",
    "HurdlesSituation": "situations",
    "LongJumpSituation": "situations",
    "NoDecisionError": "situations",
    "Option": "situations",
    "ShotPutSituation": "situations",
    "Situation": "situations",
    "SprintSituation": "situations",
    "EventSolution": "table",
    "SolutionRow": "table",
    "solution_table_rows": "table",
    "solve_all": "table",
    "solve_event": "table",
    "target_probabilities": "table",
}


__getattr__ = on_first_use(__name__, _HOME)


__all__ = [
    "EVENTS",
    "EVENT_SPECS",
    "AnyObjective",
    "AttemptStart",
    "EventSolution",
    "EventSpec",
    "ExpectedScore",
    "FreezeSituation",
    "HeightSituation",
    "HurdlesSituation",
    "LongJumpSituation",
    "NoDecisionError",
    "Objective",
    "Option",
    "Position",
    "ShotPutSituation",
    "Situation",
    "SolutionRow",
    "SprintSituation",
    "Target",
    "Utility",
    "best_option",
    "event_spec",
    "option_values",
    "position_dist",
    "position_pmf",
    "situation_value",
    "solution_table_rows",
    "solve_all",
    "solve_event",
    "target_probabilities",
]
