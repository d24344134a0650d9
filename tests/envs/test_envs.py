"""Observations, action encodings, rewards, seeding and records of the environments."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import gymnasium as gym
import msgspec
import numpy as np
import pytest

import gamenight.envs as envs
from gamenight.cli.main import run
from gamenight.core.dice import SeededDice
from gamenight.core.seeds import derive
from gamenight.envs.codecs import codec_for
from gamenight.envs.episode import Episode
from gamenight.envs.gymnasium_envs import SoloEnv
from gamenight.games.decades.codec import DecadesCodec

GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("decathlon", 2, {}),
    ("dice-duel", 2, {}),
    ("wurfeltod", 2, {}),
    ("decades", 2, {}),
]


def _walk(session: Episode, rng: random.Random, steps: int) -> list[Any]:
    """States met while playing random legal actions (resetting when a game ends)."""
    states = []
    for _ in range(steps):
        states.append(session.state)
        if session.finished:
            session.reset(rng.randrange(2**32))
            continue
        seat = session.to_act()[0]
        session.play(seat, rng.choice(list(session.legal(seat))))
    return states


# ----- observations: the seat's view and nothing else ----------------------------------------
@pytest.mark.parametrize(("game_id", "players", "options"), GAMES)
def test_observation_ignores_the_dice_source(
    game_id: str, players: int, options: dict[str, Any]
) -> None:
    """Two states that differ only in the dice still to come look the same to every seat."""
    session = Episode(game_id, players, options)
    session.reset(1)
    for state in _walk(session, random.Random(2), 150)[::5]:
        other = msgspec.structs.replace(state, dice=SeededDice(seed=99, counter=12345))
        for seat in range(players):
            session.state = state
            mine = session.observe(seat).copy()
            session.state = other
            assert np.array_equal(mine, session.observe(seat))


def test_decades_observation_ignores_the_other_teams_secrets() -> None:
    """The other team's pending choice, its hand and the questions' years never show."""
    session = Episode("decades", 2, {})
    session.reset(5)
    rng = random.Random(3)
    checked = 0
    for _ in range(400):
        if session.finished:
            session.reset(rng.randrange(2**32))
        state = session.state
        if state.phase == "answer" and state.pending[1] is not None:
            seat0 = session.observe(0).copy()
            from gamenight.games.decades.rules import Answer

            changed = msgspec.structs.replace(
                state,
                pending=(state.pending[0], Answer(1980 if state.pending[1].year != 1980 else 2019)),
                hands=(state.hands[0], tuple(reversed(state.hands[1]))),
                questions=tuple(
                    msgspec.structs.replace(
                        card,
                        questions=tuple(
                            msgspec.structs.replace(q, year=1980 + (q.year + 7) % 40)
                            for q in card.questions
                        ),
                    )
                    for card in state.questions
                ),
            )
            session.state = changed
            assert np.array_equal(seat0, session.observe(0))
            session.state = state
            checked += 1
        seat = session.to_act()[-1]
        session.play(seat, rng.choice(list(session.legal(seat))))
    assert checked > 5


def test_decades_keep_step_hides_the_other_dealt_cards() -> None:
    session = Episode("decades", 2, {})
    session.reset(8)
    state = session.state
    seat0 = session.observe(0).copy()
    swapped = msgspec.structs.replace(
        state, dealt=(state.dealt[0], ("blocked",) * 7), hands=(state.hands[0], ("blocked",) * 7)
    )
    session.state = swapped
    assert np.array_equal(seat0, session.observe(0))


DECATHLON_TABLES: list[tuple[int, dict[str, Any]]] = [
    (1, {}),
    (1, {"events": "long-jump,discus,javelin,pole-vault"}),
    (2, {}),
    (4, {"variant": "championship"}),
    (8, {"events": "100m,shot-put,high-jump,110m-hurdles"}),
]


@pytest.mark.parametrize(("players", "options"), DECATHLON_TABLES)
def test_decathlon_fast_path_equals_the_view_encoding(
    players: int, options: dict[str, Any]
) -> None:
    """The observation built from the state's public fields (cached float32 blocks) is
    exactly the encoding of ``Game.view`` for every seat, and its score the view's."""
    session = Episode("decathlon", players, options)
    session.reset(11)
    codec, game = session.codec, session.game
    fast = np.zeros(session.obs_size, np.float32)
    slow = fast.copy()
    stages, ends = set(), 0
    for state in _walk(session, random.Random(4), 1500):
        stages.add(type(state.stage.attempt if hasattr(state.stage, "attempt") else state.stage))
        for seat in range(players):
            score = codec.encode_state(state, seat, fast)
            view: Any = game.view(state, seat)
            codec.encode(view, seat, slow)
            assert np.array_equal(fast, slow)
            totals = view.honour_totals if view.variant == "championship" else view.totals
            assert score == totals[seat]
            if state.stage is None:  # at the end the running score is the final score
                assert score == game.results(state).scores[seat]
                ends += 1
    assert len(stages) >= 4  # the walk met several event families and the game's end
    assert ends > 0


