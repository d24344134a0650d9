"""Wurfeltod in the terminal: Rich rendering of the view and short keyboard input.

The score sheet shows every player's card and, for each open box of the player
to act, its key, what booking it now would score and a warning where it would
bring a Wurfeltod (W3), judged by the same category module as the engine. Input is parsed by
:func:`commands.parse_command`.

``?``/``h`` prints the help and, when the optimal-play value table exists, the
optimal action with a table of the best options by expected final score
(:mod:`gamenight.games.wurfeltod.advisor`); ``??`` lists every option. Without a
table it says how to build one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from gamenight.core.game import Results
from gamenight.games.wurfeltod.categories import (
    CATEGORY_LABELS,
    WURFELTOD_PENALTY,
    evaluate,
)
from gamenight.games.wurfeltod.commands import BOX_KEYS, HELP, parse_command
from gamenight.games.wurfeltod.game import WurfeltodView
from gamenight.games.wurfeltod.rules import (
    BOXES,
    Action,
    Book,
    DiceSetAside,
    Entry,
    GameOver,
    Rolled,
    Scratch,
    Scratched,
    SetAside,
    TurnBegan,
)
from gamenight.games.wurfeltod.rules import WurfeltodEvent as Event
from gamenight.terminal.ui import HELP_WORDS, Prompter, Table, ask_until_parsed

if TYPE_CHECKING:
    from gamenight.games.wurfeltod.solver import ValueTable

__all__ = [
    "HINT_ROWS",
    "UI",
    "box_label",
    "command_text",
    "describe",
    "hint_table",
    "open_box_rows",
]

SKULL = "☠"
HINT_ROWS = 10
"""Options shown by ``?``; ``??`` shows them all."""


def box_label(box: int) -> str:
    """The score-sheet name of box ``box``; the two Face Value boxes are numbered."""
    category = BOXES[box]
    label = CATEGORY_LABELS[category]
    if BOXES.count(category) > 1:
        label += f" ({BOXES[:box].count(category) + 1})"
    return label


def open_box_rows(view: WurfeltodView) -> list[tuple[str, str, int, bool]]:
    """(key, label, points now, Wurfeltod?) for each open box of the player to act."""
    if view.finished or not view.rolled:
        return []
    bookings = evaluate(view.aside, view.rolled)
    return [
        (BOX_KEYS[c], CATEGORY_LABELS[c], bookings[c].points, bookings[c].wurfeltod)
        for c in view.open_boxes
    ]


def _dice(values: Sequence[int]) -> str:
    return " ".join(str(v) for v in values) if values else "-"


def _now_cell(points: int, wurfeltod: bool) -> Text:
    text = Text(str(points), style="bold" if points else "dim")
    if wurfeltod:
        text.append(f" {SKULL} -{WURFELTOD_PENALTY}", style="bold red")
    return text


def _entry_cell(entry: Entry | None) -> Text:
    if entry is None:
        return Text("·", style="dim")
    if entry.scratch:
        return Text("0 x", style="yellow")
    text = Text(str(entry.points), style="bold" if entry.points else "")
    if entry.wurfeltod:
        text.append(f" {SKULL}", style="bold red")
    return text


def command_text(action: Action) -> str:
    """What to type for ``action``: ``a 1 2 5 6``, ``b pp`` or ``x 6k``.

    >>> from gamenight.games.wurfeltod.categories import Category
    >>> command_text(SetAside((0, 1, 4, 5))), command_text(Scratch(Category.SIX_OF_A_KIND))
    ('a 1 2 5 6', 'x 6k')
    """
    if isinstance(action, SetAside):
        return "a " + " ".join(str(p + 1) for p in action.dice)
    return ("b " if isinstance(action, Book) else "x ") + BOX_KEYS[action.category]


def describe(action: Action, view: WurfeltodView) -> Text:
    """``action`` in words; a booking says what it scores now and warns of a Wurfeltod (W3).

    >>> from gamenight.games.wurfeltod.categories import Category
    >>> from gamenight.games.wurfeltod.game import GAME
    >>> from gamenight.core.dice import ScriptedDice
    >>> state = GAME.start(1, GAME.parse_options(), ScriptedDice((1, 1, 4, 4, 4, 3))).state
    >>> describe(Book(Category.TRIPLE_FOURS), GAME.view(state, 0)).plain
    'book 4-4-4: 100 ☠ -250'
    >>> describe(SetAside((2, 3, 4)), GAME.view(state, 0)).plain
    'set aside 4 4 4'
    """
    if isinstance(action, SetAside):
        return Text(f"set aside {_dice(sorted(view.rolled[i] for i in action.dice))}")
    label = CATEGORY_LABELS[action.category]
    if isinstance(action, Scratch):
        return Text(f"scratch {label}: 0, no Wurfeltod")
    booking = evaluate(view.aside, view.rolled)[action.category]
    return Text(f"book {label}: ").append_text(_now_cell(booking.points, booking.wurfeltod))


def hint_table(
    table: ValueTable, view: WurfeltodView, legal: Sequence[Action], rows: int | None = HINT_ROWS
) -> tuple[RichTable, int]:
    """The best ``rows`` distinct options (all if None) with their expected final score,
    best first, and how many distinct options were left out."""
    from gamenight.games.wurfeltod.advisor import ranked_options  # loads numpy and the solver

    ranked = ranked_options(table, view, legal)
    shown = ranked if rows is None else ranked[:rows]
    best = ranked[0][1]
    grid = RichTable(
        title="Optimal play: expected final score of each option",
        pad_edge=False,
        title_justify="left",
    )
    grid.add_column("Command")
    grid.add_column("Option")
    grid.add_column("Expected score", justify="right")
    grid.add_column("vs best", justify="right")
    for i, (action, value) in enumerate(shown):
        gap = "best" if value >= best else f"{value - best:,.1f}"
        grid.add_row(
            command_text(action),
            describe(action, view),
            f"{value:,.1f}",
            gap,
            style="bold green" if i == 0 else None,
        )
    return grid, len(ranked) - len(shown)


class UI:
    """The Wurfeltod terminal presentation (implements ``cli.ui.TerminalUI``)."""

    def __init__(self) -> None:
        self._table: ValueTable | None = None  # loaded on the first hint; a miss is retried

    def show(self, console: Console, view: WurfeltodView, seat: int | None, table: Table) -> None:
        console.print(self._sheet(view, table))
        if view.finished:
            console.print("[bold]Game over.[/]")
            return
        console.print(f"  Set aside:   [bold]{_dice(view.aside)}[/]")
        rolled = "  ".join(f"[dim]{i}:[/][bold green]{v}[/]" for i, v in enumerate(view.rolled, 1))
        console.print(f"  Just rolled: {rolled}")
        if view.first_roll:
            console.print("  First roll: you may scratch a box (x KEY) for 0 with no Wurfeltod.")
        if view.must_book:
            console.print("  [yellow]Only one die was rolled: book a box now.[/]")

    def _sheet(self, view: WurfeltodView, table: Table) -> RichTable:
        """Every player's score card; while a turn is on, the current player's open boxes
        carry their key and what booking them now would give (W3)."""
        playing = not view.finished
        title = (
            f"Turn {view.turn}/{view.turns} · {table.names[view.current]} · roll {view.roll}"
            if playing
            else "Score cards"
        )
        grid = RichTable(title=title, pad_edge=False)
        if playing:
            grid.add_column("Key", style="bold")
        grid.add_column("Box")
        if playing:
            grid.add_column("Book now", justify="right")
        for s, name in enumerate(table.names):
            style = "bold cyan" if playing and s == view.current else ""
            grid.add_column(name, justify="right", header_style=style)
        now = {key: (points, wurfeltod) for key, _, points, wurfeltod in open_box_rows(view)}
        current = view.cards[view.current]
        for box, category in enumerate(BOXES):
            cells: list[str | Text] = [box_label(box)]
            if playing:
                key = BOX_KEYS[category]
                is_open = current.boxes[box] is None and key in now
                cells.insert(0, key if is_open else "")
                cells.append(_now_cell(*now[key]) if is_open else Text(""))
            cells += [_entry_cell(card.boxes[box]) for card in view.cards]
            grid.add_row(*cells)
        grid.add_section()
        footer: list[tuple[str | Text, list[str | Text]]] = [
            ("Points", [str(c.points) for c in view.cards]),
            (f"Wurfeltods {SKULL}", [str(c.wurfeltods) for c in view.cards]),
            (Text("Total", "bold"), [Text(str(c.total), "bold") for c in view.cards]),
        ]
        for label, values in footer:
            grid.add_row(*(("", label, "") if playing else (label,)), *values)
        return grid

    def show_events(self, console: Console, events: Sequence[Event], table: Table) -> None:
        for event in events:
            line = self._narrate(event, table)
            if line:
                console.print(line)

    def _narrate(self, event: Event, table: Table) -> str | None:
        if isinstance(event, GameOver):
            return "[bold]Every player has taken 20 turns: the game is over.[/]"
        name = table.names[event.player]
        if isinstance(event, TurnBegan):
            return f"[bold]— Turn {event.turn}: {name} —[/]"
        if isinstance(event, Rolled):
            return f"{name} rolls [bold green]{_dice(event.dice)}[/]"
        if isinstance(event, DiceSetAside):
            return f"{name} sets aside [bold]{_dice(event.dice)}[/]"
        label = CATEGORY_LABELS[event.category]
        if isinstance(event, Scratched):
            return f"{name} scratches {label}: 0, no Wurfeltod (total {event.total})"
        penalty = f" and a Wurfeltod [bold red]{SKULL} -250[/]" if event.wurfeltod else ""
        return f"{name} books {label}: {event.points}{penalty} (total {event.total})"

    def ask(
        self,
        prompter: Prompter,
        view: WurfeltodView,
        legal: Sequence[Action],
        seat: int,
        table: Table,
    ) -> Action:
        def parse(text: str) -> Action | str:
            return parse_command(text, view, legal)

        def on_help(word: str) -> bool:
            if word == "??":
                self.show_hint(prompter.console, view, legal, rows=None)
                return True
            if word in HELP_WORDS:
                prompter.console.print(HELP)
                self.show_hint(prompter.console, view, legal)
                return True
            return False

        # mypy joins the union of action types to Struct when solving the TypeVar
        return cast(
            Action,
            ask_until_parsed(
                prompter,
                f"{table.names[seat]}> ",
                parse,
                on_help,
            ),
        )

    def value_table(self) -> ValueTable | str:
        """The optimal-play value table, or why there is none and how to build it."""
        if self._table is None:
            from gamenight.games.wurfeltod.advisor import table_or_reason

            found = table_or_reason()
            if isinstance(found, str):
                return found
            self._table = found
        return self._table

    def hint(self, view: WurfeltodView, legal: Sequence[Action]) -> str | None:
        """The optimal action and its expected final score, or how to get optimal hints."""
        if view.finished or not legal:
            return None
        table = self.value_table()
        if isinstance(table, str):
            return table
        from gamenight.games.wurfeltod.advisor import best_action

        action, value = best_action(table, view, legal)
        return (
            f"the optimal play is [bold]{command_text(action)}[/] "
            f"({describe(action, view).plain}), expected final score {value:,.1f}"
        )

    def show_hint(
        self,
        console: Console,
        view: WurfeltodView,
        legal: Sequence[Action],
        rows: int | None = HINT_ROWS,
    ) -> None:
        """Print the hint line and the table of options (best first), or how to build
        the value table."""
        hint = self.hint(view, legal)
        if hint is None:
            return
        console.print(f"Hint: {hint}")
        table = self.value_table()
        if isinstance(table, str):
            return
        grid, hidden = hint_table(table, view, legal, rows)
        console.print(grid)
        if hidden:
            console.print(f"  … and {hidden} more options: type ?? to list them all.")

    def show_results(
        self, console: Console, results: Results, view: WurfeltodView, table: Table
    ) -> None:
        console.print(self._sheet(view, table))
        grid = RichTable(title="Final standings (W5)", pad_edge=False)
        for column in ("Rank", "Player", "Points", "Wurfeltods", "Score"):
            grid.add_column(column, justify="left" if column == "Player" else "right")
        order = sorted(range(len(results.scores)), key=lambda s: (results.ranks[s], s))
        for s in order:
            card = view.cards[s]
            grid.add_row(
                str(results.ranks[s]),
                table.names[s],
                str(card.points),
                str(card.wurfeltods),
                str(int(results.scores[s])),
            )
        console.print(grid)
        winners = " and ".join(table.names[w] for w in results.winners)
        verb = "share the win" if len(results.winners) > 1 else "wins"
        console.print(f"[bold]{winners} {verb}.[/]")
