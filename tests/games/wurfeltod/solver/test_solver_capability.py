"""The solver capability (``GameInfo.solver``): everything ``gamenight solve`` needs."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from gamenight.core import registry
from gamenight.core.errors import GamenightError, OptionsError
from gamenight.core.solver import Progress, Solution, Solver
from gamenight.games.wurfeltod.solver import FULL_GAME, BoxSet
from gamenight.games.wurfeltod.solver import build as build_module
from gamenight.games.wurfeltod.solver.capability import SOLVER, WurfeltodSolution
from gamenight.games.wurfeltod.solver.table import CACHE_ENV

TODAY_JSON_KEYS = {"game", "objective", "expected_score", "table", "seconds"}


def test_the_registry_names_the_solver_and_it_meets_the_protocol() -> None:
    solver: Solver = SOLVER  # mypy checks the protocol
    assert registry.get("wurfeltod").solver is solver
    assert solver.options == ()
    solution: Solution = WurfeltodSolution(expected_score=1.0, table="t", seconds=0.0)
    assert solution.title


def test_solve_builds_with_progress_then_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    calls: list[tuple[int, int]] = []
    solution = SOLVER.solve({}, progress=lambda done, total: calls.append((done, total)))
    assert solution.expected_score == pytest.approx(9067.5764, abs=1e-3)
    assert Path(solution.table) == tmp_path / "wurfeltod-values.bin"
    total = FULL_GAME.state_count - 1
    assert calls[0] == (0, total) and calls[-1] == (total, total)

    # What `gamenight solve wurfeltod` prints: a title, a table and the JSON of today.
    assert solution.title == "Wurfeltod: optimal solitaire play (exact)"
    rows = [list(row) for row in solution.rows()]
    assert all(len(row) == len(solution.columns()) for row in rows)
    assert rows[0][0] == "Expected score of a new solitaire game under optimal play"
    assert rows[0][1] == f"{solution.expected_score:,.4f}"  # English groups thousands
    assert rows[1][0] == "value table" and rows[1][1].startswith(f"{tmp_path}")
    data = json.loads(json.dumps(solution.to_json()))
    assert set(data) == TODAY_JSON_KEYS
    assert data["game"] == "wurfeltod" and data["objective"] == "expected-final-score"
    assert data["expected_score"] == solution.expected_score
    assert data["table"] == solution.table

    calls.clear()
    again = SOLVER.solve({}, progress=lambda done, total: calls.append((done, total)))
    assert again.expected_score == solution.expected_score and calls == []  # loaded


def test_rebuild_solves_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    solved: list[bool] = []

    def fake_solve(
        boxes: BoxSet = FULL_GAME, *, progress: Progress | None = None
    ) -> npt.NDArray[np.float64]:
        solved.append(progress is not None)
        return np.full(boxes.state_count, 12.5)

    monkeypatch.setattr(build_module, "solve_values", fake_solve)
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    assert SOLVER.solve({}).expected_score == 12.5
    assert SOLVER.solve({}).expected_score == 12.5
    assert SOLVER.solve({}, rebuild=True, progress=lambda d, t: None).expected_score == 12.5
    assert solved == [False, True]


def test_options_are_refused() -> None:
    with pytest.raises(OptionsError, match="no option 'event'"):
        SOLVER.solve({"event": "x"})


def test_unwritable_folder_is_one_line_before_solving(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def must_not_run(boxes: BoxSet = FULL_GAME, *, progress: Progress | None = None) -> None:
        raise AssertionError("no solve before the folder is known to be writable")

    monkeypatch.setattr(build_module, "solve_values", must_not_run)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(CACHE_ENV, str(blocker))
    with pytest.raises(GamenightError) as caught:
        SOLVER.solve({})
    message = str(caught.value)
    assert message.startswith("cannot write the value table at") and "\n" not in message
