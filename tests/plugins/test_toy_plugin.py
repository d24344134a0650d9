"""A fifth game as a real plug-in (tests/plugins/toy, installed by `make`): registered by
its entry point alone, it is listed, played in the terminal and in the browser through
the generic front ends, simulated, and learnt on through the generic codec, with nothing
under src/gamenight that names it. The contract tests and the wire audit take it up
from the registry (tests/games/test_game_contract.py, tests/server/test_wire_audit.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from gamenight.core import registry

ROOT = Path(__file__).resolve().parents[2]
GAMENIGHT = [sys.executable, "-c", "from gamenight.cli.main import run; run()"]


@pytest.fixture(scope="module", autouse=True)
def _installed() -> None:
    points = {ep.name: ep for ep in metadata.entry_points(group=registry.GROUP)}
    if "toy" not in points:
        pytest.fail("the toy plug-in is not registered: tests/conftest.py puts it on the path")


def _run(
    *args: str, tmp_path: Path, stdin: str = "", **env: str
) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "COLUMNS": "100", **env}
    return subprocess.run(
        [*GAMENIGHT, *args], input=stdin, capture_output=True, text=True, timeout=120,
        env=environ, check=False,
    )  # fmt: skip


def test_every_game_registers_by_entry_point_in_listing_order() -> None:
    points = {ep.name: ep for ep in metadata.entry_points(group=registry.GROUP)}
    assert {g for g, ep in points.items() if ep.dist and ep.dist.name == "gamenight"} == {
        "decathlon", "dice-duel", "wurfeltod", "decades",
    }  # fmt: skip
    assert points["toy"].value == "gamenight_toy" and points["toy"].dist is not None
    assert points["toy"].dist.name == "gamenight-toy"
    ids = [entry.id for entry in registry.available()]
    assert ids[:4] == ["decathlon", "dice-duel", "wurfeltod", "decades"]
    assert "toy" in ids[4:] and ids[4:] == sorted(ids[4:])
    toy = registry.get("toy")
    assert toy.name == "Toy Pig" and toy.source == "gamenight-toy"
    assert "push-your-luck" in toy.rules_text()


def test_the_product_lists_no_test_game(tmp_path: Path) -> None:
    """The toy is registered for the tests' run only: the venv that `make serve` and
    `make play` use has gamenight's four games and no toy."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run(
        [*GAMENIGHT, "list"], capture_output=True, text=True, timeout=120, check=False,
        env={**env, "XDG_DATA_HOME": str(tmp_path), "COLUMNS": "100"}, cwd=tmp_path,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "Decathlon" in out.stdout and "Toy Pig" not in out.stdout


