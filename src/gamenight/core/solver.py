"""The solver capability: a game's exact solver, as the front ends see it.

A game that has one names it in ``GameInfo.solver``; ``gamenight solve GAME``
then needs no game-specific code. A solver builds (or loads a cached copy of)
its solution; a solution summarises itself as rows of text and as JSON.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from gamenight.core.options import OptionSpec

Progress = Callable[[int, int], None]  # (done, total)


class Solution(Protocol):
    """A solved game. Its title, columns and rows are what a person reads: in the current
    language (``gamenight.core.i18n``), asked for when shown; its JSON stays English."""

    @property
    def title(self) -> str:
        """The summary table's title."""

    def columns(self) -> Sequence[str]:
        """Headings of the summary table."""

    def rows(self) -> Sequence[Sequence[str]]:
        """The summary table, formatted for people (numbers as the language writes them)."""

    def to_json(self) -> Any:
        """Everything, as JSON builtins (distributions included)."""


class Solver(Protocol):
    """Solve a game exactly; ``options`` are the solver's own (e.g. which events)."""

    options: tuple[OptionSpec, ...]

    def solve(
        self, options: dict[str, Any], *, rebuild: bool = False, progress: Progress | None = None
    ) -> Solution:
        """Build or load the solution; raises GamenightError with a one-line reason."""
