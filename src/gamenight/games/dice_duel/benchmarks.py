"""Dice Duel's yardstick for the regret harness (``GameInfo.benchmarks``): it has no
solved optimum, so solo play is set against ``bot:turn-optimal`` (the best chip this
turn) on the same seeds, and the gap is that of the paired differences.

>>> [(b.name, b.yardstick) for b in benchmarks()]
[('dice-duel-solo', 'turn-optimal (same seeds)')]
"""

from __future__ import annotations

from gamenight.core.solver import Benchmark


def benchmarks() -> tuple[Benchmark, ...]:
    return (Benchmark("dice-duel-solo", {"mode": "solo"}, bot="turn-optimal"),)
