"""Issue 28, beyond the defects: search on explicit chance, regret, one learner vs bots."""

from __future__ import annotations

import importlib.util
import math
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import gamenight.envs  # noqa: F401  (registers the environments)
import gamenight.envs.evaluate as harness
from gamenight.core import registry
from gamenight.core.agents import Decision
from gamenight.core.errors import OptionsError
from gamenight.envs.episode import Episode
from gamenight.envs.evaluate import PolicyError, evaluate
from gamenight.envs.versus import VERSUS_ENVS
from gamenight.games.decathlon.disciplines import EVENT_IDS
from gamenight.games.decathlon.solver import solve_event

EXAMPLES = Path(__file__).parents[2] / "examples"


def _example(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ----- the expectimax example on explicit chance ---------------------------------------------
def test_expectimax_matches_the_solver_on_the_shot_put() -> None:
    """Planning from hidden dice through the chance capability: its value of the start is
    the solver's EV, and its play's mean is within 3 standard errors of it."""
    module = _example("expectimax_decathlon_event")
    planned, mean, se, exact = module.run("shot-put", games=300, seed=1)
    assert exact == solve_event("shot-put").ev
    assert planned == pytest.approx(exact, abs=1e-9)
    assert abs(mean - exact) <= 3 * se, (mean, se, exact)


# ----- regret against the optimum ------------------------------------------------------------
def _first(obs: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def test_regret_of_a_policy_on_one_event() -> None:
    regret = evaluate(_first, "decathlon:100m", episodes=300, seed=2)
    assert regret.optimum == pytest.approx(solve_event("100m").ev)
    assert regret.gap == pytest.approx(regret.optimum - regret.mean)
    assert regret.gap_low < regret.gap < regret.gap_high
    assert regret.gap_high - regret.gap_low == pytest.approx(2 * 1.959963984540054 * regret.se)
    assert regret.gap > 0 and "decathlon:100m" in regret.line()


@contextmanager
def _watching() -> Iterator[list[Episode]]:
    """The harness's episodes as it plays them (a test policy reads the state: a real one
    would decode the observation)."""
    sessions: list[Episode] = []

    class Watched(Episode):
        def reset(self, seed: int | None = None) -> None:
            super().reset(seed)
            sessions.append(self)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(harness, "Episode", Watched)
        yield sessions


def test_the_optimal_policy_has_no_significant_regret() -> None:
    """The search's policy closes the gap (the interval holds 0): the harness measures
    against the right optimum, games over at the start included."""
    module = _example("expectimax_decathlon_event")
    search = module.Expectimax(
        "decathlon", {"events": "shot-put", "variant": "points"}, module.shot_put_key
    )
    with _watching() as sessions:

        def optimal(obs: np.ndarray, mask: np.ndarray) -> int:
            session = sessions[-1]
            action = search.choose(session.state)
            return next(i for i, a in session.legal(0).items() if a == action)

        regret = evaluate(optimal, "decathlon:shot-put", episodes=250, seed=3)
    assert regret.gap_low <= 0 <= regret.gap_high, regret.line()


def test_whole_decathlon_optimum_is_the_sum_of_the_events() -> None:
    regret = evaluate(_first, "decathlon", episodes=3, seed=0)
    assert regret.optimum == pytest.approx(sum(solve_event(e).ev for e in EVENT_IDS))
    assert regret.optimum == pytest.approx(219.71, abs=0.01)  # docs/solvers.md


def test_wurfeltod_regret_with_a_given_optimum() -> None:
    """The full table is expensive to build in a test: the optimum can be given (here
    the figure of docs/solvers.md)."""
    regret = evaluate(_first, "wurfeltod", episodes=4, seed=0, optimum=9067.58)
    assert regret.optimum == 9067.58 and regret.gap == pytest.approx(9067.58 - regret.mean)


def test_dice_duel_solo_regret_is_paired_with_turn_optimal() -> None:
    regret = evaluate(_first, "dice-duel-solo", episodes=30, seed=4)
    assert regret.yardstick.startswith("turn-optimal")
    assert regret.gap > 0 and regret.gap_low < regret.gap < regret.gap_high
    # the yardstick against itself: no gap on any seed, so a zero-width interval at 0
    bot = registry.get("dice-duel").make_bot("turn-optimal", 4)
    with _watching() as sessions:

        def turn_optimal(obs: np.ndarray, mask: np.ndarray) -> int:
            session = sessions[-1]
            game = session.game
            legal = game.legal_actions(session.state, 0)
            action = bot.act(Decision("dice-duel", 0, game.view(session.state, 0), legal))
            return next(i for i, a in session.legal(0).items() if a == action)

        same = evaluate(turn_optimal, "dice-duel-solo", episodes=10, seed=4)
    assert same.gap == 0 and same.gap_low == 0 == same.gap_high


def test_evaluate_refuses_bad_input() -> None:
    with pytest.raises(OptionsError, match="no benchmark 'chess'"):
        evaluate(_first, "chess")
    with pytest.raises(OptionsError, match="episodes"):
        evaluate(_first, "decathlon:100m", episodes=1)
    with pytest.raises(PolicyError, match="forbids"):
        evaluate(lambda obs, mask: int(np.flatnonzero(mask == 0)[0]), "decathlon:100m")


# ----- one learner against fixed bots --------------------------------------------------------
@pytest.mark.parametrize("env_id", sorted(VERSUS_ENVS))
def test_versus_bot_env_passes_check_env(env_id: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(gym.make(env_id).unwrapped)


@pytest.mark.parametrize("env_id", sorted(VERSUS_ENVS))
def test_versus_bot_env_plays_whole_games(env_id: str) -> None:
    env: Any = gym.make(env_id)
    raw: Any = env.unwrapped
    rng = np.random.default_rng(0)
    env.reset(seed=1)
    done, total = False, 0.0
    while not done:
        masks = env.get_wrapper_attr("action_masks")()
        assert np.flatnonzero(masks).tolist() == sorted(raw.session.legal(raw.seat))
        _obs, reward, terminated, truncated, _info = env.step(
            int(rng.choice(np.flatnonzero(masks)))
        )
        total += float(reward)
        done = terminated or truncated
        assert done or raw.aec.agent_selection == raw.agent  # the bots moved in between
    assert raw.session.finished and total == raw.session.outcome(raw.seat)
    assert env.spec is not None and env.spec.max_episode_steps is not None


def test_versus_bot_env_refuses_an_unknown_bot() -> None:
    with pytest.raises(OptionsError, match="no bot 'perfect'; choose one of random, turn"):
        gym.make("gamenight/DiceDuelVsBot-v0", opponent="perfect")
    env: Any = gym.make("gamenight/DecathlonVsBot-v0", opponent="optimal", events="100m")
    env.reset(seed=0)
    assert math.isfinite(float(env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))[1]))


def test_versus_bot_reset_never_returns_a_finished_game() -> None:
    """Shot Put seed 437: the learner fails all three attempts at once and the bot then
    finishes the game before the learner has a choice; reset takes the next episode."""
    env: Any = gym.make("gamenight/DecathlonVsBot-v0", events="shot-put").unwrapped
    _, info = env.reset(seed=437)
    assert env.session.episode == 1  # the seed's first episode was over for the learner
    assert info["action_mask"].any() and not env.session.finished
    assert env.aec.agent_selection == env.agent


def test_exact_decision_loss_is_the_gap_without_the_dice() -> None:
    """Issue 42: ``exact=True`` reviews every episode with gamenight.core.review; for a
    solitaire yardstick the mean summed loss estimates the same gap as the scores, with
    less noise (the dice's luck is taken out)."""
    from gamenight.envs.evaluate import evaluate

    def first(obs: Any, mask: Any) -> int:
        return int(mask.nonzero()[0][0])

    r = evaluate(first, "decathlon:110m-hurdles", episodes=200, exact=True)
    assert r.loss is not None and r.loss_se is not None
    assert r.gap_low <= r.loss <= r.gap_high
    assert r.loss_se < r.se
