"""Wurfeltod's yardstick for the regret harness (``GameInfo.benchmarks``): solitaire
play against the solved value table's expected score (cached as ``gamenight solve
wurfeltod`` leaves it, built when missing).

>>> [b.name for b in benchmarks()], benchmarks()[0].yardstick
(['wurfeltod'], 'exact EV')
"""

from __future__ import annotations

from gamenight.core.solver import Benchmark


def _optimum() -> float:
    from gamenight.games.wurfeltod.solver.capability import SOLVER

    return float(SOLVER.solve({}).to_json()["expected_score"])


def benchmarks() -> tuple[Benchmark, ...]:
    return (Benchmark("wurfeltod", {}, _optimum),)
