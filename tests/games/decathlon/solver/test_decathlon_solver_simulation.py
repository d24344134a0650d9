"""Monte Carlo: playing the API's choices with random dice matches the solved figures."""

from __future__ import annotations

import decathlon_play
import numpy as np
import pytest

from gamenight.games.decathlon.solver import EVENTS, ExpectedScore, Target, solve_event

GAMES = 3000  # keeps the whole file to a few seconds


@pytest.mark.parametrize("event", EVENTS)
def test_ev_policy_mean_within_4_standard_errors(event: str) -> None:
    solution = solve_event(event)
    rng = np.random.default_rng(20240 + EVENTS.index(event))
    results = [decathlon_play.play(event, ExpectedScore(), rng) for _ in range(GAMES)]
    scores = np.array([0 if r is None else r for r in results], dtype=np.float64)
    error = solution.sd / np.sqrt(GAMES)
    assert abs(scores.mean() - solution.ev) < 4 * error
    invalid = np.mean([r is None for r in results])
    p = solution.p_invalid
    assert abs(invalid - p) <= 4 * np.sqrt(p * (1 - p) / GAMES) + 1e-12


@pytest.mark.parametrize(
    ("event", "t"),
    [("100m", 30), ("long-jump", 26), ("discus", 28), ("high-jump", 24), ("pole-vault", 30)],
)
def test_target_policy_hit_rate_within_4_standard_errors(event: str, t: int) -> None:
    p = solve_event(event, Target(t)).value
    rng = np.random.default_rng(t)
    results = [decathlon_play.play(event, Target(t), rng) for _ in range(GAMES)]
    hits = np.mean([r is not None and r >= t for r in results])
    assert abs(hits - p) < 4 * np.sqrt(p * (1 - p) / GAMES)
    # Playing for the target beats playing for points at that target.
    assert p > solve_event(event).prob_at_least(t)
