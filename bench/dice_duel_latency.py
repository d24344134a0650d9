"""Decision latency of the Dice Duel turn-optimal bot (issue: under 50 ms per decision).

Plays seeded games (two-player against random, and solo) and times every
``act`` call of the bot: once with the table cache warm as in real play, and
once with every cache cleared before each decision (the worst case).

    .venv/bin/python bench/dice_duel_latency.py [games]
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from gamenight.core.agents import Decision
from gamenight.core.dice import SeededDice
from gamenight.games.dice_duel.advisor import kniffel_award
from gamenight.games.dice_duel.bots import TurnOptimalBot
from gamenight.games.dice_duel.expectimax import turn_tables
from gamenight.games.dice_duel.game import GAME


def timed_games(games: int, *, cold: bool) -> list[float]:
    """Milliseconds per bot decision over ``games`` two-player and ``games`` solo games."""
    bot = TurnOptimalBot(0)
    times: list[float] = []
    for seed in range(games):
        for players, mode in ((2, "multi"), (1, "solo")):
            rng = random.Random(seed)
            options = GAME.parse_options({"mode": mode})
            state = GAME.start(players, options, SeededDice(seed=seed)).state
            while not GAME.is_terminal(state):
                seat = state.current
                legal = GAME.legal_actions(state, seat)
                if seat == 0:
                    decision = Decision("dice-duel", seat, GAME.view(state, seat), legal)
                    if cold:
                        turn_tables.cache_clear()
                        kniffel_award.cache_clear()
                    began = time.perf_counter()
                    action = bot.act(decision)
                    times.append((time.perf_counter() - began) * 1000)
                else:
                    action = rng.choice(legal)
                state = GAME.apply(state, seat, action).state
    return times


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (
        f"{len(times)} decisions: mean {statistics.fmean(times):.3f} ms, "
        f"p99 {p99:.3f} ms, max {max(times):.3f} ms"
    )


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    print(f"turn-optimal decision latency over {games} two-player + {games} solo games")
    print("warm cache (real play):  ", summary(timed_games(games, cold=False)))
    print("cold cache (cleared each):", summary(timed_games(max(1, games // 4), cold=True)))


if __name__ == "__main__":
    main()
