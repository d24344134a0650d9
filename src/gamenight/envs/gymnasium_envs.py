"""Single-agent Gymnasium environments (registered by ``import gamenight.envs``).

* ``gamenight/Decathlon-v0``: one athlete; option ``events`` (one event, a
  comma-separated list, or all ten by default) and ``variant``;
* ``gamenight/Wurfeltod-v0``: solitaire Wurfeltod, the full 20 turns;
* ``gamenight/DiceDuelSolo-v0``: the Kniffel Dice Duel solo game (K7).

The observation is a flat ``Box`` encoding the player's view; the legal-action
mask is ``info["action_mask"]`` (int8, one entry per index of ``Discrete(n)``).
The reward is the change of the player's score, so an episode's return is its
final score. An action the mask forbids changes nothing: reward 0 and
``info["illegal_action"] = True``; with ``illegal_action="end"`` (PettingZoo's classic
convention) it ends the episode instead, with reward ``illegal_reward`` (-1). Each id is
registered with a step limit (``max_episode_steps``, far above any real episode), so an
agent that keeps sending forbidden actions is truncated. ``action_masks()`` returns the
mask as booleans (sb3-contrib's ``MaskablePPO`` convention). At the end of an episode the
mask allows index 0 only, a placeholder never played (no legal action is left, but masked
sampling under autoreset needs one index). Every reset and step returns new observation
and mask arrays (never a buffer reused later), so they may be kept or written into.
A game over at the start is drawn again (``gamenight.envs.episode``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding

from gamenight.core.errors import OptionsError
from gamenight.envs.codecs import BIG, Obs
from gamenight.envs.episode import Episode, Mask

ILLEGAL_POLICIES = ("ignore", "end")


def check_illegal_policy(illegal_action: object) -> str:
    """``illegal_action`` checked: "ignore" (default) or "end" (PettingZoo classic).

    >>> check_illegal_policy("end")
    'end'
    """
    if illegal_action not in ILLEGAL_POLICIES:
        raise OptionsError(
            "illegal_action must be one of {policies}, not {policy}",
            policies=", ".join(ILLEGAL_POLICIES),
            policy=repr(illegal_action),
        )
    return str(illegal_action)


def placeholder_mask(n: int) -> Mask:
    """The mask at the end of an episode: index 0 only, never played (see module doc)."""
    mask = np.zeros(n, np.int8)
    mask[0] = 1
    return mask


class SoloEnv(gym.Env[Obs, np.int64]):
    """One seat of a one-seat gamenight game."""

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 (Gymnasium's own type)
    game_id: ClassVar[str] = ""
    fixed_options: ClassVar[dict[str, Any]] = {}
    env_id: ClassVar[str] = ""
    refusal_hint: ClassVar[str] = ""  # what to use instead of a refused fixed option

    def __init__(
        self, *, illegal_action: str = "ignore", illegal_reward: float = -1.0, **options: Any
    ) -> None:
        for name, value in self.fixed_options.items():
            if name in options and options[name] != value:
                raise OptionsError(
                    "{env} plays {option}={value} only, not {given}{hint}",
                    env=self.env_id,
                    option=name,
                    value=repr(value),
                    given=repr(options[name]),
                    hint=self.refusal_hint,
                )
        self.illegal_action = check_illegal_policy(illegal_action)
        self.illegal_reward = float(illegal_reward)
        self.session = Episode(self.game_id, 1, {**self.fixed_options, **options})
        self._over = False  # ended by a forbidden action (illegal_action="end")
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
        self._over = False
        obs, mask, self._score = self.session.step_view(0)
        return obs, {"action_mask": mask}

    def step(self, action: np.int64 | int) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        session = self.session
        if self._over or session.finished or not session.play(0, int(action)):
            obs, mask, _ = session.step_view(0)
            reward = 0.0
            if self.illegal_action == "end" and not (self._over or session.finished):
                self._over, reward = True, self.illegal_reward
            done = self._over or session.finished
            if done:
                mask = placeholder_mask(self.session.n_actions)
            return obs, reward, done, False, {"action_mask": mask, "illegal_action": True}
        obs, mask, now = session.step_view(0)
        reward, self._score = now - self._score, now
        if session.finished:
            mask = placeholder_mask(self.session.n_actions)
        return obs, reward, session.finished, False, {"action_mask": mask}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The current mask as booleans, shape ``(n,)`` (sb3-contrib's ``MaskablePPO``
        calls this): the legal actions, or the placeholder index 0 once the episode is over."""
        if self._over or self.session.finished:
            return placeholder_mask(self.session.n_actions).astype(bool)
        return self.session.mask(0).astype(bool)

    def record(self, path: str | Path) -> Path:
        """Write the current episode as a gamenight record (``gamenight replay`` checks it)."""
        return self.session.record(path)


class DecathlonEnv(SoloEnv):
    game_id = "decathlon"
    env_id = "gamenight/Decathlon-v0"
    fixed_options: ClassVar[dict[str, Any]] = {"variant": "points"}
    refusal_hint = (
        " (a Championship alone always wins the same honours; "
        "use aec_env('decathlon', variant='championship') with 2+ seats)"
    )


class WurfeltodEnv(SoloEnv):
    game_id = "wurfeltod"
    env_id = "gamenight/Wurfeltod-v0"


class DiceDuelSoloEnv(SoloEnv):
    game_id = "dice-duel"
    env_id = "gamenight/DiceDuelSolo-v0"
    fixed_options: ClassVar[dict[str, Any]] = {"mode": "solo"}
    refusal_hint = " (the two-player game: gamenight/DiceDuelVsBot-v0 or aec_env)"


ENVS: dict[str, type[gym.Env[Any, Any]]] = {
    "gamenight/Decathlon-v0": DecathlonEnv,
    "gamenight/Wurfeltod-v0": WurfeltodEnv,
    "gamenight/DiceDuelSolo-v0": DiceDuelSoloEnv,
}

# Step limits (Gymnasium's TimeLimit: truncation). Each is several times the longest
# episode met in random masked play (docs/rl.md), so only an agent stuck on forbidden
# actions meets it.
MAX_EPISODE_STEPS = {
    "gamenight/Decathlon-v0": 2_000,
    "gamenight/Wurfeltod-v0": 1_000,
    "gamenight/DiceDuelSolo-v0": 1_000,
}


def register() -> None:
    """Register the environments with Gymnasium (once), each with its step limit."""
    for env_id, cls in ENVS.items():
        if env_id not in gym.registry:
            gym.register(
                env_id,
                entry_point=f"{cls.__module__}:{cls.__name__}",
                max_episode_steps=MAX_EPISODE_STEPS[env_id],
            )
