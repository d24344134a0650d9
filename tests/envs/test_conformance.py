"""The environments pass PettingZoo's and Gymnasium's own conformance tests (issue 14)."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

import gamenight.envs as envs
from gamenight.envs.gymnasium_envs import ENVS

AEC_CASES: list[tuple[str, dict[str, Any]]] = [
    ("decathlon", {}),
    ("decathlon", {"players": 3, "variant": "championship"}),
    ("decathlon", {"players": 1, "events": "shot-put"}),  # resets that draw again (issue 28)
    ("dice-duel", {}),
    ("dice-duel", {"mode": "solo"}),
    ("wurfeltod", {}),
    ("decades", {}),
]


@pytest.mark.parametrize(("game_id", "options"), AEC_CASES)
def test_aec_api(game_id: str, options: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        # Dict observations ({"observation", "action_mask"}) are PettingZoo's own
        # convention for masks; api_test still says Box/Discrete "probably" fit better.
        warnings.simplefilter("ignore", UserWarning)
        api_test(envs.aec_env(game_id, **options), num_cycles=300)


@pytest.mark.parametrize(("game_id", "options"), AEC_CASES)
def test_aec_seed(game_id: str, options: dict[str, Any]) -> None:
    seed_test(lambda: envs.aec_env(game_id, **options), num_cycles=200)


def test_decades_parallel_api_and_seed() -> None:
    parallel_api_test(envs.parallel_env("decades"), num_cycles=300)
    parallel_seed_test(lambda: envs.parallel_env("decades"), num_cycles=200)


@pytest.mark.parametrize("env_id", sorted(ENVS))
def test_gymnasium_check_env(env_id: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check_env warns instead of failing: fail here
        check_env(gym.make(env_id).unwrapped)


def test_decathlon_events_option() -> None:
    env = gym.make("gamenight/Decathlon-v0", events="400m")
    check_env(env.unwrapped)


def test_unknown_games_are_refused() -> None:
    with pytest.raises(ValueError, match="no environment"):
        envs.aec_env("chess")
    with pytest.raises(ValueError, match="no parallel environment"):
        envs.parallel_env("wurfeltod")
