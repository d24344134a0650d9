"""The worker thread's side of the full-screen table: a console and a prompter that
draw on the app instead of printing lines.

The session, the menu and the games' UIs run unchanged in a worker thread. What they
print goes to the log panel (or, inside :meth:`Prompter.board`, to the board panel;
inside :meth:`Prompter.aside`, to the hint panel); what they ask waits for the app's
prompt line. Every call into the app goes through ``call_from_thread``: the widgets
are only touched on the app's own thread.
"""

from __future__ import annotations

import contextlib
import io
import queue
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from rich.console import Console, JustifyMethod, OverflowMethod, RenderableType
from rich.rule import Rule
from rich.style import Style
from rich.text import Text

from gamenight.terminal.ui import (
    Choice,
    Prompter,
    Scene,
    clip_message,
    plain,
)

# What the prompt line hands back: a line typed, or the exception to raise in the
# session (KeyboardInterrupt for "leave", EOFError when the screen is closing).
Reply = str | type[BaseException]


class Surface(Protocol):
    """The app, as the worker thread sees it (:class:`~.app.TableApp`)."""

    replies: queue.Queue[Reply]

    def call_from_thread(self, callback: Callable[..., Any], *args: Any) -> Any: ...
    def write_log(self, parts: list[RenderableType]) -> None: ...
    def show_board(
        self, title: Text, parts: list[RenderableType], scene: Scene | None = None
    ) -> None: ...
    def show_hint(self, parts: list[RenderableType]) -> None: ...
    def show_error(self, message: Text) -> None: ...
    def clear_all(self) -> None: ...
    def start_ask(
        self,
        prompt: str,
        hidden: bool,
        undo: bool,
        choices: tuple[Choice, ...] = (),
        quick: bool = False,
    ) -> None: ...
    def curtain(self, name: str) -> None: ...
    def board_width(self) -> int: ...
    def hint_width(self) -> int: ...


def renderables(
    console: Console,
    objects: Iterable[Any],
    sep: str = " ",
    style: str | Style | None = None,
    markup: bool | None = None,
    emoji: bool | None = None,
) -> list[RenderableType]:
    """What ``console.print(*objects)`` would show, as renderables: strings are read
    as the console reads them (markup the games wrote), adjacent texts join on one
    line, anything else (tables, rules) stays as it is.

    >>> # a plain line comes back as Text
    >>> [t.plain for t in renderables(Console(), ["a", Text("[b]")])]  # type: ignore[union-attr]
    ['a [b]']
    """
    out: list[RenderableType] = []
    line: list[Text] = []

    def flush() -> None:
        if line:
            joined = Text(sep).join(line)
            if style is not None:
                joined.stylize(style)
            out.append(joined)
            line.clear()

    for obj in objects:
        if isinstance(obj, str):
            line.append(console.render_str(obj, markup=markup, emoji=emoji, highlight=False))
        elif isinstance(obj, Text):
            line.append(obj)
        else:
            flush()
            out.append(obj)
    flush()
    return out or [Text("")]


class ScreenConsole(Console):
    """A console whose prints become renderables on the app (never bytes on the tty).

    ``tail`` keeps what was shown since the last question: printed to the ordinary
    terminal when the screen closes (the standings, where the game is saved).
    """

    def __init__(self, surface: Surface, width: int = 80) -> None:
        super().__init__(file=io.StringIO(), width=width, highlight=False, emoji=False)
        self.surface = surface
        self.collected: list[RenderableType] | None = None
        self.tail: list[tuple[RenderableType, bool]] = []  # (shown, printed soft-wrapped)

    def print(  # Console.print's own signature
        self,
        *objects: Any,
        sep: str = " ",
        end: str = "\n",
        style: str | Style | None = None,
        justify: JustifyMethod | None = None,
        overflow: OverflowMethod | None = None,
        no_wrap: bool | None = None,
        emoji: bool | None = None,
        markup: bool | None = None,
        highlight: bool | None = None,
        width: int | None = None,
        height: int | None = None,
        crop: bool = True,
        soft_wrap: bool | None = None,
        new_line_start: bool = False,
    ) -> None:
        parts = renderables(self, objects, sep, style, markup, emoji)
        if self.collected is not None:
            self.collected.extend(parts)
            return
        self.tail.extend((part, bool(soft_wrap)) for part in parts)
        self.surface.call_from_thread(self.surface.write_log, parts)

    def clear(self, home: bool = True) -> None:
        """The screen is the app's: clearing is :meth:`ScreenPrompter.conceal`."""

    @contextlib.contextmanager
    def collecting(self, width: int | None = None) -> Iterator[list[RenderableType]]:
        """Collect what is printed inside (at ``width`` columns) instead of logging it."""
        saved, saved_width = self.collected, self.width
        parts: list[RenderableType] = []
        self.collected = parts
        if width is not None:
            self.width = width
        try:
            yield parts
        finally:
            self.collected, self.width = saved, saved_width