@pytest.mark.parametrize(("players", "options"), DECATHLON_TABLES)
def test_decathlon_cached_masks_equal_legal_actions(players: int, options: dict[str, Any]) -> None:
    """A mask (and index -> action table) is learnt once per mask key and reused: on
    every position met, for every seat, it equals the encoding of that position's own
    ``Game.legal_actions`` (so the key holds everything the legal set depends on)."""
    session = Episode("decathlon", players, options)
    session.reset(12)
    game, codec = session.game, session.codec
    reused = 0
    for state in _walk(session, random.Random(5), 2500):
        session.state = state
        for seat in range(players):
            known = len(session._masks)
            legal = session.legal(seat)
            reused += len(session._masks) == known
            expected = {codec.index(a): a for a in game.legal_actions(state, seat)}
            assert legal == expected
            mask = session.mask(seat)
            assert np.array_equal(np.flatnonzero(mask), sorted(expected))
    assert reused > 0.9 * 2500 * players  # the cache does serve almost every position


def test_observations_and_masks_are_fresh_arrays() -> None:
    """Every reset and step returns new arrays (Gymnasium asks for new data, not a reused
    buffer): keeping one (a replay buffer) or writing into it never changes what the
    environment returns later."""
    env = gym.make("gamenight/Decathlon-v0", events="long-jump,shot-put").unwrapped
    obs, info = env.reset(seed=5)
    kept = []
    done, steps = False, 0
    while not done:
        legal = np.flatnonzero(info["action_mask"])
        if steps % 2:  # scribble on what we were given...
            illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
            obs[:] = 7.0
            info["action_mask"][:] = 0
            obs, reward, _, _, info = env.step(illegal)
            assert info["illegal_action"] and reward == 0
            assert not np.any(obs == 7.0) and info["action_mask"].any()
        else:  # ...or keep it
            kept.append((obs, obs.copy(), info["action_mask"], info["action_mask"].copy()))
        obs, _, done, _, info = env.step(int(legal[-1]))
        assert obs.flags.writeable and info["action_mask"].flags.writeable
        assert not np.any(obs == 7.0)
        steps += 1
    assert len(kept) > 5
    for old, copy, mask, mask_copy in kept:
        assert np.array_equal(old, copy) and np.array_equal(mask, mask_copy)


# ----- actions ------------------------------------------------------------------------------
@pytest.mark.parametrize(("game_id", "players", "options"), GAMES)
def test_action_indices_are_fixed_and_decode(
    game_id: str, players: int, options: dict[str, Any]
) -> None:
    """Every legal action has an index in range; the index gives that action back."""
    session = Episode(game_id, players, options)
    session.reset(21)
    for state in _walk(session, random.Random(6), 300):
        session.state, session._legal = state, {}
        for seat in session.to_act():
            legal = session.legal(seat)
            assert legal and all(0 <= i < session.n_actions for i in legal)
            if game_id != "decades":
                for i, action in legal.items():
                    assert session.codec.action(i) == action
            assert DecadesCodec.WAIT not in legal


def test_fixed_indices_documented_in_docs() -> None:
    from gamenight.games.decathlon.actions import Freeze, Vault
    from gamenight.games.dice_duel.rules import Roll, Stop, Take
    from gamenight.games.wurfeltod.rules import Book, SetAside

    decathlon, duel, wurf = codec_for("decathlon"), codec_for("dice-duel"), codec_for("wurfeltod")
    assert decathlon.n_actions == 269 and decathlon.index(Vault(1)) == 6
    assert decathlon.index(Freeze((0, 1, 2, 3, 4, 5, 6, 7))) == 268
    assert duel.n_actions == 46 and duel.index(Stop()) == 0 and duel.index(Roll(())) == 1
    assert duel.index(Take("large-straight", "set-aside")) == 45
    assert wurf.n_actions == 100 and wurf.index(SetAside((0,))) == 38
    assert wurf.index(Book(wurf.action(0).category)) == 0


def test_illegal_action_changes_nothing() -> None:
    env = gym.make("gamenight/Decathlon-v0").unwrapped
    obs, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, reward, done, _trunc, info2 = env.step(illegal)
    assert info2["illegal_action"] and reward == 0 and not done
    assert np.array_equal(obs, obs2)


