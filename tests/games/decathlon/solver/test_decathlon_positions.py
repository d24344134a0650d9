"""In-event result distributions (solver.positions) against brute-force enumeration."""

from __future__ import annotations

from typing import Any

import decathlon_brute_positions as bp
import numpy as np
import pytest

from gamenight.core.runner import play_match
from gamenight.games.decathlon import advisor
from gamenight.games.decathlon.bots import OptimalAgent
from gamenight.games.decathlon.game import GAME
from gamenight.games.decathlon.solver import (
    EVENTS,
    FreezeSituation,
    HeightSituation,
    HurdlesSituation,
    LongJumpSituation,
    ShotPutSituation,
    SprintSituation,
    best_option,
    event_spec,
    situation_value,
    solve_event,
)
from gamenight.games.decathlon.solver.positions import (
    AttemptStart,
    position_dist,
    position_pmf,
)


def as_dist(event: str, dist: Any) -> bp.Dist:
    low = event_spec(event).min_score
    out: bp.Dist = {low + k: float(p) for k, p in enumerate(dist[:-1]) if p > 1e-15}
    if dist[-1] > 1e-15:
        out[None] = float(dist[-1])
    return out


def assert_same(got: bp.Dist, want: bp.Dist) -> None:
    keys = set(got) | {k for k, p in want.items() if p > 1e-15}
    for k in keys:
        assert got.get(k, 0.0) == pytest.approx(want.get(k, 0.0), abs=1e-10), k
    assert sum(got.values()) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize("event", EVENTS)
def test_the_start_of_an_event_is_the_solved_distribution(event: str) -> None:
    sol = solve_event(event)
    pmf, invalid = position_pmf(event, AttemptStart())
    assert pmf == pytest.approx(sol.pmf, abs=1e-12)
    assert invalid == pytest.approx(sol.p_invalid, abs=1e-12)


RACE_POSITIONS = [
    ("400m", SprintSituation(0, 5, (3, 6))),
    ("400m", SprintSituation(1, 2, (5, 4), 7)),
    ("400m", SprintSituation(2, 0, (1, 6), 3)),
    ("400m", SprintSituation(3, 1, (2, 2), -2)),
    ("100m", SprintSituation(1, 3, (6, 5, 4, 2), 14)),
    ("100m", SprintSituation(1, 0, (1, 2, 3, 4), -4)),
    ("110m-hurdles", HurdlesSituation(2, (6, 5, 2, 3, 4))),
    ("110m-hurdles", HurdlesSituation(0, (1, 1, 2, 3, 4))),
]


@pytest.mark.parametrize(("event", "situation"), RACE_POSITIONS)
def test_race_positions_match_enumeration(event: str, situation: Any) -> None:
    if isinstance(situation, HurdlesSituation):
        want = bp.race_decide(event, 0, situation.rethrows_left, 0, situation.dice)
    else:
        s = situation
        want = bp.race_decide(event, s.set_index, s.rethrows_left, s.score_so_far, s.dice)
    assert_same(as_dist(event, position_dist(event, situation)), want)


SHOT_POSITIONS = [
    ShotPutSituation((6,), 1, None),
    ShotPutSituation((5, 4, 3), 1, None),
    ShotPutSituation((6, 6, 2, 5), 2, 18),
    ShotPutSituation((2, 2), 2, None),
    ShotPutSituation((6, 6, 6, 6, 6, 2), 3, 24),
    ShotPutSituation((3, 3, 3, 3, 3, 3, 3), 3, 20),
]


@pytest.mark.parametrize("situation", SHOT_POSITIONS)
def test_shot_put_positions_match_enumeration_over_the_remaining_attempts(
    situation: ShotPutSituation,
) -> None:
    s = situation
    want = bp.shot_decide(s.attempt, s.best, tuple(sorted(s.dice)))
    assert_same(as_dist("shot-put", position_dist("shot-put", s)), want)


@pytest.mark.parametrize(("attempt", "best"), [(1, None), (2, None), (2, 22), (3, 16), (3, 30)])
def test_shot_put_attempt_starts_match_enumeration(attempt: int, best: int | None) -> None:
    want = bp.shot_throw(attempt, best, ())
    assert_same(as_dist("shot-put", position_dist("shot-put", AttemptStart(attempt, best))), want)


