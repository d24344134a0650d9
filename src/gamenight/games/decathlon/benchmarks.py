"""The Decathlon's yardsticks for the regret harness (``GameInfo.benchmarks``): one
athlete playing for points, per event and all ten, against the exact expected score
of optimal play (the sum of the events' EVs, for they are scored apart).

>>> [b.name for b in benchmarks()][:2], benchmarks()[-1].options
(['decathlon:100m', 'decathlon:long-jump'], {'variant': 'points'})
"""

from __future__ import annotations

from collections.abc import Callable

from gamenight.core.solver import Benchmark
from gamenight.games.decathlon.disciplines import EVENT_IDS


def _optimum(events: tuple[str, ...]) -> Callable[[], float]:
    def optimum() -> float:
        from gamenight.games.decathlon.solver.capability import SOLVER

        solved = SOLVER.solve({"events": ",".join(events)}).to_json()
        return float(sum(row["ev"] for row in solved["events"]))

    return optimum


def benchmarks() -> tuple[Benchmark, ...]:
    """Every event alone, in the decathlon's order, then all ten."""
    return (
        *(Benchmark(f"decathlon:{e}", {"variant": "points", "events": e}, _optimum((e,)))
          for e in EVENT_IDS),
        Benchmark("decathlon", {"variant": "points"}, _optimum(EVENT_IDS)),
    )  # fmt: skip
