"""The wheel as a user installs it (issue 39): built from this tree, installed into a
clean venv with the core lock only (no extra, no source tree on the path), and from it
`gamenight` plays, solves and serves: the first 200, the games, a static script, the
rules page, the migrations, a Decades deck and the German catalogue. Part of `make test`
(marked ``wheel``); it needs pip to reach an index, as `make test` itself does."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from gamenight.core.extras import EXTRAS
from gamenight.server.dburl import SCHEMA_HEAD

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.wheel


def _run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None, timeout: float = 600
         ) -> subprocess.CompletedProcess[str]:  # fmt: skip
    done = subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert done.returncode == 0, f"{args}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


class Installed:
    def __init__(self, home: Path) -> None:
        self.home = home
        self.bin = home / "venv" / "bin"
        self.env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("PYTHON", "VIRTUAL_ENV", "LC_", "LANG"))
        }
        self.env.update(XDG_DATA_HOME=str(home / "data"), GAMENIGHT_PLAIN="1", COLUMNS="100")

    def gamenight(self, *args: str) -> subprocess.CompletedProcess[str]:
        return _run(self.bin / "gamenight", *args, cwd=self.home, env=self.env)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    home = tmp_path_factory.mktemp("wheel")
    dist = home / "dist"
    _run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", dist, ROOT, cwd=home)
    [wheel] = dist.glob("gamenight-*.whl")
    _run(sys.executable, "-m", "venv", home / "venv", cwd=home)
    pip: list[str | Path] = [home / "venv" / "bin" / "python", "-m", "pip", "install", "--quiet"]
    _run(*pip, "--require-hashes", "-r", ROOT / "requirements" / "core.lock", cwd=home)
    _run(*pip, "--no-deps", wheel, cwd=home)
    _run(home / "venv" / "bin" / "python", "-m", "pip", "check", cwd=home)
    yield Installed(home)


def test_it_is_the_wheel_with_no_extra(installed: Installed) -> None:
    script = (
        "import gamenight, importlib.util, json, sys\n"
        f"extras = {sorted({m for ms in EXTRAS.values() for m in ms})!r}\n"
        "print(json.dumps([gamenight.__file__, [m for m in extras if importlib.util.find_spec(m)],"
        " sys.path]))\n"
    )
    out = _run(installed.bin / "python", "-c", script, cwd=installed.home, env=installed.env)
    where, found, path = json.loads(out.stdout)
    assert Path(where).is_relative_to(installed.home / "venv")
    assert found == []
    assert not any(p.startswith(str(ROOT)) for p in path)
    script = (
        "import importlib.metadata as m\n"
        "print(m.metadata('gamenight')['License-Expression'])\n"
        "[f] = [f for f in m.files('gamenight') if f.name == 'LICENSE']\n"
        "print(f.read_text().splitlines()[0])\n"
    )
    out = _run(installed.bin / "python", "-c", script, cwd=installed.home, env=installed.env)
    assert out.stdout.splitlines() == ["MIT", "MIT License"]


@pytest.mark.parametrize(
    "players",
    [
        ["decathlon", "--players", "bot:random,bot:greedy", "--seed", "7"],
        ["decades", "--players", "Red:bot:expert,Blue:bot:novice", "--seed", "11"],
    ],
)
def test_it_plays_a_line_mode_game_with_bots(installed: Installed, players: list[str]) -> None:
    out = installed.gamenight("play", *players).stdout
    assert "Final standings" in out


def test_it_solves(installed: Installed) -> None:
    data = json.loads(installed.gamenight("solve", "decathlon", "--json").stdout)
    assert len(data["events"]) == 10


def test_it_speaks_german(installed: Installed) -> None:
    out = installed.gamenight("--lang", "de", "list").stdout
    assert "Zehnkampf" in out


def _get(url: str) -> tuple[int, str, bytes]:
    with urllib.request.urlopen(url, timeout=20) as response:
        return int(response.status), response.headers.get("Content-Type", ""), response.read()


def test_it_serves(installed: Installed) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    db = installed.home / "server.sqlite3"
    server = subprocess.Popen(
        [installed.bin / "gamenight", "serve", "--port", str(port), "--no-table-build",
         "--db", f"sqlite:///{db}"],
        cwd=installed.home,
        env=installed.env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                status, kind, page = _get(base + "/")
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(server.stderr.read() if server.stderr else "") from None
                time.sleep(0.2)
        assert status == 200 and kind.startswith("text/html")
        scripts = re.findall(rb'src="(/v/[0-9a-f]{16}/static/[^"]+\.js)"', page)  # versioned
        assert scripts, page[:500]
        status, kind, body = _get(base + scripts[0].decode())
        assert status == 200 and "javascript" in kind and len(body) > 100
        status, _, body = _get(base + "/api/games")
        assert status == 200
        assert {g["id"] for g in json.loads(body)} >= {"decathlon", "dice-duel", "wurfeltod",
                                                       "decades"}  # fmt: skip
        status, _, body = _get(base + "/rules?game=decathlon&lang=de")
        assert status == 200 and "Zehnkampf" in body.decode()
        # the deck catalogue answers (the shipped deck itself plays in test_it_plays)
        status, _, body = _get(base + "/api/games/decades/catalogues/deck")
        assert status == 200 and isinstance(json.loads(body), list), body
        status, _, body = _get(base + "/api/vocabulary/pl/decathlon")
        assert status == 200 and "Dziesięciobój" in body.decode()
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=60)
    with sqlite3.connect(db) as conn:  # the migrations shipped in the wheel ran
        assert conn.execute("SELECT version_num FROM alembic_version").fetchall() == [
            (SCHEMA_HEAD,)
        ]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    assert "rooms" in tables
