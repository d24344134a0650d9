"""What the quick commands import (issue 29): `gamenight --help` and `gamenight list` must
start fast, so they load no numpy, no database layer, no web framework and no Decades
deck. Checked in a fresh interpreter through ``sys.modules``: deterministic, not timed
(the times are in bench/cli_startup.py and bench/RESULTS.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from cli_process import python_stdout

# Each is what a quick command must not load: the name itself or anything under it.
HEAVY = (
    "numpy",
    "llvmlite",
    "sqlalchemy",
    "litestar",
    "uvicorn",
    "textual",
    "gamenight.games.decades.deck",  # the deck files' parser and validation
    "gamenight.games.decades.library",  # the deck library (files on disk)
    "gamenight.server",
    "gamenight.sim.engine",
)
# `--help` needs no table and no game: not even rich or a game's rules.
HEAVY_FOR_HELP = (*HEAVY, "rich", "gamenight.games.decathlon.rules", "gamenight.cli.session")

SCRIPT = """
import json, sys
from gamenight.cli.main import run
try:
    run(json.loads(sys.argv[1]))
except SystemExit:
    pass
sys.stdout.flush()
sys.stderr.write("MODULES " + json.dumps(sorted(sys.modules)) + "\\n")
"""


def loaded(argv: list[str]) -> tuple[str, list[str]]:
    """The output of ``gamenight ARGV`` run in a new interpreter, and every module it loaded."""
    env = {**os.environ, "COLUMNS": "100"}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(argv)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    line = next(x for x in done.stderr.splitlines() if x.startswith("MODULES "))
    modules: list[str] = json.loads(line.removeprefix("MODULES "))
    return done.stdout, modules


def heavy_in(modules: list[str], heavy: tuple[str, ...]) -> list[str]:
    """The modules of ``modules`` that are, or sit under, one of ``heavy``.

    >>> heavy_in(["numpy.linalg", "numpyro", "click"], ("numpy",))
    ['numpy.linalg']
    """
    return [m for m in modules if any(m == h or m.startswith(h + ".") for h in heavy)]


@pytest.mark.parametrize("argv", [["list"], ["list", "--bots", "--options"]])
def test_list_loads_no_numpy_database_web_or_deck(argv: list[str]) -> None:
    out, modules = loaded(argv)
    assert "The Decades" in out and "Wurfeltod" in out  # it did list the games
    assert heavy_in(modules, HEAVY) == []


@pytest.mark.parametrize("argv", [["--help"], ["-h"], ["--version"]])
def test_help_loads_no_rich_no_rules_and_nothing_heavy(argv: list[str]) -> None:
    out, modules = loaded(argv)
    assert "gamenight" in out
    assert heavy_in(modules, HEAVY_FOR_HELP) == []


def test_the_decades_game_loads_its_deck_only_to_start_a_game() -> None:
    """The game's listing needs its info only; the deck comes with the first start."""
    script = (
        "import sys\n"
        "from gamenight.games.decades.game import GAME\n"
        "assert GAME.info.name == 'The Decades'\n"
        "print('deck' in sys.modules['gamenight.games.decades.rules'].__dict__,\n"
        "      'gamenight.games.decades.deck' in sys.modules)\n"
        "from gamenight.core.dice import SeededDice\n"
        "GAME.start(2, GAME.parse_options(), SeededDice(seed=1))\n"
        "print('gamenight.games.decades.deck' in sys.modules)\n"
    )
    stdout = python_stdout(script)
    assert stdout.split() == ["False", "False", "True"]


def test_the_blas_pool_is_one_thread_unless_the_user_set_it() -> None:
    """`gamenight` sets the BLAS pool size before numpy's import; a user's value stays."""
    script = (
        "import os\n"
        "import gamenight.cli.main\n"
        "print(os.environ['OPENBLAS_NUM_THREADS'], os.environ['MKL_NUM_THREADS'])\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    env["MKL_NUM_THREADS"] = "3"
    stdout = python_stdout(script, env)
    assert stdout.split() == ["1", "3"]


def test_solve_json_loads_no_rich_and_writes_what_json_writes() -> None:
    """`solve decathlon --json` prints no table, so it loads no rich (a tenth of the
    command, issue 29); its fast JSON is the json module's text, byte for byte."""
    out, modules = loaded(["solve", "decathlon", "--event", "100m", "--event", "hurdles", "--json"])
    assert heavy_in(modules, ("rich", "sqlalchemy", "litestar", "gamenight.server")) == []
    # the registry reads the entry points itself, no rules or catalogue are read, no
    # path is given, no dice are rolled, no terminal lacks a character
    unused: tuple[str, ...] = ("importlib.metadata", "email", "zipfile", "importlib.resources")
    unused += ("tempfile", "pathlib", "hashlib", "random", "unicodedata")
    assert heavy_in(modules, unused) == []
    data = json.loads(out)
    assert [e["event"] for e in data["events"]] == ["100m", "110m-hurdles"]
    assert out == json.dumps(data, indent=1) + "\n"
    assert "e-08" in out  # a float msgspec alone would spell 1e-8-style


def test_the_exit_walks_no_heap() -> None:
    """`gamenight` freezes the heap at exit (gc.freeze), so the interpreter's exit
    collections do not walk every object the imports made (issue 29); a handler
    registered before the command runs after that one."""
    script = (
        "import atexit, gc\n"
        "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0))\n"
        "from gamenight.cli.main import run\n"
        "run(['--version'])\n"
    )
    stdout = python_stdout(script)
    assert stdout.splitlines()[-1] == "frozen True"