# ----- rewards ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("env_id", "options"),
    [
        ("gamenight/Decathlon-v0", {}),
        ("gamenight/Decathlon-v0", {"events": "400m,pole-vault"}),
        ("gamenight/Wurfeltod-v0", {}),
        ("gamenight/DiceDuelSolo-v0", {}),
    ],
)
def test_solitaire_return_is_the_final_score(env_id: str, options: dict[str, Any]) -> None:
    env = gym.make(env_id, **options).unwrapped
    rng = np.random.default_rng(0)
    for episode in range(3):
        _, info = env.reset(seed=episode)
        total, done = 0.0, False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            _, reward, done, _, info = env.step(int(rng.choice(legal)))
            total += float(reward)
        assert isinstance(env, SoloEnv)
        assert total == env.session.results().scores[0]


def test_multi_agent_rewards_are_the_final_result() -> None:
    env = envs.aec_env("dice-duel", players=3)
    env.reset(seed=4)
    rng = np.random.default_rng(1)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        returns[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    scores = env.session.results().scores
    for i, agent in enumerate(env.possible_agents):
        expected = sum((scores[i] > s) - (scores[i] < s) for s in scores) / 2
        assert returns[agent] == expected


# ----- seeding and records ---------------------------------------------------------------------
def test_reset_seed_derives_the_game_seed() -> None:
    env = gym.make("gamenight/Decathlon-v0").unwrapped
    assert isinstance(env, SoloEnv)
    env.reset(seed=42)
    assert env.session.game_seed == derive(42, "env", 0)
    env.reset()
    assert env.session.game_seed == derive(42, "env", 1)


@pytest.mark.parametrize("env_id", ["gamenight/Wurfeltod-v0", "gamenight/DiceDuelSolo-v0"])
def test_same_seed_same_episode(env_id: str) -> None:
    def episode() -> list[float]:
        env = gym.make(env_id).unwrapped
        obs, info = env.reset(seed=7)
        trace, done = [float(obs.sum())], False
        while not done:
            obs, reward, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[-1]))
            trace += [float(obs.sum()), float(reward)]
        return trace

    assert episode() == episode()


def _replay(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    try:
        run(["replay", str(path)])
        code = 0
    except SystemExit as exit_info:
        code = exit_info.code if isinstance(exit_info.code, int) else 1
    out, err = capsys.readouterr()
    assert code == 0, err
    return " ".join(out.split())


def test_gymnasium_episode_record_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    env = gym.make("gamenight/Decathlon-v0", events="110m-hurdles,pole-vault").unwrapped
    assert isinstance(env, SoloEnv)
    _, info = env.reset(seed=9)
    done = False
    while not done:
        _, _, done, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    out = _replay(env.record(tmp_path / "decathlon.jsonl"), capsys)
    assert "the seed matches the commitment" in out


@pytest.mark.parametrize("game_id", ["dice-duel", "wurfeltod", "decades"])
def test_aec_episode_record_replays(
    game_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    env = envs.aec_env(game_id)
    env.reset(seed=12)
    rng = np.random.default_rng(2)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    _replay(env.record(tmp_path / f"{game_id}.jsonl"), capsys)


def test_parallel_episode_record_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    env = envs.parallel_env("decades")
    obs, _ = env.reset(seed=13)
    rng = np.random.default_rng(3)
    while env.agents:
        actions = {a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in obs.items()}
        obs, *_ = env.step(actions)
    _replay(env.record(tmp_path / "decades.jsonl"), capsys)


def test_np_random_is_seeded_as_gymnasium_seeds_it() -> None:
    """``np_random`` is built on first use, from the seed the last seeded reset got: the
    same generator and ``np_random_seed`` as Gymnasium's own ``reset(seed=...)`` gives."""
    from gymnasium.error import Error
    from gymnasium.utils import seeding

    env = gym.make("gamenight/Decathlon-v0").unwrapped
    env.reset(seed=123)
    env.reset(seed=42)
    env.reset()  # no seed: the generator is not reset
    expected, _ = seeding.np_random(42)
    assert env.np_random_seed == 42
    assert env.np_random.bit_generator.state == expected.bit_generator.state
    first = env.np_random.integers(1 << 30)
    env.reset(seed=42)
    assert env.unwrapped._np_random is not None
    assert env.np_random.integers(1 << 30) == first
    env.np_random = np.random.default_rng(1)  # Gymnasium's setter: the seed is unknown
    assert env.np_random_seed == -1
    with pytest.raises(Error):
        env.reset(seed=-1)
