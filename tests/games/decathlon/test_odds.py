"""Live odds (gamenight.games.decathlon.odds) against brute force and Monte Carlo."""

from __future__ import annotations

import itertools
import math
import random
from typing import Any

import numpy as np
import pytest

from gamenight.core.agents import Agent, Decision
from gamenight.core.dice import SeededDice
from gamenight.core.runner import play_match
from gamenight.games.decathlon.actions import Action
from gamenight.games.decathlon.bots import OptimalAgent, WinnerAgent
from gamenight.games.decathlon.game import GAME
from gamenight.games.decathlon.odds import event_points, odds, win_shares, win_utility
from gamenight.games.decathlon.view import DecathlonView


def brute_shares(dists: list[dict[int, float]]) -> list[float]:
    """Enumerate every joint outcome; ties split the win."""
    shares = [0.0] * len(dists)
    for combo in itertools.product(*(d.items() for d in dists)):
        p = math.prod(q for _, q in combo)
        scores = [s for s, _ in combo]
        top = max(scores)
        tied = [i for i, s in enumerate(scores) if s == top]
        for i in tied:
            shares[i] += p / len(tied)
    return shares


def as_dict(low: int, pmf: Any) -> dict[int, float]:
    return {low + k: float(p) for k, p in enumerate(pmf) if p > 0}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_win_shares_match_enumeration_on_random_distributions(players: int) -> None:
    rng = random.Random(players)
    for _ in range(20):
        lows = [rng.randint(-3, 3) for _ in range(players)]
        pmfs = []
        for _ in range(players):
            raw = np.array([rng.random() if rng.random() < 0.7 else 0.0 for _ in range(5)])
            raw[rng.randrange(5)] += 0.1
            pmfs.append(raw / raw.sum())
        got = win_shares(pmfs, lows)
        want = brute_shares([as_dict(lo, p) for lo, p in zip(lows, pmfs, strict=True)])
        assert got == pytest.approx(want, abs=1e-12)
        assert sum(got) == pytest.approx(1.0)


def _start_view(events: str, players: int = 2) -> DecathlonView:
    start = GAME.start(players, GAME.parse_options({"events": events}), SeededDice(seed=1))
    return GAME.view(start.state, 0)


def test_start_odds_match_enumeration_of_two_short_events() -> None:
    view = _start_view("100m,long")
    (la, a), (lb, b) = event_points("100m"), event_points("long-jump")
    total = as_dict(la + lb, np.convolve(a, b))
    want = brute_shares([total, total])
    assert odds(view) == pytest.approx(want, abs=1e-12)
    assert odds(view) == pytest.approx((0.5, 0.5), abs=1e-12)


class Recorder(OptimalAgent):
    """An EV-optimal bot that keeps every view it decides on."""

    def __init__(self, seen: list[DecathlonView]) -> None:
        super().__init__()
        self.seen = seen

    def act(self, decision: Decision[DecathlonView, Action]) -> Action:
        self.seen.append(decision.view)
        return super().act(decision)


def test_odds_at_an_event_boundary_match_enumeration_with_posted_totals() -> None:
    seen: list[DecathlonView] = []
    opts = GAME.parse_options({"events": "100m,long"})
    play_match(GAME, [Recorder(seen), Recorder(seen)], seed=5, options=opts)
    boundary = next(v for v in seen if v.discipline == "long-jump")
    assert boundary.attempt == 1 and all(not t for t in boundary.tries)
    low, pmf = event_points("long-jump")
    dists = [as_dict(low + boundary.totals[s], pmf) for s in range(2)]
    assert odds(boundary) == pytest.approx(brute_shares(dists), abs=1e-12)
    # the last decision: the odds only miss the acting player's result
    last = seen[-1]
    assert sum(odds(last)) == pytest.approx(1.0)


def test_last_event_win_utility_is_the_win_share_of_each_result() -> None:
    view = _start_view("long")
    u = win_utility(view, 0)
    low, pmf = event_points("long-jump")
    other = as_dict(low, pmf)
    for r in (1, 10, 20, 30):  # valid Long Jump results run from 1
        assert u(r) == pytest.approx(brute_shares([{r: 1.0}, other])[0], abs=1e-12)
    # no valid result scores 0 points
    assert u(None) == pytest.approx(brute_shares([{0: 1.0}, other])[0], abs=1e-12)


def test_monte_carlo_of_optimal_bots_agrees_with_start_odds() -> None:
    """2 players, 100 m + Long Jump, 2,000 seeded games: within 4 standard errors."""
    opts = GAME.parse_options({"events": "100m,long"})
    predicted = odds(_start_view("100m,long"))[0]
    games, won = 2000, 0.0
    for seed in range(games):
        agents: list[Agent[Any, Any]] = [OptimalAgent(), OptimalAgent()]
        results, _ = play_match(GAME, agents, seed=seed, options=opts)
        a, b = results.scores
        won += 1.0 if a > b else 0.5 if a == b else 0.0
    share = won / games
    se = math.sqrt(predicted * (1 - predicted) / games)
    assert abs(share - predicted) < 4 * se, (share, predicted)


def test_winner_bot_plays_a_short_points_game() -> None:
    opts = GAME.parse_options({"events": "100m,long,shot"})
    agents: list[Agent[Any, Any]] = [WinnerAgent(1), OptimalAgent(2)]
    results, state = play_match(GAME, agents, seed=3, options=opts)
    assert GAME.is_terminal(state) and len(results.scores) == 2


def test_terminal_odds_line_and_column_only_in_the_points_game() -> None:
    from gamenight.terminal.decathlon import odds_line, win_odds

    view = _start_view("100m,long")
    assert win_odds(view) == pytest.approx((0.5, 0.5))
    assert odds_line(3, view, ["Ann", "Bob"]) == "   3. 100 Metres     Ann  50.0%  Bob  50.0%"
    champ = GAME.start(2, GAME.parse_options({"variant": "championship"}), SeededDice(seed=1))
    assert win_odds(GAME.view(champ.state, 0)) is None
