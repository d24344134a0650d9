"""Solved distributions: consistency, target dominance, and the summary API."""

from __future__ import annotations

import itertools
import json

import pytest

from gamenight.games.decathlon.solver import (
    EVENTS,
    ExpectedScore,
    Target,
    solution_table_rows,
    solve_all,
    solve_event,
    target_probabilities,
)
from gamenight.games.decathlon.solver.table import EventSolution


def mean_and_total(solution: EventSolution) -> tuple[float, float]:
    mean = sum(score * p for score, p in solution.pmf.items())  # invalid counts 0
    return mean, sum(solution.pmf.values()) + solution.p_invalid


@pytest.mark.parametrize("event", EVENTS)
def test_ev_distribution_is_consistent(event: str) -> None:
    solution = solve_event(event)
    mean, total = mean_and_total(solution)
    assert total == pytest.approx(1.0, abs=1e-12)
    assert mean == pytest.approx(solution.ev, abs=1e-9)
    assert solution.value == solution.ev
    assert all(p >= 0 for p in solution.pmf.values())
    assert list(solution.pmf) == list(range(solution.min_score, solution.max_score + 1))
    variance = sum((s - mean) ** 2 * p for s, p in solution.pmf.items())
    variance += mean**2 * solution.p_invalid
    assert solution.sd == pytest.approx(variance**0.5, abs=1e-9)


@pytest.mark.parametrize("event", EVENTS)
def test_target_policies_dominate_the_ev_policy(event: str) -> None:
    ev_policy = solve_event(event)
    for t in range(ev_policy.min_score - 1, ev_policy.max_score + 2):
        target = solve_event(event, Target(t))
        mean, total = mean_and_total(target)
        assert total == pytest.approx(1.0, abs=1e-12)
        assert mean == pytest.approx(target.ev, abs=1e-9)
        # Its own distribution agrees with its value, and beats the EV policy.
        assert target.prob_at_least(t) == pytest.approx(target.value, abs=1e-9)
        assert target.value >= ev_policy.prob_at_least(t) - 1e-12
        strict = solve_event(event, Target(t, strict=True))
        assert strict.value == pytest.approx(solve_event(event, Target(t + 1)).value, abs=1e-15)


@pytest.mark.parametrize("event", EVENTS)
def test_target_probabilities_fall_as_the_target_rises(event: str) -> None:
    table = target_probabilities(event)
    values = list(table.values())
    # Float sums near 1 carry ~1e-13 of rounding; ties within 1e-12 go by points.
    assert all(a >= b - 1e-12 for a, b in itertools.pairwise(values))
    strict = target_probabilities(event, strict=True)
    assert all(strict[t] == pytest.approx(table.get(t + 1, 0.0), abs=1e-15) for t in strict)
    spec = solve_event(event)
    # Above the top result nothing can be reached; the lowest target is "any valid result".
    assert solve_event(event, Target(spec.max_score + 1)).value == 0.0
    assert table[spec.min_score] >= 1 - spec.p_invalid - 1e-12


@pytest.mark.parametrize("event", ["long-jump", "shot-put", "discus", "javelin"])
def test_three_attempts_are_three_chances(event: str) -> None:
    # D3 + targets: P(best of 3 >= t) = 1 - (1 - p)^3 with p the single-attempt optimum.
    single = target_probabilities(event, attempts=1)
    triple = target_probabilities(event)
    for t, p in single.items():
        assert triple[t] == pytest.approx(1 - (1 - p) ** 3, abs=1e-12)
    assert solve_event(event, attempts=1).ev < solve_event(event, attempts=2).ev
    assert solve_event(event, attempts=2).ev < solve_event(event).ev


def test_solve_all_is_in_d1_order_and_matches_solve_event() -> None:
    solutions = solve_all()
    assert [s.event for s in solutions] == list(EVENTS)
    assert [s.name for s in solutions][:3] == ["100 Metres", "Long Jump", "Shot Put"]
    for solution in solutions:
        assert solution == solve_event(solution.event, ExpectedScore())
        assert solution.attempts == (
            3 if solution.event in {"long-jump", "shot-put", "discus", "javelin"} else 1
        )


def test_rows_and_json() -> None:
    rows = solution_table_rows()
    assert [row["event"] for row in rows] == list(EVENTS)
    hurdles = next(row for row in rows if row["event"] == "110m-hurdles")
    assert hurdles["min"] == 5 and hurdles["max"] == 30 and hurdles["p_invalid"] == 0.0
    assert solution_table_rows(["discus"])[0]["ev"] == solve_event("discus").ev
    data = json.loads(json.dumps(solve_event("discus", Target(20)).to_json()))
    assert data["objective"] == {"kind": "target", "t": 20, "strict": False}
    assert sum(data["pmf"].values()) + data["p_invalid"] == pytest.approx(1.0)
    assert data["pmf"]["20"] == solve_event("discus", Target(20)).pmf[20]


def test_unknown_event_and_bad_attempts_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown Decathlon event"):
        solve_event("marathon")
    with pytest.raises(ValueError, match="single attempt"):
        solve_event("100m", attempts=3)
    with pytest.raises(ValueError, match="attempts must be"):
        solve_event("discus", attempts=4)
