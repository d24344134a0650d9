"""A bot is what it says (issue 45, research 1): ``winner`` without its win table, and
Wurfeltod's ``optimal`` without its value table, refuse in one line naming the command
that builds it, wherever they are asked to play: never another bot in their name."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from gamenight.core.agents import Decision
from gamenight.core.dice import SeededDice
from gamenight.core.runner import play_match
from gamenight.games.decathlon import bots
from gamenight.games.decathlon.game import GAME
from gamenight.games.decathlon.solver import win2p_store

CliRunner = Callable[[list[str]], tuple[int, str, str]]
COMMAND = "gamenight solve decathlon --two-player-win"


@pytest.fixture
def empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    cache = tmp_path / "cache"
    monkeypatch.setenv(win2p_store.CACHE_ENV, str(cache))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(win2p_store, "_loaded", {})
    return cache


def _one_line(code: int, out: str, err: str) -> str:
    assert code in (1, 2), (out, err)
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err


@pytest.mark.parametrize(
    "argv",
    [
        ["sim", "decathlon", "--bots", "winner,optimal", "--games", "6", "--jobs", "1"],
        ["sim", "decathlon", "--bots", "winner,optimal", "--games", "6", "--jobs", "2"],
        ["tournament", "decathlon", "--bots", "winner,optimal", "--games", "4", "--jobs", "1"],
        ["play", "decathlon", "--players", "bot:winner,bot:optimal", "--seed", "1"],
        ["play", "decathlon", "--players", "Ann,bot:winner", "--seed", "1"],
    ],
)
def test_winner_without_its_table_refuses_in_one_line(
    argv: list[str], cli: CliRunner, empty_cache: Path
) -> None:
    err = _one_line(*cli(argv))
    assert f"`{COMMAND}`" in err and "winner" in err
    assert not list(empty_cache.glob("*.npz"))  # nothing built behind the user's back
    code, out, _ = cli(["ratings", "decathlon", "--json"])  # nothing rated either
    assert code == 0 and '"players": []' in out


def test_a_chain_of_events_names_its_own_build(cli: CliRunner, empty_cache: Path) -> None:
    argv = ["sim", "decathlon", "--bots", "winner,optimal", "--games", "2", "--jobs", "1"]
    err = _one_line(*cli([*argv, "--events", "long,1500m"]))
    assert f"`{COMMAND} --event long-jump,1500m`" in err


def test_a_cheap_table_is_built_and_winner_plays_it(cli: CliRunner, empty_cache: Path) -> None:
    argv = ["sim", "decathlon", "--bots", "winner,optimal", "--games", "2", "--jobs", "1"]
    code, _, err = cli([*argv, "--events", "high,1500m"])
    assert code == 0, err
    assert len(list(empty_cache.glob("*.npz"))) == 1  # built once, cached


def test_winner_never_plays_as_winner_points_in_its_name(empty_cache: Path) -> None:
    game = GAME
    with pytest.raises(bots.WinTableNeededError, match="--two-player-win"):
        play_match(game, [bots.WinnerAgent(1), bots.OptimalAgent(2)], seed=1)
    # nor when asked to act directly (an environment's opponent, say)
    state = game.start(2, game.parse_options(), SeededDice(seed=1)).state
    seat = game.to_act(state)[0]
    decision = Decision("decathlon", seat, game.view(state, seat), game.legal_actions(state, seat))
    agent = bots.WinnerAgent(1)
    with pytest.raises(bots.WinTableNeededError):
        agent.act(decision)
    # a server, which shows the stand-in, lets it wait and play winner-points meanwhile
    agent.may_wait = True
    assert agent.act(decision) in decision.legal
    assert agent.waiting is not None and agent.waiting.playing == "winner-points"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_wurfeltod_optimal_without_its_table_refuses_in_one_line(
    jobs: str, cli: CliRunner, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GAMENIGHT_CACHE_DIR", str(tmp_path / "empty"))
    argv = ["sim", "wurfeltod", "--bots", "optimal,greedy", "--games", "4", "--jobs", jobs]
    err = _one_line(*cli(argv))
    assert "gamenight solve wurfeltod" in err
