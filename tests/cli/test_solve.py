"""``gamenight solve``: tables and JSON from the exact solvers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gamenight.cli.main import run


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        run(argv)
        raise SystemExit(0)
    out, err = capsys.readouterr()
    code = exit_info.value.code
    return int(code) if isinstance(code, int) else 0, out, err


def test_decathlon_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["solve", "decathlon"], capsys)
    assert code == 0
    assert "110 Metre Hurdles" in out and "21.3754" in out
    assert "219.7088" in out  # the sum of the ten event EVs


def test_decathlon_json_has_distributions(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(["solve", "decathlon", "--event", "hurdles", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    (event,) = data["events"]
    assert event["event"] == "110m-hurdles"
    assert sum(event["pmf"].values()) == pytest.approx(1.0)
    mean = sum(int(k) * p for k, p in event["pmf"].items())
    assert mean == pytest.approx(event["ev"])
    assert event["p_at_least"]["5"] == pytest.approx(1.0)


def test_unknown_event_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(["solve", "decathlon", "--event", "marathon"], capsys)
    assert code == 2
    assert "marathon" in err


def test_wurfeltod_builds_then_reuses_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GAMENIGHT_CACHE_DIR", str(tmp_path))
    code, out, _ = _run(["solve", "wurfeltod", "--json"], capsys)
    assert code == 0
    first = json.loads(out)
    assert first["expected_score"] == pytest.approx(9067.5764, abs=1e-3)
    assert Path(first["table"]).parent == tmp_path
    code, out, _ = _run(["solve", "wurfeltod", "--json"], capsys)
    assert json.loads(out)["expected_score"] == first["expected_score"]
