"""Vectorised one-seat environments: Gymnasium's ``VectorEnv`` (issue 45).

``gym.make_vec("gamenight/Decathlon-v0", num_envs=8)`` (any one-seat env id:
:mod:`gamenight.envs.gymnasium_envs`) gives a :class:`SoloVectorEnv`: ``num_envs``
episodes stepped in this process, their observations in one ``(num_envs, size)``
float32 array and their masks in ``info["action_mask"]`` (``(num_envs, n)`` int8;
``action_masks()`` as booleans, sb3-contrib's convention). Each sub-env is the
one-seat env itself, so rewards, the illegal-action policy and the seeding are its
own: ``reset(seed=s)`` seeds sub-env ``i`` with ``s + i``.

Autoreset is Gymnasium's *same step* (``metadata["autoreset_mode"]``): when an
episode ends (terminated, or truncated at the registered ``max_episode_steps``), the
step returns the first observation and mask of that sub-env's next episode, and its
last observation in ``info["final_obs"]`` (``info["_final_obs"]`` says which), so every
mask a step returns is one of a live episode. ``vectorization_mode="sync"`` still gives
Gymnasium's own ``SyncVectorEnv`` over the same envs.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from gamenight.core.errors import OptionsError
from gamenight.envs.codecs import Obs


class SoloVectorEnv(VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[np.float64]]):
    """``num_envs`` episodes of one one-seat env, stepped together (see the module doc)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}  # noqa: RUF012 (Gymnasium's type)

    def __init__(
        self,
        env_id: str,
        num_envs: int = 1,
        *,
        max_episode_steps: int | None = None,
        **options: Any,
    ) -> None:
        if not isinstance(num_envs, int) or num_envs < 1:
            raise OptionsError(
                "num_envs must be a positive whole number, not {n}", n=repr(num_envs)
            )
        self.num_envs = num_envs
        self.env_id = env_id
        # the registered one-seat env itself, without Gymnasium's wrappers
        self.envs: list[Any] = [gym.make(env_id, **options).unwrapped for _ in range(num_envs)]
        first = self.envs[0]
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        assert isinstance(self.single_action_space, spaces.Discrete)
        self.n_actions = int(self.single_action_space.n)
        self.max_episode_steps = max_episode_steps
        self._steps = [0] * num_envs
        self._masks = np.zeros((num_envs, self.n_actions), np.int8)
        self._obs_shape = (num_envs, *(self.single_observation_space.shape or ()))

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        if seed is None or isinstance(seed, int):
            seeds: list[int | None] = [
                None if seed is None else seed + i for i in range(self.num_envs)
            ]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise OptionsError(
                    "give one seed per sub-env ({n}), not {k}", n=self.num_envs, k=len(seeds)
                )
        obs: Obs = np.empty(self._obs_shape, np.float32)
        for i, (env, s) in enumerate(zip(self.envs, seeds, strict=True)):
            obs[i], info = env.reset(seed=s)
            self._masks[i] = info["action_mask"]
            self._steps[i] = 0
        return obs, {"action_mask": self._masks.copy()}

    def step(
        self, actions: npt.NDArray[np.int64] | list[int]
    ) -> tuple[Obs, npt.NDArray[np.float64], Any, Any, dict[str, Any]]:
        n = self.num_envs
        obs: Obs = np.empty(self._obs_shape, np.float32)
        rewards = np.zeros(n, np.float64)
        terminated = np.zeros(n, np.bool_)
        truncated = np.zeros(n, np.bool_)
        illegal = np.zeros(n, np.bool_)
        masks, steps, limit = self._masks, self._steps, self.max_episode_steps
        final: dict[int, tuple[Obs, dict[str, Any]]] = {}
        for i, env in enumerate(self.envs):
            o, r, term, _trunc, info = env.step(int(actions[i]))
            steps[i] += 1
            trunc = not term and limit is not None and steps[i] >= limit
            rewards[i], terminated[i], truncated[i] = r, term, trunc
            illegal[i] = bool(info.get("illegal_action"))
            if term or trunc:
                final[i] = (o, info)
                o, info = env.reset()  # the sub-env's next episode (its own seeding)
                steps[i] = 0
            obs[i] = o
            masks[i] = info["action_mask"]
        infos: dict[str, Any] = {"action_mask": masks.copy(), "illegal_action": illegal}
        if final:
            final_obs = np.empty(n, dtype=object)
            final_info = np.empty(n, dtype=object)
            flags = np.zeros(n, np.bool_)
            for i, (o, info) in final.items():
                final_obs[i], final_info[i], flags[i] = o, info, True
            infos.update(
                final_obs=final_obs, _final_obs=flags, final_info=final_info, _final_info=flags
            )
        return obs, rewards, terminated, truncated, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Every sub-env's mask as booleans, shape ``(num_envs, n)``."""
        return self._masks.astype(bool)

    def close_extras(self, **kwargs: Any) -> None:
        for env in self.envs:
            env.close()


def make_vector(env_id: str, **kwargs: Any) -> SoloVectorEnv:
    """``gym.make_vec(env_id, num_envs)``'s vector entry point (registered with each
    one-seat env by :func:`gamenight.envs.gymnasium_envs.register`)."""
    return SoloVectorEnv(env_id, **kwargs)
