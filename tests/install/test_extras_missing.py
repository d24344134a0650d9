"""The slim core and its extras (issue 39): each command that needs an extra says so in
one line, with its exit code, when the extra is missing (never an ImportError's
traceback), and playing, serving and solving never import a package of an extra.

An extra is "missing" through a meta-path blocker in a fresh interpreter: any import of
its packages fails as if they were not installed (``importlib.util.find_spec`` too).
The dev venv has every extra, so without the blocker all of these commands work.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
from pathlib import Path

import pytest

from gamenight.core.extras import EXTRAS

ROOT = Path(__file__).resolve().parents[2]
EVERY_EXTRA = sorted({m for modules in EXTRAS.values() for m in modules})

# Blocks the top-level packages in BLOCKED (json) and notes every attempt; then runs
# `gamenight ARGV`, or the Python code in CODE. The attempts are written to ATTEMPTS at
# exit (however the command ends).
PRELUDE = """
import atexit, json, os, sys
BLOCKED = set(json.loads(os.environ["BLOCKED"]))
attempts = []

class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            attempts.append(name)
            raise ModuleNotFoundError(f"No module named {name!r} (blocked)", name=name)
        return None

sys.meta_path.insert(0, Blocker())

def _note():
    with open(os.environ["ATTEMPTS"], "w") as f:
        json.dump(attempts, f)

atexit.register(_note)
"""
RUN_CLI = PRELUDE + "from gamenight.cli.main import run\nrun(json.loads(os.environ['ARGV']))\n"


def _env(tmp: Path, blocked: list[str], **more: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    env.update(
        BLOCKED=json.dumps(blocked),
        ATTEMPTS=str(tmp / "attempts.json"),
        XDG_DATA_HOME=str(tmp / "data"),
        GAMENIGHT_PLAIN="1",
        COLUMNS="100",
        **more,
    )
    return env


def _blocked_cli(
    tmp: Path, blocked: list[str], argv: list[str]
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", RUN_CLI],
        env=_env(tmp, blocked, ARGV=json.dumps(argv)),
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
        check=False,
    )


NEEDS = "needs: pip install 'gamenight[{extra}]'"
# (the package taken away, gamenight's argv, what the line names, the extra, the exit code)
CASES = [
    ("pyarrow", ["sim", "decathlon", "--bots", "greedy,random", "--games", "2", "-j", "1",
                 "--out", "{tmp}/out"], "sim --out", "sim", 2),
    ("matplotlib", ["sim", "decathlon", "--bots", "greedy,random", "--games", "2", "-j", "1",
                    "--out", "{tmp}/out"], "sim --out", "sim", 2),
    ("choix", ["tournament", "decathlon", "--bots", "greedy,random", "--games", "2", "-j", "1",
               "--no-save"], "tournament", "sim", 2),
    ("scipy", ["tournament", "decathlon", "--bots", "greedy,random", "--games", "2", "-j", "1",
               "--no-save"], "tournament", "sim", 2),
    ("pyarrow", ["tournament", "decathlon", "--bots", "greedy,random", "--games", "2", "-j", "1",
                 "--no-save", "--out", "{tmp}/out"], "tournament --out", "sim", 2),
    ("matplotlib", ["solve", "decathlon", "--event", "100m", "--plot", "{tmp}/plots"],
     "solve --plot", "sim", 2),
    ("matplotlib", ["solve", "decathlon", "--event", "100m", "--json", "--plot", "{tmp}/plots"],
     "solve --plot", "sim", 2),
    ("ray", ["sim", "decathlon", "--bots", "greedy,random", "--games", "2", "--backend", "ray"],
     "--backend ray", "ray", 2),
    ("ray", ["tournament", "decathlon", "--bots", "greedy,random", "--games", "2", "--no-save",
             "--backend", "ray"], "--backend ray", "ray", 2),
]  # fmt: skip


@pytest.mark.parametrize(("package", "argv", "what", "extra", "code"), CASES)
def test_a_command_without_its_extra_says_so_in_one_line(
    tmp_path: Path, package: str, argv: list[str], what: str, extra: str, code: int
) -> None:
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    done = _blocked_cli(tmp_path, [package], argv)
    assert done.returncode == code, done.stderr
    assert done.stderr.splitlines() == [f"gamenight: error: {what} {NEEDS.format(extra=extra)}"]
    assert "Traceback" not in done.stdout + done.stderr
    # refused before any game was played or any file written
    assert not (tmp_path / "out").exists() and not (tmp_path / "plots").exists()


def test_the_line_is_in_the_players_language(tmp_path: Path) -> None:
    done = _blocked_cli(tmp_path, ["choix"], ["--lang", "de", "tournament", "decathlon",
                                              "--bots", "greedy,random", "--no-save"])  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "gamenight: Fehler: tournament braucht: pip install 'gamenight[sim]'"
    ]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize(
    "argv",
    [
        ["serve", "--port", "{port}", "--db", "postgresql://gamenight@127.0.0.1:1/gamenight"],
        ["serve", "--port", "{port}", "--db", "postgres://gamenight@127.0.0.1:1/gamenight"],
    ],
)
def test_serve_on_postgresql_without_the_driver_is_one_line_and_exit_3(
    tmp_path: Path, argv: list[str]
) -> None:
    argv = [a.replace("{port}", str(_free_port())) for a in argv]
    done = _blocked_cli(tmp_path, ["psycopg"], argv)
    assert done.returncode == 3, done.stderr
    assert done.stderr.splitlines() == [
        f"gamenight: serve --db postgresql://… {NEEDS.format(extra='postgres')}"
    ]
    assert "serving at" not in done.stdout


LIBRARY = (
    PRELUDE
    + """
