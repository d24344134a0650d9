"""The Decathlon's solver capability (:class:`gamenight.core.solver.Solver`).

``gamenight solve decathlon`` reaches the exact per-discipline solvers through
this object, so the command line holds no Decathlon code. The one option,
``events``, names the disciplines to solve (default: all ten), as the game's
option of the same name does. Solving takes about 0.1 s and is not cached on
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
from typing import TYPE_CHECKING, Any

import msgspec

from gamenight.core.i18n import _, format_decimal, term
from gamenight.core.options import OptionSpec
from gamenight.core.solver import Progress
from gamenight.games.decathlon.disciplines import ALIASES, EVENT_IDS, NAMES

# The event solvers (and numpy) are imported where used: a cached two-player win table
# needs neither (issue 46).
if TYPE_CHECKING:
    from gamenight.games.decathlon.solver.table import EventSolution

EVENTS_OPTION = OptionSpec(
    "events",
    "multi",
    "the events to solve, comma-separated (default: all ten)",
    default=list(EVENT_IDS),
    choices=EVENT_IDS,
    aliases=ALIASES,
)


LEADS = (0, 5, 10, 20, 40)  # the leads the win table's summary shows

TWO_PLAYER_WIN_OPTION = OptionSpec(
    "two-player-win",
    "bool",
    "solve the two-player points game played to win (a cached table; minutes cold)",
    default=False,
)


class WinChainSolution(msgspec.Struct, frozen=True):
    """The two-player win table: the first mover's win chance by event and lead."""

    events: tuple[str, ...]
    values: tuple[tuple[float, ...], ...]  # per event: leads 0..L
    bound: float
    seconds: float

    @property
    def title(self) -> str:
        return _("Decathlon, two players both playing to win: the first mover's win chance")

    def columns(self) -> Sequence[str]:
        leads = [_("lead {points}").format(points=d) for d in LEADS]
        return (_("before"), *leads, _("leads kept"))

    def rows(self) -> Sequence[Sequence[str]]:
        out = []
        for event, w in zip(self.events, self.values, strict=True):
            cells = [format_decimal(w[d] if d < len(w) else 1.0, places=4) for d in LEADS]
            out.append((_event(event), *cells, f"0..{len(w) - 1}"))
        return out

    def to_json(self) -> Any:
        return {
            "game": "decathlon",
            "objective": "two-player-win",
            "events": list(self.events),
            "error_bound": self.bound,
            "note": "first mover's win chance (ties count a half) before each event, by its "
            "lead 0..L; beyond L the leader wins to within error_bound",
            "chain": [
                {"event": e, "name": NAMES[e], "win": list(w)}
                for e, w in zip(self.events, self.values, strict=True)
            ],
        }


class DecathlonSolution(msgspec.Struct, frozen=True):
    """The expected-score policy of each chosen discipline: EV, SD, range, P(invalid)."""

    solutions: tuple[EventSolution, ...]

    @property
    def title(self) -> str:
        return _("Decathlon: optimal expected-score play (exact)")

    def columns(self) -> Sequence[str]:
        # EV, SD: the expected value and the standard deviation of the event's score
        return (_("event"), _("EV"), _("SD"), _("min"), _("max"), _("P(no valid result)"))

    def rows(self) -> Sequence[Sequence[str]]:
        from gamenight.games.decathlon.solver.table import solution_table_rows

        rows = [
            (
                _event(row["event"]),
                format_decimal(row["ev"], places=4),
                format_decimal(row["sd"], places=4),
                _opt(row["min"]),
                _opt(row["max"]),
                format_decimal(row["p_invalid"], places=6),
            )
            for row in solution_table_rows([s.event for s in self.solutions])
        ]
        if len(self.solutions) == len(EVENT_IDS):
            total = sum(s.ev for s in self.solutions)
            rows.append((_("Decathlon total"), format_decimal(total, places=4), "", "", "", ""))
        return rows

    def to_json(self) -> Any:
        from gamenight.games.decathlon.solver.table import target_probabilities

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

    options: tuple[OptionSpec, ...] = (EVENTS_OPTION, TWO_PLAYER_WIN_OPTION)

    def solve(
        self, options: dict[str, Any], *, rebuild: bool = False, progress: Progress | None = None
    ) -> DecathlonSolution | WinChainSolution:
        raw = options.get("events")
        chosen: list[str] = EVENTS_OPTION.parse(raw) if raw is not None else list(EVENT_IDS)
        if options.get("two-player-win"):
            return _win_chain(chosen, rebuild, progress)
        from gamenight.games.decathlon.solver.table import solve_event

        solutions = []
        for done, discipline in enumerate(chosen):
            solutions.append(solve_event(discipline))
            if progress is not None:
                progress(done + 1, len(chosen))
        return DecathlonSolution(tuple(solutions))


def _win_chain(chosen: list[str], rebuild: bool, progress: Progress | None) -> WinChainSolution:
    """The win table's summary: from the cached file's header and ``W`` alone when it is
    there in this format (no numpy, no event solver: issue 46), else through
    :func:`.win2p_store.table_for` (built, or an older format upgraded)."""
    import time

    from gamenight.games.decathlon.solver.win2p_file import read_head, table_path

    order = [e for e in EVENT_IDS if e in chosen]  # D1 order
    started = time.perf_counter()
    head = None if rebuild else read_head(table_path(order), order)
    if head is not None and head.bound is not None:
        w: Sequence[Any] = head.w
        bound = head.bound
    else:
        from gamenight.games.decathlon.solver.win2p_store import table_for

        table = table_for(order, build=True, rebuild=rebuild, progress=progress)
        assert table is not None
        w, bound = table.w, table.bound
    values = tuple(tuple(float(v) for v in w[k]) for k in range(len(order)))
    return WinChainSolution(tuple(order), values, bound, time.perf_counter() - started)


def _event(event: str) -> str:
    """An event's name in the current language (its vocabulary term)."""
    return term(f"dec.event.{event}", NAMES[event])


def _opt(value: int | None) -> str:
    return "—" if value is None else str(value)


SOLVER = DecathlonSolver()
