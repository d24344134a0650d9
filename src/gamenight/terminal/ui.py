"""The contract between the terminal front end and each game's presentation.

Each game has ``gamenight/terminal/<package>.py`` with a class ``UI``
implementing :class:`TerminalUI`. It renders views and events with Rich and turns short
keyboard input into actions. It never decides a rule: legality comes from the
engine's legal action list, and illegal input is re-asked, never applied.
"""

from __future__ import annotations

import contextlib
import getpass
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar

import msgspec
from rich.cells import cell_len
from rich.console import Console, Group, RenderableType
from rich.rule import Rule
from rich.style import Style
from rich.text import Text
from typing_extensions import TypeVar as DefaultTypeVar

from gamenight.core.errors import GamenightError
from gamenight.core.events import Event
from gamenight.core.game import Results
from gamenight.core.i18n import _

# The terminal's "erase the scrollback" (xterm's E3). ``Console.clear`` sends only
# ESC[2J (erase the screen), which leaves every earlier line in the scrollback (T7).
CLEAR_SCROLLBACK = "\x1b[3J"


# Control characters shown the way terminals echo them (ESC as ^[), so typed text can
# never move the cursor, clear the screen or retitle the window when it is echoed.
_VISIBLE_CONTROLS = {
    **{c: f"^{chr(c + 64)}" for c in range(32) if chr(c) not in "\n\t"},
    0x7F: "^?",
    **{c: "\ufffd" for c in range(0x80, 0xA0)},
}


def plain(text: object, style: str = "") -> Text:
    """``text`` as Rich text that is never read as markup or as terminal controls.

    Everything a user typed or named (player names, typed input, file names)
    must reach the console through this (or :class:`rich.text.Text`), never
    inside an f-string of markup: ``[/]`` as markup is an error, and
    ``[bold red]Ann[/]`` would be styled. Control characters are shown, not sent.

    >>> plain("[bold red]Ann[/]").plain
    '[bold red]Ann[/]'
    >>> plain("\x1b[2J").plain
    '^[[2J'
    """
    return Text(str(text).translate(_VISIBLE_CONTROLS), style=style)


def say(console: Console, *parts: str | Text) -> None:
    """Print ``parts`` on one line; plain strings are text, never markup.

    >>> import io
    >>> console = Console(file=io.StringIO(), width=40)
    >>> say(console, "Seed [random]: ", plain("[/]", "bold"))
    >>> console.file.getvalue()
    'Seed [random]: [/]\\n'
    """
    console.print(Text.assemble(*(plain(p) if isinstance(p, str) else p for p in parts)))


def heading(title: str | Text, width: int) -> RenderableType:
    """A rule titled ``title``, or, where ``width`` columns cannot hold the title on
    a rule (Rich crops it with an ellipsis), the title as bold text that wraps: a
    longer language must never lose the end of a heading.

    >>> type(heading("Round 1", 40)).__name__, type(heading("x" * 40, 40)).__name__
    ('Rule', 'Text')
    """
    shown = title if isinstance(title, Text) else Text(title)
    if cell_len(shown.plain) + 6 > width:  # "─ " and " ─" around it, and some rule
        return Text.assemble(shown, style="bold")
    return Rule(shown)


CURTAIN_LINES = 100  # where the screen cannot be cleared: blank lines push it off


def can_clear(console: Console) -> bool:
    """Whether ``console`` can clear its screen: a terminal that is not ``TERM=dumb``
    (Rich sends no control codes to a dumb one). Output that is not a terminal has no
    screen to clear."""
    return not console.is_dumb_terminal


def no_color(environ: Mapping[str, str] | None = None) -> bool:
    """Whether colour is off (``NO_COLOR`` set and not empty, as no-color.org says):
    then what colour alone told (a penalty, a die's colour) gets a mark of its own.

    >>> no_color({"NO_COLOR": "1"}), no_color({"NO_COLOR": ""}), no_color({})
    (True, False, False)
    """
    env = os.environ if environ is None else environ
    return bool(env.get("NO_COLOR", ""))


def alert(style: str = "bold red") -> str:
    """The style of a warning or penalty: ``style``, or reversed without colour (a
    red in grey was nearly invisible under ``NO_COLOR``)."""
    return "bold reverse" if no_color() else style


def die_key(position: int) -> Style:
    """The style that makes die ``position`` (from 1) clickable on the full screen: a
    click types its number at the prompt line (``TableApp.action_die``). The line
    mode prints it as plain text.

    >>> die_key(3).meta
    {'@click': 'app.die(3)'}
    """
    return Style(meta={"@click": f"app.die({int(position)})"})


