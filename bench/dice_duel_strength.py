"""Strength of the Dice Duel turn-optimal bot.

* 2,000 seeded two-player games of turn-optimal against random through
  ``core.runner.play_match`` (seat order alternates; the starter is drawn
  anyway): how often turn-optimal wins outright (issue: at least 95%).
* 2,000 seeded solo games of turn-optimal: the mean score (the maximum is 1000),
  and the same for random as a yardstick.

    .venv/bin/python bench/dice_duel_strength.py [games]
"""

from __future__ import annotations

import statistics
import sys
import time
from typing import Any

from gamenight.core.agents import RandomAgent
from gamenight.core.runner import play_match
from gamenight.games.dice_duel.bots import TurnOptimalBot
from gamenight.games.dice_duel.game import GAME


def duel(games: int) -> tuple[int, int, int]:
    """(wins, ties, losses) of turn-optimal against random."""
    wins = ties = 0
    for seed in range(games):
        agents: list[Any] = [TurnOptimalBot(seed), RandomAgent(seed)]
        bot_seat = seed % 2
        if bot_seat:
            agents.reverse()
        results, _ = play_match(GAME, agents, seed=seed)
        if results.winners == (bot_seat,):
            wins += 1
        elif bot_seat in results.winners:
            ties += 1
    return wins, ties, games - wins - ties


def solo(games: int, make: Any) -> list[float]:
    options = GAME.parse_options({"mode": "solo"})
    return [
        play_match(GAME, [make(seed)], seed=seed, options=options)[0].scores[0]
        for seed in range(games)
    ]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    began = time.perf_counter()
    wins, ties, losses = duel(games)
    took = time.perf_counter() - began
    print(
        f"two-player, turn-optimal vs random, {games} games: {wins} wins "
        f"({100 * wins / games:.2f}%), {ties} ties, {losses} losses  [{took:.1f} s]"
    )
    for label, make in (("turn-optimal", TurnOptimalBot), ("random", RandomAgent)):
        began = time.perf_counter()
        scores = solo(games, make)
        took = time.perf_counter() - began
        print(
            f"solo, {label}, {games} games: mean {statistics.fmean(scores):.1f}, "
            f"sd {statistics.stdev(scores):.1f}, min {min(scores):.0f}, "
            f"max {max(scores):.0f}, 1000s: {scores.count(1000)}  [{took:.1f} s]"
        )


if __name__ == "__main__":
    main()
