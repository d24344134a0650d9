"""Tabular Q-learning on one Decathlon event through ``gamenight/Decathlon-v0`` (issue 14).

The learner is **tabular Q-learning** (one-step, undiscounted, epsilon-greedy with a
decaying epsilon, step size 1/n per state-action pair, floored at 0.02). It only
sees the environment's observation and ``info["action_mask"]``; its table is keyed
by a small summary of the observation: the set number, the rethrows left, the score
of the sets frozen so far and the score of the dice just thrown (``docs/rl.md``,
"Observation"). The Decathlon scores a set by its dice only, so that summary is a
Markov state: it loses nothing the choice or the bootstrapped value needs.

It prints a learning curve: the greedy policy's mean result (evaluation episodes
on fixed seeds) against the exact expected result of the optimal play that
``gamenight solve decathlon`` reports (``solve_event(event).ev``).

Run: ``.venv/bin/python examples/learn_decathlon_event.py [--event 110m-hurdles]
[--episodes 20000]``.
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from collections.abc import Callable

import gymnasium as gym
import numpy as np

import gamenight.envs  # noqa: F401  (registers gamenight/Decathlon-v0)
from gamenight.games.decathlon.solver import solve_event

# Observation slots of the Decathlon encoding (docs/rl.md).
RETHROWS, SET_NO, THROWN, FROZEN = 22, 23, slice(29, 37), slice(37, 45)
SIXES_MINUS = {"100m": True, "400m": True, "1500m": True, "110m-hurdles": False}

Key = tuple[int, int, int, int]


def summary(event: str) -> Callable[[np.ndarray], Key]:
    """The table key: (set number, rethrows left, score of the sets frozen so far,
    score of the dice just thrown) -- a Markov summary, so bootstrapping is sound."""
    minus = SIXES_MINUS[event]

    def score(dice: np.ndarray) -> int:
        return sum(-6 if minus and d == 6 else int(d) for d in dice if d > 0)

    def key(obs: np.ndarray) -> Key:
        return int(obs[SET_NO]), int(obs[RETHROWS]), score(obs[FROZEN]), score(obs[THROWN])

    return key


def greedy(q: dict[Key, np.ndarray], key: Key, mask: np.ndarray) -> int:
    legal = np.flatnonzero(mask)
    values = q[key][legal]
    return int(legal[int(np.argmax(values))])


def evaluate(
    env: gym.Env, q: dict[Key, np.ndarray], key: Callable[[np.ndarray], Key], episodes: int
) -> float:
    """Mean result of the greedy policy over ``episodes`` fixed-seed episodes."""
    total = 0.0
    for i in range(episodes):
        obs, info = env.reset(seed=10**9 + i)
        done = False
        while not done:
            obs, reward, done, _, info = env.step(greedy(q, key(obs), info["action_mask"]))
            total += float(reward)
    return total / episodes


def learn(
    event: str = "110m-hurdles",
    episodes: int = 20_000,
    *,
    seed: int = 0,
    checkpoints: int = 10,
    eval_episodes: int = 2_000,
    final_eval: int = 20_000,
    report: Callable[[str], None] = print,
) -> tuple[float, float]:
    """Train, printing the curve; returns (greedy policy's mean result, exact EV)."""
    exact = solve_event(event).ev
    env = gym.make("gamenight/Decathlon-v0", events=event, disable_env_checker=True).unwrapped
    key = summary(event)
    n = env.action_space.n
    q: dict[Key, np.ndarray] = defaultdict(lambda: np.zeros(n))
    visits: dict[Key, np.ndarray] = defaultdict(lambda: np.zeros(n))
    rng = np.random.default_rng(seed)
    start = time.perf_counter()
    report(f"Q-learning on {event}: exact EV of optimal play {exact:.4f}")
    report(f"{'episodes':>9} {'greedy mean':>12} {'% of exact':>10} {'seconds':>8}")
    for episode in range(1, episodes + 1):
        epsilon = max(0.05, 1.0 - episode / (0.5 * episodes))
        obs, info = env.reset(seed=seed * 10**7 + episode)
        state, done = key(obs), False
        while not done:
            mask = info["action_mask"]
            if rng.random() < epsilon:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action = greedy(q, state, mask)
            obs, reward, done, _, info = env.step(action)
            target = float(reward)
            nxt = key(obs)
            if not done:
                target += float(q[nxt][np.flatnonzero(info["action_mask"])].max())
            visits[state][action] += 1
            alpha = max(0.02, 1.0 / visits[state][action])
            q[state][action] += alpha * (target - q[state][action])
            state = nxt
        if episode % max(1, episodes // checkpoints) == 0 and episode < episodes:
            mean = evaluate(env, q, key, eval_episodes)
            report(
                f"{episode:>9,} {mean:>12.4f} {100 * mean / exact:>9.1f}% "
                f"{time.perf_counter() - start:>8.1f}"
            )
    mean = evaluate(env, q, key, final_eval)
    report(
        f"{episodes:>9,} {mean:>12.4f} {100 * mean / exact:>9.1f}% "
        f"{time.perf_counter() - start:>8.1f}  (final, {final_eval:,} evaluation episodes)"
    )
    return mean, exact


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--event", default="110m-hurdles", choices=["110m-hurdles", "400m"])
    parser.add_argument("--episodes", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    mean, exact = learn(args.event, args.episodes, seed=args.seed)
    gap = 100 * (exact - mean) / exact
    verdict = "within 2%" if gap <= 2 else "NOT within 2%"
    print(f"learned {mean:.4f} vs exact {exact:.4f}: {gap:.2f}% below the optimum ({verdict})")


if __name__ == "__main__":
    main()
