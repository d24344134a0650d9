"""The Decathlon's reviewer (issue 42): every decision valued by the exact event solvers.

Measures (``gamenight.core.review``), each named for what it maximises:

* **expected final score** (points): the seat's points so far, plus this event's
  expected result after the option (optimal play afterwards, :mod:`.advisor`), plus
  the expected result of every event still to come. Thresholds: a loss of 0.5 points
  is an inaccuracy, 1.5 a mistake, 4 a blunder (about a fiftieth of a game's spread);
* **chance to win** (probability), two-player points game with its win table built:
  the mover's win chance, both playing to win (:mod:`.win_play`; leads beyond the
  table's bound are decided to within 1e-10 and not valued). Thresholds 2, 5 and
  10 percentage points; when present it is the judged measure;
* **expected honours in this event** (Championship, once a result is posted): D11
  honours against the results posted so far, what ``competitive`` plays for.
  Thresholds 0.1, 0.25, 0.5 honours.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamenight.core.i18n import N_
from gamenight.core.options import Options
from gamenight.core.review import Measure, Reviewer, Valued
from gamenight.games.decathlon import advisor, win_play
from gamenight.games.decathlon.actions import Action
from gamenight.games.decathlon.competition import honours_utility, posted_results
from gamenight.games.decathlon.disciplines import NAMES
from gamenight.games.decathlon.game import GAME
from gamenight.games.decathlon.rules import DecathlonState
from gamenight.games.decathlon.solver import NoDecisionError, solve_event

POINTS = Measure(
    key="points", name=N_("expected final score"), unit="points", thresholds=(0.5, 1.5, 4.0)
)
WIN = Measure(
    key="win",
    name=N_("chance to win, both playing to win"),
    unit="probability",
    thresholds=(0.02, 0.05, 0.10),
)
HONOURS = Measure(
    key="honours",
    name=N_("expected honours in this event"),
    unit="honours",
    thresholds=(0.1, 0.25, 0.5),
)


def event_value(event: str) -> float:
    """An event's expected result under optimal play (no valid result counts 0)."""
    return solve_event(event).ev


class DecathlonReviewer:
    hindsight = False

    def __init__(self, options: Options, players: int, build: bool | None = None) -> None:
        self.players = players
        advisor.warm()
        self.variant = str(options.get("variant", "points"))
        self.table: Any = None
        self.note = ""
        self.waiting: str | None = None  # the win table to build (its events), if missing
        measures = [POINTS]
        self.win = self.honours = -1
        events = _events(options)
        if players == 2 and self.variant == "points":
            from gamenight.games.decathlon.solver.win2p_store import table_for

            self.table = table_for(events, build=build)
            if self.table is None:
                self.waiting = ",".join(events)  # the preparation's target (win2p_store.chain)
                self.note = N_(
                    "the exact win table of these events is not built yet: "
                    "losses are in expected points only"
                )
            else:
                self.win = len(measures)
                measures.append(WIN)
        if self.variant == "championship" and players > 1:
            self.honours = len(measures)
            measures.append(HONOURS)
        self.measures = tuple(measures)
        self.judged = self.win if self.win >= 0 else 0
        self.graph = "win" if self.win >= 0 else "score"
        self.events = events
        self._later = {k: sum(event_value(e) for e in events[k + 1 :]) for k in range(len(events))}

    def scale(self, stage: str | None) -> float:
        if self.judged != 0:
            return 1.0  # a chance to win: all of it
        if stage is None:
            return sum(event_value(e) for e in self.events)
        return next((event_value(e) for e in self.events if NAMES[e] == stage), 0.0)

    def start(self, state: DecathlonState) -> tuple[float, ...]:
        total = sum(event_value(e) for e in self.events)
        return (total,) * self.players

    def final(self, state: DecathlonState) -> tuple[float, ...]:
        return tuple(float(t) for t in GAME.view(state, None).totals)

    def decision(
        self, state: DecathlonState, seat: int, legal: Sequence[Action], end: Any
    ) -> Valued | None:
        view = GAME.view(state, seat)
        if view.to_act != seat or view.discipline is None:
            return None
        try:
            expected = advisor.option_values(view, legal, advisor.EXPECTED)
        except (NoDecisionError, ValueError):
            return None
        offset = (view.totals[seat] if view.totals else 0) + self._later[view.discipline_no]
        columns: list[list[float | None]] = [[offset + expected[a] for a in legal]]
        seats = None
        if self.win >= 0:
            wins = win_play.action_values(view, legal, self.table)
            columns.append(list(wins) if wins is not None else [None] * len(legal))
            if wins is not None:
                seats = tuple((w, 1.0 - w) if seat == 0 else (1.0 - w, w) for w in wins)
        if self.honours >= 0:
            posted = posted_results(view)
            if posted:
                medals = advisor.option_values(view, legal, honours_utility(posted))
                columns.append([medals[a] for a in legal])
            else:
                columns.append([None] * len(legal))
        return Valued(
            labels=tuple(advisor.label(a, view) for a in legal),
            values=tuple(tuple(column[i] for column in columns) for i in range(len(legal))),
            seats=seats,
        )


def _events(options: Options) -> tuple[str, ...]:
    return tuple(options["events"])  # the disciplines, D1 order (rules.start)


def reviewer(options: Options, players: int, build: bool | None = None) -> Reviewer:
    """``GameInfo.reviewer``: the Decathlon's reviewer for these parsed options."""
    return DecathlonReviewer(options, players, build)
