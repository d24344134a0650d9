"""Decathlon win odds bench: odds speed (8 players) and bot:winner's measured gain.

    .venv/bin/python bench/decathlon_winprob.py speed [--variant points|championship]
    .venv/bin/python bench/decathlon_winprob.py duel PLAYERS GAMES [--bot winner|competitive]
        [--jobs N] [--chunk 50] [--seconds S] [--state FILE] [--first SEED]

``speed`` replays one seeded 8-player decathlon of ``optimal`` bots and times
``odds`` (points game; ``championship_odds`` with ``--variant championship``)
on the view before every decision -- inside events too, where each seat's
position (dice frozen, attempts used, height reached) is solved exactly. It
prints p50/p99/max wall time per call and the CPU time per call (process time,
which load does not inflate), with the load average.

``duel`` plays seeded full points-game decathlons, ``BOT`` (default ``winner``)
in seat ``seed % PLAYERS`` against EV-optimal bots, seeds ``FIRST ..
FIRST + GAMES - 1``, in chunks of ``--chunk`` games on a pool of ``--jobs``
worker processes (default 2). After every chunk it prints the running share of
first place (ties shared) with its 95% interval, the games per second and an
estimate of the time left. ``--seconds`` bounds the run: no new chunk starts
after it (chunks already running finish). ``--state FILE`` makes it resumable:
each finished chunk is appended to FILE as a JSON line and a rerun with the
same FILE skips the chunks it holds (and counts them in the result).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from gamenight.core.agents import Agent
from gamenight.core.runner import play_match
from gamenight.games.decathlon.bots import CompetitiveAgent, OptimalAgent, WinnerAgent
from gamenight.games.decathlon.game import GAME

BOTS = {"winner": WinnerAgent, "competitive": CompetitiveAgent}


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.2f} (5 min {five:.2f})"


def speed(variant: str) -> None:
    """Time the odds before every decision of one seeded 8-player optimal-bot game."""
    from gamenight.games.decathlon.odds import championship_odds, odds

    seen: list[Any] = []

    class Timed(OptimalAgent):
        def act(self, decision):  # type: ignore[no-untyped-def]
            seen.append(decision.view)
            return super().act(decision)

    opts = GAME.parse_options({"variant": variant})
    play_match(GAME, [Timed() for _ in range(8)], seed=2, options=opts)
    ask = odds if variant == "points" else championship_odds
    wall: list[float] = []
    cpu_start = time.process_time()
    for view in seen:
        t = time.perf_counter()
        ask(view)
        wall.append(time.perf_counter() - t)
    cpu = time.process_time() - cpu_start
    first, later = wall[0], max(wall[1:])  # the first call draws the later events once
    wall.sort()
    n = len(wall)
    print(
        f"{variant} odds before each of {n} decisions (each inside an event: the acting "
        f"seat's position solved exactly), 8 players: p50 {wall[n // 2] * 1e3:.2f} "
        f"ms, p99 {wall[min(n - 1, int(n * 0.99))] * 1e3:.2f} ms, max {wall[-1] * 1e3:.2f} "
        f"ms wall (first call {first * 1e3:.2f} ms, max after it {later * 1e3:.2f} ms); "
        f"CPU {cpu / n * 1e3:.2f} ms per call; {_load()}"
    )


def play_chunk(task: tuple[int, int, int, str]) -> dict[str, Any]:
    """Games ``first .. first + count - 1``: the bot's share sum, sum of squares, count."""
    first, count, players, bot = task
    opts = GAME.parse_options({})
    won = won_sq = 0.0
    started = time.process_time()
    for seed in range(first, first + count):
        seat = seed % players
        agents: list[Agent[Any, Any, Any]] = [
            BOTS[bot](seed) if i == seat else OptimalAgent(seed) for i in range(players)
        ]
        results, _ = play_match(GAME, agents, seed=seed, options=opts)
        top = max(results.scores)
        tied = [i for i, s in enumerate(results.scores) if s == top]
        share = 1 / len(tied) if seat in tied else 0.0
        won += share
        won_sq += share * share
    return {
        "first": first,
        "games": count,
        "won": won,
        "won_sq": won_sq,
        "cpu": time.process_time() - started,
    }


