"""The ``optimal`` Decathlon bot through the real engine against the exact EV (issue 6).

Single-player games of one event each on SeededDice (game i of event k uses seed
1,000,000 * (k + 1) + i, as the test does), every decision by ``OptimalAgent.act``.
Prints per event the mean result against the solver's EV with the z-score, the
rate of no valid result against the solver's, and the time per decision.

    .venv/bin/python bench/decathlon_optimal.py [--games 20000]
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

from gamenight.core.agents import Decision
from gamenight.core.dice import SeededDice
from gamenight.games.decathlon.bots import OptimalAgent
from gamenight.games.decathlon.disciplines import EVENT_IDS, NAMES
from gamenight.games.decathlon.game import GAME
from gamenight.games.decathlon.solver import solve_event


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=20000)
    games = parser.parse_args().games
    agent = OptimalAgent(0)
    start = time.perf_counter()
    agent.act(first_decision("110m-hurdles"))  # the first decision solves all ten events
    print(f"warm-up (solve all ten events): {1000 * (time.perf_counter() - start):.0f} ms\n")
    print(
        "| Event | Games | Mean result | Exact EV | z | P(no valid) | exact | "
        "Decisions/game | Time per decision | Time per game |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for k, event in enumerate(EVENT_IDS):
        options = GAME.parse_options({"events": event})
        total, invalid, decisions, thinking = 0, 0, 0, 0.0
        begun = time.perf_counter()
        for i in range(games):
            state = GAME.start(1, options, SeededDice(seed=1_000_000 * (k + 1) + i)).state
            while not GAME.is_terminal(state):
                legal = GAME.legal_actions(state, 0)
                decision = Decision("decathlon", 0, GAME.view(state, 0), legal)
                tick = time.perf_counter()
                action = agent.act(decision)
                thinking += time.perf_counter() - tick
                decisions += 1
                state = GAME.apply(state, 0, action).state
            result = state.sheet[0][0]
            total += 0 if result is None else result
            invalid += result is None
        wall = time.perf_counter() - begun
        solution = solve_event(event)
        mean = total / games
        z = (mean - solution.ev) / (solution.sd / math.sqrt(games))
        print(
            f"| {NAMES[event]} | {games} | {mean:.4f} | {solution.ev:.4f} | {z:+.2f} "
            f"| {invalid / games:.5f} | {solution.p_invalid:.5f} | {decisions / games:.2f} "
            f"| {1e6 * thinking / max(decisions, 1):.0f} µs | {1000 * wall / games:.2f} ms |"
        )


def first_decision(event: str) -> Decision[Any, Any]:
    state = GAME.start(1, GAME.parse_options({"events": event}), SeededDice(seed=0)).state
    return Decision("decathlon", 0, GAME.view(state, 0), GAME.legal_actions(state, 0))


if __name__ == "__main__":
    main()