@dataclass
class ScreenPrompter(Prompter):
    """The :class:`~gamenight.terminal.ui.Prompter` of the full screen."""

    surface: Surface | None = None
    shown: tuple[Text, Callable[[Console], None]] | None = None  # the board, to redraw
    panes: ClassVar[bool] = True

    def _app(self) -> Surface:
        assert self.surface is not None, "a ScreenPrompter needs its app"
        return self.surface

    def _screen(self) -> ScreenConsole:
        assert isinstance(self.console, ScreenConsole)
        return self.console

    def _wait(self) -> str:
        reply = self._app().replies.get()
        if isinstance(reply, str):
            return reply.strip()
        raise reply()

    def ask(
        self,
        prompt: str,
        *,
        secret: bool = False,
        choices: Sequence[Choice] = (),
        quick: bool = False,
    ) -> str:
        app = self._app()
        self._screen().tail.clear()  # the tail is what comes after the last question
        hidden = secret and self.hide_secrets
        while True:
            listed = () if hidden else tuple(choices)
            app.call_from_thread(app.start_ask, prompt, hidden, self.undo, listed, quick)
            answer = self.answer(self._wait())  # the bound is kept here too
            if answer is not None:
                return answer

    def listing(self, shown: RenderableType) -> None:
        """The choices are listed beside the board (``ask``'s ``choices``), not logged."""

    def error(self, message: str | Text) -> None:
        text = Text.assemble(plain("✗ ", "bold red"), clip_message(message))
        super().error(message)
        app = self._app()
        app.call_from_thread(app.show_error, text)

    def board(
        self, title: Text, draw: Callable[[Console], None], scene: Scene | None = None
    ) -> None:
        app = self._app()
        console = self._screen()
        self.shown = (title, draw)
        with console.collecting(app.call_from_thread(app.board_width)) as parts:
            draw(console)
        console.tail = [(Rule(title), False), *((part, False) for part in parts)]
        app.call_from_thread(app.show_board, title, list(parts), scene)

    def redraw(self, width: int) -> list[RenderableType] | None:
        """The board drawn again at ``width`` columns (the screen was resized), or None
        if there is none. Called on the app's thread while the session waits for an
        answer, so the console is not in use."""
        if self.shown is None:
            return None
        console = self._screen()
        with console.collecting(width) as parts:
            self.shown[1](console)
        return list(parts)

    def hand_over(self, name: str) -> None:
        # The last secret turn was concealed when it ended (HumanAgent.act): what shows
        # now is public (the start-up text, the set-up, the narration since). It stays
        # under the curtain, readable once the next player is there; the line mode
        # keeps it readable until Enter in the same way.
        app = self._app()
        app.call_from_thread(app.curtain, name)
        self._wait()

    def conceal(self) -> None:
        self._screen().tail.clear()
        self.shown = None
        app = self._app()
        app.call_from_thread(app.clear_all)

    @contextlib.contextmanager
    def aside(self) -> Iterator[None]:
        app = self._app()
        console = self._screen()
        with console.collecting(app.call_from_thread(app.hint_width)) as parts:
            yield
        if parts:
            app.call_from_thread(app.show_hint, list(parts))
