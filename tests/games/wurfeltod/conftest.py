"""Shared Wurfeltod fixtures: a hermetic cache directory and the full value table.

The full table takes a few seconds to solve (its kernel compiled first, in about
0.1 s), so it is built once per test run. Under pytest-xdist every worker has
its own session; the workers share one build through a file lock.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from gamenight.games.wurfeltod.solver import ValueTable, build_table, require_table
from gamenight.games.wurfeltod.solver.table import CACHE_ENV


@pytest.fixture(scope="module", autouse=True)
def empty_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Point the default table location at an empty directory: no test reads the user's
    real cache, and code that looks for the table by default finds none."""
    empty = tmp_path_factory.mktemp("empty-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(empty))
        yield empty


@pytest.fixture(scope="session")
def full_table_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding the solved full-game table (``wurfeltod-values.bin``)."""
    base = tmp_path_factory.getbasetemp()
    # Under xdist the parent is per run and shared by the workers.
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base
    where = shared / "wurfeltod-full-table"
    where.mkdir(exist_ok=True)
    with (shared / "wurfeltod-full-table.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        build_table(
            where / "wurfeltod-values.bin",
        )  # keeps a valid one
    return where


@pytest.fixture(scope="session")
def full_table(full_table_path: Path) -> ValueTable:
    return require_table(full_table_path / "wurfeltod-values.bin")
