"""Environment steps per second with random masked actions, one process (issue 14).

Run: ``.venv/bin/python bench/env_throughput.py [seconds per env]``. Rates are steps per
second of this process's CPU time (``time.process_time``), so a busy shared machine does
not hide what one free core does; episodes are reset with seeds 0, 1, 2, ... The goal is at
least 20,000 steps/s for ``gamenight/Decathlon-v0``; figures go in bench/RESULTS.md.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import gymnasium as gym
import numpy as np

import gamenight.envs as envs


def pick(mask: np.ndarray, rng: random.Random) -> int:
    """A uniformly random legal index (Python's generator: numpy's scalar draws cost
    more than a Decathlon step's encoding)."""
    legal = np.flatnonzero(mask)
    return int(legal[int(rng.random() * len(legal))])


def gym_rate(env_id: str, seconds: float, **options: Any) -> float:
    env = gym.make(env_id, disable_env_checker=True, **options).unwrapped
    rng = random.Random(0)
    _, info = env.reset(seed=0)
    steps, episode = 0, 0
    start = time.process_time()
    while True:
        _, _, done, _, info = env.step(pick(info["action_mask"], rng))
        steps += 1
        if done:
            episode += 1
            _, info = env.reset(seed=episode)
            if time.process_time() - start > seconds:
                break
    return steps / (time.process_time() - start)


def aec_rate(game_id: str, seconds: float) -> float:
    env = envs.aec_env(game_id)
    rng = random.Random(0)
    env.reset(seed=0)
    steps, episode = 0, 0
    start = time.process_time()
    while True:
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            action = None if term or trunc else pick(obs["action_mask"], rng)
            env.step(action)
            steps += 1
        episode += 1
        env.reset(seed=episode)
        if time.process_time() - start > seconds:
            break
    return steps / (time.process_time() - start)


def parallel_rate(seconds: float) -> float:
    env = envs.parallel_env("decades")
    rng = random.Random(0)
    obs, _ = env.reset(seed=0)
    steps, episode = 0, 0
    start = time.process_time()
    while True:
        actions = {agent: pick(o["action_mask"], rng) for agent, o in obs.items()}
        obs, _, term, _, _ = env.step(actions)
        steps += 1
        if all(term.values()):
            episode += 1
            obs, _ = env.reset(seed=episode)
            if time.process_time() - start > seconds:
                break
    return steps / (time.process_time() - start)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    runs: list[tuple[str, Callable[[], float]]] = [
        (
            "gamenight/Decathlon-v0 (all ten events)",
            lambda: gym_rate("gamenight/Decathlon-v0", seconds),
        ),
        (
            "gamenight/Decathlon-v0 (events=110m-hurdles)",
            lambda: gym_rate("gamenight/Decathlon-v0", seconds, events="110m-hurdles"),
        ),
        ("gamenight/Wurfeltod-v0", lambda: gym_rate("gamenight/Wurfeltod-v0", seconds)),
        ("gamenight/DiceDuelSolo-v0", lambda: gym_rate("gamenight/DiceDuelSolo-v0", seconds)),
    ]
    for game_id in envs.GAME_IDS:
        runs.append((f"aec_env({game_id!r}), 2 seats", partial(aec_rate, game_id, seconds)))
    runs.append(("parallel_env('decades')", lambda: parallel_rate(seconds)))
    print(f"{'environment':48} {'steps/s':>10}")
    for name, run in runs:
        print(f"{name:48} {run():10,.0f}")


if __name__ == "__main__":
    main()
