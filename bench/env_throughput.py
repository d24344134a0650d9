"""Environment steps per second with random masked actions, one process (issue 14).

Run: ``.venv/bin/python bench/env_throughput.py [seconds per row] [--rounds N] [--only TEXT]``
(``--rounds``: measure every row N times, interleaved, and keep each row's best rate).
Rates are steps per second of this process's CPU time (``time.process_time``), so a busy
shared machine does not hide what one free core does; the wall-clock rate and the load
average are printed next to them. Episodes are reset with seeds 0, 1, 2, ...

Each Gymnasium environment is measured twice: ``gym.make(env_id)`` as a user gets it
(Gymnasium's ``PassiveEnvChecker`` and ``OrderEnforcing`` wrappers included) and the raw
environment (``.unwrapped``). The *rules only* rows play the same random games through
the Game API calls an environment makes (``start``, ``legal_actions``, ``Game._apply``,
``is_terminal``) with no observation, mask or Gymnasium step: the floor the environment
overhead sits on. The goal is at least 20,000 steps/s for ``gamenight/Decathlon-v0``;
figures go in bench/RESULTS.md.
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import gymnasium as gym
import numpy as np

import gamenight.envs as envs
from gamenight.core import registry
from gamenight.core.dice import SeededDice
from gamenight.core.seeds import derive

Rate = tuple[float, float]  # steps per CPU second, steps per wall second


def pick(mask: np.ndarray, rng: random.Random) -> int:
    """A uniformly random legal index (Python's generator: numpy's scalar draws cost
    more than a Decathlon step's encoding; ``mask.nonzero()`` skips ``np.flatnonzero``'s
    Python wrapper)."""
    legal = mask.nonzero()[0]
    return int(legal[int(rng.random() * len(legal))])


def _timed(loop: Callable[[], int], seconds: float) -> Rate:
    """Run ``loop`` (one episode, returns its steps) until ``seconds`` of CPU time."""
    warm = time.process_time()
    while time.process_time() - warm < max(0.5, seconds / 10):
        loop()  # warm imports, the codec's caches and the masks (a fresh env each row)
    steps = 0
    cpu, wall = time.process_time(), time.perf_counter()
    while time.process_time() - cpu < seconds:
        steps += loop()
    return steps / (time.process_time() - cpu), steps / (time.perf_counter() - wall)


def gym_rate(env_id: str, seconds: float, raw: bool, **options: Any) -> Rate:
    env = gym.make(env_id, **options)
    if raw:
        env = env.unwrapped
    rng = random.Random(0)
    episode = iter(range(1 << 62))

    def one() -> int:
        _, info = env.reset(seed=next(episode))
        steps, done = 0, False
        while not done:
            _, _, done, _, info = env.step(pick(info["action_mask"], rng))
            steps += 1
        return steps

    return _timed(one, seconds)


def rules_rate(game_id: str, players: int, seconds: float, **options: Any) -> Rate:
    """The same random games through the Game API calls an environment makes, no env."""
    game = registry.get(game_id).game
    parsed = game.parse_options(options)
    rng = random.Random(0)
    episode = iter(range(1 << 62))

    def one() -> int:
        seed = derive(next(episode), "env", 0)
        state = game.start(players, parsed, SeededDice(seed=seed)).state
        steps = 0
        while not game.is_terminal(state):
            seat = game.to_act(state)[0]
            legal = game.legal_actions(state, seat)
            state = game._apply(state, seat, legal[int(rng.random() * len(legal))]).state
            steps += 1
        return steps

    return _timed(one, seconds)


def aec_rate(game_id: str, seconds: float) -> Rate:
    env = envs.aec_env(game_id)
    rng = random.Random(0)
    episode = iter(range(1 << 62))

    def one() -> int:
        env.reset(seed=next(episode))
        steps = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else pick(obs["action_mask"], rng))
            steps += 1
        return steps

    return _timed(one, seconds)


def parallel_rate(seconds: float) -> Rate:
    env = envs.parallel_env("decades")
    rng = random.Random(0)
    episode = iter(range(1 << 62))

    def one() -> int:
        obs, _ = env.reset(seed=next(episode))
        steps = 0
        while env.agents:
            actions = {agent: pick(o["action_mask"], rng) for agent, o in obs.items()}
            obs, *_ = env.step(actions)
            steps += 1
        return steps

    return _timed(one, seconds)


def runs(seconds: float) -> list[tuple[str, Callable[[], Rate]]]:
    out: list[tuple[str, Callable[[], Rate]]] = []
    solo: list[tuple[str, str, dict[str, Any]]] = [
        ("gamenight/Decathlon-v0", "decathlon", {}),
        ("gamenight/Decathlon-v0", "decathlon", {"events": "110m-hurdles"}),
        ("gamenight/Wurfeltod-v0", "wurfeltod", {}),
        ("gamenight/DiceDuelSolo-v0", "dice-duel", {"mode": "solo"}),
    ]
    for env_id, game_id, options in solo:
        label = env_id + (f" events={options['events']}" if "events" in options else "")
        env_options = {k: v for k, v in options.items() if k != "mode"}
        out.append((f"{label}, gym.make", partial(gym_rate, env_id, seconds, False, **env_options)))
        out.append((f"{label}, raw", partial(gym_rate, env_id, seconds, True, **env_options)))
        out.append((f"{label}, rules only", partial(rules_rate, game_id, 1, seconds, **options)))
    for game_id in envs.GAME_IDS:
        out.append((f"aec_env({game_id!r}), 2 seats", partial(aec_rate, game_id, seconds)))
    out.append(("parallel_env('decades') (a step = both teams)", partial(parallel_rate, seconds)))
    return out


def main() -> None:
    args = sys.argv[1:]
    only = args[args.index("--only") + 1] if "--only" in args else ""
    rounds = int(args[args.index("--rounds") + 1]) if "--rounds" in args else 1
    numbers = [a for a in args if a.replace(".", "", 1).isdigit()]
    seconds = float(numbers[0]) if numbers else 5.0
    rows = [(name, run) for name, run in runs(seconds) if only.lower() in name.lower()]
    print(f"load average {os.getloadavg()[0]:.2f} at start; {seconds:g} s of CPU per row", end="")
    print(f", best of {rounds} rounds" if rounds > 1 else "")
    best: dict[str, Rate] = {}
    for _ in range(rounds):  # other processes only ever slow a row down: keep its best
        for name, run in rows:
            cpu, wall = run()
            if name not in best or cpu > best[name][0]:
                best[name] = (cpu, wall)
    print(f"{'environment':58} {'steps/s CPU':>12} {'µs/step':>8} {'steps/s wall':>13}")
    for name, (cpu, wall) in best.items():
        print(f"{name:58} {cpu:12,.0f} {1e6 / cpu:8.1f} {wall:13,.0f}")
    print(f"load average {os.getloadavg()[0]:.2f} at end")


if __name__ == "__main__":
    main()
