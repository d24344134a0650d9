"""Optimal-play hints in the Wurfeltod terminal UI (``?``, ``h`` and ``??``), scripted.

The hints render the game's :class:`~gamenight.core.advice.Advice`
(:func:`gamenight.games.wurfeltod.advisor.advise`) with :mod:`gamenight.terminal.advice`.
"""

from __future__ import annotations

import fcntl
import io
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console

from gamenight.core.dice import ScriptedDice
from gamenight.games.wurfeltod import advisor
from gamenight.games.wurfeltod.categories import Category
from gamenight.games.wurfeltod.game import GAME
from gamenight.games.wurfeltod.rules import Book, SetAside, WurfeltodState
from gamenight.games.wurfeltod.solver import (
    TYPICAL_BUILD_SECONDS,
    ValueTable,
    build_table,
    default_table_path,
    require_table,
)
from gamenight.games.wurfeltod.solver.table import CACHE_ENV
from gamenight.terminal.ui import Prompter, Seating
from gamenight.terminal.wurfeltod import HINT_ROWS, UI, command_text, parse_command

TABLE = Seating(names=("Ann", "Bob"), humans=frozenset({0}))


@pytest.fixture(autouse=True)
def empty_cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No test reads the user's real cache: the default table location is empty."""
    empty = tmp_path / "empty-cache"
    empty.mkdir()
    monkeypatch.setenv(CACHE_ENV, str(empty))
    return empty


@pytest.fixture(scope="session")
def full_table_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding the solved full-game table, shared with tests/games/wurfeltod."""
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    where = shared / "wurfeltod-full-table"
    where.mkdir(exist_ok=True)
    with (shared / "wurfeltod-full-table.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        build_table(where / "wurfeltod-values.bin")  # keeps a valid one
    return where


@pytest.fixture(scope="session")
def full_table(full_table_path: Path) -> ValueTable:
    return require_table(full_table_path / "wurfeltod-values.bin")


FIRST_ROLL = (1, 1, 2, 3, 4, 4)
DISTINCT_OPTIONS = 19 + 19 + 34  # bookings, scratches, set-asides of distinct dice values


def first_roll() -> WurfeltodState:
    state: WurfeltodState = GAME.start(
        2, GAME.parse_options(), ScriptedDice(FIRST_ROLL + (6,) * 12)
    ).state
    return state


def play(*lines: str) -> tuple[object, str]:
    """Ask the UI on the first roll with these lines typed; (the action, the screen)."""
    out = io.StringIO()
    feed: Iterator[str] = iter(lines)
    prompter = Prompter(Console(file=out, width=120, color_system=None), lambda _: next(feed))
    state = first_roll()
    action = UI().ask(prompter, GAME.view(state, 0), GAME.legal_actions(state, 0), 0, TABLE)
    return action, out.getvalue()


def option_rows(screen: str) -> list[tuple[str, str, str, str]]:
    """(command, option, expected score, vs best) for each row of the hint tables."""
    rows = []
    for line in screen.splitlines():
        parts = line.split()
        while parts and set(parts[0]) <= {"★", "☆"}:
            parts = parts[1:]  # the best options' marks
        if len(parts) < 4 or not all(_is_number(p) for p in parts[-2:]):
            continue
        body = parts[:-2]
        verbs = [i for i, word in enumerate(body) if word in ("set", "book", "scratch")]
        if not verbs or body[0] not in ("a", "b", "x"):
            continue
        command, option = " ".join(body[: verbs[0]]), " ".join(body[verbs[0] :])
        rows.append((command, option, parts[-2], parts[-1]))
    return rows


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def test_without_a_table_the_hint_says_how_to_build_one() -> None:
    action, screen = play("?", "a 1 2 5 6")  # the autouse fixture: an empty cache dir
    assert action == SetAside((0, 1, 4, 5))
    assert "Commands" in screen
    text = " ".join(screen.split())  # Rich wraps long lines
    assert (
        "Hint: no optimal-play value table yet: run `gamenight solve wurfeltod` to build it "
        f"(takes about {TYPICAL_BUILD_SECONDS} s)"
    ) in text
    assert option_rows(screen) == []


def test_a_corrupt_table_is_reported_not_raised(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    default_table_path().write_bytes(b"\x00garbage")
    _, screen = play("h", "b f")
    text = " ".join(screen.split())
    assert "Hint: the value table cannot be used" in text and "not a Wurfeltod value table" in text
    assert "run `gamenight solve wurfeltod` to build it" in text and "Traceback" not in text


@pytest.fixture
def solved(full_table_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV, str(full_table_path))


@pytest.mark.usefixtures("solved")
def test_question_mark_shows_the_optimal_action_and_the_best_options(
    full_table: ValueTable,
) -> None:
    action, screen = play("?", "b f")
    assert action == Book(Category.FACE_VALUE)
    assert "Commands" in screen
    state = first_roll()
    view, legal = GAME.view(state, 0), GAME.legal_actions(state, 0)
    values = advisor.option_values(full_table, view, legal)
    best, best_value = advisor.best_action(full_table, view, legal)
    assert f"Hint: the optimal play is {command_text(best)} (" in screen
    assert f"expected final score {best_value:,.1f}" in screen

    rows = option_rows(screen)
    assert len(rows) == HINT_ROWS
    assert rows[0][0] == command_text(best) and rows[0][3] == "0.00"
    shown = []
    for command, _, value, _ in rows:
        typed = parse_command(command, view, legal)  # each command is typeable as shown
        assert not isinstance(typed, str)
        assert value == f"{values[typed]:.2f}"
        shown.append(typed)
    assert [values[a] for a in shown] == sorted((values[a] for a in shown), reverse=True)
    assert values[shown[0]] == max(values.values())
    # Every option left out is worth at most the last one shown.
    kept = {advisor.solver_option(a, view.rolled) for a in shown}
    assert len(kept) == HINT_ROWS
    left_out = [values[a] for a in legal if advisor.solver_option(a, view.rolled) not in kept]
    assert max(left_out) <= values[shown[-1]]
    assert f"… and {DISTINCT_OPTIONS - HINT_ROWS} more options: type ??" in screen


@pytest.mark.usefixtures("solved")
def test_double_question_mark_lists_every_option_once(full_table: ValueTable) -> None:
    _, screen = play("??", "b f")
    assert "Commands" not in screen  # ?? is the table alone
    rows = option_rows(screen)
    assert len(rows) == DISTINCT_OPTIONS
    assert "more options" not in screen
    state = first_roll()
    view, legal = GAME.view(state, 0), GAME.legal_actions(state, 0)
    typed = [parse_command(command, view, legal) for command, *_ in rows]
    kinds = {type(t).__name__ for t in typed}
    assert kinds == {"Book", "Scratch", "SetAside"}
    kept = {tuple(sorted(FIRST_ROLL[i] for i in t.dice)) for t in typed if isinstance(t, SetAside)}
    assert len(kept) == 34  # one row per distinct set-aside
    values = [float(value) for _, _, value, _ in rows]
    assert values == sorted(values, reverse=True)
    books = {row[1] for row in rows if row[0] == "b 4"}
    assert books == {"book 4-4-4: 0 ☠ -250"}  # two 4s only: the box scores 0 (W3)
    assert "Booking now brings a Wurfeltod (-250) in: Any Pair, Two Pair," in screen


def test_no_hint_once_the_game_is_over() -> None:
    state = first_roll()
    done = GAME.view(WurfeltodState(state.dice, state.cards, finished=True), 0)
    assert UI().hint(done, []) is None
