"""Issue 45: the environments take the table's one path and name no game.

* every action of an episode goes through its :class:`Table` (a listener sees each);
* versus bots sit at the table and are told their seat's events, as in a match;
* the envs are registered by iterating the registry, and a ``VersusBotEnv`` subclass
  without an opponent plays the game's first bot;
* ``gym.make_vec`` gives a Gymnasium ``VectorEnv`` that steps the same episodes;
* no module of ``gamenight.envs`` or ``gamenight.server`` names a game outside its
  docstrings (the regret harness's yardsticks come from ``GameInfo.benchmarks``).
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import gamenight.envs as envs
from gamenight.core import registry
from gamenight.core.agents import Decision
from gamenight.core.events import Event
from gamenight.core.solver import Benchmark
from gamenight.envs.episode import Episode
from gamenight.envs.gymnasium_envs import ENVS, solo_setup
from gamenight.envs.vector import SoloVectorEnv
from gamenight.envs.versus import VERSUS_ENVS, VersusBotEnv, default_opponent

ENVS_DIR = Path(envs.__file__).parent


class Recorder:
    """A bot that picks the first legal action and keeps every event it is told."""

    label = "recorder"

    def __init__(self) -> None:
        self.events: list[Event] = []

    def act(self, decision: Decision[Any, Any]) -> Any:
        return decision.legal[0]

    def observe(self, seat: int, events: Sequence[Event]) -> None:
        self.events.extend(events)


@pytest.mark.parametrize("game_id", ["decathlon", "wurfeltod", "decades", "dice-duel"])
def test_every_action_goes_through_the_table(game_id: str) -> None:
    session = Episode(game_id, 2, {})
    rng = random.Random(4)
    session.reset(3)
    heard: list[int] = []
    session.table.listen(lambda step: heard.append(step.seq))
    while not session.finished:
        seat = session.to_act()[0]
        assert session.play(seat, rng.choice(list(session.legal(seat))))
    assert heard == list(range(1, session.table.seq + 1)) and heard
    assert session.moves == session.table.moves() and session.state is session.table.state
    assert session.events(None) == [s.event for s in session.table.events_since(None, -1)]


@pytest.mark.parametrize("env_id", ["gamenight/DecathlonVsBot-v0", "gamenight/DecadesVsBot-v0"])
def test_versus_bots_are_told_their_events(env_id: str) -> None:
    """A bot seated by the versus env hears exactly its seat's events, from the start."""
    env: Any = gym.make(env_id).unwrapped
    _, info = env.reset(seed=7)
    recorder = Recorder()
    since = env.session.table.seq  # the bots may have moved before the learner's turn
    env.session.seat_agents({1: recorder})  # the seat's bot, replaced: told from the start
    rng = random.Random(0)
    done = False
    while not done:
        _, _, done, _, info = env.step(rng.choice(np.flatnonzero(info["action_mask"])))
    opening = env.session.table.opening.events_for(1)
    assert recorder.events == [*opening, *env.session.events(1, since)]
    assert len(recorder.events) > len(opening)
    assert recorder.events != list(env.session.events(0)) or not env.session.game.info.hidden_info


def test_registration_iterates_the_registry() -> None:
    for entry in registry.available():
        setup = solo_setup(entry.id)
        if setup is not None:
            assert f"gamenight/{setup[1]}-v0" in ENVS and f"gamenight/{setup[1]}-v0" in gym.registry
        game = entry.game
        lo, hi = game.seat_range(game.parse_options())
        versus = [k for k, cls in VERSUS_ENVS.items() if cls.game_id == entry.id]
        assert len(versus) == (1 if lo <= 2 <= hi else 0)


def test_a_versus_subclass_without_an_opponent_plays_the_first_bot() -> None:
    class Mine(VersusBotEnv):
        game_id = "wurfeltod"

    env = Mine()
    assert env.opponent == default_opponent("wurfeltod") == "greedy"
    obs, info = env.reset(seed=1)
    assert obs.shape == env.observation_space.shape and info["action_mask"].any()

    class Nameless(VersusBotEnv):
        pass

    with pytest.raises(Exception, match="names its game"):
        Nameless()


