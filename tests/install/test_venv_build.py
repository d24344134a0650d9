"""How the Makefile builds the venv (issue 39): a Python older than 3.11 is refused in
one line before anything is created, and a build that fails or is interrupted leaves no
venv the next run trusts. Run on a copy of the Makefile, pyproject.toml and the locks in
a temporary folder, offline (pip sees no index), so it is quick and never touches this
checkout's .venv."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BASE_PYTHON = Path(sys.base_prefix) / "bin" / "python3"


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A copy of what the venv's build reads."""
    shutil.copy(ROOT / "Makefile", tmp_path)
    shutil.copy(ROOT / "pyproject.toml", tmp_path)
    shutil.copytree(ROOT / "requirements", tmp_path / "requirements")
    return tmp_path


def _env(**more: str) -> dict[str, str]:
    """No pip configuration of this machine (its local indexes), and no index at all
    unless ``more`` gives one."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "MAKE", "VIRTUAL"))}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_DISABLE_PIP_VERSION_CHECK="1")
    env.update(more if "PIP_INDEX_URL" in more else {"PIP_NO_INDEX": "1", **more})
    return env


def _make(checkout: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["make", "--no-print-directory", *args],
        cwd=checkout,
        env=_env(**env),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


FAKE_PYTHON = """#!/bin/sh
# Python 3.10 as the Makefile sees it; anything else it is asked to do is noted.
case "$1" in
  --version) echo "Python 3.10.12"; exit 0 ;;
  -c) echo old; exit 0 ;;
esac
echo "$@" >> "$(dirname "$0")/asked"
exit 1
"""


@pytest.mark.parametrize("target", ["play", "serve", "test", "lint"])
def test_an_old_python_is_refused_in_one_line_before_anything_is_made(
    checkout: Path, target: str
) -> None:
    fake = checkout / "bin" / "python3.10"
    fake.parent.mkdir()
    fake.write_text(FAKE_PYTHON)
    fake.chmod(0o755)
    done = _make(checkout, target, f"PYTHON={fake}")
    assert done.returncode == 2
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    assert re.fullmatch(r"Makefile:\d+: \*\*\* (.*)\.  Stop\.", line)
    assert line.split("*** ", 1)[1] == (
        f"gamenight needs Python 3.11 or newer, and PYTHON={fake} is Python 3.10.12: "
        f"run make PYTHON=python3.11 (or newer) {target}.  Stop."
    )
    assert not (checkout / ".venv").exists()
    assert not (fake.parent / "asked").exists()  # never asked to make a venv


def test_a_missing_python_is_refused_the_same_way(checkout: Path) -> None:
    done = _make(checkout, "play", "PYTHON=/nonexistent/python3")
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1
    assert "PYTHON=/nonexistent/python3 is not found" in done.stderr
    assert not (checkout / ".venv").exists()


def _breaking(checkout: Path) -> None:
    """The core lock names a package no index has: pip's install fails."""
    (checkout / "requirements" / "core.lock").write_text(
        "gamenight-no-such-package==1.0 \\\n    --hash=sha256:" + "0" * 64 + "\n"
    )


def test_a_failed_install_leaves_no_venv(checkout: Path) -> None:
    _breaking(checkout)
    done = _make(checkout, "play", f"PYTHON={BASE_PYTHON}")
    assert done.returncode != 0
    assert "gamenight-no-such-package" in done.stderr
    assert not (checkout / ".venv").exists()


def test_an_unstamped_venv_is_not_trusted(checkout: Path) -> None:
    """What an interrupted build leaves (a venv, no stamp) is removed before anything
    else, however the next build ends."""
    venv = checkout / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(BASE_PYTHON)
    (venv / "left-over").write_text("from an interrupted build")
    _breaking(checkout)
    done = _make(checkout, "play", f"PYTHON={BASE_PYTHON}")
    assert "removing .venv: no finished build stamped it" in done.stdout
    assert not (venv / "left-over").exists()
    assert done.returncode != 0 and not venv.exists()


def test_an_interrupted_build_is_not_trusted(checkout: Path) -> None:
    """Interrupted (SIGINT to make's process group) while pip waits for an index: no
    stamp exists afterwards, and the next run starts again from scratch."""
    with socket.socket() as index:  # an index that takes the connection and never answers
        index.bind(("127.0.0.1", 0))
        index.listen()
        url = f"http://127.0.0.1:{index.getsockname()[1]}/simple/"
        build = subprocess.Popen(
            ["make", "--no-print-directory", "play", f"PYTHON={BASE_PYTHON}"],
            cwd=checkout,
            env=_env(PIP_INDEX_URL=url, PIP_DEFAULT_TIMEOUT="120"),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
        try:
            index.settimeout(240)
            connection, _ = index.accept()  # pip is installing, inside the venv
            connection.close()
        finally:
            os.killpg(build.pid, signal.SIGINT)
            build.wait(timeout=60)
    assert build.returncode != 0
    venv = checkout / ".venv"
    assert not (venv / ".installed-core").exists() and not (venv / ".installed").exists()
    left = venv.exists()  # make may have removed it itself (the failed pip's `rm -rf`)
    _breaking(checkout)
    again = _make(checkout, "play", f"PYTHON={BASE_PYTHON}")
    assert ("removing .venv: no finished build stamped it" in again.stdout) == left
    assert not venv.exists()
