"""The import-linter contracts (pyproject.toml, `make layers`) name no game: a new game
under gamenight.games is held to them the moment it exists, with no line to add."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT = [
    sys.executable, "-c",
    "import sys; from importlinter.cli import lint_imports_command as c; sys.exit(c())",
]  # fmt: skip


def _contracts() -> list[dict[str, object]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts: list[dict[str, object]] = config["tool"]["importlinter"]["contracts"]
    return contracts


def test_no_contract_names_a_game() -> None:
    games = [p.name for p in (ROOT / "src/gamenight/games").iterdir() if (p / "game.py").exists()]
    assert games  # the built-in games' packages
    text = repr(_contracts())
    for package in games:
        assert f"gamenight.games.{package}" not in text, package


@pytest.mark.parametrize(
    ("where", "line", "broken"),
    [
        ("games/new_game/game.py", "import gamenight.games.decathlon.scoring", "independent"),
        ("games/new_game/game.py", "import gamenight.terminal.ui", "no presentation"),
        ("core/registry.py", "import gamenight.envs", "Layers"),
    ],
)
def test_a_violation_breaks_a_contract(tmp_path: Path, where: str, line: str, broken: str) -> None:
    """On a copy of the source, a new game importing another game or a front end, or the
    core importing a front end, fails `lint-imports`; the copy as it is passes."""
    src = tmp_path / "src"
    shutil.copytree(ROOT / "src/gamenight", src / "gamenight",
                    ignore=shutil.ignore_patterns("__pycache__", "static"))  # fmt: skip
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    new = src / "gamenight/games/new_game"
    new.mkdir()
    (new / "__init__.py").write_text("")
    (new / "game.py").write_text('"""A new game."""\n')

    def lint() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*LINT, "--no-cache", "--config", str(tmp_path / "pyproject.toml")],
            cwd=tmp_path, env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"},
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip

    clean = lint()
    assert clean.returncode == 0, clean.stdout + clean.stderr
    target = src / "gamenight" / where
    target.write_text(target.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")
    dirty = lint()
    assert dirty.returncode != 0
    assert any(broken in row and "BROKEN" in row for row in dirty.stdout.splitlines()), dirty.stdout
