"""The full-screen table (Textual): board, log and hint panels, a prompt line, keys.

The session runs in a worker thread (:mod:`.bridge`); this app shows what it prints
and hands back what is typed. Layout: the board panel on the left keeps the board
and score sheet in place (it is redrawn, never scrolled away), and on ``?`` / F1 the
hint panel under it, as wide (the best option first); the log on the right; the prompt
line and the keys at the bottom. On a narrow screen (under 64 columns) the log sits
under the board, and gives way to the hint. Everything shown is a
renderable made by the game's own terminal UI, or the user's text as plain text.
"""

from __future__ import annotations

import contextlib
import dataclasses
import queue
import threading
from collections.abc import Callable
from typing import ClassVar, Generic, TypeVar

from rich.console import Console, Group, RenderableType
from rich.rule import Rule
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingsMap, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Input, Label, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from gamenight.core.i18n import N_, _
from gamenight.terminal.full import THEMES
from gamenight.terminal.full.boards import Board, board_class, picked_dice
from gamenight.terminal.full.bridge import Reply, ScreenConsole, ScreenPrompter
from gamenight.terminal.ui import (
    MAX_ANSWER,
    Choice,
    HintBlock,
    Prompter,
    Scene,
    heading,
    plain,
)

T = TypeVar("T")

NARROW = 64  # columns under which the log goes under the board
SIDE = 32  # the log's width beside the board
CLOSE_PROMPT = N_("Enter closes the table ")
# Keys the terminal sent that the app has not handled yet, at most: a paste without
# bracketed paste comes as one key per character (240 KB made the app CPU-bound and
# its memory grow); past this the rest of such a burst is dropped, unparsed.
MAX_PENDING_KEYS = 512
TOO_LONG = N_("too long: an answer has at most {n} characters; the rest was not taken")


class KeyGate:
    """Counts the key events posted to the app (from the terminal's thread) and not
    yet handled; :meth:`admit` refuses one past :data:`MAX_PENDING_KEYS`.

    >>> gate = KeyGate(2)
    >>> gate.admit(), gate.admit(), gate.admit(), gate.dropped
    (True, True, False, 1)
    >>> gate.handled(), gate.admit()
    (0, True)
    """

    def __init__(self, bound: int = MAX_PENDING_KEYS) -> None:
        self.bound, self.pending, self.dropped = bound, 0, 0
        self.lock = threading.Lock()

    def admit(self, full: bool = False) -> bool:
        """Whether to queue one more key (never while the answer is ``full``)."""
        with self.lock:
            if full or self.pending >= self.bound:
                self.dropped += 1
                return False
            self.pending += 1
            return True

    def handled(self) -> int:
        """One key handled; the number dropped, once the burst is over (else 0)."""
        with self.lock:
            self.pending = max(0, self.pending - 1)
            if self.pending or not self.dropped:
                return 0
            dropped, self.dropped = self.dropped, 0
            return dropped


class AnswerInput(Input):
    """The prompt line: at most :data:`~gamenight.terminal.ui.MAX_ANSWER` characters;
    a longer paste is refused whole (``refused`` is told how long it was), never echoed."""

    def __init__(
        self,
        refused: Callable[[int], None],
        die: Callable[[str], bool] | None = None,
        quick: Callable[[str], bool] | None = None,
        **kwargs: object,
    ) -> None:
        # Input's own keywords, passed through unchanged
        super().__init__(max_length=MAX_ANSWER, **kwargs)  # type: ignore[arg-type]
        self.refused = refused
        self.die = die  # a digit key that stands for a die on the board: True if taken
        self.quick = quick  # a key alone that answers a small question: True if taken

    async def _on_key(self, event: events.Key) -> None:
        # a number key on a board with dice toggles that die, as a click on it does
        if event.character and self.die is not None and self.die(event.character):
            event.stop()
            event.prevent_default()
            return
        if event.character and self.quick is not None and self.quick(event.character):
            event.stop()
            event.prevent_default()
            return
        await super()._on_key(event)

    def _on_paste(self, event: events.Paste) -> None:
        line = event.text.splitlines()[0] if event.text.strip() else ""
        if len(self.value) + len(line) > MAX_ANSWER:
            event.stop()
            self.refused(len(line))
            return
        super()._on_paste(event)


