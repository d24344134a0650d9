"""The contract between the terminal front end and each game's presentation.

Each game package ships ``terminal.py`` with a class ``UI`` implementing
:class:`TerminalUI`. It renders views and events with Rich and turns short
keyboard input into actions. It never decides a rule: legality comes from the
engine's legal action list, and illegal input is re-asked, never applied.
"""

from __future__ import annotations

import getpass
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from rich.console import Console
from rich.text import Text

from gamenight.core.events import LooseEvent as Event
from gamenight.core.game import Results


@dataclass
class Prompter:
    """Line input for one human at the terminal.

    ``reader`` is injectable so tests can script the keyboard; ``secret`` input
    is not echoed (hot-seat hidden entry).
    """

    console: Console
    reader: Callable[[str], str] | None = None
    secret_reader: Callable[[str], str] = field(default=getpass.getpass)

    def ask(self, prompt: str, *, secret: bool = False) -> str:
        """Read one line; raises EOFError / KeyboardInterrupt as the terminal does.

        The prompt is shown as text, never as Rich markup: it may hold player names.
        """
        if self.reader is not None:
            return self.reader(prompt).strip()
        if secret:
            self.console.print(Text(prompt), end="")
            return self.secret_reader("").strip()
        return self.console.input(Text(prompt)).strip()

    def error(self, message: str) -> None:
        """Show ``message`` as text: it may quote what the user typed."""
        self.console.print(Text.assemble(("✗", "bold red"), " ", message))


T = TypeVar("T")

HELP_WORDS = frozenset({"?", "h", "help"})


def is_number(text: str) -> bool:
    """Whether ``text`` is a plain number in ASCII digits.

    ``str.isdigit`` also accepts '²' or '٣', which ``int`` then refuses.

    >>> is_number("12"), is_number("²"), is_number("")
    (True, False, False)
    """
    return text.isascii() and text.isdigit()


def ask_until_parsed(
    prompter: Prompter,
    question: str,
    parse: Callable[[str], T | str],
    on_help: Callable[[str], bool],
    *,
    secret: bool = False,
) -> T:
    """Ask ``question`` until ``parse`` turns the answer into an action.

    ``parse`` returns the action or a message saying what was wrong, which is
    shown before asking again. ``on_help`` sees the lower-cased answer first and
    returns True when it handled it (help, hints), so the question is asked again.
    """
    while True:
        text = prompter.ask(question, secret=secret)
        if on_help(text.strip().lower()):
            continue
        parsed = parse(text)
        if isinstance(parsed, str):
            prompter.error(parsed)
            continue
        return parsed


@dataclass(frozen=True)
class Table:
    """Who sits where: seat names and which seats are humans."""

    names: Sequence[str]
    humans: frozenset[int]


class TerminalUI(Protocol):
    def show(self, console: Console, view: Any, seat: int | None, table: Table) -> None:
        """Render everything ``view`` holds: board, dice, counters, score sheet."""

    def show_events(self, console: Console, events: Sequence[Event], table: Table) -> None:
        """Narrate what just happened (only events the console may show are passed)."""

    def ask(
        self, prompter: Prompter, view: Any, legal: Sequence[Any], seat: int, table: Table
    ) -> Any:
        """Ask a human for one of ``legal``; re-ask on typos with a helpful message.

        Implementations may offer ``?``/``h`` for a hint when the game has one.
        """

    def show_results(self, console: Console, results: Results, view: Any, table: Table) -> None:
        """Final standings and the score breakdown."""
