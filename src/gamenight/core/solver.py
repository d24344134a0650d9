"""The solver capability: a game's exact solver, as the front ends see it.

A game that has one names it in ``GameInfo.solver``; ``gamenight solve GAME``
then needs no game-specific code. A solver builds (or loads a cached copy of)
its solution; a solution summarises itself as rows of text and as JSON.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Benchmark:
    """A yardstick of one-seat play for the regret harness (:mod:`gamenight.envs.evaluate`).

    A game lists its own in ``GameInfo.benchmarks`` (``() -> tuple[Benchmark, ...]``), so
    the harness names no game. A policy plays the game alone with ``options``; its mean
    score is set against ``optimum()``, the exact expected score of optimal play (a
    solver's), or, with ``bot`` instead, against that bot of the game played on the same
    seeds.

    >>> Benchmark("toy", {}, bot="random").yardstick
    'random (same seeds)'
    """

    name: str  # what a researcher types: the game id, or "<game id>:<part>"
    options: Mapping[str, str]
    optimum: Callable[[], float] | None = None
    bot: str | None = None

    def __post_init__(self) -> None:
        if (self.optimum is None) == (self.bot is None):
            raise ValueError(f"benchmark {self.name}: give an optimum or a bot, not both")

    @property
    def yardstick(self) -> str:
        """What the policy is measured against, in a report's words."""
        return "exact EV" if self.bot is None else f"{self.bot} (same seeds)"