@dataclass(frozen=True)
class Scene:
    """What a board shows, for a front end that lays it out as widgets (the full
    screen): the game's own board widget by name (its UI's ``board_widget``,
    "module:attribute"; None: the generic board), the view drawn and whose it is.

    >>> scene_of(object(), {"turn": 1}, 0)
    Scene(widget=None, view={'turn': 1}, seat=0)
    """

    widget: str | None = None
    view: Any = None
    seat: int | None = None


def scene_of(ui: object, view: Any, seat: int | None) -> Scene:
    """The scene of ``seat``'s board of ``view``, drawn by the game UI ``ui``."""
    widget = getattr(ui, "board_widget", None)
    return Scene(widget if isinstance(widget, str) else None, view, seat)


def answer_key(word: str) -> Style:
    """The style that makes a part of a board clickable as an answer: a click puts
    ``word`` on the prompt line, as typing it would (``TableApp.action_answer``), and
    the board marks what the line holds. The line mode prints it as plain text.

    >>> answer_key("1987").meta
    {'@click': "app.answer('1987')"}
    """
    return Style(meta={"@click": f"app.answer({str(word)!r})"})


def printing(*renderables: RenderableType) -> Callable[[Console], None]:
    """A drawing (for :meth:`Prompter.board`) that prints ``renderables``."""

    def draw(console: Console) -> None:
        console.print(*renderables)

    return draw


def clear_screen(console: Console) -> None:
    """Clear the screen *and* the scrollback, so nothing shown before can be scrolled
    back to (hot-seat hand-overs, T7). A dumb terminal cannot: it gets a curtain of
    :data:`CURTAIN_LINES` blank lines, so nothing is left on the screen itself (the
    session says so at the start)."""
    if not can_clear(console):
        console.file.write("\n" * max(CURTAIN_LINES, console.height))
        console.file.flush()
        return
    console.clear()
    if console.is_terminal:
        console.file.write(CLEAR_SCROLLBACK)
        console.file.flush()


def _read_hidden(prompt: str) -> str:
    """A line read without echo on a terminal; piped input is read as it is (it is not
    on screen anyway), without getpass's "Password input may be echoed" warning."""
    if sys.stdin is not None and sys.stdin.isatty():
        return _read_without_echo(prompt)
    line = sys.stdin.readline() if sys.stdin is not None else ""
    if not line:
        raise EOFError
    return line.rstrip("\n")


def _read_without_echo(prompt: str) -> str:
    """A line typed at the terminal, echo off for as long as it is typed, even across
    Ctrl-Z and ``fg``: the shell restores its own terminal modes when the job stops,
    echo included, so echo is turned off again on SIGCONT (getpass does not)."""
    try:
        import termios
    except ImportError:  # pragma: no cover - not a POSIX terminal
        return getpass.getpass(prompt)
    fd = sys.stdin.fileno()
    try:
        before = termios.tcgetattr(fd)
    except termios.error:
        return getpass.getpass(prompt)
    quiet = list(before)
    quiet[3] &= ~termios.ECHO  # the local modes: no echo, lines still edited

    def again(_signum: int, _frame: object) -> None:
        with contextlib.suppress(termios.error):
            termios.tcsetattr(fd, termios.TCSANOW, quiet)

    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGCONT, again) if main else None
    try:
        termios.tcsetattr(fd, termios.TCSAFLUSH, quiet)
        sys.stdout.write(prompt)
        sys.stdout.flush()
        line = sys.stdin.readline()
    finally:
        with contextlib.suppress(termios.error):
            termios.tcsetattr(fd, termios.TCSAFLUSH, before)
        if main:
            signal.signal(signal.SIGCONT, previous)
        sys.stdout.write("\n")  # the Enter that was not echoed
        sys.stdout.flush()
    if not line:
        raise EOFError
    return line.rstrip("\n")


# An answer offered by a small question: (the key typed, what it does).
Choice = tuple[str, str | Text]

MAX_MESSAGE_CHARS = 400
# The longest answer taken at any question (a line of keys, a list of players, a
# seed): longer input is refused before it is echoed or parsed (the full screen's
# prompt line takes no more; the line mode asks again).
MAX_ANSWER = 300


def clip_message(message: str | Text) -> Text:
    """An error message as text of at most :data:`MAX_MESSAGE_CHARS` characters (one
    quoting a huge typed line stays short, on the screen and in the log).

    >>> clip_message("x" * 1000).cell_len
    400
    >>> clip_message("[b]").plain
    '[b]'
    """
    shown = plain(message) if isinstance(message, str) else message.copy()
    if len(shown) > MAX_MESSAGE_CHARS:
        shown.truncate(MAX_MESSAGE_CHARS - 1)
        shown.append("…")
    return shown


class HintBlock(Group):
    """The hint proper (the best option, its value, the table of options): the line
    mode prints it where it stands; the full screen shows it first in its hint panel,
    above the keys, so the ★ row is in view."""


