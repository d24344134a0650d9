"""The greedy bot: always legal, clearly better than random, and all-bot matches run."""

from __future__ import annotations

import statistics
from typing import Any

from gamenight.core import registry
from gamenight.core.agents import Agent, Decision, RandomAgent
from gamenight.core.dice import SeededDice
from gamenight.core.runner import play_match
from gamenight.games.decathlon import bots
from gamenight.games.decathlon.actions import (
    Action,
    Freeze,
    Jump,
    Rethrow,
    Skip,
    Stop,
    Throw,
    Vault,
)
from gamenight.games.decathlon.bots import BOTS, GreedyAgent, clear_chance, greedy_action
from gamenight.games.decathlon.game import GAME
from gamenight.games.decathlon.view import DecathlonView


def _view(**fields: object) -> DecathlonView:
    base: dict[str, object] = dict(
        seat=0, players=1, variant="points", disciplines=("100m",), discipline="100m",
        discipline_no=0, order=(0,), to_act=0, phase="keep-or-rethrow", best=(None,),
    )  # fmt: skip
    base.update(fields)
    return DecathlonView(**base)  # type: ignore[arg-type]


def test_registry_offers_greedy_and_random() -> None:
    entry = registry.get("decathlon")
    assert set(entry.bots) == {
        "random",
        "greedy",
        "optimal",
        "competitive",
        "winner",
        "winner-points",
    }  # 6, 15
    assert BOTS["greedy"](3).label == "greedy"


def test_greedy_choices_are_always_among_the_legal_actions() -> None:
    for seed in range(24):
        options = GAME.parse_options({"variant": "championship" if seed % 2 else "points"})
        state = GAME.start(1 + seed % 8, options, SeededDice(seed=seed)).state
        while not GAME.is_terminal(state):
            (seat,) = GAME.to_act(state)
            legal = GAME.legal_actions(state, seat)
            view = GAME.view(state, seat)
            choice = bots._choose(view, legal)  # the raw choice, before any fallback
            assert choice in legal, (view.phase, choice, legal)
            state = GAME.apply(state, seat, choice).state


def test_greedy_beats_random_over_100_single_player_decathlons() -> None:
    def mean_points(agent: type[GreedyAgent] | type[RandomAgent]) -> float:
        return statistics.mean(
            play_match(GAME, [agent(seed)], seed=seed)[0].scores[0] for seed in range(100)
        )

    greedy, random_ = mean_points(GreedyAgent), mean_points(RandomAgent)
    # measured: greedy ~206, random ~104 (see bench/RESULTS.md)
    assert greedy > 180 and random_ < 130, (greedy, random_)


def test_all_bot_championship_runs_through_the_runner() -> None:
    agents: list[Agent[Any, Any, Any]] = [GreedyAgent(1), RandomAgent(2), GreedyAgent(3)]
    options = GAME.parse_options({"variant": "championship", "events": "long,high,javelin"})
    results, state = play_match(GAME, agents, seed=11, options=options)
    assert GAME.is_terminal(state)
    assert len(results.scores) == 3 and sum(results.scores) <= 3 * 6 * 3
    assert set(results.detail["honours"]) == {"long-jump", "high-jump", "javelin"}


def test_greedy_thresholds_on_hand_made_views() -> None:
    keep = Freeze((0, 1, 2, 3))
    sprint: list[Action] = [keep, Rethrow()]
    # 100 m, 5 rethrows for 2 sets: 2.5 + 0.5 * 2 = 3.5 a die -> 14 for four dice
    assert (
        greedy_action(_view(thrown=(5, 5, 3, 1), rethrows_left=5, set_no=1, sets=2), sprint) == keep
    )
    assert (
        greedy_action(_view(thrown=(5, 5, 2, 1), rethrows_left=5, set_no=1, sets=2), sprint)
        == Rethrow()
    )
    # run-up: freeze the lowest die plus every 1 and 2 that fits under 8
    lj = _view(discipline="long-jump", phase="run-up-freeze", thrown=(4, 1, 2, 6, 2))
    assert greedy_action(lj, [Freeze((1, 2, 4))]) == Freeze((1, 2, 4))
    # jump: freeze every 5 and 6, else the highest die
    jump = _view(discipline="long-jump", phase="jump-freeze", thrown=(3, 4, 2))
    assert greedy_action(jump, [Freeze((1,))]) == Freeze((1,))
    # shot put: stop at 26, but never stop below the best so far
    shot: list[Action] = [Throw(), Stop()]
    assert (
        greedy_action(
            _view(discipline="shot-put", phase="throw-or-stop", shot=(6, 6, 6, 6, 2)), shot
        )
        == Stop()
    )
    behind = _view(discipline="shot-put", phase="throw-or-stop", shot=(6, 6, 6, 6, 2), best=(30,))
    assert greedy_action(behind, shot) == Throw()
    # pole vault: open at 12, and throw the number of dice most likely to clear
    pv = _view(discipline="pole-vault", phase="jump-or-skip", height=10)
    assert greedy_action(pv, [Jump(), Skip()]) == Skip()
    vault = _view(discipline="pole-vault", phase="vault-dice", height=16)
    assert greedy_action(vault, [Vault(n) for n in range(1, 9)]) == Vault(5)


def test_clear_chance_matches_small_cases() -> None:
    assert clear_chance(1, 6, ones_fail=False) == 1 / 6
    assert abs(clear_chance(2, 12, ones_fail=True) - 1 / 36) < 1e-12
    assert abs(clear_chance(1, 2, ones_fail=True) - 5 / 6) < 1e-12


def test_agent_acts_on_a_decision() -> None:
    state = GAME.start(1, GAME.parse_options({"events": "hurdles"}), SeededDice(seed=2)).state
    decision = Decision("decathlon", 0, GAME.view(state, 0), GAME.legal_actions(state, 0))
    assert GreedyAgent(0).act(decision) in decision.legal
