"""PettingZoo environments: an ``AECEnv`` for every game, a ``ParallelEnv`` for a game
whose seats choose at once (``GameInfo.simultaneous``: The Decades).

Agents are ``<seat noun>_0``.. (``player_0``; ``team_0``, ``team_1`` in The Decades), seat
order.
Each observation is ``{"observation": Box, "action_mask": Box(int8)}`` for that
agent's own view. Rewards come at the end only: +1 for each opponent beaten and
-1 for each opponent ahead, divided by the number of opponents; a one-seat game
(solitaire) gets its score change every step instead, so its return is the score.
An action the mask forbids changes nothing and sets ``infos[agent]["illegal_action"]``;
with ``illegal_action="end"`` (PettingZoo's classic convention) it ends the game instead:
the offender's reward is ``illegal_reward`` (-1), the others' 0. ``max_steps`` (default
none) truncates every agent after that many steps. ``action_masks()`` gives the acting
agent's mask as booleans (sb3-contrib's convention). A game over at the start is drawn
again (``gamenight.envs.episode``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from gamenight.core import registry
from gamenight.core.errors import OptionsError
from gamenight.envs.codecs import BIG
from gamenight.envs.episode import Episode
from gamenight.envs.gymnasium_envs import check_illegal_policy

AgentID = str


def _spaces(session: Episode) -> spaces.Dict:
    return spaces.Dict(
        {
            "observation": spaces.Box(-BIG, BIG, (session.obs_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (session.n_actions,), np.int8),
        }
    )


def _default_players(game_id: str, options: Mapping[str, Any]) -> int:
    """Two seats, or the nearest count the options allow (Dice Duel solo: one)."""
    game = registry.get(game_id).game
    lo, hi = game.seat_range(game.parse_options(dict(options)))
    return max(lo, min(2, hi))


# PettingZoo's base class is untyped (Any)
class GamenightAEC(AECEnv[AgentID, dict[str, Any], int]):  # type: ignore[misc]
    """A gamenight game as a PettingZoo AEC environment (one seat acts at a time;
    The Decades' simultaneous choices are taken in seat order, each still hidden)."""

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        *,
        illegal_action: str = "ignore",
        illegal_reward: float = -1.0,
        max_steps: int | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.render_mode = None
        self.illegal_action = check_illegal_policy(illegal_action)
        self.illegal_reward = float(illegal_reward)
        if max_steps is not None and (not isinstance(max_steps, int) or max_steps < 1):
            raise OptionsError(
                "max_steps must be a positive whole number, not {steps}", steps=repr(max_steps)
            )
        self.max_steps = max_steps
        self.steps = 0
        players = _default_players(game_id, options) if players is None else players
        self.session = Episode(game_id, players, options)
        self.metadata = {
            "name": f"gamenight_{game_id}_v0",
            "render_modes": [],
            "is_parallelizable": False,
        }
        noun = self.session.game.info.seat_noun
        self.possible_agents = [f"{noun}_{i}" for i in range(players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._obs_space = _spaces(self.session)
        self._act_space = spaces.Discrete(self.session.n_actions)
        self._scores = [0.0] * players

    def observation_space(self, agent: AgentID) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: AgentID) -> spaces.Space[Any]:
        return self._act_space

    def observe(self, agent: AgentID) -> dict[str, Any]:
        seat = self._seat[agent]
        return {
            "observation": self.session.observe(seat),
            "action_mask": self.session.mask(seat),
        }

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The acting agent's mask as booleans, shape ``(n,)`` (sb3-contrib's convention)."""
        return self.session.mask(self._seat[self.agent_selection]).astype(bool)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.session.reset(seed)
        self.steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[AgentID, dict[str, Any]] = {a: {} for a in self.agents}
        self._scores = [self.session.score(s) for s in range(self.session.players)]
        self.agent_selection = self.possible_agents[self.session.to_act()[0]]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat, session = self._seat[agent], self.session
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.infos = {a: {} for a in self.agents}
        self.steps += 1
        if action is None or not session.play(seat, int(action)):
            self.infos[agent]["illegal_action"] = True
            if self.illegal_action == "end":
                self.rewards[agent] = self.illegal_reward
                self.terminations = dict.fromkeys(self.agents, True)
        elif session.finished:
            for a in self.agents:
                s = self._seat[a]
                if session.players == 1:
                    self.rewards[a] = session.score(s) - self._scores[s]
                else:
                    self.rewards[a] = session.outcome(s)
                self.terminations[a] = True
        else:
            if session.players == 1:
                now = session.score(0)
                self.rewards[agent], self._scores[0] = now - self._scores[0], now
            self.agent_selection = self.possible_agents[session.to_act()[0]]
        if self.max_steps is not None and self.steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = not self.terminations[a]
        self._accumulate_rewards()

    def record(self, path: str | Path) -> Path:
        """Write the current episode as a gamenight record (``gamenight replay`` checks it)."""
        return self.session.record(path)

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None


# PettingZoo's base class is untyped (Any)
class GamenightParallel(ParallelEnv[AgentID, dict[str, Any], int]):  # type: ignore[misc]
    """A game whose seats choose at once (``GameInfo.simultaneous``) as a PettingZoo
    parallel environment: every seat in ``to_act`` acts each step.

    A seat with nothing to choose this step (e.g. a Decades team whose card has no
    target) must send the codec's *wait* action (410 in The Decades), the only action
    its mask allows.
    """

    def __init__(self, game_id: str, players: int | None = None, **options: Any) -> None:
        players = _default_players(game_id, options) if players is None else players
        self.session = Episode(game_id, players, options)
        wait = self.session.codec.wait
        if not self.session.game.info.simultaneous or wait is None:
            raise ValueError(f"{game_id!r} has no simultaneous choices: use aec_env")
        self._wait = wait
        self.metadata = {"name": f"gamenight_{game_id}_parallel_v0", "render_modes": []}
        noun = self.session.game.info.seat_noun
        self.possible_agents = [f"{noun}_{i}" for i in range(players)]
        self.agents: list[AgentID] = []
        self._obs_space = _spaces(self.session)
        self._act_space = spaces.Discrete(self.session.n_actions)

    def observation_space(self, agent: AgentID) -> spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: AgentID) -> spaces.Space[Any]:
        return self._act_space

    def action_masks(self) -> dict[AgentID, npt.NDArray[np.bool_]]:
        """Every live agent's mask as booleans (its *wait* index when it has nothing to do)."""
        return {
            a: self._observe(i)["action_mask"].astype(bool)
            for i, a in enumerate(self.possible_agents)
            if a in self.agents
        }

    def _observe(self, seat: int) -> dict[str, Any]:
        mask = self.session.mask(seat)
        if seat not in self.session.to_act():
            mask[self._wait] = 1
        return {"observation": self.session.observe(seat), "action_mask": mask}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[AgentID, dict[str, Any]], dict[AgentID, dict[str, Any]]]:
        self.session.reset(seed)
        self.agents = self.possible_agents[:]
        return {a: self._observe(i) for i, a in enumerate(self.agents)}, {
            a: {} for a in self.agents
        }

    def step(
        self, actions: dict[AgentID, int]
    ) -> tuple[
        dict[AgentID, dict[str, Any]],
        dict[AgentID, float],
        dict[AgentID, bool],
        dict[AgentID, bool],
        dict[AgentID, dict[str, Any]],
    ]:
        session = self.session
        infos: dict[AgentID, dict[str, Any]] = {a: {} for a in self.agents}
        for seat in session.to_act():
            agent = self.possible_agents[seat]
            if seat in session.to_act() and not session.play(seat, int(actions.get(agent, -1))):
                infos[agent]["illegal_action"] = True
        done = session.finished
        rewards = {a: session.outcome(i) if done else 0.0 for i, a in enumerate(self.agents)}
        observations = {a: self._observe(i) for i, a in enumerate(self.agents)}
        terminations = dict.fromkeys(self.agents, done)
        truncations = dict.fromkeys(self.agents, False)
        if done:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def record(self, path: str | Path) -> Path:
        """Write the current episode as a gamenight record (``gamenight replay`` checks it)."""
        return self.session.record(path)

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None


DecadesParallel = GamenightParallel  # the name before any game could have one
