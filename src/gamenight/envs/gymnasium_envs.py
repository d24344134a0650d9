"""Single-agent Gymnasium environments (registered by ``import gamenight.envs``).

Every registered game that one seat can play (plug-ins included) gets
``gamenight/<Game>-v0`` (:func:`register` iterates the registry; :func:`solo_setup` says
which options it fixes): ``Decathlon-v0`` (one athlete, points variant: its codec's
``solo_options``; option ``events``), ``Wurfeltod-v0`` (solitaire Wurfeltod, the full 20
turns), ``DiceDuelSolo-v0`` (the Kniffel Dice Duel solo game, K7: the choice of ``mode``
whose ``seats`` allow one), and every plug-in's.

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

from functools import partial
from pathlib import Path
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding

from gamenight.core import registry
from gamenight.core.errors import OptionsError
from gamenight.envs.codecs import BIG, Obs, codec_for
from gamenight.envs.episode import Episode, Mask
from gamenight.envs.vector import make_vector

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


def camel(game_id: str) -> str:
    """A game id as an env name part.

    >>> camel("dice-duel")
    'DiceDuel'
    """
    return "".join(part.title() for part in game_id.split("-"))


def solo_setup(game_id: str) -> tuple[dict[str, Any], str, str] | None:
    """The options a one-seat env of ``game_id`` fixes, its name and the refusal hint;
    None if the game allows no single seat. The options are the game's codec's
    ``solo_options`` and, where the defaults allow no single seat, the first choice of
    a choice option whose ``seats`` allow one (Dice Duel's ``mode=solo``: named
    ``DiceDuelSolo``).

    >>> solo_setup("dice-duel")[:2]
    ({'mode': 'solo'}, 'DiceDuelSolo')
    >>> solo_setup("decades") is None
    True
    """
    entry = registry.get(game_id)
    game, name = entry.game, camel(game_id)
    codec = type(codec_for(game_id))
    fixed, hint = dict(codec.solo_options), codec.solo_hint
    lo, _ = game.seat_range(game.parse_options(dict(fixed)))
    if lo > 1:
        for spec in game.info.options:
            if spec.kind != "choice":
                continue
            one = [c for c, (low, _high) in spec.seats.items() if low <= 1]
            if one:
                fixed[spec.name] = one[0]
                name += camel(one[0])
                hint = (
                    hint or f" (other seat counts: gamenight/{camel(game_id)}VsBot-v0 or aec_env)"
                )
                break
        else:
            return None
        lo, _ = game.seat_range(game.parse_options(dict(fixed)))
        if lo > 1:
            return None
    return fixed, name, hint


# Gymnasium's TimeLimit (truncation): several times the longest episode met in random
# masked play of any built-in game (docs/rl.md), so only an agent stuck on forbidden
# actions meets it.
MAX_SOLO_STEPS = 2_000

ENVS: dict[str, type[SoloEnv]] = {}  # env id -> class, one per game a single seat can play
MAX_EPISODE_STEPS: dict[str, int] = {}


def solo_env(game_id: str) -> type[SoloEnv] | None:
    """The one-seat env class of ``game_id`` (``<Game>Env``), made on first request;
    None if the game allows no single seat."""
    setup = solo_setup(game_id)
    if setup is None:
        return None
    fixed, name, hint = setup
    env_id = f"gamenight/{name}-v0"
    made = ENVS.get(env_id)
    if made is None:
        attrs = {
            "game_id": game_id,
            "env_id": env_id,
            "fixed_options": fixed,
            "refusal_hint": hint,
            "__module__": __name__,
            "__doc__": f"{registry.get(game_id).name}, one seat (``{env_id}``).",
        }
        made = ENVS[env_id] = type(f"{name}Env", (SoloEnv,), attrs)
        MAX_EPISODE_STEPS[env_id] = MAX_SOLO_STEPS
        globals()[made.__name__] = made  # so the registered entry point names it
    return made


def register() -> None:
    """Register a one-seat env for every registered game that a single seat can play
    (plug-ins included: the registry is iterated), each with its step limit and its
    vector entry point (``gym.make_vec``: :mod:`gamenight.envs.vector`)."""
    for entry in registry.available():
        cls = solo_env(entry.id)
        if cls is not None and cls.env_id not in gym.registry:
            gym.register(
                cls.env_id,
                entry_point=f"{cls.__module__}:{cls.__name__}",
                vector_entry_point=partial(make_vector, cls.env_id),
                max_episode_steps=MAX_EPISODE_STEPS[cls.env_id],
            )
