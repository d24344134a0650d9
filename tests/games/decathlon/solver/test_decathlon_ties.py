"""One tie rule: the policy tables, best_option and the bots pick the same option.

Issue 20: `best_option` took the first near-tie while the tables behind
`position_dist` took the strict float maximum, so a near-tie like the Discus's
(4,) = 21.999999999999996 against (2, 4) = 22.0 fell to different options and the
position distributions described a policy the optimal bot did not play. Every
picker now calls `gamenight.solve.ties`; these tests compare them on sampled
positions, and against the rule itself applied to the option values.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from gamenight.core.runner import play_match
from gamenight.games.decathlon import advisor
from gamenight.games.decathlon.bots import OptimalAgent
from gamenight.games.decathlon.game import GAME
from gamenight.games.decathlon.solver import (
    EVENTS,
    ExpectedScore,
    FreezeSituation,
    HeightSituation,
    HurdlesSituation,
    LongJumpSituation,
    NoDecisionError,
    ShotPutSituation,
    SprintSituation,
    Target,
    best_option,
    event_spec,
    option_values,
)
from gamenight.games.decathlon.solver.heights import BARS
from gamenight.games.decathlon.solver.policy import table_option
from gamenight.games.decathlon.solver.races import RACES, RETHROWS
from gamenight.solve.ties import TIE_EPS, best_index, best_key

SAMPLES = 10_000  # compared positions per event and objective (the issue's floor)


def _dice(
    rng: random.Random, n: int, faces: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
) -> tuple[int, ...]:
    return tuple(sorted(rng.choice(faces) for _ in range(n)))


def _best(rng: random.Random, event: str, attempt: int) -> int | None:
    spec = event_spec(event)
    if attempt == 1 or rng.random() < 0.2:
        return None
    return rng.randint(spec.min_score, spec.max_score)


def sample(event: str, rng: random.Random) -> Any:
    """A random position of ``event`` (possibly one the solver refuses)."""
    if event in RACES:
        race = RACES[event]
        r = rng.randint(1, RETHROWS)
        dice = _dice(rng, race.size)
        if race.sets == 1:
            return HurdlesSituation(r, dice)
        i = rng.randrange(race.sets)
        so_far = sum(
            sum(race.six if f == 6 else f for f in _dice(rng, race.size)) for _ in range(i)
        )
        return SprintSituation(i, r, dice, so_far)
    if event in BARS:
        bar = BARS[event]
        k = rng.randrange(len(bar.heights))
        below = bar.heights[:k]
        best = rng.choice(below) if below and rng.random() < 0.8 else None
        committed = rng.random() < 0.5
        jumps = rng.randrange(3) if committed else 0
        return HeightSituation(bar.heights[k], best, committed, jumps)
    attempt = rng.randint(1, 3)
    best = _best(rng, event, attempt)
    if event == "shot-put":
        return ShotPutSituation(_dice(rng, rng.randint(1, 7), (2, 3, 4, 5, 6)), attempt, best)
    if event == "long-jump":
        if rng.random() < 0.5:
            k = rng.randint(0, 4)
            frozen = _dice(rng, k, (1, 2, 3))
            thrown = _dice(rng, 5 - k) if rng.random() < 0.7 or k == 0 else ()
            return LongJumpSituation("run-up", frozen, thrown, attempt, best)
        total = rng.randint(1, 5)
        k = rng.randint(0, total - 1)
        return LongJumpSituation("jump", _dice(rng, k), _dice(rng, total - k), attempt, best)
    n, allowed = (5, (2, 4, 6)) if event == "discus" else (6, (1, 3, 5))
    k = rng.randint(0, n - 1)
    frozen = _dice(rng, k, allowed)
    thrown = _dice(rng, n - k) if rng.random() < 0.7 or k == 0 else ()
    return FreezeSituation(frozen, thrown, attempt, best)


def compared_positions(event: str, objective: Any, seed: int) -> list[Any]:
    """``SAMPLES`` positions with a choice in the tables (targets: not yet reached)."""
    rng = random.Random(seed)
    out: list[Any] = []
    while len(out) < SAMPLES:
        s = sample(event, rng)
        best = getattr(s, "best", None)
        if isinstance(objective, Target) and best is not None and best >= objective.threshold:
            continue  # reached: every option is certain, the tables play on for it
        try:
            values = option_values(event, s, objective)
            table_option(event, s, objective)
        except (ValueError, NoDecisionError):
            continue
        if len(values) > 1:
            out.append(s)
    return out


@pytest.mark.parametrize("event", EVENTS)
def test_the_tables_and_best_option_pick_alike_for_the_expected_score(event: str) -> None:
    ev = ExpectedScore()
    near_ties = 0
    for s in compared_positions(event, ev, seed=20):
        values = option_values(event, s, ev)
        picked = best_option(event, s, ev)
        assert picked == table_option(event, s, ev), s
        assert picked == best_key(values), s  # the rule itself
        top = max(values.values())
        near_ties += sum(top - TIE_EPS <= v < top for v in values.values())
    # Freeze events meet real near-ties (equal in exact arithmetic, not in floats).
    if event in ("discus", "javelin", "long-jump"):
        assert near_ties > 0


@pytest.mark.parametrize("event", EVENTS)
def test_the_tables_and_best_option_pick_alike_for_a_target(event: str) -> None:
    spec = event_spec(event)
    rng = random.Random(21)
    target = Target(rng.randint(spec.min_score + 1, spec.max_score))
    for s in compared_positions(event, target, seed=22):
        assert best_option(event, s, target) == table_option(event, s, target), (target, s)


def test_the_discus_near_tie_of_issue_20_falls_to_the_first_option() -> None:
    s = FreezeSituation((4, 6, 6), (2, 4), 3, 20)
    values = option_values("discus", s)
    assert list(values) == [(4,), (2,), (2, 4)]  # fewer dice first, better dice first
    assert abs(values[(4,)] - values[(2, 4)]) <= TIE_EPS
    assert best_option("discus", s) == table_option("discus", s) == (4,)


def test_the_rule_reads_the_secondary_only_among_near_ties() -> None:
    assert best_index([0.5, 0.5 - 1e-13, 0.4], [1.0, 2.0, 99.0]).tolist() == 1
    assert best_index([0.5, 0.5 - 1e-9, 0.4], [1.0, 2.0, 99.0]).tolist() == 0
    assert best_index([0.5, 0.5, 0.5], [2.0, 2.0 + 1e-14, 1.0]).tolist() == 0


def test_the_optimal_bot_plays_what_the_tables_hold() -> None:
    """Over whole games, each of the bot's choices is the tables' option there."""
    checked = 0

    class Checking(OptimalAgent):
        def act(self, decision: Any) -> Any:
            nonlocal checked
            action = super().act(decision)
            view = decision.view
            try:
                where = advisor.situation(view)
                held = table_option(view.discipline, where)
            except NoDecisionError:
                return action
            assert advisor.option_key(view, action) == held, (view.discipline, where)
            checked += 1
            return action

    for seed in range(3):
        play_match(GAME, [Checking(), Checking()], seed=seed, options=GAME.parse_options({}))
    assert checked > 100