def _interval(won: float, won_sq: float, n: int) -> tuple[float, float]:
    p = won / n
    var = max(won_sq / n - p * p, 0.0)
    return p, 1.96 * math.sqrt(var / max(n - 1, 1))


def _done(state: Path | None, players: int, bot: str) -> list[dict[str, Any]]:
    if state is None or not state.exists():
        return []
    rows = [json.loads(line) for line in state.read_text().splitlines() if line.strip()]
    return [r for r in rows if r.get("players") == players and r.get("bot") == bot]


def duel(args: argparse.Namespace) -> None:
    players, games, bot = args.players, args.games, args.bot
    state: Path | None = args.state
    done = _done(state, players, bot)
    have = {r["first"] for r in done}
    tasks = [
        (first, min(args.chunk, args.first + games - first), players, bot)
        for first in range(args.first, args.first + games, args.chunk)
        if first not in have
    ]
    kept = [r for r in done if args.first <= r["first"] < args.first + games]
    won = sum(r["won"] for r in kept)
    won_sq = sum(r["won_sq"] for r in kept)
    played = sum(r["games"] for r in kept)
    cpu = sum(r["cpu"] for r in kept)
    if kept:
        print(f"resuming: {played} games from {state}", flush=True)
    start = time.time()
    new = 0
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        pending = iter(tasks)
        running: list[Any] = []

        def submit() -> None:
            if time.time() - start > args.seconds:
                return
            task = next(pending, None)
            if task is not None:
                running.append(pool.apply_async(play_chunk, (task,)))

        for _ in range(args.jobs * 2):
            submit()
        while running:
            result = running.pop(0).get()
            submit()
            won += result["won"]
            won_sq += result["won_sq"]
            played += result["games"]
            cpu += result["cpu"]
            new += result["games"]
            if state is not None:
                with state.open("a") as f:
                    f.write(json.dumps({**result, "players": players, "bot": bot}) + "\n")
            p, half = _interval(won, won_sq, played)
            rate = new / max(time.time() - start, 1e-9)
            left = (games - played) / rate if rate > 0 else math.inf
            print(
                f"{played}/{games} games: {bot} share {p:.4f} (95% [{p - half:.4f}, "
                f"{p + half:.4f}]), {rate:.2f} games/s, ~{left / 60:.1f} min left, "
                f"{_load()}",
                flush=True,
            )
    if not played:
        print("no games played")
        return
    p, half = _interval(won, won_sq, played)
    print(
        f"{bot} vs {players - 1} optimal: share {p:.4f} (95% [{p - half:.4f}, {p + half:.4f}]) "
        f"over {played} games (seeds {args.first}..{args.first + games - 1}), "
        f"fair share {1 / players:.4f}; {time.time() - start:.0f} s wall for {new} new games, "
        f"{cpu / played:.3f} s CPU per game; {_load()}"
    )


def main(argv: Iterable[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    fast = sub.add_parser("speed")
    fast.add_argument("--variant", choices=("points", "championship"), default="points")
    play = sub.add_parser("duel")
    play.add_argument("players", type=int)
    play.add_argument("games", type=int)
    play.add_argument("--bot", choices=sorted(BOTS), default="winner")
    play.add_argument("--jobs", type=int, default=2)
    play.add_argument("--chunk", type=int, default=50)
    play.add_argument("--seconds", type=float, default=math.inf)
    play.add_argument("--state", type=Path, default=None)
    play.add_argument("--first", type=int, default=0)
    args = parser.parse_args(list(argv))
    if args.command == "speed":
        speed(args.variant)
    else:
        duel(args)


if __name__ == "__main__":
    main(sys.argv[1:])
