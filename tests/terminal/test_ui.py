"""The shared terminal plumbing: user text is data, hidden entry, clearing, the undo key."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
from rich.console import Console

from gamenight.terminal.ui import (
    CLEAR_SCROLLBACK,
    Prompter,
    UndoRequested,
    ask_until_parsed,
    clear_screen,
    plain,
    say,
)

MARKUP = [
    "[/]",
    "[bold red]Ann[/]",
    "[red]x[/blue]",
    "[link=file:///etc]x[/link]",
    "\\[/]",
    "[",
    "]",
]


def _console(*, terminal: bool = False) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=200, force_terminal=terminal, color_system=None), out


@pytest.mark.parametrize("text", MARKUP)
def test_errors_prompts_and_say_show_user_text_literally(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    console, out = _console()
    prompter = Prompter(console)
    prompter.error(f"no seat named {text}")
    say(console, "Player ", text, plain(text, "bold"))
    prompter.say(text)
    monkeypatch.setattr("sys.stdin", io.StringIO("typed\n"))
    assert prompter.ask(f"{text}> ") == "typed"
    lines = out.getvalue().splitlines()
    assert lines[:3] == [f"✗ no seat named {text}", f"Player {text}{text}", text]
    assert lines[3].startswith(f"{text}> ")


def test_styles_are_kept_but_never_read_from_user_text() -> None:
    out = io.StringIO()
    console = Console(file=out, width=80, force_terminal=True, color_system="standard")
    Prompter(console).error("[bold red]Ann[/]")
    shown = out.getvalue()
    assert "[bold red]Ann[/]" in shown  # literally, not styled
    assert "\x1b[1;31m✗" in shown  # the cross is styled by the prompter itself


def test_typed_control_characters_are_shown_not_sent() -> None:
    console, out = _console()
    Prompter(console).error("no such card: \x1b[2J\x1b]0;pwned\x07\r\x00\x7f\x9b")
    assert out.getvalue() == "✗ no such card: ^[[2J^[]0;pwned^G^M^@^?\ufffd\n"


def test_clear_screen_erases_the_scrollback_on_a_terminal() -> None:
    console, out = _console(terminal=True)
    clear_screen(console)
    assert out.getvalue() == "\x1b[2J\x1b[H" + CLEAR_SCROLLBACK
    console, out = _console(terminal=False)
    clear_screen(console)  # a file or pipe gets no control codes
    assert out.getvalue() == ""


def test_secret_entry_is_hidden_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    console, _ = _console()
    hidden: list[str] = []

    def secret_reader(prompt: str) -> str:
        hidden.append(prompt)
        return "1987"

    monkeypatch.setattr("sys.stdin", io.StringIO("1990\n"))
    shared = Prompter(console, secret_reader=secret_reader, hide_secrets=True)
    alone = Prompter(console, secret_reader=secret_reader, hide_secrets=False)
    assert shared.ask("Year? ", secret=True) == "1987"
    assert alone.ask("Year? ", secret=True) == "1990"  # against a bot: read normally
    assert len(hidden) == 1


def test_hidden_entry_from_a_pipe_gives_no_password_warning() -> None:
    """getpass warns "Password input may be echoed" on piped input; the prompter reads
    the pipe itself (a pipe is not on screen)."""
    script = (
        "from rich.console import Console\n"
        "from gamenight.terminal.ui import Prompter\n"
        "print(repr(Prompter(Console()).ask('Year? ', secret=True)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], input="1987\n", capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "'1987'" in done.stdout
    assert "Warning" not in done.stderr and "echoed" not in done.stderr


def test_end_of_piped_hidden_input_is_eof(monkeypatch: pytest.MonkeyPatch) -> None:
    console, _ = _console()
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    with pytest.raises(EOFError):
        Prompter(console).ask("Year? ", secret=True)


def _scripted(*answers: str, undo: bool) -> tuple[Prompter, io.StringIO]:
    console, out = _console()
    keys = iter(answers)
    return Prompter(console, reader=lambda _prompt: next(keys), undo=undo), out


def test_u_asks_for_undo_only_while_undo_is_offered() -> None:
    def parse(text: str) -> int | str:
        return int(text) if text.isdigit() else f"not a number: {text}"

    prompter, out = _scripted("u", "7", undo=False)
    assert ask_until_parsed(prompter, "n? ", parse, lambda _w: False) == 7
    assert "not a number: u" in out.getvalue()
    prompter, _ = _scripted(" U ", undo=True)
    with pytest.raises(UndoRequested):
        ask_until_parsed(prompter, "n? ", parse, lambda _w: False)
    prompter, out = _scripted("?", "3", undo=True)
    assert ask_until_parsed(prompter, "n? ", parse, lambda w: w == "?") == 3
    assert "u: take back your last move" in out.getvalue()  # help mentions the key
