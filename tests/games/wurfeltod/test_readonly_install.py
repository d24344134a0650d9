"""No global side effects (issue 9 §6): a read-only, non-editable install plays and solves.

The package is installed with ``pip install --no-deps --target DIR`` from this
checkout, made read-only, and run from there with a fresh HOME and
XDG_CACHE_HOME: it solves (compiling the solver's kernel in memory), plays, and
writes nothing, neither inside the install nor in the home or cache directories.
"""

from __future__ import annotations

import gc
import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from gamenight.games.wurfeltod import bots
from gamenight.games.wurfeltod.solver import ValueTable

ROOT = Path(__file__).resolve().parents[3]

SCRIPT = """
import json, random, sys
import gamenight
from gamenight.core.runner import play_match
from gamenight.games.wurfeltod.bots import GreedyBot
from gamenight.games.wurfeltod.booking import evaluate
from gamenight.games.wurfeltod.categories import Category
from gamenight.games.wurfeltod.game import GAME
from gamenight.games.wurfeltod.solver import (
    Book, BoxSet, Scratch, SetAside, ValueTable, best_option, expected_score, solve_values
)
# A tiny solitaire game over three boxes, played optimally from its solved table.
boxes = BoxSet(singles=(Category.ANY_PAIR, Category.SIX_STRAIGHT), face_value_boxes=1)
table = ValueTable(boxes, solve_values(boxes))
rng = random.Random(1)
used, score = {}, 0
for _ in range(boxes.turns):
    aside, rolled = (), tuple(rng.randint(1, 6) for _ in range(6))
    while True:
        option, _ = best_option(table, used, aside, rolled, first_roll=not aside)
        if isinstance(option, SetAside):
            aside += option.dice
            rolled = tuple(rng.randint(1, 6) for _ in range(6 - len(aside)))
            continue
        if isinstance(option, Book):
            score += evaluate(aside, rolled)[option.category].score
        used[option.category] = used.get(option.category, 0) + 1
        break
results, _ = play_match(GAME, [GreedyBot(0)], seed=3)
print(json.dumps({
    "package": gamenight.__file__,
    "ev": expected_score(table),
    "score": score,
    "greedy": results.scores[0],
}))
"""


def _writable_again(path: Path) -> None:
    for folder, _, files in os.walk(path):
        os.chmod(folder, stat.S_IRWXU)
        for name in files:
            os.chmod(os.path.join(folder, name), stat.S_IRUSR | stat.S_IWUSR)


@pytest.fixture
def readonly_install(tmp_path: Path) -> Iterator[Path]:
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target",
         str(target), str(ROOT)],
        check=True,
        capture_output=True,
        env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
    )  # fmt: skip
    subprocess.run(["chmod", "-R", "a-w", str(target)], check=True)
    try:
        yield target
    finally:
        _writable_again(target)


def _files(path: Path, pattern: str) -> list[Path]:
    return sorted(path.rglob(pattern))


@pytest.mark.slow
def test_a_read_only_install_solves_and_plays(readonly_install: Path, tmp_path: Path) -> None:
    home, cache = tmp_path / "home", tmp_path / "cache"
    home.mkdir()
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("GAMENIGHT_", "PYTHON", "XDG_"))
    }
    env |= {"PYTHONPATH": str(readonly_install), "HOME": str(home), "XDG_CACHE_HOME": str(cache)}
    before = {p: p.stat().st_mtime_ns for p in readonly_install.rglob("*")}

    def run() -> dict[str, object]:
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT], env=env, cwd=tmp_path, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        report: dict[str, object] = json.loads(done.stdout)
        return report

    first = run()
    assert str(first["package"]).startswith(str(readonly_install))
    assert isinstance(first["score"], int) and isinstance(first["greedy"], int | float)
    assert _files(home, "*") == [] and _files(cache, "*") == []  # nothing cached, nothing left

    second = run()
    assert second == first
    assert {p: p.stat().st_mtime_ns for p in readonly_install.rglob("*")} == before


def test_bot_constructors_make_no_process_wide_switches(full_table: ValueTable) -> None:
    source = Path(bots.__file__).read_text(encoding="utf-8")
    assert "import gc" not in source and "gc." not in source
    frozen, enabled = gc.get_freeze_count(), gc.isenabled()
    bots.GreedyBot(0)
    bots.OptimalBot(0, table=full_table)
    assert (gc.get_freeze_count(), gc.isenabled()) == (frozen, enabled)
