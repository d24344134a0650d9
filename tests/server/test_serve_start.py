"""``gamenight serve``'s start (issue 39): the URL printed after binding, with the real
port; every refusal one line on stderr and status 3 (a bad setting: status 2, naming its
flag and variable); the settings table of docs/deploy.md made from the one definition."""

from __future__ import annotations

import socket
import sqlite3
from pathlib import Path

import httpx
import pytest
from served import Served, refused

from gamenight.server.db import migrate
from gamenight.server.settings import SETTINGS, markdown_table

DOCS = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"


def _db(tmp_path: Path, name: str = "db.sqlite3") -> str:
    return f"sqlite:///{tmp_path / name}"


def test_port_0_prints_the_real_port_after_binding_and_says_loopback_is_private(
    tmp_path: Path,
) -> None:
    with Served(["--port", "0", "--db", _db(tmp_path)]) as server:
        assert server.port != 0
        assert httpx.get(f"{server.url}/healthz").json() == {"status": "ok"}
        out = server.stdout()
        assert out.startswith(f"gamenight is serving at http://127.0.0.1:{server.port}/"), out
        assert "Only this computer can open it" in out and "--host 0.0.0.0" in out


def test_listening_everywhere_names_no_loopback_restriction(tmp_path: Path) -> None:
    with Served(["--host", "0.0.0.0", "--port", "0", "--db", _db(tmp_path)]) as server:
        assert httpx.get(f"{server.url}/healthz").status_code == 200
        assert "Only this computer" not in server.stdout()


def _one_line(status: int, lines: list[str], out: str, *words: str) -> None:
    assert status == 3, (status, lines)
    assert len(lines) == 1, lines  # one line, no traceback
    assert lines[0].startswith("gamenight: "), lines
    for word in words:
        assert word in lines[0], lines
    assert "serving at" not in out  # never announced


def test_a_taken_port_is_one_line_and_status_3(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, lines, out = refused(["--port", str(port), "--db", _db(tmp_path)])
    _one_line(status, lines, out, f"127.0.0.1:{port}", "in use")


def test_a_file_that_is_not_a_database_is_one_line_and_status_3(tmp_path: Path) -> None:
    (tmp_path / "db.sqlite3").write_bytes(b"these are the minutes of the club meeting\n" * 100)
    _one_line(*refused(["--port", "0", "--db", _db(tmp_path)]), "not an SQLite database")


def test_a_damaged_database_is_one_line_and_status_3(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    migrate(f"sqlite:///{path}")
    with sqlite3.connect(path) as conn:  # some pages to damage
        conn.execute("CREATE INDEX extra ON rooms (game, status, created_at)")
    data = bytearray(path.read_bytes())
    page = 4096
    for at in range(page, len(data), page):  # every page's header but the first
        data[at : at + 12] = b"\xff" * 12
    path.write_bytes(bytes(data))
    _one_line(*refused(["--port", "0", "--db", _db(tmp_path)]), "damaged")


def test_another_programs_database_is_one_line_and_status_3(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / "db.sqlite3") as conn:
        conn.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
    _one_line(*refused(["--port", "0", "--db", _db(tmp_path)]), "customers", "not gamenight's")


def test_a_database_of_a_newer_gamenight_is_one_line_and_status_3(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    migrate(f"sqlite:///{path}")
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999'")
    _one_line(*refused(["--port", "0", "--db", _db(tmp_path)]), "cannot be used", "9999")


@pytest.mark.parametrize("url", ["mysql://games@db/gamenight", "games.sqlite3"])
def test_an_unknown_database_kind_is_one_line_and_status_3(url: str) -> None:
    _one_line(*refused(["--port", "0", "--db", url]), "--db", "unknown database kind")


def test_a_second_process_on_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    with Served(["--port", "0", "--db", _db(tmp_path)]) as first:
        _one_line(*refused(["--port", "0", "--db", _db(tmp_path)]), "another gamenight server")
        assert httpx.get(f"{first.url}/readyz").status_code == 200  # the first one goes on
    # once it has stopped, the file is free again
    with Served(["--port", "0", "--db", _db(tmp_path)]) as again:
        assert httpx.get(f"{again.url}/readyz").status_code == 200


def env_flags(env: dict[str, str]) -> list[str]:
    return [s.flag for s in SETTINGS if s.env in env]


# ----- settings -----------------------------------------------------------------------------
BAD = [  # (flag, value, words of the error): one of each kind of check
    ("--port", "http", "whole number"),
    ("--port", "70000", "whole number"),
    ("--wait-for-db", "-1", "number"),
    ("--msg-rate", "0", "above 0"),
    ("--abuse-limit", "2.5", "whole number"),
    ("--log-format", "xml", "text, json"),
    ("--log-level", "loud", "debug, info"),
    ("--access-log", "maybe", "true/false"),
    ("--host", "a b", "address"),
    ("--public-url", "ftp://games.example.org", "origin"),
    ("--origin", "https://games.example.org/path", "origin"),
    ("--trusted-proxy", "300.1.2.3/8", "network"),
    ("--metrics-listen", "nowhere", "HOST:PORT"),
    ("--metrics", "maybe", "on, off"),
    ("--db", "sqlite:///a b", "URL"),
]


@pytest.mark.parametrize(("flag", "value", "words"), BAD, ids=[f"{f}={v}" for f, v, _ in BAD])
@pytest.mark.parametrize("way", ["flag", "env"])
def test_a_bad_setting_is_one_line_naming_its_flag_and_variable(
    flag: str, value: str, words: str, way: str, tmp_path: Path
) -> None:
    setting = next(s for s in SETTINGS if s.flag == flag)
    if way == "env" or setting.flag_pair:
        args, env = [], {setting.env: value}
    else:
        args, env = [flag, value], {}
    given = {flag, *env_flags(env)}
    rest = [*(["--db", _db(tmp_path)] if "--db" not in given else [])]
    rest += ["--port", "0"] if "--port" not in given else []
    status, lines, out = refused([*args, *rest], env)
    assert status == 2, (status, lines)
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"gamenight serve: {flag} ({setting.env}): "), lines
    assert words in lines[0], lines
    assert "serving at" not in out


def test_settings_come_from_the_environment_and_flags_win(tmp_path: Path) -> None:
    env = {"GAMENIGHT_PORT": "0", "GAMENIGHT_LOG_FORMAT": "json", "GAMENIGHT_METRICS": "off"}
    env["GAMENIGHT_ACCESS_LOG"] = "on"
    with Served(["--db", _db(tmp_path), "--metrics", "on"], env) as server:
        assert server.port != 0  # GAMENIGHT_PORT=0: any free port
        assert httpx.get(f"{server.url}/metrics").status_code == 200  # the flag won
        httpx.get(f"{server.url}/healthz")
    assert '"logger": "uvicorn.access"' in server.stderr()  # GAMENIGHT_LOG_FORMAT=json


def test_every_setting_is_in_the_table_of_deploy_md() -> None:
    text = DOCS.read_text(encoding="utf-8")
    start = text.index("<!-- settings:begin -->\n") + len("<!-- settings:begin -->\n")
    end = text.index("<!-- settings:end -->")
    assert text[start:end] == markdown_table(), (
        "docs/deploy.md's settings table is not the settings' own: paste the output of "
        '`python -c "from gamenight.server.settings import markdown_table as t; print(t())"`'
    )
    names = {s.flag for s in SETTINGS}
    assert len(names) == len(SETTINGS)
