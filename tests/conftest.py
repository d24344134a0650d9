"""Run-wide hooks: the browser tests' screenshots (tests/web) are cleared at the start
and listed at the end of the run. This is the conftest the xdist controller loads."""

from __future__ import annotations

import os
import shutil
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOY = ROOT / "tests" / "plugins" / "toy"
TOY_SITE = ROOT / "artifacts" / "plugins"


def _register_toy() -> None:
    """The toy plug-in (tests/plugins/toy), registered for this run and its subprocesses
    only: its package and a dist-info holding the entry points of its pyproject go on the
    path (PYTHONPATH too), as an installed distribution's would. It is never installed
    into the venv, so `make serve` and `make play` list no test game. Before anything
    imports gamenight's registry."""
    project = tomllib.loads((TOY / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    info = TOY_SITE / f"gamenight_toy-{project['version']}.dist-info"
    files = {
        "METADATA": f"Metadata-Version: 2.1\nName: {project['name']}\n"
        f"Version: {project['version']}\n",
        "entry_points.txt": "".join(
            f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in points.items())
            for group, points in project["entry-points"].items()
        ),
    }
    info.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        path = info / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            temp = path.with_suffix(f".{os.getpid()}")  # xdist workers write at once
            temp.write_text(text, encoding="utf-8")
            os.replace(temp, path)
    for entry in (str(TOY_SITE), str(TOY)):
        if entry not in sys.path:
            sys.path.insert(0, entry)
    paths = [
        str(TOY_SITE),
        str(TOY),
        *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep)),
    ]
    os.environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))


_register_toy()


def _isolate_cache() -> None:
    """gamenight's cache (solver tables: Wurfeltod's, the Decathlon's win2p) in a
    directory of this run, for it and its subprocesses, never the user's: a test that
    builds a table must not leave one behind, nor find one a user built. xdist workers
    inherit the directory."""
    if os.environ.get("GAMENIGHT_TEST_CACHE"):
        return
    import tempfile

    cache = Path(tempfile.mkdtemp(prefix="gamenight-test-cache-"))
    os.environ["GAMENIGHT_CACHE_DIR"] = os.environ["GAMENIGHT_TEST_CACHE"] = str(cache)


_isolate_cache()

# English for every test and its subprocesses, whatever the machine's locale: tests that
# assert English text must not meet a German LANG (the language tests ask for theirs).
os.environ.pop("LANGUAGE", None)
os.environ["LC_ALL"] = "C.UTF-8"


@pytest.fixture(autouse=True)
def _english_after_each_test() -> Iterator[None]:
    """A test that ran the CLI with --lang (in this process) leaves no language behind."""
    yield
    from gamenight.cli.args import choose_language
    from gamenight.core.i18n import set_default_language

    choose_language(None)
    set_default_language("en")


from web.fixtures import browser, context, page, server  # noqa: E402

__all__ = ["browser", "context", "page", "server"]

# --doctest-modules would import this file as a module named "conftest", which clashes
# with the conftest modules of tests/cli and tests/server: it has no doctests anyway.
collect_ignore = ["conftest.py"]

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "web"


def pytest_sessionstart(session: pytest.Session) -> None:
    if not hasattr(session.config, "workerinput"):  # the controller (or a run without xdist)
        shutil.rmtree(ARTIFACTS, ignore_errors=True)


def pytest_sessionfinish(session: pytest.Session) -> None:
    if not hasattr(session.config, "workerinput"):  # the run's cache goes with it
        cache = Path(os.environ["GAMENIGHT_TEST_CACHE"])
        if cache.name.startswith("gamenight-test-cache-"):
            shutil.rmtree(cache, ignore_errors=True)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    shots = sorted(ARTIFACTS.glob("*.png")) if ARTIFACTS.exists() else []
    if shots:
        terminalreporter.section("browser screenshots (artifacts/web)")
        for shot in shots:
            terminalreporter.write_line(str(shot.relative_to(ARTIFACTS.parents[1])))


@pytest.fixture
def own_table_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A test that builds a Decathlon win table builds it apart, in memory and on disk:
    no later test may find it (the terminal snapshots and the browser's odds bar show
    whether one exists)."""
    from gamenight.games.decathlon.solver import win2p_store

    monkeypatch.setenv("GAMENIGHT_CACHE_DIR", str(tmp_path / "own-cache"))
    monkeypatch.setattr(win2p_store, "_loaded", {})
