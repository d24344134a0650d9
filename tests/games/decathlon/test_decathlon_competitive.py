"""The ``competitive`` bot: what it plays for, and where that changes its move."""

from __future__ import annotations

from typing import Any

import pytest
from decathlon_positions import shot_put_at_22
from decathlon_script import chain, new_game, play
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.core.agents import Agent, Decision
from gamenight.core.dice import SeededDice
from gamenight.games.decathlon import advisor
from gamenight.games.decathlon.actions import Action, Stop, Throw
from gamenight.games.decathlon.bots import CompetitiveAgent, GreedyAgent, OptimalAgent
from gamenight.games.decathlon.competition import (
    competitive_objective,
    honours_utility,
    posted_results,
)
from gamenight.games.decathlon.disciplines import EVENT_IDS
from gamenight.games.decathlon.game import GAME
from gamenight.games.decathlon.rules import DecathlonState
from gamenight.games.decathlon.solver import ExpectedScore, Target, Utility
from gamenight.games.decathlon.view import DecathlonView


def decide(
    agent: Agent[Any, Any, Any], state: DecathlonState
) -> tuple[DecathlonView, list[Action], Action]:
    (seat,) = GAME.to_act(state)
    view, legal = GAME.view(state, seat), GAME.legal_actions(state, seat)
    return view, legal, agent.act(Decision("decathlon", seat, view, legal))


def test_points_game_keeps_throwing_at_22_to_reach_the_posted_26() -> None:
    state = shot_put_at_22("points")
    view, legal, choice = decide(CompetitiveAgent(0), state)
    assert (view.attempt, view.shot, view.best) == (3, (6, 6, 6, 4), (26, None))
    assert competitive_objective(view) == Target(26)
    reach = advisor.option_values(view, legal, Target(26))
    # Stopping at 22 ends the event below 26. Throwing: 4-6 reach 26 at once; 2 or 3
    # (24, 25) throw once more, where any face but a 1 gets there.
    assert reach[Stop()] == 0
    assert reach[Throw()] == pytest.approx(3 / 6 + 2 / 6 * 5 / 6, abs=1e-12)
    assert choice == Throw()
    points = advisor.option_values(view, legal, ExpectedScore())
    assert points[Stop()] == 22 > points[Throw()]
    assert decide(OptimalAgent(0), state)[2] == Stop()


def test_championship_throws_for_gold_at_22_where_optimal_stops() -> None:
    state = shot_put_at_22("championship")
    view, legal, choice = decide(CompetitiveAgent(0), state)
    assert view.best == (26, 12, None) and posted_results(view) == [26, 12]
    medals = honours_utility([26, 12])
    assert competitive_objective(view) == medals
    values = advisor.option_values(view, legal, medals)
    # stop: 22 beats 12, not 26 -> silver (2). Throw: a 1 -> no valid result (0); 4-6 ->
    # gold (3); 2 or 3 -> at 24/25 throwing again is worth 5/6 * 3 = 2.5 > 2.
    assert values[Stop()] == 2
    assert values[Throw()] == pytest.approx((0 + 3 * 3 + 2 * 2.5) / 6, abs=1e-12)
    assert choice == Throw()
    assert decide(OptimalAgent(0), state)[2] == Stop()


def test_championship_stops_on_a_certain_gold_where_optimal_throws_on() -> None:
    # Attempt 1: seat 0 puts 20, seat 1 puts 12, seat 2 has 6 6 6 2 = 20.
    dice = chain([6, 6, 6, 2], [6, 6], [6, 6, 6, 2])
    state, _ = new_game(dice, players=3, events="shot", variant="championship")
    state, _ = play(state, *[Throw()] * 3, Stop(), Throw(), Stop(), *[Throw()] * 3)
    view, legal, choice = decide(CompetitiveAgent(0), state)
    assert (view.attempt, sum(view.shot), posted_results(view)) == (1, 20, [20, 12])
    values = advisor.option_values(view, legal, honours_utility([20, 12]))
    assert values[Stop()] == 3  # a tie for the best result is gold too (D11)
    assert values[Throw()] < 3
    assert choice == Stop()
    assert decide(OptimalAgent(0), state)[2] == Throw()  # the EV policy stops at 22 here