import sqlite3, pickle
from pathlib import Path
from gamenight.core.extras import MissingExtraError
def said(f):
    try:
        f()
    except MissingExtraError as exc:
        assert isinstance(exc, ImportError)
        again = pickle.loads(pickle.dumps(exc))
        assert str(again) == str(exc), again
        print(exc)
    else:
        print("no error")
def envs():
    import gamenight.envs
def envs_module():
    import gamenight.envs.versus
def plots():
    import gamenight.sim.plots
def rows():
    from gamenight.sim.report import write_rows
    write_rows([], Path(os.environ["OUT"]))
def fit():
    from gamenight.sim.batch import batch_fit
    batch_fit(["a", "b"], [])
def ray():
    from gamenight.sim.engine import _run_ray
    _run_ray([], 1, None, None, None)
def store():
    from gamenight.server.db import Store
    Store("postgresql://u@127.0.0.1:1/g")
for f in (envs, envs_module, plots, rows, fit, ray, store):
    said(f)
from gamenight.server.db import is_outage
print(is_outage(sqlite3.OperationalError("database is locked")), is_outage(ValueError("bug")))
"""
)


def test_the_library_says_which_extra_too(tmp_path: Path) -> None:
    """Without the command line: importing gamenight.envs, the plots, writing Parquet
    rows, the batch fit, Ray and a PostgreSQL store each raise one MissingExtraError (an
    ImportError too); telling a database outage from a bug needs no psycopg."""
    done = subprocess.run(
        [sys.executable, "-c", LIBRARY],
        env=_env(tmp_path, EVERY_EXTRA, OUT=str(tmp_path / "out")),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "gamenight.envs needs: pip install 'gamenight[rl]'",
        "gamenight.envs needs: pip install 'gamenight[rl]'",
        "gamenight.sim.plots needs: pip install 'gamenight[sim]'",
        "--out needs: pip install 'gamenight[sim]'",
        "tournament needs: pip install 'gamenight[sim]'",
        "--backend ray needs: pip install 'gamenight[ray]'",
        "serve --db postgresql://… needs: pip install 'gamenight[postgres]'",
        "True False",
    ]


def test_the_extras_named_in_code_are_those_of_pyproject() -> None:
    """core/extras.py's table and pyproject.toml's extras agree (the dev extra holds every
    other one), and none of the extras' packages is a core dependency."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    optional = project["optional-dependencies"]
    assert set(optional) == {*EXTRAS, "dev"}
    itself = [d for d in optional["dev"] if d.startswith("gamenight[")]
    assert [set(d.removeprefix("gamenight[").rstrip("]").split(",")) for d in itself] == [
        set(EXTRAS)
    ]
    distribution = {"psycopg": "psycopg", "pyarrow": "pyarrow", "matplotlib": "matplotlib",
                    "choix": "choix", "ray": "ray", "gymnasium": "gymnasium",
                    "pettingzoo": "pettingzoo"}  # fmt: skip
    core = {re.split(r"[\[<>=;! ]", d)[0].lower() for d in project["dependencies"]}
    for extra, modules in EXTRAS.items():
        named = {re.split(r"[\[<>=;! ]", d)[0].lower() for d in optional[extra]}
        wanted = {distribution[m] for m in modules if m in distribution}
        assert wanted <= named, (extra, wanted, named)
        assert not named & core, (extra, named & core)


