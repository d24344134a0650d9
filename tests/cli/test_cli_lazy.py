"""The lazily loaded commands (issue 46): the static table that ``gamenight --help``
lists them from says what the real commands say, and listing them imports none."""

from __future__ import annotations

import inspect
import subprocess
import sys

import click
from test_cli_imports import loaded

from gamenight.cli.lazy_group import LazyGroup
from gamenight.cli.main import LAZY_COMMANDS, app


def test_each_row_is_its_command_s_name_and_help() -> None:
    for name, row in LAZY_COMMANDS.items():
        command = row.load()
        assert command.name == name, row.target
        assert row.help is not None, name  # else --help imports it: give it its help
        assert inspect.cleandoc(command.help or "") == row.help, name
        assert not command.hidden and command.short_help is None, name


def test_no_lazy_command_is_also_registered_eagerly() -> None:
    # In a new interpreter: here the other tests may already have loaded lazy ones.
    code = "from gamenight.cli.main import LAZY_COMMANDS, app; print(*app.commands)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    eager = set(done.stdout.split())
    assert eager and eager.isdisjoint(LAZY_COMMANDS), eager


def test_help_imports_no_command_module_and_lists_them_all() -> None:
    out, modules = loaded(["--help"])
    for row in LAZY_COMMANDS.values():
        assert row.target.split(":")[0] not in modules
    listed = {line.split()[0] for line in out.split("Commands:")[1].splitlines() if line.strip()}
    assert listed == {*app.commands, *LAZY_COMMANDS}


def test_a_lazy_command_runs_and_a_misspelt_one_is_suggested() -> None:
    out, modules = loaded(["decks", "--help"])
    assert "gamenight.cli.decks" in modules and "import" in out
    group = LazyGroup("g", lazy=LAZY_COMMANDS)
    ctx = click.Context(group)
    try:
        group.resolve_command(ctx, ["tournamen"])
    except click.UsageError as exc:
        assert "tournament" in exc.format_message()
    else:
        raise AssertionError("a misspelt command resolved")
