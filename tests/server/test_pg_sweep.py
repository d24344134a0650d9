"""A test run killed before its clean-up leaves a PostgreSQL cluster running; the next
run's first cluster stops it and removes its files (gamenight.server.testing)."""

from __future__ import annotations

import subprocess
import sys

from harness import PgCluster

from gamenight.server.testing import _alive


def _gone_pid() -> int:
    """The pid of a process that has exited (and been reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_cluster_left_by_a_killed_run_is_stopped_and_removed() -> None:
    left = PgCluster().start()
    postmaster = left.postmaster_pid()
    (left.dir / "owner").write_text(str(_gone_pid()))  # as if its run was killed
    mine = PgCluster()  # made, not started: the sweep is in the constructor
    try:
        assert not left.dir.exists()
        assert not _alive(postmaster)  # its postmaster was stopped
    finally:
        left.stop()
        mine.stop()


def test_a_cluster_whose_run_lives_is_left_alone() -> None:
    live = PgCluster().start()
    try:
        other = PgCluster()
        assert live.dir.exists()
        assert _alive(live.postmaster_pid())
        other.stop()
    finally:
        live.stop()