def too_long(text: str) -> str:
    """What is said of an answer longer than :data:`MAX_ANSWER` (never the answer).

    >>> too_long("k" * 5000)
    'too long: an answer has at most 300 characters (this one has 5000)'
    """
    return _("too long: an answer has at most {n} characters (this one has {length})").format(
        n=MAX_ANSWER, length=len(text)
    )


class InputClosedError(GamenightError):
    """There is no standard input at all (not merely its end): one line, exit 2."""


class UndoRequested(Exception):
    """The human asked to take back their last action (raised out of a UI's ``ask``)."""


UNDO_WORDS = frozenset({"u", "undo"})


@dataclass
class Prompter:
    """Line input for one human at the terminal.

    ``reader`` is injectable so tests can script the keyboard. Prompts and
    messages are plain text (a message may be a :class:`~rich.text.Text` with
    styles), so a player's name or typed text is never read as markup. ``secret`` input is
    not echoed when ``hide_secrets`` is set, i.e. when another human shares the
    terminal (hot-seat hidden entry); against bots it is read normally.
    ``undo`` is set while the human may take back their last action: typing
    ``u`` at any question then raises :class:`UndoRequested`.
    """

    console: Console
    reader: Callable[[str], str] | None = None
    secret_reader: Callable[[str], str] = field(default=_read_hidden)
    hide_secrets: bool = True
    undo: bool = False
    # a line the table takes for itself (an online room's chat line): handled there, and
    # the question is asked again; None: every line is an answer
    table_line: Callable[[str], bool] | None = None
    # boards are drawn in titled panes of a fixed width (the full screen): titles short
    panes: ClassVar[bool] = False

    def answer(self, text: str) -> str | None:
        """``text`` as the answer to the question, or None if it is not one and the
        question is asked again: too long (said as an error), or taken by :attr:`table_line`.
        The one check both front ends' :meth:`ask` make."""
        if len(text) > MAX_ANSWER:
            self.error(too_long(text))
            return None
        if self.table_line is not None and self.table_line(text):
            return None
        return text

    def ask(
        self,
        prompt: str,
        *,
        secret: bool = False,
        choices: Sequence[Choice] = (),
        quick: bool = False,
    ) -> str:
        """Read one line; raises EOFError / KeyboardInterrupt as the terminal does.

        ``prompt`` is plain text, shown as typed (never read as markup). ``choices``
        (key, what it does) are the answers of a small question: the line mode says
        them where the caller prints them (:meth:`listing`); the full screen lists them
        beside the board (arrow keys and Enter, or a click, choose); with ``quick`` (the
        choices are every answer) a key alone answers when no other choice starts with it.
        """
        while True:
            answer = self.answer(self._read(prompt, secret))
            if answer is not None:
                return answer

    def _read(self, prompt: str, secret: bool) -> str:
        if self.reader is not None:
            return self.reader(prompt).strip()
        if sys.stdin is None:  # closed (``<&-``): nothing will ever be typed
            raise InputClosedError(_("standard input is closed; nothing can be typed"))
        text = plain(prompt)
        if secret and self.hide_secrets:
            self.console.print(text, end="")
            return self.secret_reader("").strip()
        return self.console.input(text).strip()

    def error(self, message: str | Text) -> None:
        """Say what was wrong, on one line; ``message`` is text, never markup, and is cut
        at :data:`MAX_MESSAGE_CHARS` (an error quoting a huge typed line stays short)."""
        say(self.console, plain("✗ ", "bold red"), clip_message(message))

    def say(self, *parts: str | Text) -> None:
        """Print ``parts`` on one line as text (see :func:`say`)."""
        say(self.console, *parts)

    def listing(self, shown: RenderableType) -> None:
        """A question's choices as the line mode prints them (a line, a table); the
        full screen lists the ``choices`` given to :meth:`ask` beside the board instead
        (a menu in the log was squeezed and scrolled away)."""
        self.console.print(plain(shown) if isinstance(shown, str) else shown)

    # ----- the surface: what the full-screen table (gamenight.terminal.full) draws in
    # place and the line mode prints in sequence. The session and the menu call these,
    # so both front ends share every rule and every prompt.
    def board(
        self, title: Text, draw: Callable[[Console], None], scene: Scene | None = None
    ) -> None:
        """Show what ``draw`` prints as the board under ``title``: the line mode
        prints a rule and the board; the full screen redraws its board panel, laid out
        by the game's board widget (``scene``)."""
        self.console.print(heading(title, self.console.width))
        draw(self.console)

    def hand_over(self, name: str) -> None:
        """Hot seat with secrets: wait for ``name``, then clear everything (T7). What
        shows until Enter is public (the previous secret turn was concealed), so the
        start-up text stays readable until then."""
        self.ask(_("Pass the terminal to {name}, then press Enter ").format(name=name))
        clear_screen(self.console)

    def conceal(self) -> None:
        """A secret turn is over: nothing of it may stay on screen (T7)."""
        clear_screen(self.console)

    @contextlib.contextmanager
    def aside(self) -> Iterator[None]:
        """What is printed inside is help or a hint: the line mode prints it in
        sequence; the full screen shows it in its hint panel."""
        yield


