"""Single-agent Gymnasium environments (registered by ``import gamenight.envs``).

* ``gamenight/Decathlon-v0``: one athlete; option ``events`` (one event, a
  comma-separated list, or all ten by default) and ``variant``;
* ``gamenight/Wurfeltod-v0``: solitaire Wurfeltod, the full 20 turns;
* ``gamenight/DiceDuelSolo-v0``: the Kniffel Dice Duel solo game (K7).

The observation is a flat ``Box`` encoding the player's view; the legal-action
mask is ``info["action_mask"]`` (int8, one entry per index of ``Discrete(n)``).
The reward is the change of the player's score, so an episode's return is its
final score. An action the mask forbids changes nothing: reward 0 and
``info["illegal_action"] = True``. Every reset and step returns new observation and
mask arrays (never a buffer reused later), so they may be kept or written into.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding

from gamenight.envs.codecs import BIG, Obs
from gamenight.envs.episode import Episode


class SoloEnv(gym.Env[Obs, np.int64]):
    """One seat of a one-seat gamenight game."""

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 (Gymnasium's own type)
    game_id: ClassVar[str] = ""
    fixed_options: ClassVar[dict[str, Any]] = {}

    def __init__(self, **options: Any) -> None:
        self.session = Episode(self.game_id, 1, {**self.fixed_options, **options})
        n, size = self.session.n_actions, self.session.obs_size
        self.action_space = spaces.Discrete(n)
        self.observation_space = spaces.Box(-BIG, BIG, (size,), np.float32)
        self._score = 0.0
        self._rng: np.random.Generator | None = None
        self._rng_seed: int | None = None
        self._pending_seed: int | None = None  # given to reset, not yet turned into _rng

    # Gymnasium's ``reset(seed=s)`` builds ``np_random`` from ``s`` at once, about a
    # quarter of a Decathlon reset (and an episode of one event is 2-10 steps). The games
    # never draw from it, so it is built from ``s`` on first use instead: ``np_random``,
    # ``np_random_seed`` and ``_np_random`` read exactly as after Gymnasium's own reset.
    @property
    def _np_random(self) -> np.random.Generator | None:
        if self._pending_seed is not None:
            self._rng, self._rng_seed = seeding.np_random(self._pending_seed)
            self._pending_seed = None
        return self._rng

    @_np_random.setter
    def _np_random(self, value: np.random.Generator | None) -> None:
        self._rng, self._pending_seed = value, None

    @property
    def _np_random_seed(self) -> int | None:
        return self._rng_seed if self._pending_seed is None else self._pending_seed

    @_np_random_seed.setter
    def _np_random_seed(self, value: int | None) -> None:
        self._rng_seed = value

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        if seed is not None:
            if not isinstance(seed, int) or seed < 0:
                seeding.np_random(seed)  # raises Gymnasium's own error for a bad seed
            self._pending_seed = seed
        self.session.reset(seed)
        obs, mask, self._score = self.session.step_view(0)
        return obs, {"action_mask": mask}

    def step(self, action: np.int64 | int) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        session = self.session
        if session.finished or not session.play(0, int(action)):
            obs, mask, _ = session.step_view(0)
            return obs, 0.0, session.finished, False, {"action_mask": mask, "illegal_action": True}
        obs, mask, now = session.step_view(0)
        reward, self._score = now - self._score, now
        return obs, reward, session.finished, False, {"action_mask": mask}

    def record(self, path: str | Path) -> Path:
        """Write the current episode as a gamenight record (``gamenight replay`` checks it)."""
        return self.session.record(path)


class DecathlonEnv(SoloEnv):
    game_id = "decathlon"
    fixed_options: ClassVar[dict[str, Any]] = {"variant": "points"}


class WurfeltodEnv(SoloEnv):
    game_id = "wurfeltod"


class DiceDuelSoloEnv(SoloEnv):
    game_id = "dice-duel"
    fixed_options: ClassVar[dict[str, Any]] = {"mode": "solo"}


ENVS = {
    "gamenight/Decathlon-v0": DecathlonEnv,
    "gamenight/Wurfeltod-v0": WurfeltodEnv,
    "gamenight/DiceDuelSolo-v0": DiceDuelSoloEnv,
}


def register() -> None:
    """Register the three environments with Gymnasium (once)."""
    for env_id, cls in ENVS.items():
        if env_id not in gym.registry:
            gym.register(env_id, entry_point=f"{cls.__module__}:{cls.__name__}")
