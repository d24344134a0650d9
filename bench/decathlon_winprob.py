"""Decathlon win odds bench: odds speed (8 players) and bot:winner's measured gain.

    .venv/bin/python bench/decathlon_winprob.py speed
    .venv/bin/python bench/decathlon_winprob.py duel PLAYERS GAMES [SECONDS [BOT]]

``duel`` plays seeded full points-game decathlons, ``winner`` in seat
``game % PLAYERS`` against EV-optimal bots, until GAMES games or SECONDS of wall
time (BOT: ``winner`` by default, or ``competitive`` for the comparison), and prints
its share of first place (ties shared) with a 95% interval.
"""

from __future__ import annotations

import math
import sys
import time

from gamenight.core.agents import Agent
from gamenight.core.runner import play_match
from gamenight.games.decathlon.bots import CompetitiveAgent, OptimalAgent, WinnerAgent
from gamenight.games.decathlon.game import GAME
from gamenight.games.decathlon.odds import odds


def speed() -> None:
    """Time ``odds`` after every action of one seeded 8-player optimal-bot game."""
    from gamenight.core.runner import Match

    opts = GAME.parse_options({})
    agents: list[Agent] = [OptimalAgent() for _ in range(8)]  # type: ignore[type-arg]
    results, state = play_match(GAME, agents, seed=1, options=opts)
    del results, state, Match
    # replay: time odds on the views seen by the bots
    timings: list[float] = []
    seen = []

    class Timed(OptimalAgent):
        def act(self, decision):  # type: ignore[no-untyped-def]
            seen.append(decision.view)
            return super().act(decision)

    play_match(GAME, [Timed() for _ in range(8)], seed=2, options=opts)
    odds(seen[0])  # warm the event tables
    for view in seen:
        t = time.perf_counter()
        odds(view)
        timings.append(time.perf_counter() - t)
    timings.sort()
    print(
        f"odds over {len(timings)} decisions, 8 players: "
        f"median {timings[len(timings) // 2] * 1e3:.2f} ms, "
        f"p99 {timings[int(len(timings) * 0.99)] * 1e3:.2f} ms, max {timings[-1] * 1e3:.2f} ms"
    )


def duel(players: int, games: int, seconds: float, bot: str = "winner") -> None:
    mine = {"winner": WinnerAgent, "competitive": CompetitiveAgent}[bot]
    opts = GAME.parse_options({})
    start, won, played = time.time(), 0.0, 0
    for seed in range(games):
        if time.time() - start > seconds:
            break
        seat = seed % players
        agents: list[Agent] = [  # type: ignore[type-arg]
            mine() if i == seat else OptimalAgent() for i in range(players)
        ]
        results, _ = play_match(GAME, agents, seed=seed, options=opts)
        top = max(results.scores)
        tied = [i for i, s in enumerate(results.scores) if s == top]
        won += 1 / len(tied) if seat in tied else 0.0
        played += 1
    p = won / played
    half = 1.96 * math.sqrt(p * (1 - p) / played)
    print(
        f"{bot} vs {players - 1} optimal: share {p:.4f} "
        f"(95% [{p - half:.4f}, {p + half:.4f}]) over {played} games, "
        f"{time.time() - start:.0f} s; fair share {1 / players:.4f}"
    )


if __name__ == "__main__":
    if sys.argv[1] == "speed":
        speed()
    else:
        seconds = float(sys.argv[4]) if len(sys.argv) > 4 else 1e9
        duel(int(sys.argv[2]), int(sys.argv[3]), seconds, *sys.argv[5:6])
