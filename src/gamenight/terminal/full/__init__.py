"""The full-screen table: the same session, menu and per-game prompts as the line
mode, drawn by Textual in place (board, log, hint, prompt line, keys).

Nothing here decides a rule or parses a move: the game session
(:mod:`gamenight.cli.session`) and each game's :class:`~gamenight.terminal.ui.TerminalUI`
run unchanged in a worker thread, talking to a :class:`~.bridge.ScreenPrompter` instead
of the line :class:`~gamenight.terminal.ui.Prompter`. The app only shows what they
print and hands back what is typed (docs/terminal.md).

Which front end runs is decided by :func:`wanted`; Textual is imported only when the
full screen is used.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping
from typing import IO, TYPE_CHECKING, TypeVar

from rich.console import Console

from gamenight.terminal.ui import Prompter

if TYPE_CHECKING:  # Textual is imported only when the full screen is used
    from textual.app import App

T = TypeVar("T")

PLAIN_VARIABLE = "GAMENIGHT_PLAIN"
FALSE_WORDS = frozenset({"", "0", "no", "false", "off"})


def wanted(
    plain: bool,
    environ: Mapping[str, str] | None = None,
    streams: tuple[IO[str] | None, IO[str] | None] | None = None,
) -> bool:
    """Whether to run the full-screen table: not asked for ``--plain`` nor by
    ``GAMENIGHT_PLAIN``, stdin and stdout both terminals, and TERM not ``dumb``.

    >>> wanted(False, {"TERM": "xterm"}, (None, None))
    False
    >>> import io
    >>> class Tty(io.StringIO):
    ...     def isatty(self) -> bool: return True
    >>> wanted(False, {"TERM": "xterm-256color"}, (Tty(), Tty()))
    True
    >>> tty = (Tty(), Tty())
    >>> wanted(False, {"TERM": "dumb"}, tty), wanted(True, {"TERM": "xterm"}, tty)
    (False, False)
    >>> wanted(False, {"TERM": "xterm", "GAMENIGHT_PLAIN": "1"}, (Tty(), Tty()))
    False
    """
    env = os.environ if environ is None else environ
    stdin, stdout = (sys.stdin, sys.stdout) if streams is None else streams
    if plain or env.get(PLAIN_VARIABLE, "").strip().lower() not in FALSE_WORDS:
        return False
    if env.get("TERM", "").strip().lower() in {"", "dumb", "unknown"}:
        return False
    try:
        return stdin is not None and stdout is not None and stdin.isatty() and stdout.isatty()
    except (ValueError, OSError):  # a closed stream
        return False


THEME_VARIABLE = "GAMENIGHT_THEME"
THEMES = {"dark": "textual-dark", "light": "textual-light"}  # Textual's own themes


def theme_of(choice: str | None, environ: Mapping[str, str] | None = None) -> str:
    """The full screen's theme, ``dark`` or ``light``: ``--theme``, else
    ``GAMENIGHT_THEME``, else dark (anything else there is ignored: a setting in the
    environment never stops a game).

    >>> theme_of("light", {}), theme_of(None, {"GAMENIGHT_THEME": "Light"})
    ('light', 'light')
    >>> theme_of(None, {"GAMENIGHT_THEME": "purple"}), theme_of(None, {})
    ('dark', 'dark')
    """
    env = os.environ if environ is None else environ
    for wanted_theme in (choice, env.get(THEME_VARIABLE)):
        if wanted_theme and wanted_theme.strip().lower() in THEMES:
            return wanted_theme.strip().lower()
    return "dark"


SIZE_VARIABLES = ("COLUMNS", "LINES")


def run_app(app: App[T]) -> T | None:
    """Run a full-screen ``app`` sized by the terminal itself. A shell may export
    ``COLUMNS`` and ``LINES`` (bash does, as they were when it started); Textual reads
    them before the terminal's own size, so the screen never followed a resize: they
    are dropped first. Every full-screen app is run here.

    >>> os.environ["COLUMNS"] = "80"
    >>> class Quick:
    ...     def run(self): return os.environ.get("COLUMNS")
    >>> run_app(Quick()) is None
    True
    """
    for name in SIZE_VARIABLES:
        os.environ.pop(name, None)
    return app.run()


def run_full(
    target: Callable[[Console, Prompter], T], *, title: str = "gamenight", theme: str | None = None
) -> T:
    """Run ``target`` (the menu, or one game) on the full screen; its result, or the
    exception it raised, once the screen is closed. What it printed last (the
    standings, where the game is saved) is then printed to the ordinary terminal."""
    from gamenight.terminal.full.app import TableApp

    app: TableApp[T] = TableApp(target, title=title, theme=theme_of(theme))
    run_app(app)
    return app.outcome(Console())
