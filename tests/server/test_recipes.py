"""The systemd recipe of docs/deploy.md (issue 39): the unit, taken from the page, passes
``systemd-analyze verify``, and the server starts with exactly its ``Environment=``
settings. (systemd is not PID 1 in the test container: the unit is verified, not run by
systemd.)"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from served import Served

DOC = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"


def unit_from_docs() -> str:
    blocks = re.findall(r"```ini\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    units = [b for b in blocks if "[Service]" in b]
    assert len(units) == 1, "docs/deploy.md should hold one systemd unit"
    return str(units[0])


def _verify(unit: str, folder: Path) -> subprocess.CompletedProcess[str]:
    if shutil.which("systemd-analyze") is None:
        pytest.fail("systemd-analyze is missing: install Debian's systemd")
    path = folder / "gamenight.service"
    path.write_text(unit)
    return subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    unit = unit_from_docs()
    here = Path(sys.executable).parent / "gamenight"
    assert "ExecStart=/opt/gamenight/.venv/bin/gamenight serve" in unit
    ours = unit.replace("/opt/gamenight/.venv/bin/gamenight", str(here))
    done = _verify(ours, tmp_path)
    complaints = [line for line in done.stderr.splitlines() if "gamenight.service" in line]
    assert done.returncode == 0 and not complaints, done.stderr
    # the check is real: a unit with a wrong key or a missing program is flagged
    broken = _verify(
        ours.replace("KillSignal=", "KilSignal=").replace(str(here), "/nope/x"), tmp_path
    )
    assert broken.returncode != 0 or "gamenight.service" in broken.stderr, broken


def test_the_server_starts_with_the_units_settings(tmp_path: Path) -> None:
    env = dict(re.findall(r"^Environment=(GAMENIGHT_\w+)=(.*)$", unit_from_docs(), re.M))
    assert {"GAMENIGHT_DB", "GAMENIGHT_PORT", "GAMENIGHT_TRUSTED_PROXY"} <= set(env)
    env["GAMENIGHT_DB"] = f"sqlite:///{tmp_path / 'rooms.sqlite3'}"  # not /var/lib here
    env["GAMENIGHT_PORT"] = "0"
    env["GAMENIGHT_CACHE_DIR"] = str(tmp_path / "cache")
    env["GAMENIGHT_LOG_LEVEL"] = "debug"  # lines to read (info is quiet on a good start)
    with Served([], env) as server:
        assert httpx.get(f"{server.url}/readyz").status_code == 200
        assert "Players open https://games.example.org/" in server.stdout()
    assert server.stderr() and all(line.startswith("{") for line in server.stderr().splitlines())
