"""The Decades bots: strength between knowledge levels, speed, and the year-choice gap.

Game i uses dice seed i; the first-named bot sits in seat i % 2 (so it alternates
board sides A and B) with bot seeds 2i and 2i + 1. Everything goes through
``core.runner.play_match``.

    .venv/bin/python bench/decades_bots.py [--games N] [--pairs-games M]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

from gamenight.core.agents import Agent, Decision, RandomAgent
from gamenight.core.runner import play_match
from gamenight.games.decades.boards import SIDES, YEARS
from gamenight.games.decades.bots import BOTS, KnowledgeBot
from gamenight.games.decades.game import GAME
from gamenight.games.decades.planner import Valuer, best_placement, choose_year
from gamenight.games.decades.tokens import legal_placements
from gamenight.games.decades.view import DecadesView


def make(name: str, seed: int) -> Agent[Any, Any, Any]:
    return RandomAgent(seed) if name == "random" else BOTS[name](seed)


def duel(first: str, second: str, games: int) -> dict[str, Any]:
    wins = draws = early = 0
    margins: list[int] = []
    start = time.perf_counter()
    for game in range(games):
        seat = game % 2
        agents = [make(second, 2 * game), make(second, 2 * game + 1)]
        agents[seat] = make(first, 2 * game + seat)
        results, final = play_match(GAME, agents, seed=game)
        wins += results.winners == (seat,)
        draws += len(results.winners) == 2
        early += final.early_win
        margins.append(final.scores[seat] - final.scores[1 - seat])
    elapsed = time.perf_counter() - start
    return {
        "games": games,
        "wins": wins,
        "draws": draws,
        "early": early,
        "margin": statistics.mean(margins),
        "margin_sd": statistics.pstdev(margins),
        "seconds": elapsed,
    }


class Auditor(KnowledgeBot):
    """An expert that also checks each year choice against all 40 board years."""

    def __init__(self, seed: int) -> None:
        super().__init__("expert", seed)
        self.losses: list[float] = []
        self.placements: list[int] = []

    def act(self, decision: Decision[Any, Any]) -> Any:
        view: DecadesView = decision.view
        if view.phase == "answer":
            seat = decision.seat
            valuers = self.valuers(view, seat)
            mine = list(view.teams[seat].answers)
            k = len(mine)
            chosen = choose_year(mine, valuers[:k], valuers[k])
            value = best_placement([*mine, chosen], valuers[: k + 1])[1]
            best = max(best_placement([*mine, y], valuers[: k + 1])[1] for y in YEARS)
            self.losses.append(best - value)
        if view.phase == "extend":
            self.placements.append(len(legal_placements(view.teams[decision.seat].answers)))
        return super().act(decision)


def audit(games: int) -> dict[str, Any]:
    losses: list[float] = []
    placements: list[int] = []
    for game in range(games):
        auditor = Auditor(2 * game)
        play_match(GAME, [auditor, BOTS["novice"](2 * game + 1)], seed=game)
        losses += auditor.losses
        placements += auditor.placements
    short = [x for x in losses if x > 1e-9]
    return {
        "decisions": len(losses),
        "suboptimal": len(short),
        "mean_loss": statistics.mean(short) if short else 0.0,
        "max_loss": max(short, default=0.0),
        "placements_mean": statistics.mean(placements),
        "placements_max": max(placements),
    }


def random_configurations(trials: int) -> dict[str, Any]:
    """choose_year against all 40 years when the earlier answers are random."""
    rng = random.Random(1)

    def normal(centre: float, sd: float) -> Sequence[float]:
        weights = [math.exp(-(((y - centre) / sd) ** 2) / 2) for y in YEARS]
        return [w / sum(weights) for w in weights]

    short: list[float] = []
    for _ in range(trials):
        side = SIDES[rng.choice("AB")]
        k = rng.randint(0, 5)
        valuers = [
            Valuer(normal(rng.uniform(1978, 2021), rng.uniform(0.3, 7)), side) for _ in range(k + 1)
        ]
        answers = [rng.choice(YEARS) for _ in range(k)]
        year = choose_year(answers, valuers[:k], valuers[k])
        value = best_placement([*answers, year], valuers)[1]
        best = max(best_placement([*answers, y], valuers)[1] for y in YEARS)
        if best - value > 1e-9:
            short.append(best - value)
    mean_loss = statistics.mean(short) if short else 0.0
    return {"trials": trials, "suboptimal": len(short), "mean_loss": mean_loss}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--pairs-games", type=int, default=300)
    args = parser.parse_args()
    pairs = [("expert", "novice", args.games)] + [
        (a, b, args.pairs_games)
        for a, b in (("expert", "casual"), ("casual", "novice"), ("novice", "random"))
    ]
    for first, second, games in pairs:
        r = duel(first, second, games)
        print(
            f"{first} vs {second}: {r['wins']}/{r['games']} wins "
            f"({100 * r['wins'] / r['games']:.1f}%), {r['draws']} draws, "
            f"margin {r['margin']:+.1f} (sd {r['margin_sd']:.1f}), "
            f"{r['early']} early wins, {r['seconds']:.1f} s "
            f"({1000 * r['seconds'] / r['games']:.1f} ms/game)"
        )
    a = audit(100)
    print(
        f"expert year choices in 100 games: {a['suboptimal']}/{a['decisions']} below the best of "
        f"all 40 years (mean loss {a['mean_loss']:.2f}, max {a['max_loss']:.2f} expected points); "
        f"legal placements per extension step: mean {a['placements_mean']:.1f}, "
        f"max {a['placements_max']}"
    )
    c = random_configurations(1500)
    print(
        f"choose_year with random earlier answers: {c['suboptimal']}/{c['trials']} below the "
        f"best of all 40 years (mean loss {c['mean_loss']:.2f})"
    )


if __name__ == "__main__":
    main()
