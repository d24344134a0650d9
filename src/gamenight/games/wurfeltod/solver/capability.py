"""The Wurfeltod solver as a :class:`gamenight.core.solver.Solver` (``GameInfo.solver``).

``gamenight solve wurfeltod`` builds the full-game value table once (or loads
the valid one already in the cache; ``rebuild`` solves again) and reports what
a new solitaire game is worth under optimal play. The solver takes no options.

>>> SOLVER.options
()
>>> solution = WurfeltodSolution(expected_score=9067.57641, table="/c/v.bin", seconds=1.25)
>>> solution.title
'Wurfeltod: optimal solitaire play (exact)'
>>> [list(row) for row in solution.rows()]  # doctest: +NORMALIZE_WHITESPACE
[['Expected score of a new solitaire game under optimal play', '9,067.5764'],
 ['value table', '/c/v.bin (1.2 s)']]
>>> from gamenight.core.i18n import use_language
>>> with use_language("de"):
...     solution.title, solution.rows()[0][1]
('Wurfeltod: optimales Solitärspiel (exakt)', '9.067,5764')
>>> solution.to_json()["expected_score"], solution.to_json()["seconds"]
(9067.57641, 1.25)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gamenight.core.i18n import _, format_decimal
from gamenight.core.options import OptionSpec, parse_options
from gamenight.core.solver import Progress
from gamenight.games.wurfeltod.solver.build import build_table
from gamenight.games.wurfeltod.solver.policy import expected_score
from gamenight.games.wurfeltod.solver.table import UNSAVED, build_time_text, require_table

__all__ = ["SOLVER", "WurfeltodSolution", "WurfeltodSolver", "prepare"]


@dataclass
class WurfeltodSolution:
    """What a new solitaire game is worth, and where its value table lives."""

    expected_score: float
    table: str  # the value table's path
    seconds: float  # wall time of this solve (a load when the table was already built)
    note: str | None = None  # said to the player: e.g. the table is kept in memory only

    @property
    def title(self) -> str:
        return _("Wurfeltod: optimal solitaire play (exact)")

    def columns(self) -> Sequence[str]:
        return ("", _("value"))

    def rows(self) -> Sequence[Sequence[str]]:
        seconds = format_decimal(self.seconds, places=1)
        return (
            (
                _("Expected score of a new solitaire game under optimal play"),
                format_decimal(self.expected_score, places=4),
            ),
            (_("value table"), _("{path} ({seconds} s)").format(path=self.table, seconds=seconds)),
            *(((_("note"), self.note),) if self.note else ()),
        )

    def to_json(self) -> Any:
        return {
            "game": "wurfeltod",
            "objective": "expected-final-score",
            "expected_score": self.expected_score,
            "table": self.table,
            "seconds": round(self.seconds, 3),
        }


class WurfeltodSolver:
    """Build (or load) the full-game value table at the default cache path."""

    options: tuple[OptionSpec, ...] = ()

    def solve(
        self, options: dict[str, Any], *, rebuild: bool = False, progress: Progress | None = None
    ) -> WurfeltodSolution:
        """Solve, or load the valid table already built (``rebuild`` solves anyway).

        ``progress(done, total)`` follows a solve (about 2.5 s on two cores, the
        kernel's compile included); loading a valid table reports nothing. Raises
        OptionsError for any option and ValueTableError (one line) when the
        table cannot be written or read.
        """
        parse_options(self.options, options, "the Wurfeltod solver")
        started = time.perf_counter()
        path = build_table(force=rebuild, progress=progress)
        table = require_table(path)
        unsaved = UNSAVED.get(path)
        note = None
        if unsaved is not None:
            note = _("{problem}; the table is kept in memory for this run only").format(
                problem=unsaved[1]
            )
        return WurfeltodSolution(
            expected_score=expected_score(table),
            table=str(path),
            seconds=time.perf_counter() - started,
            note=note,
        )

    def typical_build(self) -> str:
        """How long a first solve takes, as the menu says it."""
        return build_time_text()


SOLVER = WurfeltodSolver()


def prepare(progress: Progress) -> None:
    """``GameInfo.preparation``: build the full-game value table once (kept if a valid
    one is already in the cache), so the ``optimal`` bot and the advisor can run.
    Raises ValueTableError (one line) when it cannot be written or read back."""
    require_table(build_table(progress=progress))