def view_of(**fields: object) -> DecathlonView:
    base: dict[str, object] = dict(
        seat=1, players=3, variant="points", disciplines=("shot-put",), discipline="shot-put",
        discipline_no=0, order=(0, 1, 2), to_act=1, phase="throw-or-stop", attempt=2, attempts=3,
        shot=(5,), best=(18, 15, 24),
    )  # fmt: skip
    base.update(fields)
    return DecathlonView(**base)  # type: ignore[arg-type]


def test_objective_follows_the_variant_the_event_and_the_posted_results() -> None:
    assert posted_results(view_of()) == [24, 18]  # the others only, best first
    assert competitive_objective(view_of()) == Target(24)
    # no valid result posted by the others, or alone: play for points
    assert competitive_objective(view_of(best=(None, 15, None))) == ExpectedScore()
    assert competitive_objective(view_of(players=1, best=(15,), to_act=0)) == ExpectedScore()
    # a single-event game is its own last event: every event family plays the target
    sprint = view_of(discipline="400m", disciplines=("400m",), phase="keep-or-rethrow")
    assert competitive_objective(sprint) == Target(24)
    # points game, not the last event: the total decides, so play for points
    early = view_of(disciplines=("shot-put", "high-jump"), totals=(0, 0, 0))
    assert competitive_objective(early) == ExpectedScore()
    # last event: reach the best posted total (seat 2: 40 + 24), from my 50
    last = view_of(disciplines=("long-jump", "shot-put"), discipline_no=1, totals=(30, 50, 40))
    assert competitive_objective(last) == Target(14)
    # already level with every posted total: bank the expected score
    ahead = view_of(disciplines=("long-jump", "shot-put"), discipline_no=1, totals=(0, 70, 0))
    assert competitive_objective(ahead) == ExpectedScore()
    high = view_of(discipline="high-jump", disciplines=("high-jump",), phase="jump-or-skip")
    assert competitive_objective(high) == Target(24)
    # Championship: honours against every posted result, in every event
    champ = competitive_objective(view_of(variant="championship"))
    assert champ == honours_utility([24, 18])
    assert isinstance(champ, Utility)
    assert [champ(r) for r in (None, 10, 18, 23, 24)] == [0.0, 1.0, 2.0, 2.0, 3.0]
    champ_sprint = competitive_objective(
        view_of(variant="championship", discipline="100m", phase="keep-or-rethrow")
    )
    assert champ_sprint == honours_utility([24, 18])


def test_honours_utility_counts_only_the_three_best_lines() -> None:
    u = honours_utility([30, 28, 25, 20, 10])  # 6 others: no medal below 25
    assert [u(r) for r in (None, 24, 25, 28, 29, 30)] == [0.0, 0.0, 1.0, 2.0, 2.0, 3.0]


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    events=st.lists(st.sampled_from(EVENT_IDS), min_size=1, max_size=3, unique=True),
    players=st.integers(1, 5),
    championship=st.booleans(),
)
def test_solver_bots_only_choose_legal_actions(
    seed: int, events: list[str], players: int, championship: bool
) -> None:
    variant = "championship" if championship else "points"
    options = GAME.parse_options({"events": events, "variant": variant})
    kinds = (CompetitiveAgent, OptimalAgent, GreedyAgent)
    agents: list[Agent[Any, Any, Any]] = [kinds[(seed + s) % 3](seed) for s in range(players)]
    agents[seed % players] = CompetitiveAgent(seed)  # at least one competitive seat
    state = GAME.start(players, options, SeededDice(seed=seed)).state
    while not GAME.is_terminal(state):
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        action = agents[seat].act(Decision("decathlon", seat, GAME.view(state, seat), legal))
        assert action in legal, (seat, action, legal)
        state = GAME.apply(state, seat, action).state
    assert len(GAME.results(state).scores) == players