def test_listing_imports_no_bot_solver_or_numpy() -> None:
    code = textwrap.dedent("""
        import sys
        from gamenight.core import registry
        assert [e.id for e in registry.available()][-1] and registry.get("toy").bot_infos
        heavy = [m for m in sys.modules if m == "numpy" or ".bots" in m or ".solver." in m]
        print(heavy)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_gamenight_list_shows_the_plug_in(tmp_path: Path) -> None:
    out = _run("list", tmp_path=tmp_path)
    assert out.returncode == 0, out.stderr
    lines = [
        line.split()[0] for line in out.stdout.splitlines()[1:] if line[:1] == " " and line.split()
    ]
    ids = [w for w in lines if w in {e.id for e in registry.available()}]
    assert ids[:4] == ["decathlon", "dice-duel", "wurfeltod", "decades"] and "toy" in ids
    assert "Toy Pig" in out.stdout and not out.stderr


def test_a_broken_plug_in_is_one_line_and_hides_no_other(tmp_path: Path) -> None:
    """Two broken plug-ins (a package that is missing, one that raises on import): each
    one line naming it on stderr, no traceback, every other game still listed."""
    site = tmp_path / "site"
    info = site / "broken_games-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-games\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[gamenight.games]\nghost = no_such_package\nfaulty = faulty_game\n"
    )
    (site / "faulty_game").mkdir()
    (site / "faulty_game" / "__init__.py").write_text("")
    (site / "faulty_game" / "game.py").write_text("raise RuntimeError('bad dice')\n")
    path = os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])
    out = _run("list", tmp_path=tmp_path, PYTHONPATH=path)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr + out.stdout
    problems = out.stderr.splitlines()
    assert len(problems) == 2, problems
    assert any("'ghost'" in p and "ModuleNotFoundError" in p for p in problems)
    assert any("'faulty'" in p and "bad dice" in p for p in problems)
    for game in ("decathlon", "dice-duel", "wurfeltod", "decades", "toy"):
        assert f" {game} " in out.stdout
    played = _run("play", "faulty", "--players", "bot:random", tmp_path=tmp_path, PYTHONPATH=path)
    assert played.returncode == 2 and "Traceback" not in played.stderr
    assert "'faulty'" in played.stderr and len(played.stderr.strip().splitlines()) == 1


def test_played_in_the_terminal_through_the_generic_table(tmp_path: Path) -> None:
    """A human and a bot; the human rolls (1) then holds (2) each turn."""
    record = tmp_path / "toy.jsonl"
    out = _run(
        "play", "toy", "--players", "Ann,bot:random", "--seed", "3", "--target", "5",
        "--record", str(record), tmp_path=tmp_path, stdin="1\n2\n" * 40,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "1: roll  2: hold" in out.stdout and "pot" in out.stdout
    assert "Results" in out.stdout and "wins!" in out.stdout
    replayed = _run("replay", str(record), tmp_path=tmp_path)
    assert replayed.returncode == 0 and "every event and the result match" in replayed.stdout
    odds = _run("replay", str(record), "--odds", tmp_path=tmp_path)
    assert "Win odds are only available for" in odds.stdout  # the toy has no odds


def test_simulated(tmp_path: Path) -> None:
    out = _run("sim", "toy", "--bots", "random,random", "--games", "30", "-j", "1", "--json",
               tmp_path=tmp_path)  # fmt: skip
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["game"] == "toy" and report["games"] == 30


def test_pettingzoo_api_through_the_generic_codec() -> None:
    from pettingzoo.test import api_test, seed_test

    import gamenight.envs as envs
    from gamenight.envs.codecs import GenericCodec

    env = envs.aec_env("toy")
    assert isinstance(env.session.codec, GenericCodec) and env.session.n_actions == 2
    api_test(env, num_cycles=200)
    seed_test(lambda: envs.aec_env("toy", players=3), num_cycles=100)
    with pytest.raises(ValueError, match="no parallel environment"):
        envs.parallel_env("toy")


def test_gymnasium_versus_and_vector_envs_with_no_edit_to_the_envs() -> None:
    """Issue 45: the envs are registered from the registry, so the plug-in gets a
    one-seat env, a versus env against its first bot and a vector env, each passing
    Gymnasium's own checker, with nothing under gamenight.envs naming it."""
    import warnings

    import gymnasium as gym
    import numpy as np
    from gymnasium.utils.env_checker import check_env

    import gamenight.envs
    from gamenight.envs.versus import VERSUS_ENVS

    assert "gamenight/Toy-v0" in gym.registry and "gamenight/ToyVsBot-v0" in gym.registry
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check_env warns instead of failing: fail here
        check_env(gym.make("gamenight/Toy-v0").unwrapped)
        check_env(gym.make("gamenight/ToyVsBot-v0").unwrapped)
    versus: Any = gym.make("gamenight/ToyVsBot-v0", target=20).unwrapped
    assert versus.opponent == "random" and type(versus) is VERSUS_ENVS["gamenight/ToyVsBot-v0"]
    _, info = versus.reset(seed=2)
    done, steps = False, 0
    while not done:
        _, _, done, _, info = versus.step(int(np.flatnonzero(info["action_mask"])[-1]))
        steps += 1
    assert versus.session.finished and steps > 0
    vec: Any = gym.make_vec("gamenight/Toy-v0", num_envs=2)
    batch, info = vec.reset(seed=0)
    assert batch.shape == (2, *vec.single_observation_space.shape)
    batch, rewards, *_ = vec.step([0, 1])
    assert rewards.shape == (2,)
    source = Path(gamenight.envs.__file__).parent
    assert not any("toy" in p.read_text().lower() for p in source.glob("*.py"))


def test_the_generic_codec_without_declared_actions() -> None:
    """No ``actions`` capability: index i is the i-th legal action, in Discrete(MAX_LEGAL)."""
    import msgspec
    import numpy as np
    from gamenight_toy.game import Hold, Roll, ToyGame

    from gamenight.envs.codecs import MAX_LEGAL, OBS_BYTES, GenericCodec

    class Bare(ToyGame):
        info = msgspec.structs.replace(ToyGame.info, actions=None)

    game: Any = Bare()
    codec = GenericCodec(game, {})
    assert codec.n_actions == MAX_LEGAL and codec.obs_size(2) == 2 + OBS_BYTES
    assert codec.legal_indices([Roll(), Hold()], 0, lambda: None) == {0: Roll(), 1: Hold()}
    out = np.zeros(codec.obs_size(2), np.float32)
    game = Bare()
    view = game.view(game.start(2, game.parse_options(), _dice()).state, 1)
    codec.encode(view, 1, out)
    data = json.dumps({"scores": [0, 0], "turn": 0, "pot": 0}, separators=(",", ":")).encode()
    assert out[0] == 1 and out[1] == len(data)
    assert bytes(out[2 : 2 + len(data)].astype(np.uint8)) == data and not out[2 + len(data) :].any()


def _dice() -> Any:
    from gamenight.core.dice import SeededDice

    return SeededDice(seed=1)


@pytest.mark.browser
def test_played_in_the_browser_on_its_own_board(page: Any, server: Any) -> None:
    """Its web/board.js draws the table (the generic table: tests/web/test_plugin_board.py)."""
    from web import webui as ui

    # the highest target: the random bot cannot end the game in its first turn (a
    # shorter one sometimes ended after our first move, leaving nothing to play)
    ui.create_room(page, server.url, "toy", ["human", "bot:random"], fills={"target": "50"})
    ui.start_if_host(page)
    page.wait_for_selector("#table .toy-board")
    assert page.locator("#table .toy-scores li").count() == 2

    steps = ui.play(page, ui.toy, moments={1: "toy-board-playing"})
    assert steps > 1
    page.wait_for_selector("#end:not([hidden]) .ranks li")


def test_the_toy_ships_its_own_browser_board() -> None:
    """Found through its entry point (the package's web/ folder), never by name."""
    files = registry.get("toy").web_files()
    assert sorted(files) == ["board.js", "messages/de.js", "messages/en.js", "messages/pl.js"]
    assert b"export default" in files["board.js"]
    assert registry.get("decathlon").web_files() == {}  # its board is the front end's own


def test_web_files_take_only_plain_names_of_served_kinds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    web = tmp_path / "fakeweb_pkg" / "web"
    (web / "messages").mkdir(parents=True)
    (web.parent / "__init__.py").write_text("")
    for name in ("board.js", "messages/en.js", ".hidden.js", "notes.py", "a b.js"):
        (web / name).write_text("export default {};")
    deep = web / "a" / "b" / "c" / "d" / "e"
    deep.mkdir(parents=True)
    (deep / "too-deep.js").write_text("")
    (web / "a" / "ok.js").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    entry = registry.GameEntry("fake", "Fake", "fakeweb_pkg", "fake")
    assert sorted(entry.web_files()) == ["a/ok.js", "board.js", "messages/en.js"]
    assert registry.GameEntry("none", "None", "no_such_pkg_here", "x").web_files() == {}
