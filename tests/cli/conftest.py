from __future__ import annotations

from collections.abc import Callable

import pytest

from gamenight.cli.main import run

CliRunner = Callable[[list[str]], tuple[int, str, str]]


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> CliRunner:
    """Run ``gamenight ARGV``; returns (exit code, stdout, stderr)."""

    def invoke(argv: list[str]) -> tuple[int, str, str]:
        code: int = 0
        try:
            run(argv)
        except SystemExit as exit_info:
            code = exit_info.code if isinstance(exit_info.code, int) else 1
        out, err = capsys.readouterr()
        return code, out, err

    return invoke