# --- the core's import graph --------------------------------------------------------------


def _attempts(tmp: Path) -> list[str]:
    return list(json.loads((tmp / "attempts.json").read_text()))


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "decathlon", "--players", "bot:random,bot:greedy", "--seed", "7"],
        ["play", "dice-duel", "--players", "bot:turn-optimal,bot:random", "--seed", "3"],
        ["play", "wurfeltod", "--players", "bot:greedy,bot:random", "--seed", "5"],
        ["play", "decades", "--players", "Red:bot:expert,Blue:bot:novice", "--seed", "11"],
        ["solve", "decathlon", "--json"],
        ["solve", "decathlon", "--event", "100m"],
        ["sim", "decathlon", "--bots", "greedy,random", "--games", "4", "-j", "1"],
        ["ratings", "decathlon"],
    ],
)
def test_playing_and_solving_import_no_extra(tmp_path: Path, argv: list[str]) -> None:
    """Every extra's packages are blocked: the command still works and tried none."""
    done = _blocked_cli(tmp_path, EVERY_EXTRA, argv)
    assert done.returncode == 0, done.stderr
    assert _attempts(tmp_path) == []


def _get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=10) as response:
        return int(response.status), response.read()


def test_serving_imports_no_extra(tmp_path: Path) -> None:
    """`gamenight serve` on SQLite with every extra blocked: it starts, migrates, serves
    the page, the games, the rules and a room, and has tried to import none of them."""
    port = _free_port()
    argv = ["serve", "--port", str(port), "--no-table-build",
            "--db", f"sqlite:///{tmp_path / 'db.sqlite3'}"]  # fmt: skip
    server = subprocess.Popen(
        [sys.executable, "-c", RUN_CLI],
        env=_env(tmp_path, EVERY_EXTRA, ARGV=json.dumps(argv)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            try:
                status, _ = _get(base + "/")
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(server.stderr.read() if server.stderr else "") from None
                time.sleep(0.2)
        assert status == 200
        status, body = _get(base + "/api/games")
        assert status == 200 and b"decades" in body
        assert _get(base + "/api/games/decathlon/rules")[0] == 200
        for game in ("decathlon", "decades"):  # The Decades loads its deck
            request = urllib.request.Request(
                base + "/api/rooms",
                data=json.dumps({"game": game, "seats": ["human", "human"]}).encode(),
                headers={"Content-Type": "application/json", "Origin": base},
                method="POST",
            )
            with urllib.request.urlopen(request, timeout=10) as response:
                assert response.status == 201
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=60)
    assert _attempts(tmp_path) == []
