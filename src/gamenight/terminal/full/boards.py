"""The board panel's widgets: what a game's terminal UI drew, laid out as Textual
widgets (score sheets as :class:`~textual.widgets.DataTable`, each die its own widget,
highlighted while chosen), and the lookup of a game's own board widget.

A game's terminal UI class may name its own widget in ``board_widget``
("module:attribute" of a :class:`Board` subclass), as a plug-in names its UI in
``GameInfo.terminal``; without one (every plug-in, at first) the game gets the
:class:`Board` here, which reads any UI's drawing. Nothing here names a game.

A click on a die and its number key go one way, ``TableApp.action_die``: the die's
text carries the click (``terminal.ui.die_key``), so the click is the key.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, ClassVar

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.panel import Panel
from rich.segment import Segment
from rich.style import Style
from rich.table import Table as RichTable
from rich.text import Text
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Label, Static

from gamenight.core.registry import load

DIE_ACTION = "app.die("
RenderableTypes = (Group, Text, RichTable)  # what a panel may hold to be laid out as widgets


class Marked:
    """A drawing with the parts whose click stands for what the prompt line holds
    shown reversed (``terminal.ui.answer_key``: a year typed or clicked)."""

    def __init__(self, drawing: RenderableType, clicks: frozenset[str]) -> None:
        self.drawing, self.clicks = drawing, clicks

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        mark = Style(reverse=True, bold=True)
        for segment in console.render(self.drawing, options):
            style = segment.style
            if style is not None and self.clicks and style.meta.get("@click") in self.clicks:
                yield Segment(segment.text, style + mark, segment.control)
            else:
                yield segment


def picked_dice(line: str) -> frozenset[int]:
    """The dice numbers standing alone on a typed line, as a click writes them.

    >>> sorted(picked_dice("s 1 3 "))
    [1, 3]
    >>> sorted(picked_dice("1985"))
    []
    """
    return frozenset(int(word) for word in line.split() if len(word) == 1 and word in "12345678")


def answer_clicks(line: str) -> frozenset[str]:
    """The clicks (``terminal.ui.answer_key``) that stand for ``line``.

    >>> sorted(answer_clicks(" 1987 "))
    ["app.answer('1987')"]
    """
    word = line.strip()
    return frozenset({f"app.answer({word!r})"}) if word else frozenset()


def die_of(style: object) -> int | None:
    """The die a style makes clickable (``terminal.ui.die_key``), or None.

    >>> from gamenight.terminal.ui import die_key
    >>> die_of(die_key(4)), die_of(Style(bold=True)), die_of("bold")
    (4, None, None)
    """
    if not isinstance(style, Style):
        return None
    click = style.meta.get("@click", "") if style.meta else ""
    if isinstance(click, str) and click.startswith(DIE_ACTION) and click.endswith(")"):
        number = click[len(DIE_ACTION) : -1]
        return int(number) if number.isdigit() else None
    return None


def dice_pieces(line: Text) -> list[tuple[Text, int | None]]:
    """``line`` cut where its dice begin and end: (text, die number or None).

    >>> from gamenight.terminal.ui import die_key
    >>> line = Text("Rolled ") + Text("1:5", style=die_key(1)) + Text("  ")
    >>> _ = line.append("2:3", style=die_key(2))
    >>> [(piece.plain, die) for piece, die in dice_pieces(line)]
    [('Rolled ', None), ('1:5', 1), ('  ', None), ('2:3', 2)]
    """
    marks: list[tuple[int, int, int]] = []
    base = die_of(line.style)
    if base is not None:
        marks.append((0, len(line), base))
    for span in line.spans:
        number = die_of(span.style)
        if number is not None and span.end > span.start:
            marks.append((span.start, span.end, number))
    if not marks:
        return [(line, None)]
    # one piece per die: spans of the same die that touch are merged
    merged: list[list[int]] = []
    for start, end, number in sorted(marks):
        if merged and merged[-1][2] == number and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        elif merged and start < merged[-1][1]:
            continue  # overlaps another die: keep the first
        else:
            merged.append([start, end, number])
    pieces: list[tuple[Text, int | None]] = []
    at = 0
    for start, end, number in merged:
        if start > at:
            pieces.append((line[at:start], None))
        pieces.append((line[start:end], number))
        at = end
    if at < len(line):
        pieces.append((line[at:], None))
    return pieces


def has_dice(part: RenderableType) -> bool:
    """Whether ``part`` is text holding a die (a click on it means the die's key)."""
    return isinstance(part, Text) and any(die for _, die in dice_pieces(part))


def is_sheet(part: RenderableType) -> bool:
    """A score sheet: a table with a header row (a header-less table is a layout)."""
    return isinstance(part, RichTable) and part.show_header and part.row_count > 0


class Die(Static):
    """One die: its face as the game drew it, reversed while it is chosen."""

    DEFAULT_CSS = """
    Die { width: auto; height: auto; }
    Die.picked { text-style: reverse bold; }
    """

    def __init__(self, face: Text, number: int) -> None:
        super().__init__(face, classes="die")
        self.number = number


class DiceRow(Horizontal):
    """A line of the board with dice in it: the text around them, and each die."""

    DEFAULT_CSS = """
    DiceRow { height: auto; width: 100%; }
    DiceRow > .between { width: auto; }
    """

    def __init__(self, line: Text) -> None:
        super().__init__()
        self.pieces = dice_pieces(line)

    def compose(self) -> Iterator[Static]:
        for piece, number in self.pieces:
            if number is None:
                yield Static(piece, classes="between")
            else:
                yield Die(piece, number)


class Sheet(Vertical):
    """A score sheet: its title, and its rows in a DataTable (no cursor: it is read,
    not operated; the keys stay on the prompt line)."""

    DEFAULT_CSS = """
    Sheet { height: auto; width: 100%; }
    Sheet > DataTable { height: auto; max-height: 1000; width: auto; max-width: 100%;
        background: $surface; }
    Sheet > .title { text-style: bold; }
    """

    def __init__(self, table: RichTable) -> None:
        super().__init__()
        self.table = table

    def compose(self) -> Iterator[Static | DataTable[Any]]:
        table = self.table
        if table.title:
            title = table.title if isinstance(table.title, Text) else Text.from_markup(table.title)
            yield Label(title, classes="title")
        sheet: DataTable[Any] = DataTable(
            show_cursor=False, cursor_type="none", zebra_stripes=True, cell_padding=1
        )
        sheet.can_focus = False
        for column in table.columns:
            header = column.header
            label = header if isinstance(header, Text) else Text.from_markup(str(header))
            if column.header_style:
                label = label.copy()
                label.stylize(column.header_style)
            sheet.add_column(label)
        cells = [list(column.cells) for column in table.columns]
        for index in range(table.row_count):
            row: list[RenderableType] = []
            for column, column_cells in zip(table.columns, cells, strict=True):
                cell = column_cells[index] if index < len(column_cells) else ""
                text = Text.from_markup(cell) if isinstance(cell, str) else cell
                if isinstance(text, Text):
                    text = text.copy()
                    if column.style:
                        text.stylize(column.style)
                    text.justify = column.justify
                row.append(text)
            sheet.add_row(*row, height=None)
        if table.show_footer:  # the totals, as a last row
            footer = [
                Text.from_markup(c.footer) if isinstance(c.footer, str) else c.footer
                for c in table.columns
            ]
            sheet.add_row(*(Text.assemble(f, style="bold") if isinstance(f, Text) else f
                            for f in footer), height=None)  # fmt: skip
        yield sheet


class Drawn(Static):
    """A run of the board drawn as the game printed it; what the line holds is marked."""

    DEFAULT_CSS = "Drawn { height: auto; width: 100%; }"

    def __init__(self, drawing: RenderableType) -> None:
        super().__init__(drawing, classes="drawn")
        self.drawing = drawing
        self.clicks: frozenset[str] = frozenset()

    def mark(self, clicks: frozenset[str]) -> None:
        if clicks != self.clicks:
            self.clicks = clicks
            self.update(Marked(self.drawing, clicks) if clicks else self.drawing)


class Framed(Vertical):
    """A framed part of a board (a Rich panel): its title on the frame, its inside laid
    out as widgets too (the dice in a panel are dice widgets)."""

    DEFAULT_CSS = """
    Framed { height: auto; width: 100%; border: round $panel; padding: 0 1;
        border-title-color: $text; }
    """

    def __init__(self, panel: Panel, board: Board) -> None:
        super().__init__()
        self.panel, self.board = panel, board
        title = panel.title
        if title:
            self.border_title = title if isinstance(title, Text) else Text.from_markup(title)

    def compose(self) -> Iterator[Static | Vertical | Horizontal]:
        yield from self.board.widgets([self.panel.renderable])


class Board(Vertical):
    """The generic board: any game UI's drawing, score sheets as tables and dice as
    widgets, everything else as it was drawn. A game's own board subclasses it."""

    DEFAULT_CSS = """
    Board { height: auto; width: 100%; }
    Board > .drawn { height: auto; width: 100%; }
    """
    # the view a subclass draws from, where the session gave one (see ``scene``)
    wants_view: ClassVar[bool] = False

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.parts: list[RenderableType] = []
        self.picked: frozenset[int] = frozenset()
        self.line = ""  # what the prompt line holds
        self.view: Any = None
        self.seat: int | None = None

    def show(
        self, parts: Sequence[RenderableType], view: Any = None, seat: int | None = None
    ) -> None:
        """Lay out ``parts`` (what the game's UI printed) anew."""
        self.parts, self.view, self.seat = list(parts), view, seat
        if not self.is_mounted:  # a game's own board, just made: laid out once mounted
            return
        self.remove_children()
        self.mount_all(list(self.widgets(self.parts)))
        self.follow(self.line)

    def on_mount(self) -> None:
        self.call_after_refresh(self._laid_out)

    def _laid_out(self) -> None:
        if not self.children:  # made and given its parts before it was mounted
            self.show(self.parts, self.view, self.seat)

    def widgets(self, parts: Iterable[RenderableType]) -> Iterator[Static | Vertical | Horizontal]:
        """The widgets for ``parts``: runs of plain drawing in one Static each."""
        run: list[RenderableType] = []

        def flush() -> Iterator[Static]:
            if run:
                yield Drawn(Group(*run))
                run.clear()

        for part in parts:
            if type(part) is Group:  # a plain group: its parts laid out one by one
                yield from flush()
                yield from self.widgets(part.renderables)
            elif isinstance(part, Panel) and isinstance(part.renderable, RenderableTypes):
                yield from flush()
                yield Framed(part, self)
            elif is_sheet(part):
                yield from flush()
                assert isinstance(part, RichTable)
                yield Sheet(part)
            elif isinstance(part, Text) and has_dice(part):
                for line in part.split("\n", allow_blank=True):
                    if has_dice(line):
                        yield from flush()
                        yield DiceRow(line)
                    else:
                        run.append(line)
            else:
                run.append(part)
        yield from flush()

    def dice(self) -> frozenset[int]:
        """The numbers of the dice on the board."""
        return frozenset(die.number for die in self.query(Die))

    def follow(self, line: str) -> None:
        """The prompt line now holds ``line``: mark the dice it picks and the answer
        it names (typed or clicked, the same)."""
        self.line = line
        self.picked = picked_dice(line)
        for die in self.query(Die):
            die.set_class(die.number in self.picked, "picked")
        clicks = self.marked(line)
        for drawn in self.query(Drawn):
            drawn.mark(clicks)

    def marked(self, line: str) -> frozenset[str]:
        """The clicks (``terminal.ui.answer_key``) whose parts of the board are marked
        while the prompt line holds ``line``: the answer it names here; a game's board
        may mark more (the years its tokens cover)."""
        return answer_clicks(line)

    def clicked(self, line: str, word: str) -> str:
        """What the prompt line holds after a click on the answer ``word`` while it
        holds ``line``: ``word`` here; a game's board may build on the line (a token
        placed, made longer, taken off)."""
        return word

    def can_step(self) -> bool:
        """Whether the arrow keys walk this board's answers now (see :meth:`step`)."""
        return False

    def step(self, line: str, step: int) -> str | None:
        """What an arrow key (``step`` -1 up, +1 down) puts on the prompt line when the
        question lists no choices: None here; a game's board may walk its answers."""
        return None


def board_class(path: str | None) -> type[Board]:
    """The board widget a game's UI names (``board_widget``), or the generic one; a
    name that cannot be loaded falls back to the generic board (a plug-in's mistake
    never costs the game its table)."""
    if path:
        try:
            found = load(path)
        except Exception:
            return Board
        if isinstance(found, type) and issubclass(found, Board):
            return found
    return Board
