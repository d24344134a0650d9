"""Seeded series of all-bot games: win shares, mean scores and standard errors.

Game ``i`` of a series uses dice seed ``seed + i`` and bot seeds derived from
it, so a series is reproducible and two bot line-ups can be compared on the
same dice (a paired comparison).

>>> from gamenight.core import registry
>>> report = run_series(registry.get("wurfeltod"), ["greedy", "random"], games=4, seed=1)
>>> [seat.bot for seat in report.seats], round(sum(s.win_share for s in report.seats), 9)
(['greedy', 'random'], 1.0)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gamenight.core.errors import OptionsError
from gamenight.core.options import Options
from gamenight.core.registry import GameEntry
from gamenight.core.runner import play_match
from gamenight.core.seeds import derive


@dataclass(frozen=True)
class SeatReport:
    seat: int
    bot: str
    win_share: float  # a k-way shared win counts 1/k
    win_share_se: float
    mean_score: float
    score_se: float


@dataclass(frozen=True)
class SeriesReport:
    game: str
    games: int
    seed: int
    options: Options
    seats: list[SeatReport]
    seconds: float


def run_series(
    entry: GameEntry,
    bots: Sequence[str],
    *,
    games: int,
    seed: int = 0,
    options: Options | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> SeriesReport:
    """Play ``games`` seeded games with one bot per seat and summarise them.

    ``progress(done, total)`` is called after each game (front ends draw a bar).
    """
    if games < 1:
        raise OptionsError("--games: play at least one game")
    unknown = [b for b in bots if b not in entry.bots]
    if unknown:
        raise OptionsError(
            f"unknown bot {unknown[0]!r} for {entry.id} (choose from {', '.join(entry.bots)})"
        )
    game = entry.game
    game.check_players(len(bots))
    options = options if options is not None else game.parse_options()
    shares = [[0.0] * games for _ in bots]
    scores = [[0.0] * games for _ in bots]
    started = time.perf_counter()
    for i in range(games):
        dice_seed = seed + i
        agents = [entry.make_bot(b, derive(dice_seed, "bot", s)) for s, b in enumerate(bots)]
        results, _ = play_match(game, agents, seed=dice_seed, options=options)
        for s in range(len(bots)):
            scores[s][i] = float(results.scores[s])
            if s in results.winners:
                shares[s][i] = 1 / len(results.winners)
        if progress is not None:
            progress(i + 1, games)
    seats = [
        SeatReport(s, b, *_mean_se(shares[s]), *_mean_se(scores[s])) for s, b in enumerate(bots)
    ]
    return SeriesReport(entry.id, games, seed, options, seats, time.perf_counter() - started)


def _mean_se(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(variance / n)