def translate_keys(bindings: BindingsMap) -> BindingsMap:
    """``bindings`` with their footer descriptions in the player's language: Textual
    reads a class's BINDINGS when the class is made, before ``--lang`` is known."""
    return BindingsMap(
        [
            dataclasses.replace(b, description=_(b.description) if b.description else "")
            for keyed in bindings.key_to_bindings.values()
            for b in keyed
        ]
    )


class BoardPane(VerticalScroll):
    """The board (or hint) panel: when what it holds grows or shrinks, the footer's keys
    are checked again (PgUp / PgDn are offered only while it is taller than its panel)."""

    def watch_virtual_size(self) -> None:
        self.call_after_refresh(self.app.refresh_bindings)


class Curtain(Screen[None]):
    """The hot-seat hand-over: the whole screen says who is next, nothing else (T7)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "go", N_("I am here"))]

    def __init__(self, name: str) -> None:
        super().__init__()
        self._bindings = translate_keys(self._bindings)
        self.seat_name = name

    def compose(self) -> ComposeResult:
        yield Static(
            Text.assemble(
                (_("Pass to") + " ", "bold"),
                plain(self.seat_name, "bold reverse"),
                "\n\n",
                plain(
                    _("{name}: press Enter when only you can see the screen.").format(
                        name=self.seat_name
                    ),
                    "dim",
                ),
            ),
            id="curtain",
        )
        yield Footer()

    def action_go(self) -> None:
        self.dismiss(None)


class TableApp(App[None], Generic[T]):
    """Runs ``target(console, prompter)`` (the menu or one game) on the full screen."""

    TITLE = "gamenight"
    ENABLE_COMMAND_PALETTE = False  # every action has its own key, in the footer
    CSS = """
    Screen { layout: vertical; }
    * { scrollbar-size-vertical: 1; }
    #table { height: 1fr; }
    #main { width: 1fr; }
    #board-pane { height: 1fr; border: round $accent; border-title-color: $text; }
    #side { width: SIDE_WIDTH; }
    #moves { height: auto; max-height: 50%; border: round $accent;
        border-title-color: $text; display: none; }
    #moves.shown { display: block; }
    #log { height: 1fr; border: round $panel; border-title-color: $text-muted;
        overflow-y: auto; overflow-x: hidden; }
    #hint-pane { height: auto; max-height: 60%; border: round $success; display: none; }
    #hint-pane.shown { display: block; }
    #error { height: auto; max-height: 2; color: $error; display: none; padding: 0 1; }
    #error.shown { display: block; }
    #prompt-line { height: auto; max-height: 4; padding: 0 1; }
    #prompt { width: auto; max-width: 65%; text-style: bold; }
    #answer { border: none; height: 1; padding: 0; width: 1fr; min-width: 12; }
    #curtain { width: 1fr; height: 1fr; content-align: center middle; text-align: center; }
    .narrow #table { layout: vertical; }
    .narrow #main { width: 1fr; height: 1fr; }
    .narrow #board-pane { border: none; border-top: round $accent; }
    .narrow #side { width: 1fr; height: 30%; }
    .narrow #log { border: none; border-top: round $panel; }
    .narrow #moves { border: none; border-top: round $accent; max-height: 100%; }
    .narrow #side.listing #log { display: none; }
    .narrow #hint-pane { border: none; border-top: round $success; max-height: 70%; }
    .narrow #side.hinted { display: none; }
    .narrow #board-pane.hinted { display: none; }
    .narrow #hint-pane.shown { height: 1fr; max-height: 100%; }
    """.replace("SIDE_WIDTH", str(SIDE))

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "hint", N_("Help (?)")),
        Binding("f2", "undo", N_("Undo (u)")),
        Binding("f3", "close_hint", N_("Close hint")),
        Binding("f4", "switch_theme", N_("Light/dark"), show=False),
        Binding("ctrl+c", "leave", N_("Leave"), priority=True),
        # over the prompt line's own PgUp/PgDn: the hint while it is open, else the board;
        # one is shown (it must fit in 40 columns)
        Binding("pagedown", "board(1)", N_("Scroll ↓"), priority=True),
        Binding("pageup", "board(-1)", N_("Scroll ↑"), show=False, priority=True),
        # the choices beside the board: the focus stays on the prompt line
        Binding("down", "move(1)", N_("Choose"), key_display="↑↓", priority=True),
        Binding("up", "move(-1)", show=False, priority=True),
        Binding("ctrl+down", "log(1)", N_("Log ↓"), show=False, priority=True),
        Binding("ctrl+up", "log(-1)", N_("Log ↑"), show=False, priority=True),
        # the focus stays on the prompt line: nothing typed is lost to another widget
        Binding("tab", "stay", show=False, priority=True),
        Binding("shift+tab", "stay", show=False, priority=True),
        Binding("ctrl+q", "leave", N_("Leave"), show=False, priority=True),
        Binding("ctrl+z", "suspend_process", N_("Suspend"), show=False),
    ]

    def __init__(
        self,
        target: Callable[[Console, Prompter], T],
        *,
        title: str = "gamenight",
        theme: str = "dark",
    ):
        super().__init__()
        self.theme_choice = theme  # "dark" or "light" (terminal.full.theme_of)
        self._bindings = translate_keys(self._bindings)
        self.target = target
        self.title = title
        self.replies: queue.Queue[Reply] = queue.Queue()
        self.screen_console = ScreenConsole(self)
        self.prompter = ScreenPrompter(self.screen_console, surface=self)
        self.result: T | None = None
        self.failure: BaseException | None = None
        self.waiting: str | None = None  # "line", "curtain", "close" or None
        self.hidden = False  # the current question is a secret entry
        self.undo_allowed = False
        self.leaving = False  # leave at the next question (the session is busy)
        self.closing = False
        self.prompt_text = ""
        self.questions = 0  # questions asked so far (curtains and the closing prompt too)
        self.board_parts: list[RenderableType] = []
        self.picked: frozenset[int] = frozenset()
        self.gate = KeyGate()
        self.board: Board = Board(classes="board")
        self.choices: tuple[Choice, ...] = ()  # the question's choices, beside the board
        self.quick = False  # the choices are every answer: a key alone may answer
        self.line_full = False  # the prompt line holds MAX_ANSWER characters
        self.drawn_width = 0  # the width the board was drawn at
        self.worker = threading.Thread(target=self._work, name="gamenight-session", daemon=True)

    # ----- layout ----------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with Horizontal(id="table"):
            # the hint under the board, as wide as it (a 32-column panel broke its values)
            with Vertical(id="main"):
                with BoardPane(id="board-pane"):
                    yield self.board
                with BoardPane(id="hint-pane"):
                    yield Static(id="hint")
            with Vertical(id="side"):
                yield OptionList(id="moves")
                yield RichLog(id="log", wrap=True, markup=False, highlight=False, min_width=10)
        yield Static(id="error")
        with Horizontal(id="prompt-line"):
            yield Label(id="prompt")
            yield AnswerInput(
                self._too_long, self._die_key, self._quick, id="answer", disabled=True
            )
        # compact: six keys fit in 80 columns even in the longer languages
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.theme = THEMES.get(self.theme_choice, THEMES["dark"])
        self.query_one("#board-pane").border_title = self.title
        self.query_one("#log").border_title = _("Log")
        # short: the footer says "↑↓ Choose" (a longer title was cut off at 80 columns)
        self.query_one("#moves").border_title = _("Choices")
        self.query_one("#hint-pane").border_title = _("Hint (F3 closes)")
        for pane in self.query("#board-pane, #log, #hint-pane, #moves"):
            pane.can_focus = False  # a click on a panel never takes the keys from the prompt
        self._fit(self.size.width)
        self.app_resume_signal.subscribe(self, self._resumed)
        self.worker.start()

    def post_message(self, message: Message) -> bool:
        """Keys past :data:`MAX_PENDING_KEYS` waiting are dropped where they arrive."""
        # a key (not one bubbled up); a printable one cannot go into a full line: it is
        # dropped before it costs anything
        if (
            isinstance(message, events.Key)
            and not message.is_forwarded
            and not self.gate.admit(full=message.is_printable and self.line_full)
        ):
            return False
        return super().post_message(message)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded:
            dropped = self.gate.handled()
            if dropped:
                self._too_long(dropped)
        await super().on_event(event)

    def _too_long(self, dropped: int = 0) -> None:
        self.show_error(plain("✗ " + _(TOO_LONG).format(n=MAX_ANSWER)))

    def _resumed(self, _: object) -> None:
        """Back from Ctrl-Z and ``fg``: the terminal lost the screen, so draw all of it
        again (Textual's driver restores its raw mode: a secret is still not echoed)."""
        self.refresh(layout=True, repaint=True)
        self.screen.refresh(layout=True, repaint=True)

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width)
        self._redraw(event.size.width)

    def _redraw(self, full: int) -> None:
        """A resize (to ``full`` columns) while a question waits: the game draws its
        board again at the new width (its narrow layout under a shrunk screen, never
        the wide one wrapped)."""
        width = self.board_width(full)
        if self.waiting not in ("line", "close") or width == self.drawn_width:
            return
        parts = self.prompter.redraw(width)
        if parts is not None:
            self.drawn_width = width
            self.board_parts = parts
            board = self._board()
            board.show(parts, board.view, board.seat)

    def _fit(self, width: int) -> None:
        self.screen.set_class(width < NARROW, "narrow")

    # ----- the session's thread calls these (through call_from_thread) ----------
    def board_width(self, full: int | None = None) -> int:
        """The board panel's width in columns, for the games' narrow layouts: from the
        screen's size (the layout may not have caught up with a resize yet), or from
        ``full`` columns."""
        full = self.size.width if full is None else full
        width = full if full < NARROW else full - SIDE - 2  # beside the log: two borders
        return max(20, width - 1)  # a column for the scroll bar

    def hint_width(self) -> int:
        """The hint panel's width in columns: the board's (it sits under the board)."""
        return self.board_width()

    def _board(self) -> Board:
        """The board widget now shown (the game's own, or the generic one)."""
        return self.board

    def show_board(
        self, title: Text, parts: list[RenderableType], scene: Scene | None = None
    ) -> None:
        pane = self.query_one("#board-pane", VerticalScroll)
        pane.border_title = title
        self.board_parts, self.picked = parts, frozenset()
        self.drawn_width = self.board_width()
        board = self._board()
        wanted = board_class(scene.widget if scene is not None else None)
        if type(board) is not wanted:  # the game's own board widget (or the generic one)
            board.remove()
            board = self.board = wanted(classes="board")
            pane.mount(board)
        board.line = ""
        board.show(parts, *((scene.view, scene.seat) if scene is not None else ()))
        pane.scroll_home(animate=False)
        self._hide_hint()

    def write_log(self, parts: list[RenderableType]) -> None:
        log = self.query_one("#log", RichLog)
        full = self.size.width  # the width from the screen: the same whenever it is written
        width = max(10, (full if full < NARROW else SIDE - 2) - 1)
        for part in parts:
            if isinstance(part, Rule):  # a rule crops a long title: wrap it
                part = heading(part.title, width)
            log.write(part, width=width)

    def show_hint(self, parts: list[RenderableType]) -> None:
        # the hint proper first (the ★ row at the top, in view), then the keys
        first = sorted(parts, key=lambda part: not isinstance(part, HintBlock))
        self.query_one("#hint", Static).update(Group(*first))
        pane = self.query_one("#hint-pane", VerticalScroll)
        pane.add_class("shown")
        pane.scroll_home(animate=False)
        self.call_after_refresh(pane.scroll_home, animate=False)
        self.refresh_bindings()
        self.query_one("#side").add_class("hinted")
        self.query_one("#board-pane").add_class("hinted")  # narrow: the hint alone

    def show_error(self, message: Text) -> None:
        error = self.query_one("#error", Static)
        error.update(message)
        error.add_class("shown")

    def clear_all(self) -> None:
        """Nothing of the last turn stays on screen (hot-seat hand-over)."""
        self.board_parts, self.picked = [], frozenset()
        self._board().line = ""
        self._board().show([])
        self.query_one("#board-pane").border_title = self.title
        self.query_one("#log", RichLog).clear()
        self.query_one("#hint", Static).update("")
        self._offer(())
        self._hide_hint()
        self._hide_error()
        answer = self.query_one("#answer", Input)
        answer.value = ""
        self.query_one("#prompt", Label).update("")

    def start_ask(
        self,
        prompt: str,
        hidden: bool,
        undo: bool,
        choices: tuple[Choice, ...] = (),
        quick: bool = False,
    ) -> None:
        self._offer(choices)
        self.quick = quick
        if self.leaving:
            self.leaving = False
            self.replies.put(KeyboardInterrupt)
            return
        self.waiting, self.hidden, self.undo_allowed = "line", hidden, undo
        self.questions += 1
        self.prompt_text = prompt
        label = plain(prompt.rstrip() + " ")
        if hidden:
            label.append(_("(hidden)") + " ", "dim")
        self.query_one("#prompt", Label).update(label)
        answer = self.query_one("#answer", Input)
        answer.password = hidden
        answer.value = ""
        answer.disabled = False
        answer.focus()
        self.refresh_bindings()

    def _offer(self, choices: tuple[Choice, ...]) -> None:
        """List the question's choices beside the board (none: the list goes)."""
        moves = self.query_one("#moves", OptionList)
        unique = {key: label for key, label in reversed(choices)}  # the first of a key
        choices = tuple((key, unique.pop(key)) for key, _ in choices if key in unique)
        if choices == self.choices:
            return
        self.choices = choices
        moves.clear_options()
        width = min(10, max((len(key) for key, _ in choices), default=0))
        moves.add_options(
            Option(Text.assemble(plain(key.ljust(width), "bold"), " ", label), id=key)
            for key, label in choices
        )
        moves.highlighted = None
        moves.set_class(bool(choices), "shown")
        self.query_one("#side").set_class(bool(choices), "listing")  # narrow: the list alone
        self.refresh_bindings()

    def quick_key(self, key: str) -> str | None:
        """The choice a key alone answers: where the choices are every answer
        (``quick``), on an empty line, the one choice whose key it is when no other
        choice's key starts with it (``1`` is not quick beside ``10``)."""
        if self.waiting != "line" or self.hidden or not self.quick or not key:
            return None
        if self.query_one("#answer", Input).value:
            return None
        keys = [k for k, _ in self.choices]
        if keys.count(key) == 1 and not any(k != key and k.startswith(key) for k in keys):
            return key
        return None

    def choose(self, key: str) -> None:
        """Answer with the choice ``key``: as typing it and Enter (a click on the
        list, Enter on its highlighted row, or the key alone)."""
        if self.waiting != "line":
            return
        answer = self.query_one("#answer", Input)
        answer.value = key
        self._reply(key)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.choose(event.option.id)

    def action_move(self, step: int) -> None:
        """Up / Down: move through the choices beside the board; without choices, the
        board may walk its answers (a year on The Decades' grid)."""
        moves = self.query_one("#moves", OptionList)
        if not self.choices:
            if self.waiting == "line" and not self.hidden:
                answer = self.query_one("#answer", Input)
                line = self._board().step(answer.value, step)
                if line is not None:
                    self.action_answer(line)
            return
        if moves.highlighted is None:
            moves.highlighted = 0 if step > 0 else len(self.choices) - 1
        elif step > 0:
            moves.action_cursor_down()
        else:
            moves.action_cursor_up()

    def curtain(self, name: str) -> None:
        self.waiting = "curtain"
        self.questions += 1

        def done(_: None) -> None:
            if self.waiting == "curtain":
                self.waiting = None
                self.replies.put("")

        self.push_screen(Curtain(name), done)

    # ----- the user -------------------------------------------------------------
    def on_input_changed(self, event: Input.Changed) -> None:
        self.line_full = len(event.value) >= MAX_ANSWER
        if self.line_full:
            self._too_long()
        line = "" if self.hidden else event.value  # a secret is never marked on the board
        self.picked = picked_dice(line)
        self._board().follow(line)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.waiting == "close":
            self.exit()
            return
        if self.waiting != "line":
            return
        moves = self.query_one("#moves", OptionList)
        if not event.value.strip() and self.choices and moves.highlighted is not None:
            self.choose(self.choices[moves.highlighted][0])  # Enter on the highlighted row
            return
        self._reply(event.value)

    def _reply(self, value: str) -> None:
        answer = self.query_one("#answer", Input)
        if not self.hidden and value.strip():
            self.write_log([Text.assemble(plain(self.prompt_text, "dim"), plain(value))])
        answer.value = ""
        answer.disabled = True
        self.waiting = None
        self._offer(())  # the choices were this question's (a re-ask lists them again)
        self._hide_error()
        self.refresh_bindings()
        self.replies.put(value)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys that do nothing now are greyed out in the footer."""
        if action == "hint":  # while the hint is open, F3 closes it in its place
            return self.waiting == "line" and not self.query_one("#hint-pane").has_class("shown")
        if action == "undo":
            return self.waiting == "line" and self.undo_allowed
        if action == "close_hint":
            return self.query_one("#hint-pane").has_class("shown")
        if action == "move":
            ready = self.waiting == "line" and not self.hidden
            return ready and (bool(self.choices) or self._board().can_step())
        if action == "board":  # shown only when the panel is taller than it shows
            return self._scrolled().max_scroll_y > 0
        return True

    def action_hint(self) -> None:
        if self.waiting == "line":
            self._reply("?")

    def action_undo(self) -> None:
        if self.waiting == "line" and self.undo_allowed:
            self._reply("u")

    def action_die(self, position: int) -> None:
        """A click on die ``position`` (``terminal.ui.die_key``): its number is typed
        at the prompt line, or taken out again if it is already there. The keys are
        the game's own (``s 1 3``, ``r 135``...): the line is still the player's to send."""
        if self.waiting != "line" or self.hidden:
            return
        answer = self.query_one("#answer", Input)
        digit = str(position)
        words = answer.value.split()
        if digit in words:
            words.remove(digit)
        else:
            words.append(digit)
        answer.value = " ".join(words)
        answer.cursor_position = len(answer.value)
        answer.focus()

    def action_answer(self, word: str) -> None:
        """A click on an answer drawn on the board (``terminal.ui.answer_key``): the
        line holds it, as if typed; Enter sends it."""
        if self.waiting != "line" or self.hidden:
            return
        answer = self.query_one("#answer", Input)
        answer.value = self._board().clicked(answer.value, str(word))[:MAX_ANSWER]
        answer.cursor_position = len(answer.value)
        answer.focus()

    def _die_key(self, key: str) -> bool:
        """A number key while the board shows that die: it toggles the die, as a
        click does (:meth:`action_die`, one way for both). True if it was taken."""
        if self.waiting != "line" or self.hidden or not key.isdigit() or len(key) != 1:
            return False
        if int(key) not in self._board().dice():
            return False
        self.action_die(int(key))
        return True

    def _quick(self, key: str) -> bool:
        """A key alone that answers the question (:meth:`quick_key`): True if taken."""
        chosen = self.quick_key(key)
        if chosen is None:
            return False
        self.choose(chosen)
        return True

    def _scrolled(self) -> VerticalScroll:
        """The panel PgUp / PgDn scroll: the hint while it is open, else the board."""
        hint = self.query_one("#hint-pane", VerticalScroll)
        return hint if hint.has_class("shown") else self.query_one("#board-pane", VerticalScroll)

    def action_stay(self) -> None:
        """Tab: the focus stays on the prompt line."""

    def action_log(self, pages: int) -> None:
        """Ctrl-Up / Ctrl-Down: scroll the log back and forth."""
        log = self.query_one("#log", RichLog)
        if pages < 0:
            log.scroll_page_up(animate=False)
        else:
            log.scroll_page_down(animate=False)

    def action_board(self, pages: int) -> None:
        """PgUp / PgDn: scroll the hint panel while it is open, else the board panel
        (a tall sheet on a short screen)."""
        pane = self._scrolled()
        if pages < 0:
            pane.scroll_page_up(animate=False)
        else:
            pane.scroll_page_down(animate=False)

    def action_switch_theme(self) -> None:
        """F4: the light theme for the dark one, and back."""
        light = self.theme == THEMES["light"]
        self.theme_choice = "dark" if light else "light"
        self.theme = THEMES[self.theme_choice]

    def action_close_hint(self) -> None:
        self._hide_hint()

    def action_leave(self) -> None:
        """Ctrl-C: as in the line mode (the session says where the game is saved, or
        asks before abandoning an unsaved one)."""
        if self.waiting == "close" or not self.worker.is_alive():
            self.exit()
        elif self.waiting == "line":
            self.query_one("#answer", Input).disabled = True
            self.waiting = None
            self.replies.put(KeyboardInterrupt)
        elif self.waiting == "curtain":
            self.waiting = None
            self.pop_screen()
            self.replies.put(KeyboardInterrupt)
        else:
            self.leaving = True
            self.notify(_("Leaving at the next question…"))

    def _hide_hint(self) -> None:
        self.query_one("#hint-pane").remove_class("shown")
        self.query_one("#side").remove_class("hinted")
        self.query_one("#board-pane").remove_class("hinted")
        self.refresh_bindings()

    def _hide_error(self) -> None:
        self.query_one("#error").remove_class("shown")

    # ----- the session's thread -------------------------------------------------
    @property
    def worker_done(self) -> bool:
        """The session is over (or the app never started it)."""
        return self.worker.ident is not None and not self.worker.is_alive()

    def _work(self) -> None:
        try:
            self.result = self.target(self.screen_console, self.prompter)
        except BaseException as exc:  # re-raised on the main thread by outcome()
            self.failure = exc
        with contextlib.suppress(RuntimeError):  # RuntimeError: the app is already gone
            self.call_from_thread(self._finished)

    def _finished(self) -> None:
        """The session is over: let the standings be read, then close."""
        if self.failure is not None or not self.screen_console.tail:
            self.exit()
            return
        self.waiting = "close"
        self.questions += 1
        self.query_one("#prompt", Label).update(plain(_(CLOSE_PROMPT)))
        answer = self.query_one("#answer", Input)
        answer.password = False
        answer.disabled = False
        answer.focus()

    def exit(
        self, result: None = None, return_code: int = 0, message: RenderableType | None = None
    ) -> None:
        """The first request to close wins (the session's end may come after it)."""
        if not self.closing:
            self.closing = True
            super().exit(result, return_code, message)

    def on_unmount(self) -> None:
        if self.worker.is_alive():  # closed under a question: the session stops there
            self.replies.put(EOFError)

    def outcome(self, console: Console) -> T:
        """After the screen closed: print the session's last words, then its result
        (or raise what it raised)."""
        if self.worker.is_alive():
            self.replies.put(EOFError)
            self.worker.join(timeout=10)
        for part, soft_wrap in self.screen_console.tail:
            console.print(part, soft_wrap=soft_wrap)  # a path or a seed stays one line
        if self.failure is not None:
            raise self.failure
        return self.result  # type: ignore[return-value]  # None only if it returned None
