"""The command line: usage errors are one line with exit code 2."""

from __future__ import annotations

import pytest

from gamenight.cli.main import run


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_info:
        run(argv)
        raise SystemExit(0)
    out, err = capsys.readouterr()
    code = exit_info.value.code
    return int(code) if isinstance(code, int) else 0, out, err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bogus"], "No such command 'bogus'"),
        (["play"], "Missing argument 'GAME'"),
        (["play", "chess", "--players", "a"], "unknown game 'chess'"),
        (["play", "decathlon", "--players", "a", "--seed", "x"], "not a valid integer"),
        (["rules", "nope"], "unknown game 'nope'"),
    ],
)
def test_usage_errors_are_one_line_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(argv, capsys)
    assert code == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_replay_of_missing_file_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(["replay", "/nonexistent/record.jsonl"], capsys)
    assert code == 1
    assert "no such record file" in err
