"""The real ``gamenight`` in a child process, as a player's shell runs it, for the tests
that read what it prints in each language (the language comes from ``--lang``, never from
this machine's locale)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path


def run_gamenight(
    args: list[str],
    *,
    home: Path | None = None,
    columns: int = 100,
    env: Mapping[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``gamenight ARGS`` with stdin closed and no ``LANG``/``LANGUAGE``/``LC_*`` (``env``
    may set them again); with ``home``, its data folder (``XDG_DATA_HOME``) is there and
    it runs in line mode."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    for name in ("LANG", "LANGUAGE"):
        environ.pop(name, None)
    environ["COLUMNS"] = str(columns)
    if home is not None:
        environ.update(XDG_DATA_HOME=str(home), GAMENIGHT_PLAIN="1")
    environ.update(env or {})
    return subprocess.run(
        [sys.executable, "-c", "from gamenight.cli.main import run; run()", *args],
        input="",
        capture_output=True,
        text=True,
        env=environ,
        timeout=300,
        check=False,
    )


def python_stdout(script: str, env: Mapping[str, str] | None = None) -> str:
    """What ``python -c SCRIPT`` prints in a fresh interpreter (a clean ``sys.modules``);
    the calling test fails, showing the child's standard error, unless it exits 0."""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env
    )
    assert done.returncode == 0, done.stderr
    return done.stdout
