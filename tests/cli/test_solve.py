"""``gamenight solve``: tables and JSON from the exact solvers."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

CliRunner = Callable[[list[str]], tuple[int, str, str]]  # the `cli` fixture


def _wurfeltod_solver() -> None:
    """Skip until Wurfeltod's solver capability (written on its own branch) is merged."""
    pytest.importorskip("gamenight.games.wurfeltod.solver.capability")


def test_decathlon_table(cli: CliRunner) -> None:
    code, out, _ = cli(["solve", "decathlon"])
    assert code == 0
    assert "110 Metre Hurdles" in out and "21.3754" in out
    assert "219.7088" in out  # the sum of the ten event EVs


def test_decathlon_json_has_distributions(cli: CliRunner) -> None:
    code, out, _ = cli(["solve", "decathlon", "--event", "hurdles", "--json"])
    assert code == 0
    data = json.loads(out)
    (event,) = data["events"]
    assert event["event"] == "110m-hurdles"
    assert sum(event["pmf"].values()) == pytest.approx(1.0)
    mean = sum(int(k) * p for k, p in event["pmf"].items())
    assert mean == pytest.approx(event["ev"])
    assert event["p_at_least"]["5"] == pytest.approx(1.0)


def test_unknown_event_is_a_usage_error(cli: CliRunner) -> None:
    code, _, err = cli(["solve", "decathlon", "--event", "marathon"])
    assert code == 2
    assert "marathon" in err


def test_options_are_generic_and_checked_by_the_solver(cli: CliRunner) -> None:
    code, out, _ = cli(["solve", "decathlon", "-o", "events=hurdles,shot", "--json"])
    assert code == 0
    assert [e["event"] for e in json.loads(out)["events"]] == ["shot-put", "110m-hurdles"]
    code, _, err = cli(["solve", "decathlon", "-o", "depth=3"])
    assert code == 2 and "depth" in err
    code, _, err = cli(["solve", "dice-duel"])
    assert code == 2 and err.startswith("gamenight: error:")


def test_the_solve_command_imports_no_game_by_name() -> None:
    source = Path(__file__).parents[2].joinpath("src/gamenight/cli/solve.py").read_text()
    assert "gamenight.games" not in source and "decathlon" not in source.lower().replace(
        "the decathlon's", ""
    )


def test_wurfeltod_builds_then_reuses_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: CliRunner
) -> None:
    _wurfeltod_solver()
    monkeypatch.setenv("GAMENIGHT_CACHE_DIR", str(tmp_path))
    code, out, _ = cli(["solve", "wurfeltod", "--json"])
    assert code == 0
    first = json.loads(out)
    assert first["expected_score"] == pytest.approx(9067.5764, abs=1e-3)
    assert Path(first["table"]).parent == tmp_path
    code, out, _ = cli(["solve", "wurfeltod", "--json"])
    assert json.loads(out)["expected_score"] == first["expected_score"]


def test_unwritable_table_folder_is_one_line_before_solving(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: CliRunner
) -> None:
    _wurfeltod_solver()
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("GAMENIGHT_CACHE_DIR", str(blocker))
    code, out, err = cli(["solve", "wurfeltod", "--json"])
    assert code == 2
    assert err.startswith("gamenight: error: cannot write the value table at")
    assert "Traceback" not in err and out == ""


def test_corrupt_table_names_the_rebuild_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: CliRunner
) -> None:
    (tmp_path / "wurfeltod-values.bin").write_bytes(b"garbage\n" * 10)
    monkeypatch.setenv("GAMENIGHT_CACHE_DIR", str(tmp_path))
    code, _, err = cli(["play", "wurfeltod", "--players", "bot:optimal", "--seed", "1"])
    assert code == 2
    assert "gamenight solve wurfeltod --force" in err


WIN = ["solve", "decathlon", "--two-player-win", "--event", "high-jump,1500m"]


def _win_table(out: str) -> str:
    """The printed table without its last line (the time it took)."""
    lines = out.rstrip("\n").splitlines()
    assert lines[-1].startswith("solved in")
    return "\n".join(lines[:-1])


@pytest.mark.usefixtures("own_table_cache")
def test_two_player_win_prints_the_same_cached_rebuilt_or_upgraded(
    cli: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cached summary (header and W, the stored bound: issue 46) prints byte for byte
    what the built table prints, and what a format-1 file (bound computed again) does."""
    from gamenight.games.decathlon.solver import win2p_store

    runs = {}
    for name, extra in (("built", ["--rebuild"]), ("cached", []), ("rebuilt", ["--force"])):
        monkeypatch.setattr(win2p_store, "_loaded", {})
        code, out_json, _ = cli([*WIN, "--json", *extra])
        assert code == 0
        code, out_table, _ = cli([*WIN, *extra])
        assert code == 0
        runs[name] = (out_json, _win_table(out_table))
    assert runs["built"] == runs["cached"] == runs["rebuilt"]
    data = json.loads(runs["cached"][0])
    assert 0 < data["error_bound"] <= 1e-10
    # a format-1 file (no bound): read, its bound computed, printed the same
    table = win2p_store.table_for(("high-jump", "1500m"))
    assert table is not None
    v2 = win2p_store.table_path(table.events)
    v1 = win2p_store.table_path(table.events, version=1)
    meta = {**json.loads(_meta(v2)), "version": 1}
    del meta["bound"]
    _rewrite_meta(v2, v1, meta)
    v2.unlink()
    monkeypatch.setattr(win2p_store, "_loaded", {})
    code, out_json, _ = cli([*WIN, "--json"])
    assert code == 0 and out_json == runs["built"][0]
    assert v2.exists()  # written back with its bound


def _meta(path: Path) -> str:
    import numpy as np

    with np.load(path) as data:
        return bytes(data["meta"]).decode()


def _rewrite_meta(source: Path, target: Path, meta: dict[str, object]) -> None:
    import numpy as np

    with np.load(source) as data:
        arrays = {name: np.array(data[name]) for name in data.files}
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    with target.open("wb") as out:
        np.savez(out, **arrays)  # type: ignore[arg-type]


@pytest.mark.usefixtures("own_table_cache")
def test_a_damaged_win_table_is_one_line_naming_the_rebuild(
    cli: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    from gamenight.games.decathlon.solver import win2p_store

    code, _, _ = cli([*WIN, "--json"])
    assert code == 0
    path = win2p_store.table_path(("high-jump", "1500m"))
    path.write_bytes(path.read_bytes()[:-64])  # truncated
    monkeypatch.setattr(win2p_store, "_loaded", {})
    code, out, err = cli([*WIN, "--json"])
    assert code == 2 and out == ""
    assert err.startswith("gamenight: error: the two-player win table ")
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "`gamenight solve decathlon --two-player-win --rebuild --event high-jump,1500m`" in err
    code, _, _ = cli([*WIN, "--json", "--rebuild"])
    assert code == 0
