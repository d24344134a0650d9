"""Environment steps per second with random masked actions, one process (issue 14).

Run: ``.venv/bin/python bench/env_throughput.py [seconds per row] [--rounds N] [--only TEXT]
[--old DIR]`` (``--rounds``: measure every row N times, interleaved, and keep each row's
best rate). ``--old DIR`` pairs every row with an older checkout in the same run (issue
45: ``git archive 5c25129 src | tar -x -C DIR``): each row of each round runs as two
fresh processes of this script, one with ``DIR/src`` first on ``PYTHONPATH`` and one
with this checkout's ``src``, in alternating order, and the table gives both rates and
their ratio (a row the old code lacks, e.g. the vector env, is measured new only).
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

import json
import os
import random
import subprocess
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


def vector_rate(env_id: str, num_envs: int, mode: str, seconds: float) -> Rate:
    """Sub-env steps per second of ``gym.make_vec`` (its native vector env, or
    Gymnasium's SyncVectorEnv), random masked actions; a "loop" is 100 vector steps."""
    env = gym.make_vec(env_id, num_envs=num_envs, vectorization_mode=mode)
    rng = random.Random(0)
    _, info = env.reset(seed=0)

    def one() -> int:
        nonlocal info
        for _ in range(100):
            masks = info["action_mask"]
            if mode == "sync":  # Gymnasium's next-step autoreset: a done sub-env's mask is
                masks = [m if m.any() else np.ones_like(m) for m in masks]  # the placeholder
            _, _, _, _, info = env.step(np.array([pick(m, rng) for m in masks]))
        return 100 * num_envs

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
    for mode in ("vector_entry_point", "sync"):
        label = f"gym.make_vec('gamenight/Decathlon-v0', 8), {mode} (sub-env steps)"
        out.append((label, partial(vector_rate, "gamenight/Decathlon-v0", 8, mode, seconds)))
    for game_id in envs.GAME_IDS:
        out.append((f"aec_env({game_id!r}), 2 seats", partial(aec_rate, game_id, seconds)))
    out.append(("parallel_env('decades') (a step = both teams)", partial(parallel_rate, seconds)))
    return out


HERE = os.path.dirname(os.path.abspath(__file__))
NEW_SRC = os.path.join(os.path.dirname(HERE), "src")


def child(src: str, name: str, seconds: float) -> Rate | None:
    """One row measured in a fresh process with ``src`` first on the path (None: that
    checkout has no such row)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run(
        [sys.executable, __file__, str(seconds), "--row", name],
        capture_output=True, text=True, env=env, check=True,
    )  # fmt: skip
    rate = json.loads(out.stdout.strip().splitlines()[-1])
    return None if rate is None else (rate[0], rate[1])


def paired(old: str, rows: list[str], seconds: float, rounds: int) -> None:
    """Every row, new and old, each round in fresh processes (alternating which goes
    first); the best rate of each side."""
    old_src = os.path.join(os.path.abspath(old), "src")
    best: dict[tuple[str, str], Rate] = {}
    for r in range(rounds):
        for name in rows:
            sides = [("new", NEW_SRC), ("old", old_src)]
            for side, src in sides if r % 2 == 0 else sides[::-1]:
                rate = child(src, name, seconds)
                if rate is not None and ((name, side) not in best or rate[0] > best[name, side][0]):
                    best[name, side] = rate
    print(f"{'environment':58} {'old CPU/s':>10} {'new CPU/s':>10} {'new/old':>8}")
    for name in rows:
        new, was = best.get((name, "new")), best.get((name, "old"))
        ratio = f"{new[0] / was[0]:8.3f}" if new and was else f"{'-':>8}"
        cells = [f"{x[0]:10,.0f}" if x else f"{'-':>10}" for x in (was, new)]
        print(f"{name:58} {cells[0]} {cells[1]} {ratio}")


def main() -> None:
    args = sys.argv[1:]
    only = args[args.index("--only") + 1] if "--only" in args else ""
    rounds = int(args[args.index("--rounds") + 1]) if "--rounds" in args else 1
    numbers = [a for a in args if a.replace(".", "", 1).isdigit()]
    seconds = float(numbers[0]) if numbers else 5.0
    if "--row" in args:  # one row, exactly named, as JSON (the paired run's child)
        wanted = args[args.index("--row") + 1]
        found = [run for name, run in runs(seconds) if name == wanted]
        try:
            print(json.dumps(list(found[0]()) if found else None))
        except Exception:
            print(json.dumps(None))
        return
    if "--old" in args:
        names = [name for name, _ in runs(seconds) if only.lower() in name.lower()]
        print(
            f"load average {os.getloadavg()[0]:.2f} at start; {seconds:g} s of CPU per row", end=""
        )
        print(f", best of {rounds} rounds, each side a fresh process")
        paired(args[args.index("--old") + 1], names, seconds, rounds)
        print(f"load average {os.getloadavg()[0]:.2f} at end")
        return
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
