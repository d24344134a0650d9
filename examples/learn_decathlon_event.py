"""Tabular Q-learning on one Decathlon event through ``gamenight/Decathlon-v0`` (issue 14).

The learner is **tabular Q-learning** (one-step, undiscounted, epsilon-greedy with a
decaying epsilon, step size 1/n per state-action pair, floored at 0.02). It only
sees the environment's observation and ``info["action_mask"]``; its table is keyed
by a small summary of the observation: the set number, the rethrows left and the score
of the dice just thrown (``docs/rl.md``, "Observation"). The score of the sets frozen
so far is left out of the key (it multiplied the 400 m's states many times over and
held its learning back at 61 % of the optimum): the learner is paid it as it goes
instead, by potential-based shaping (reward + F(next) - F(now), F = the frozen sets'
score, 0 at the start and the end), which changes no episode's return, so the greedy
policy still maximises the event's result. The Decathlon scores a set by its dice
only, so with the shaping the key is a Markov state.

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
from gamenight.envs.evaluate import Regret, evaluate
from gamenight.games.decathlon.solver import solve_event

# Observation slots of the Decathlon encoding (docs/rl.md).
RETHROWS, SET_NO, THROWN, FROZEN = 22, 23, slice(29, 37), slice(37, 45)
SIXES_MINUS = {"100m": True, "400m": True, "1500m": True, "110m-hurdles": False}

Key = tuple[int, int, int]


def dice_score(event: str) -> Callable[[np.ndarray], int]:
    """The score of some dice of ``event`` (0 = no die)."""
    minus = SIXES_MINUS[event]

    def score(dice: np.ndarray) -> int:
        return sum(-6 if minus and d == 6 else int(d) for d in dice if d > 0)

    return score


def summary(event: str) -> Callable[[np.ndarray], Key]:
    """The table key: (set number, rethrows left, score of the dice just thrown) -- with
    the shaping (:func:`banked`) a Markov summary, so bootstrapping is sound."""
    score = dice_score(event)

    def key(obs: np.ndarray) -> Key:
        return int(obs[SET_NO]), int(obs[RETHROWS]), score(obs[THROWN])

    return key


def banked(event: str) -> Callable[[np.ndarray], int]:
    """The shaping potential: the score of the sets frozen so far."""
    score = dice_score(event)
    return lambda obs: score(obs[FROZEN])


def greedy(q: dict[Key, np.ndarray], key: Key, mask: np.ndarray) -> int:
    """The legal index of highest value; index 0 when the mask allows nothing (a finished
    game: the environment never plays it)."""
    legal = np.flatnonzero(mask)
    if legal.size == 0:
        return 0
    values = q[key][legal]
    return int(legal[int(np.argmax(values))])


def greedy_mean(
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
    """Train, printing the curve; returns (greedy policy's mean result, exact EV). The
    final figure is the regret harness's (:func:`gamenight.envs.evaluate.evaluate`)."""
    exact = solve_event(event).ev
    env = gym.make("gamenight/Decathlon-v0", events=event, disable_env_checker=True).unwrapped
    key, potential = summary(event), banked(event)
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
        state, banked_now, done = key(obs), potential(obs), False
        while not done:
            mask = info["action_mask"]
            if rng.random() < epsilon:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action = greedy(q, state, mask)
            obs, reward, done, _, info = env.step(action)
            banked_next = 0 if done else potential(obs)
            target = float(reward) + banked_next - banked_now
            nxt = key(obs)
            if not done:
                target += float(q[nxt][np.flatnonzero(info["action_mask"])].max())
            banked_now = banked_next
            visits[state][action] += 1
            alpha = max(0.02, 1.0 / visits[state][action])
            q[state][action] += alpha * (target - q[state][action])
            state = nxt
        if episode % max(1, episodes // checkpoints) == 0 and episode < episodes:
            mean = greedy_mean(env, q, key, eval_episodes)
            report(
                f"{episode:>9,} {mean:>12.4f} {100 * mean / exact:>9.1f}% "
                f"{time.perf_counter() - start:>8.1f}"
            )
    regret = final_regret(q, key, event, final_eval)
    mean = regret.mean
    report(
        f"{episodes:>9,} {mean:>12.4f} {100 * mean / exact:>9.1f}% "
        f"{time.perf_counter() - start:>8.1f}  (final, {final_eval:,} evaluation episodes)"
    )
    report(regret.line())
    return mean, exact


def final_regret(
    q: dict[Key, np.ndarray], key: Callable[[np.ndarray], Key], event: str, episodes: int
) -> Regret:
    """The greedy policy through the regret harness (its own seeds)."""
    return evaluate(
        lambda obs, mask: greedy(q, key(obs), mask), f"decathlon:{event}", episodes=episodes
    )


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
