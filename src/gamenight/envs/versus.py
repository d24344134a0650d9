"""One learner against fixed bots: a single-agent Gymnasium env over an AEC env (issue 28).

``gym.make("gamenight/DiceDuelVsBot-v0")`` (``gamenight/<Game>VsBot-v0`` for every
registered game that two seats can play, plug-ins included: :func:`register` iterates
the registry) is the two-player game with the learner in seat ``seat`` (0) and every
other seat played by the named bot (``opponent``; default :func:`default_opponent`, the
first bot the game declares, as the lobby's default: ``greedy`` in the Decathlon). It wraps
:class:`~gamenight.envs.pettingzoo_envs.GamenightAEC`: the observation is the learner's
(the AEC ``"observation"``), the mask is ``info["action_mask"]`` and ``action_masks()``,
the reward is the AEC's end reward (+1 win, -1 loss, 0 tie with two seats) and the
illegal-action policy (``illegal_action``) and the step limit are the solo envs'. The
bots sit at the episode's table (:meth:`Episode.seat_agents`): each decides on its
seat's :meth:`Table.decision` (its view and the legal actions) and is told its seat's
events of every step, as in a match; they are seeded from the episode seed. A reset
never returns a finished game: one the bots end before the learner's first choice is
replaced by the seed's next episode.
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium as gym
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from gamenight.core import registry
from gamenight.core.errors import OptionsError
from gamenight.core.seeds import derive
from gamenight.envs.codecs import BIG, Obs
from gamenight.envs.episode import MAX_REDRAWS, Episode
from gamenight.envs.gymnasium_envs import camel, placeholder_mask
from gamenight.envs.pettingzoo_envs import GamenightAEC


def default_opponent(game_id: str) -> str:
    """The bot a versus env plays against unless told: the first one the game declares
    (the lobby's default too), else ``random``.

    >>> default_opponent("decathlon"), default_opponent("dice-duel")
    ('greedy', 'turn-optimal')
    """
    bots = list(registry.get(game_id).bot_infos)
    return bots[min(1, len(bots) - 1)]


class VersusBotEnv(gym.Env[Obs, np.int64]):
    """The learner in one seat of a multi-seat game, the bots in the others."""

    metadata: dict[str, Any] = {"render_modes": []}  # noqa: RUF012 (Gymnasium's own type)
    game_id: ClassVar[str] = ""

    def __init__(
        self,
        *,
        opponent: str | None = None,
        players: int = 2,
        seat: int = 0,
        illegal_action: str = "ignore",
        illegal_reward: float = -1.0,
        **options: Any,
    ) -> None:
        if not self.game_id:
            raise OptionsError("a VersusBotEnv subclass names its game (game_id)")
        entry = registry.get(self.game_id)
        self.opponent = default_opponent(self.game_id) if opponent is None else opponent
        if self.opponent not in entry.bot_infos:
            raise OptionsError(
                "{game} has no bot {bot}; choose one of {bots}",
                game=entry.game.info.name,
                bot=repr(self.opponent),
                bots=", ".join(entry.bot_infos),
            )
        self.aec = GamenightAEC(
            self.game_id,
            players,
            illegal_action=illegal_action,
            illegal_reward=illegal_reward,
            **options,
        )
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise OptionsError(
                "seat must be 0..{last}, not {seat}", last=players - 1, seat=repr(seat)
            )
        self.seat, self.players = seat, players
        self.agent = self.aec.possible_agents[seat]
        session = self.aec.session
        self.action_space = spaces.Discrete(session.n_actions)
        self.observation_space = spaces.Box(-BIG, BIG, (session.obs_size,), np.float32)

    @property
    def session(self) -> Episode:
        """The AEC env's :class:`~gamenight.envs.episode.Episode` (state, record, results)."""
        return self.aec.session

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        self.aec.reset(seed=seed)
        entry = registry.get(self.game_id)
        for _ in range(MAX_REDRAWS):
            game_seed = self.session.game_seed
            self.session.seat_agents(
                {
                    s: entry.make_bot(self.opponent, derive(game_seed, "versus-bot", s))
                    for s in range(self.players)
                    if s != self.seat
                }
            )
            self._bots_play()
            if not self._done():
                break
            # The bots ended the game before the learner had a choice (a one-event
            # Decathlon whose learner fails every attempt at once, say): like a game over
            # at the start, it is drawn again, as the seed's next episode.
            self.aec.reset()
        return self._out()

    def step(self, action: np.int64 | int) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        aec = self.aec
        if self._done():
            obs, info = self._out()
            return obs, 0.0, True, False, {**info, "illegal_action": True}
        aec.step(int(action))
        illegal = bool(aec.infos.get(self.agent, {}).get("illegal_action"))
        reward = float(aec.rewards.get(self.agent, 0.0))
        if not self._done():
            reward += self._bots_play()
        obs, info = self._out()
        if illegal:
            info["illegal_action"] = True
        terminated = self._done()
        return obs, reward, terminated, False, info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's mask as booleans (sb3-contrib's convention); the placeholder
        index 0 once the game is over."""
        return self._mask().astype(bool)

    # ----- the bots ------------------------------------------------------------------------
    def _done(self) -> bool:
        return bool(self.aec.terminations[self.agent] or self.aec.truncations[self.agent])

    def _bots_play(self) -> float:
        """Let the bots move until the learner must (or the game ends); the learner's
        reward meanwhile (the end reward if a bot's move ends the game)."""
        aec, session, reward = self.aec, self.aec.session, 0.0
        while not self._done() and aec.agent_selection != self.agent:
            aec.step(session.agent_index(aec._seat[aec.agent_selection]))
            reward += float(aec.rewards.get(self.agent, 0.0))
        return reward

    def _mask(self) -> npt.NDArray[np.int8]:
        if self._done():
            return placeholder_mask(self.session.n_actions)
        return self.session.mask(self.seat)

    def _out(self) -> tuple[Obs, dict[str, Any]]:
        return self.session.observe(self.seat), {"action_mask": self._mask()}


VERSUS_ENVS: dict[str, type[VersusBotEnv]] = {}  # env id -> class, filled by register
MAX_VERSUS_STEPS = 2_000  # learner steps; far above any real game (docs/rl.md)


def versus_env(game_id: str) -> type[VersusBotEnv] | None:
    """The versus env class of ``game_id`` (``<Game>VsBotEnv``), made on first request;
    None if two seats cannot play it."""
    game = registry.get(game_id).game
    lo, hi = game.seat_range(game.parse_options())
    if not lo <= 2 <= hi:
        return None
    env_id = f"gamenight/{camel(game_id)}VsBot-v0"
    made = VERSUS_ENVS.get(env_id)
    if made is None:
        name = f"{camel(game_id)}VsBotEnv"
        attrs = {"game_id": game_id, "__module__": __name__}
        made = VERSUS_ENVS[env_id] = type(name, (VersusBotEnv,), attrs)
        globals()[name] = made  # so the registered entry point names it
    return made


def register() -> None:
    """Register a versus env for every registered game two seats can play (plug-ins
    included: the registry is iterated), with a step limit."""
    for entry in registry.available():
        versus_env(entry.id)
    for env_id, cls in VERSUS_ENVS.items():
        if env_id not in gym.registry:
            gym.register(
                env_id,
                entry_point=f"{cls.__module__}:{cls.__name__}",
                max_episode_steps=MAX_VERSUS_STEPS,
            )