FREEZE_POSITIONS = [
    ("discus", FreezeSituation((6, 4), (2, 5, 6), 3, 20)),
    ("discus", FreezeSituation((6, 6), (), 3, 14)),
    ("discus", FreezeSituation((), (2, 3, 4, 4, 6), 3, None)),
    ("javelin", FreezeSituation((5, 5, 3), (1, 2, 5), 3, 18)),
    ("javelin", FreezeSituation((5, 5, 5, 3), (), 3, 24)),
    ("long-jump", LongJumpSituation("run-up", (1, 2, 2), (), 3, None)),
    ("long-jump", LongJumpSituation("run-up", (1, 1), (), 3, 22)),
    ("long-jump", LongJumpSituation("jump", (6,), (5, 2, 4), 3, 20)),
    ("long-jump", LongJumpSituation("jump", (), (3, 4, 6), 3, None)),
]


@pytest.mark.parametrize(("event", "situation"), FREEZE_POSITIONS)
def test_last_attempt_positions_match_enumeration(event: str, situation: Any) -> None:
    s = situation
    if event == "long-jump":
        if s.phase == "jump":
            k = len(s.frozen) + len(s.thrown)
            sub = best_option(event, s)
            want = bp.jump_throw(s.best, k, tuple(sorted(s.frozen + sub)))
        else:
            want = bp.run_up_settle(s.best, tuple(sorted(s.frozen)))
    elif s.thrown:
        want = bp.discus_freeze(event, s.best, tuple(sorted(s.frozen)), tuple(sorted(s.thrown)))
    else:
        want = bp.discus_settle(event, s.best, tuple(sorted(s.frozen)))
    assert_same(as_dist(event, position_dist(event, s)), want)


def test_a_run_up_freeze_position_matches_enumeration() -> None:
    s = LongJumpSituation("run-up", (1, 2), (3, 5, 1), 3, 15)
    sub = best_option("long-jump", s)
    assert isinstance(sub, tuple)
    frozen = tuple(sorted(s.frozen + sub))
    want = bp.run_up_settle(15, frozen) if sum(frozen) <= 8 else bp.point(15)
    assert_same(as_dist("long-jump", position_dist("long-jump", s)), want)


HEIGHT_POSITIONS = [
    ("high-jump", HeightSituation(10)),
    ("high-jump", HeightSituation(20, 18)),
    ("high-jump", HeightSituation(24, None)),
    ("pole-vault", HeightSituation(30, 26)),
    ("pole-vault", HeightSituation(30, 26, True, 1)),
    ("pole-vault", HeightSituation(40, None, True, 2)),
]


@pytest.mark.parametrize(("event", "situation"), HEIGHT_POSITIONS)
def test_height_positions_match_enumeration(event: str, situation: HeightSituation) -> None:
    s = situation
    if s.committed:
        choice = best_option(event, s)
        assert isinstance(choice, int)
        q = bp.clear(event, choice, s.height)
        want: bp.Dist = {}
        bp.add(want, bp.height_choose(event, s.height + 2, s.height), q)
        bp.add(want, bp.height_jumps(event, s.height, s.best, s.jumps_used + 1), 1 - q)
    else:
        want = bp.height_choose(event, s.height, s.best)
    assert_same(as_dist(event, position_dist(event, s)), want)


def test_every_decision_of_a_game_has_the_solver_value_as_its_mean() -> None:
    """Over a 3-player decathlon, each position's mean is the EV of its situation."""
    seen: list[Any] = []

    class Recorder(OptimalAgent):
        def act(self, decision: Any) -> Any:
            seen.append(decision.view)
            return super().act(decision)

    play_match(GAME, [Recorder(), Recorder(), Recorder()], seed=7, options=GAME.parse_options({}))
    events = set()
    for view in seen:
        event, where = view.discipline, advisor.situation(view)
        dist = position_dist(event, where)
        low = event_spec(event).min_score
        mean = float(np.dot(np.arange(low, low + len(dist) - 1), dist[:-1]))
        assert mean == pytest.approx(situation_value(event, where), abs=1e-9)
        assert dist.sum() == pytest.approx(1.0, abs=1e-12)
        events.add(event)
    assert events == set(EVENTS)


def test_positions_are_refused_when_they_cannot_happen() -> None:
    with pytest.raises(ValueError):
        position_dist("shot-put", AttemptStart(1, 20))
    with pytest.raises(TypeError):
        position_dist("discus", ShotPutSituation((6,)))