def test_vector_env_steps_the_solo_episodes() -> None:
    """A sub-env of the vector env plays exactly the solo env's episode on its seed."""
    vec: Any = gym.make_vec("gamenight/Wurfeltod-v0", num_envs=3)
    assert type(vec) is SoloVectorEnv and issubclass(SoloVectorEnv, gym.vector.VectorEnv)
    solo: Any = gym.make("gamenight/Wurfeltod-v0").unwrapped
    obs, info = vec.reset(seed=10)
    one, one_info = solo.reset(seed=11)
    assert np.array_equal(obs[1], one) and np.array_equal(
        info["action_mask"][1], one_info["action_mask"]
    )
    ended = 0
    for _ in range(400):
        actions = [int(np.flatnonzero(m)[0]) for m in info["action_mask"]]
        obs, rewards, term, _, info = vec.step(actions)
        if not ended:
            one, r, done, _, one_info = solo.step(actions[1])
            assert rewards[1] == r and term[1] == done
            if done:
                ended = 1
                assert np.array_equal(info["final_obs"][1], one)
            else:
                assert np.array_equal(obs[1], one)
        assert info["action_mask"].any(axis=1).all()  # same-step autoreset: all live
    assert ended
    assert vec.action_masks().shape == (3, vec.n_actions)


def _strings_outside_docstrings(path: Path) -> list[tuple[int, str]]:
    """Every string literal of ``path`` (f-string parts included) but its docstrings."""
    tree = ast.parse(path.read_text())
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]


# The ids of gamenight's own games, and any plug-in's installed here.
GAME_IDS = sorted(
    {"decathlon", "dice-duel", "wurfeltod", "decades"} | {e.id for e in registry.available()}
)


@pytest.mark.parametrize("package", ["envs", "server"])
def test_no_env_or_server_module_names_a_game(package: str) -> None:
    """Issue 45: no module under ``gamenight.envs`` or ``gamenight.server`` names a game
    outside its docstrings (the regret harness's yardsticks come from the games'
    ``GameInfo.benchmarks``); a game id in any other string literal fails."""
    named = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, GAME_IDS)) + r")(?![\w-])")
    root = ENVS_DIR.parent / package
    found = [
        f"{path.relative_to(root)}:{line}: {text!r}"
        for path in sorted(root.rglob("*.py"))
        for line, text in _strings_outside_docstrings(path)
        if named.search(text)
    ]
    assert not found, found


def test_the_game_name_check_finds_a_game_id(tmp_path: Path) -> None:
    """The check above can fail: a module that branches on a game id is found, its
    docstring mentioning one is not."""
    module = tmp_path / "m.py"
    module.write_text('"""Plays decathlon."""\n\ndef f(g):\n    return g == "dice-duel"\n')
    assert [text for _, text in _strings_outside_docstrings(module)] == ["dice-duel"]


def test_check_env_on_a_vector_env_made_by_sync_too() -> None:
    sync = gym.make_vec("gamenight/Decathlon-v0", num_envs=2, vectorization_mode="sync")
    assert type(sync).__name__ == "SyncVectorEnv"
    check_env(gym.make("gamenight/Decathlon-v0").unwrapped)


def test_the_regret_benchmarks_come_from_the_games() -> None:
    """Issue 45: ``evaluate.benchmarks()`` is every game's ``GameInfo.benchmarks`` in the
    registry's order (the harness names none); a benchmark has an optimum or a bot."""
    from gamenight.envs.evaluate import benchmarks

    listed = []
    for entry in registry.available():
        path = entry.game.info.benchmarks
        listed += (
            [registry.made(b, Benchmark, "").name for b in registry.listed(path)] if path else []
        )
    assert benchmarks() == tuple(listed)
    assert {"decathlon:100m", "decathlon", "wurfeltod", "dice-duel-solo"} <= set(listed)
    with pytest.raises(ValueError, match="an optimum or a bot"):
        Benchmark("both", {}, optimum=lambda: 1.0, bot="random")
