"""Championship gain of ``competitive`` over ``optimal`` (Decathlon, issue 6).

3-player Championship games of the full decathlon through ``core.runner.play_match``.
Game i uses dice seed i; in the test field one ``competitive`` bot plays two
``optimal`` bots and takes seat i mod 3 (the starting order is drawn by the dice,
D2). The control field is three ``optimal`` bots, scored at the same seat.

A shared win counts 1/k for a k-way tie (D11), so the fair share is 1/3. The
"score" is the honours total in the Championship (the points total with
``--variant points``, where ``competitive`` plays to beat the best posted result
in the interleaved events).

    .venv/bin/python bench/decathlon_championship.py [--games 2000] [--workers 2]
        [--variant championship|points]
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from gamenight.core.agents import Agent
from gamenight.core.runner import play_match
from gamenight.games.decathlon.bots import CompetitiveAgent, OptimalAgent
from gamenight.games.decathlon.disciplines import EVENT_IDS, NAMES
from gamenight.games.decathlon.game import GAME

PLAYERS = 3


@dataclass(frozen=True)
class Outcome:
    """The tested seat's share of the win, its honours and points, and the decision time."""

    share: float
    honours: int
    points: int
    decisions: int
    seconds: float
    by_event: tuple[int, ...]  # honours (Championship) or points per event, D1 order


class Timed:
    """Wraps an agent, counting its decisions and the time they take."""

    def __init__(self, agent: OptimalAgent) -> None:
        self.agent, self.label = agent, agent.label
        self.decisions, self.seconds = 0, 0.0

    def act(self, decision: object) -> object:
        start = time.perf_counter()
        action = self.agent.act(decision)  # type: ignore[arg-type]
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return action

    def observe(self, seat: int, events: Sequence[object]) -> None:
        return None


def play(game: int, competitive: bool, variant: str) -> Outcome:
    seat = game % PLAYERS
    tested = Timed(CompetitiveAgent(game) if competitive else OptimalAgent(game))
    agents: list[Agent[Any, Any, Any]] = [OptimalAgent(game) for _ in range(PLAYERS)]
    agents[seat] = tested
    options = GAME.parse_options({"variant": variant})
    results, _ = play_match(GAME, agents, seed=game, options=options)
    share = 1 / len(results.winners) if seat in results.winners else 0.0
    points = results.detail["totals"][seat]
    per_event = results.detail["honours" if variant == "championship" else "points"]
    by_event = tuple(row[seat] for row in per_event.values())
    return Outcome(
        share, int(results.scores[seat]), points, tested.decisions, tested.seconds, by_event
    )


def play_block(args: tuple[range, bool, str]) -> list[Outcome]:
    games, competitive, variant = args
    return [play(i, competitive, variant) for i in games]


def run(games: int, workers: int, competitive: bool, variant: str) -> tuple[list[Outcome], float]:
    start = time.perf_counter()
    blocks = [(range(w, games, workers), competitive, variant) for w in range(workers)]
    if workers == 1:
        outcomes = play_block(blocks[0])
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            outcomes = [o for block in pool.map(play_block, blocks) for o in block]
    return outcomes, time.perf_counter() - start


def report(name: str, outcomes: list[Outcome], seconds: float, variant: str) -> None:
    n = len(outcomes)
    shares = [o.share for o in outcomes]
    rate = statistics.mean(shares)
    se = statistics.stdev(shares) / math.sqrt(n)
    honours = [o.honours for o in outcomes]
    points = [o.points for o in outcomes]
    decisions = sum(o.decisions for o in outcomes)
    per_decision = 1000 * sum(o.seconds for o in outcomes) / decisions
    print(
        f"| {name} | {variant} | {n} | {rate:.4f} ± {se:.4f} | {(rate - 1 / 3) / se:+.2f} "
        f"| {statistics.mean(honours):.3f} ± {statistics.stdev(honours) / math.sqrt(n):.3f} "
        f"| {statistics.mean(points):.1f} | {per_decision:.3f} ms | {seconds:.0f} s |"
    )


def event_table(fields: dict[str, list[Outcome]], variant: str) -> None:
    what = "honours" if variant == "championship" else "points"
    print(f"\nMean {what} of the tested seat per event ({variant}):\n")
    print("| Event | " + " | ".join(fields) + " | difference |")
    print("|---|" + "---:|" * (len(fields) + 1))
    for i, event in enumerate(EVENT_IDS):
        means = [statistics.mean(o.by_event[i] for o in out) for out in fields.values()]
        cells = " | ".join(f"{m:.3f}" for m in means)
        print(f"| {NAMES[event]} | {cells} | {means[0] - means[-1]:+.3f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--workers", type=int, default=2, help="processes (at most 2)")
    parser.add_argument("--variant", choices=("championship", "points"), default="championship")
    args = parser.parse_args()
    workers, variant = max(1, min(args.workers, 2)), args.variant
    print(
        "| Tested seat | Variant | Games | Win share (± s.e.) | z vs 1/3 "
        "| Mean score (± s.e.) | Mean points | Time per decision | Wall time |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    fields: dict[str, list[Outcome]] = {}
    for name, competitive in (("competitive vs 2 optimal", True), ("optimal vs 2 optimal", False)):
        outcomes, seconds = run(args.games, workers, competitive, variant)
        report(name, outcomes, seconds, variant)
        fields[name.split()[0]] = outcomes
    event_table(fields, variant)


if __name__ == "__main__":
    main()
