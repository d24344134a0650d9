"""Value-table persistence: round trip, cache location, and refusing bad files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from gamenight.core.solver import Progress
from gamenight.games.wurfeltod.categories import Category
from gamenight.games.wurfeltod.solver import (
    FULL_GAME,
    BoxSet,
    ValueTable,
    ValueTableCorruptError,
    ValueTableMissingError,
    ValueTableStaleError,
    build_table,
    default_table_path,
    load_table,
    require_table,
)
from gamenight.games.wurfeltod.solver import build as build_module
from gamenight.games.wurfeltod.solver.build import solve_values
from gamenight.games.wurfeltod.solver.table import CACHE_ENV, read_table, write_table

SMALL = BoxSet(singles=(Category.ANY_PAIR, Category.SIX_STRAIGHT), face_value_boxes=1)


def small_table() -> ValueTable:
    values = np.linspace(-250.0, 1234.5, SMALL.state_count)
    return ValueTable(SMALL, values, info={"build_seconds": 0.5})


def edit_header(path: Path, **changes: object) -> None:
    data = path.read_bytes()
    end = data.index(b"\n")
    header = json.loads(data[:end])
    header.update(changes)
    path.write_bytes(json.dumps(header).encode() + data[end:])


def test_round_trip(tmp_path: Path) -> None:
    path = write_table(small_table(), tmp_path / "sub" / "values.bin")
    table = load_table(path, boxes=SMALL)
    assert table is not None
    assert table.boxes == SMALL
    np.testing.assert_array_equal(table.values, small_table().values)
    assert table.info == {"build_seconds": 0.5}
    assert not table.values.flags.writeable
    assert list(tmp_path.glob("sub/.wurfeltod-*")) == []  # no temporary file left behind


def test_missing_table(tmp_path: Path) -> None:
    path = tmp_path / "absent.bin"
    assert load_table(path) is None
    with pytest.raises(ValueTableMissingError, match="run `gamenight solve wurfeltod`"):
        require_table(path)
    with pytest.raises(ValueTableMissingError):
        read_table(path)


def test_checksum_mismatch(tmp_path: Path) -> None:
    path = write_table(small_table(), tmp_path / "values.bin")
    data = bytearray(path.read_bytes())
    data[-3] ^= 0x40  # one bit of the last value
    path.write_bytes(bytes(data))
    with pytest.raises(ValueTableCorruptError, match="checksum"):
        load_table(path, boxes=SMALL)


def test_truncated_payload(tmp_path: Path) -> None:
    path = write_table(small_table(), tmp_path / "values.bin")
    path.write_bytes(path.read_bytes()[:-8])
    with pytest.raises(ValueTableCorruptError, match="truncated"):
        load_table(path, boxes=SMALL)


@pytest.mark.parametrize("content", [b"", b"garbage", b"\x00" * 100, b'{"format": "x"}\n1234'])
def test_not_a_table(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "values.bin"
    path.write_bytes(content)
    with pytest.raises(ValueTableCorruptError, match="not a Wurfeltod value table"):
        load_table(path)


@pytest.mark.parametrize("key", ["format_version", "solver_version", "rules_digest"])
def test_stale_versions(tmp_path: Path, key: str) -> None:
    path = write_table(small_table(), tmp_path / "values.bin")
    edit_header(path, **{key: 0})
    with pytest.raises(ValueTableStaleError, match=f"{key} is 0"):
        load_table(path, boxes=SMALL)


def test_table_for_other_boxes_is_stale(tmp_path: Path) -> None:
    path = write_table(small_table(), tmp_path / "values.bin")
    with pytest.raises(ValueTableStaleError, match="rebuild"):
        load_table(path)  # the full game is expected by default


def test_malformed_box_set(tmp_path: Path) -> None:
    path = write_table(small_table(), tmp_path / "values.bin")
    edit_header(path, boxes={"singles": ["no-such-category"], "face_value_boxes": 1})
    with pytest.raises(ValueTableCorruptError, match="box set"):
        read_table(path)


def test_cache_location(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "env"))
    assert default_table_path() == tmp_path / "env" / "wurfeltod-values.bin"
    assert default_table_path(tmp_path / "arg") == tmp_path / "arg" / "wurfeltod-values.bin"
    monkeypatch.delenv(CACHE_ENV)
    assert default_table_path().name == "wurfeltod-values.bin"
    assert "gamenight" in str(default_table_path())


def fake_solve(
    boxes: BoxSet = FULL_GAME, *, progress: Progress | None = None
) -> npt.NDArray[np.float64]:
    return np.arange(boxes.state_count, dtype=np.float64)


def test_build_table_keeps_a_valid_table(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(build_module, "solve_values", fake_solve)
    path = build_table(
        tmp_path / "values.bin",
    )
    table = load_table(path)
    assert table is not None
    assert table.values[5] == 5.0
    assert table.info["expected_score"] == 0.0

    def must_not_run(boxes: BoxSet = FULL_GAME, *, progress: Progress | None = None) -> None:
        raise AssertionError("a valid table must not be rebuilt")

    monkeypatch.setattr(build_module, "solve_values", must_not_run)
    before = path.read_bytes()
    assert (
        build_table(
            path,
        )
        == path
    )
    assert path.read_bytes() == before


def test_build_table_replaces_bad_or_forced_tables(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    calls: list[bool] = []
    seen: list[tuple[int, int]] = []

    def counting_solve(
        boxes: BoxSet = FULL_GAME, *, progress: Progress | None = None
    ) -> npt.NDArray[np.float64]:
        calls.append(progress is not None)
        return fake_solve(boxes)

    monkeypatch.setattr(build_module, "solve_values", counting_solve)
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    default_table_path().write_bytes(b"corrupt")
    path = build_table()
    assert path == tmp_path / "wurfeltod-values.bin"
    assert load_table() is not None
    build_table(force=True, progress=lambda done, total: seen.append((done, total)))
    assert calls == [False, True]


def test_solve_reports_progress_through_a_callback() -> None:
    calls: list[tuple[int, int]] = []
    solve_values(SMALL, progress=lambda done, total: calls.append((done, total)))
    total = SMALL.state_count - 1  # every state but the finished game
    assert calls[0] == (0, total) and calls[-1] == (total, total)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