T = TypeVar("T")

HELP_WORDS = frozenset({"?", "h", "help"})


MAX_NUMBER_DIGITS = 40  # a 128-bit seed has 39 digits; no count or year is longer


def is_number(text: str) -> bool:
    """Whether ``text`` is a plain number in ASCII digits that ``int`` can read.

    ``str.isdigit`` also accepts '²' or '٣', which ``int`` then refuses, and
    ``int`` refuses more than 4,300 digits: a line that long is not a number.

    >>> is_number("12"), is_number("²"), is_number(""), is_number("9" * 5000)
    (True, False, False, False)
    """
    return len(text) <= MAX_NUMBER_DIGITS and text.isascii() and text.isdigit()


def legal_choices(
    parse: Callable[[str], object], legal: Sequence[object], offered: Sequence[Choice]
) -> list[Choice]:
    """The ``offered`` choices whose key the game's own parser reads as a legal action
    (the list beside the board never offers a key that would be refused).

    >>> actions = {"r": 1, "s": 2}.get  # a message (a str) is a refusal
    >>> legal_choices(lambda key: actions(key, "no"), [1], [("r", "roll"), ("s", "stop")])
    [('r', 'roll')]
    """
    found: list[Choice] = []
    taken: list[object] = []
    for key, label in offered:
        try:
            action = parse(key)
        except Exception:
            continue
        if not isinstance(action, str) and action in legal and action not in taken:
            taken.append(action)  # one key per action: the first offered
            found.append((key, label))
    return found


def ask_until_parsed(
    prompter: Prompter,
    question: str,
    parse: Callable[[str], T | str],
    on_help: Callable[[str], bool],
    *,
    secret: bool = False,
    choices: Sequence[Choice] = (),
    quick: bool = False,
) -> T:
    """Ask ``question`` until ``parse`` turns the answer into an action.

    ``parse`` returns the action or a message saying what was wrong, which is
    shown before asking again. ``on_help`` sees the lower-cased answer first and
    returns True when it handled it (help, hints), so the question is asked again.
    While the prompter offers undo, ``u`` raises :class:`UndoRequested` (every
    game's questions share the key; no game uses it).
    """
    while True:
        text = prompter.ask(question, secret=secret, choices=choices, quick=quick)
        word = text.strip().lower()
        if prompter.undo and word in UNDO_WORDS:
            raise UndoRequested
        with prompter.aside():
            helped = on_help(word)
        if helped:
            if prompter.undo:
                prompter.say(plain(_("u: take back your last move"), "dim"))
            continue
        parsed = parse(text)
        if isinstance(parsed, str):
            prompter.error(parsed)
            continue
        return parsed


@dataclass(frozen=True)
class Seating:
    """Who sits where: seat names and which seats are humans."""

    names: Sequence[str]
    humans: frozenset[int]


V_in = DefaultTypeVar("V_in", contravariant=True, default=msgspec.Struct)
A_any = DefaultTypeVar("A_any", default=msgspec.Struct)


class TerminalUI(Protocol[V_in, A_any]):
    """A game's terminal renderer, generic over the game's view and action types
    (the defaults, structs, are what a front end serving any game holds)."""

    def show(self, console: Console, view: V_in, seat: int | None, table: Seating) -> None:
        """Render everything ``view`` holds: board, dice, counters, score sheet."""

    def show_events(self, console: Console, events: Sequence[Event], table: Seating) -> None:
        """Narrate what just happened (only events the console may show are passed)."""

    def ask(
        self, prompter: Prompter, view: V_in, legal: Sequence[A_any], seat: int, table: Seating
    ) -> A_any:
        """Ask a human for one of ``legal``; re-ask on typos with a helpful message.

        Implementations may offer ``?``/``h`` for a hint when the game has one.
        """

    def show_results(self, console: Console, results: Results, view: V_in, table: Seating) -> None:
        """Final standings and the score breakdown."""

    def parse_command(self, text: str, view: V_in, legal: Sequence[A_any]) -> A_any | str:
        """What a typed line means: one of ``legal``, or a one-line message saying why
        it is none (pure; :meth:`ask` re-asks with it). Tests and fuzzers reach a
        game's keys through this, as a player does."""
