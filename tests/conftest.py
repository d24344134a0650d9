"""Run-wide hooks: the browser tests' screenshots (tests/web) are cleared at the start
and listed at the end of the run. This is the conftest the xdist controller loads."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from web.fixtures import browser, context, page, server

__all__ = ["browser", "context", "page", "server"]

# --doctest-modules would import this file as a module named "conftest", which clashes
# with the conftest modules of tests/cli and tests/server: it has no doctests anyway.
collect_ignore = ["conftest.py"]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "web"


def pytest_sessionstart(session: pytest.Session) -> None:
    if not hasattr(session.config, "workerinput"):  # the controller (or a run without xdist)
        shutil.rmtree(ARTIFACTS, ignore_errors=True)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    shots = sorted(ARTIFACTS.glob("*.png")) if ARTIFACTS.exists() else []
    if shots:
        terminalreporter.section("browser screenshots (artifacts/web)")
        for shot in shots:
            terminalreporter.write_line(str(shot.relative_to(ARTIFACTS.parents[1])))
