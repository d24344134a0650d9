"""`gamenight --help` without click (issue 46): what `gamenight.cli.fast_help` prints is
click's own rendering of the same group, byte for byte, in every language and at every
terminal width; the whole command prints the same as the click path for every argument
form it takes; anything else goes to click; and it imports no click."""

from __future__ import annotations

import os
import subprocess
import sys

import click
import click.formatting
import click.utils
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_cli_imports import loaded

from gamenight.cli import fast_help
from gamenight.cli.app import app
from gamenight.cli.helptext import speak
from gamenight.core.i18n import use_language
from gamenight.core.languages import LANGUAGES

WIDTHS = [1, 20, 49, 50, 51, 52, 53, 60, 64, 70, 72, 75, 79, 80, 81, 82, 83, 100, 300]


def click_help(lang: str, columns: int, monkeypatch: pytest.MonkeyPatch) -> str:
    """The group's help as click writes it (what `run` does before `app.main`)."""
    monkeypatch.setenv("COLUMNS", str(columns))
    with use_language(lang):
        speak(app)
        app._help_option = None  # click makes it (its help said) once per process
        ctx = click.Context(app, info_name="gamenight", **app.context_settings)
        return app.get_help(ctx)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_group_help_is_click_s_byte_for_byte(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    try:
        for columns in WIDTHS:
            assert fast_help.group_help(lang, columns) == click_help(lang, columns, monkeypatch)
    finally:
        with use_language("en"):
            speak(app)  # the other tests read the English help texts


def test_the_terminal_width_is_shutil_s(monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    for value in ["100", "0", "-3", "x", "", "77"]:
        monkeypatch.setenv("COLUMNS", value)
        assert fast_help._columns() == shutil.get_terminal_size().columns, value
    monkeypatch.delenv("COLUMNS")
    assert fast_help._columns() == shutil.get_terminal_size().columns


TEXT = st.lists(
    st.sampled_from(["a", "word", "long-hyphenated-word", "x" * 70, "--flag", "e.g.", "Then",
                     "\n", "\n\n", " ", "  ", "\b\n", "(95%).", "`gamenight list`", "ü-ß"]),
    max_size=40,
).map("".join)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(text=TEXT, width=st.integers(10, 120), indent=st.sampled_from(["", "  ", "    "]))
def test_the_wrapping_is_click_s(text: str, width: int, indent: str) -> None:
    ours = fast_help._wrap_paragraphs(text, width, indent)
    theirs = click.formatting.wrap_text(text, width, indent, indent, preserve_paragraphs=True)
    assert ours == theirs


@settings(max_examples=300, deadline=None)
@given(text=TEXT, limit=st.integers(0, 90))
def test_the_short_help_is_click_s(text: str, limit: int) -> None:
    assert (
        fast_help._short_help(text, limit)
        == click.utils._make_default_short_help(text, limit).strip()
    )


@settings(max_examples=200, deadline=None)
@given(
    rows=st.lists(st.tuples(st.sampled_from(["-x", "--long-option NAME", "z" * 35]), TEXT),
                  min_size=1, max_size=5),
    width=st.integers(50, 120),
)  # fmt: skip
def test_the_definition_lists_are_click_s(rows: list[tuple[str, str]], width: int) -> None:
    formatter = click.HelpFormatter(width=width)
    formatter.indent()
    formatter.write_dl(rows)
    assert "".join(fast_help._definitions(rows, width)) == formatter.getvalue()


ARGUMENT_FORMS = [["--help"], ["-h"], ["--lang", "de", "--help"], ["--lang=pl", "-h"],
                  ["--lang", "EN", "-h"], ["--lang=de_DE.UTF-8", "--help"]]  # fmt: skip


def whole(module: str, args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    environ.update(env)
    code = f"from {module} import run; run()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, env=environ
    )


@pytest.mark.parametrize(
    ("args", "env"),
    [
        *[(args, {"COLUMNS": "100"}) for args in ARGUMENT_FORMS],
        (["--help"], {"COLUMNS": "55", "LANG": "de_DE.UTF-8"}),
        (["-h"], {"LANGUAGE": "pl", "LANG": "de_DE.UTF-8"}),
        (["--help"], {}),  # no COLUMNS, stdout a pipe: 80
    ],
)
def test_the_whole_command_prints_what_click_prints(args: list[str], env: dict[str, str]) -> None:
    assert fast_help.asks_for_help(args)
    fast = whole("gamenight.cli.main", args, **env)
    slow = whole("gamenight.cli.app", args, **env)
    assert (fast.returncode, fast.stdout, fast.stderr) == (slow.returncode, slow.stdout, "")
    assert slow.returncode == 0 and slow.stdout.startswith(("Usage:", "Aufruf:", "Użycie:"))


@pytest.mark.parametrize(
    "args",
    [["--lang", "fr", "--help"], ["--plain", "--help"], ["list", "--help"], ["--help", "list"],
     ["--lang"], ["-h", "-h"], ["--", "--help"]],
)  # fmt: skip
def test_anything_else_goes_to_click(args: list[str]) -> None:
    assert not fast_help.asks_for_help(args)
    fast = whole("gamenight.cli.main", args, COLUMNS="100")
    slow = whole("gamenight.cli.app", args, COLUMNS="100")
    assert (fast.returncode, fast.stdout) == (slow.returncode, slow.stdout)
    assert fast.stderr == slow.stderr


@pytest.mark.parametrize("encoding", ["ascii"])
def test_a_stream_that_is_not_utf8_goes_to_click(encoding: str) -> None:
    args = ["--lang", "de", "--help"]
    fast = whole("gamenight.cli.main", args, PYTHONIOENCODING=encoding)
    slow = whole("gamenight.cli.app", args, PYTHONIOENCODING=encoding)
    assert (fast.returncode, fast.stdout, fast.stderr) == (0, slow.stdout, slow.stderr)


@pytest.mark.parametrize("argv", [["--help"], ["--lang", "pl", "-h"]])
def test_the_group_help_imports_no_click(argv: list[str]) -> None:
    out, modules = loaded(argv)
    assert "gamenight" in out
    assert [m for m in modules if m == "click" or m.startswith(("click.", "typing"))] == []


@pytest.mark.parametrize("columns", [None, "64"])
def test_on_a_terminal_too(columns: str | None) -> None:
    """On a pseudo-terminal (its size unset: shutil's fallback, or COLUMNS)."""
    from test_cli_quick import on_a_terminal

    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "COLUMNS"))}
    env.update({"TERM": "xterm-256color", "LANG": "pl_PL.UTF-8"})
    if columns is not None:
        env["COLUMNS"] = columns
    fast = on_a_terminal("from gamenight.cli.main import run; run()", ["-h"], env)
    slow = on_a_terminal("from gamenight.cli.app import run; run()", ["-h"], env)
    assert fast == slow and fast.startswith("Użycie:".encode())
