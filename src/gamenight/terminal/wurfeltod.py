"""Wurfeltod in the terminal: Rich rendering of the view and short keyboard commands.

The score sheet shows every player's card and, for each open box of the player
to act, its key, what booking it now would score and a warning where it would
bring a Wurfeltod (W3), judged by the same category module as the engine.

Commands (parsed by :func:`parse_command`, pure):

* ``a 1 3`` or ``a13``: set aside dice 1 and 3 of the dice just rolled (numbered
  from 1 as shown) and roll the rest;
* ``b <key>``: book a box, e.g. ``b pp`` for Two Pair or ``b f`` for Face Value;
* ``x <key>``: scratch a box (0, no Wurfeltod), right after the first roll only.

``?``/``h`` prints the help and the game's advice
(:func:`gamenight.games.wurfeltod.advisor.advise`, rendered by
:mod:`gamenight.terminal.advice`): the optimal action and the best options by
expected final score; ``??`` lists every option. Without a value table it says
how to build one. Names and typed text are always printed as text, never as
Rich markup.

>>> KEY_CATEGORY["4k"]
<Category.FOUR_OF_A_KIND: 'four-of-a-kind'>
>>> positions("1 3", 6)
(0, 2)
>>> positions("33", 6)
'die 3 is listed twice'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol, cast

import msgspec
from rich.console import Console, RenderableType
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.progress import Progress as ProgressBar
from rich.table import Table as RichTable
from rich.text import Text

from gamenight.core.advice import Advice
from gamenight.core.errors import GamenightError
from gamenight.core.game import Results
from gamenight.core.i18n import (
    N_,
    N_p,
    Rephrasing,
    _,
    format_decimal,
    pgettext,
    rephrase,
    said,
    term,
)
from gamenight.core.solver import Progress
from gamenight.games.wurfeltod.booking import evaluate
from gamenight.games.wurfeltod.categories import (
    CATEGORY_LABELS,
    WURFELTOD_PENALTY,
    Category,
)
from gamenight.games.wurfeltod.game import GAME, WurfeltodView
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
from gamenight.terminal.advice import advice_table
from gamenight.terminal.ui import (
    HELP_WORDS,
    Choice,
    HintBlock,
    Prompter,
    Seating,
    alert,
    ask_until_parsed,
    die_key,
    legal_choices,
    plain,
)

__all__ = [
    "BOX_KEYS",
    "HELP",
    "HINT_ROWS",
    "KEY_CATEGORY",
    "UI",
    "box_label",
    "command_text",
    "describe",
    "find_category",
    "open_box_rows",
    "parse_command",
    "positions",
    "solve_progress",
]

SKULL = "☠"
HINT_ROWS = 10
"""Options shown by ``?``; ``??`` shows them all."""

# ----- keys and commands -------------------------------------------------------------------------

BOX_KEYS: dict[Category, str] = {
    Category.ANY_PAIR: "p",
    Category.TWO_PAIR: "pp",
    Category.TRIPLE_ONES: "1",
    Category.TRIPLE_TWOS: "2",
    Category.TRIPLE_THREES: "3",
    Category.TRIPLE_FOURS: "4",
    Category.TRIPLE_FIVES: "5",
    Category.TRIPLE_SIXES: "6",
    Category.SUM_25: "s",
    Category.FOUR_OF_A_KIND: "4k",
    Category.THREE_PAIRS: "3p",
    Category.TWO_TRIPLETS: "tt",
    Category.FOUR_AND_PAIR: "4p",
    Category.FIVE_OF_A_KIND: "5k",
    Category.FIVE_STRAIGHT: "5s",
    Category.SEQUENTIAL_PAIRS: "sp",
    Category.SIX_OF_A_KIND: "6k",
    Category.SIX_STRAIGHT: "6s",
    Category.FACE_VALUE: "f",
}
"""The short key of each box, shown in the Key column of the score sheet."""


def _squash(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


KEY_CATEGORY: dict[str, Category] = {key: c for c, key in BOX_KEYS.items()}
# Also accept the category's id and label, ignoring case, spaces and punctuation.
_NAMES: dict[str, Category] = {
    **{_squash(c.value): c for c in Category},
    **{_squash(label): c for c, label in CATEGORY_LABELS.items()},
    **KEY_CATEGORY,
}

HELP = N_("""\
Commands (dice are numbered from 1 as shown under "Just rolled"):
  a 1 3   set aside dice 1 and 3 of the dice just rolled, and roll the rest
          (also a13 or a 1,3); at least one die must stay to be rolled
  b KEY   stop and book the box KEY (keys are in the Key column of the sheet)
  x KEY   scratch: book 0 in box KEY with no Wurfeltod (first roll only)
  ?  h    this help, and the optimal play with the best options' expected final
          scores (once `gamenight solve wurfeltod` has built the value table)
  ??      the expected final score of every option
A booking scores its points if the six dice hold the category; if any die of
the last roll is not part of it, it also costs a Wurfeltod (-250).""")


def category_name(category: Category) -> str:
    """A box's category in the player's language (the shared vocabulary's term)."""
    return term(f"wt.cat.{category.value}", CATEGORY_LABELS[category])


class TurnView(Protocol):
    """The parts of the game's view the parser reads."""

    @property
    def rolled(self) -> tuple[int, ...]: ...

    @property
    def first_roll(self) -> bool: ...

    @property
    def open_boxes(self) -> tuple[Category, ...]: ...


_VERBS = (("aside", "a"), ("book", "b"), ("scratch", "x"), ("a", "a"), ("b", "b"), ("x", "x"))


def _split_verb(command: str) -> tuple[str, str] | None:
    """(verb letter, the rest) of a lower-case command, or None without a known verb."""
    for word, verb in _VERBS:
        if command.startswith(word):
            return verb, command[len(word) :].strip()
    if command[:1] in "123456":  # dice numbers alone set them aside (what a click types)
        return "a", command
    return None


def find_category(text: str) -> Category | None:
    """The category named by a box key, id or label (``"pp"``, ``"two-pair"``, ``"Two Pair"``)."""
    return _NAMES.get(_squash(text))


def positions(text: str, rolled: int) -> tuple[int, ...] | str:
    """0-based positions from 1-based digits like ``"1 3"``/``"13"``/``"1,3"``, or an error."""
    found: list[int] = []
    for ch in text:
        if ch in " ,;-":
            continue
        # ASCII only: str.isdigit() also accepts '²', which int() then refuses.
        if ch not in "0123456789":
            return _("{typed} is not a die number: give dice numbers 1 to {n}, e.g. a 1 3").format(
                typed=repr(ch), n=rolled
            )
        number = int(ch)
        if not 1 <= number <= rolled:
            return _("there is no die {number}: the dice just rolled are numbered 1 to {n}").format(
                number=number, n=rolled
            )
        if number - 1 in found:
            return _("die {number} is listed twice").format(number=number)
        found.append(number - 1)
    if not found:
        return _("say which dice to set aside, e.g. a 1 3")
    return tuple(sorted(found))


def parse_command(text: str, view: TurnView, legal: Sequence[Action]) -> Action | str:
    """One of ``legal`` for ``text``, or a message saying what is wrong (pure; no I/O)."""
    command = text.strip().lower()
    if not command:
        return _("type a command (? for help)")
    split = _split_verb(command)
    if split is None:
        return _(
            "unknown command {typed}: use a (set aside), b (book), x (scratch), ? help"
        ).format(typed=repr(text.strip()))
    verb, rest = split
    action: Action
    if verb == "a":
        n = len(view.rolled)
        if n == 1:
            return _("only one die was rolled: you must book now (b KEY)")
        picked = positions(rest, n)
        if isinstance(picked, str):
            return picked
        if len(picked) == n:
            return _("leave at least one die to roll; to stop here, book a box (b KEY)")
        action = SetAside(picked)
    else:
        if not rest:
            return _("say which box, e.g. {verb} pp (keys are in the Key column)").format(verb=verb)
        category = find_category(rest)
        if category is None:
            return _("no box {typed}: use a key from the Key column").format(typed=repr(rest))
        if category not in view.open_boxes:
            return _("{box} is already booked").format(box=category_name(category))
        if verb == "x" and not view.first_roll:
            return _("you may scratch only right after the first roll; book a box (b KEY)")
        action = Book(category) if verb == "b" else Scratch(category)
    if action not in legal:
        return _("that is not allowed now (? for help)")
    return action


def command_text(action: Action) -> str:
    """What to type for ``action``: ``a 1 2 5 6``, ``b pp`` or ``x 6k``.

    >>> command_text(SetAside((0, 1, 4, 5))), command_text(Scratch(Category.SIX_OF_A_KIND))
    ('a 1 2 5 6', 'x 6k')
    """
    if isinstance(action, SetAside):
        return "a " + " ".join(str(p + 1) for p in action.dice)
    return ("b " if isinstance(action, Book) else "x ") + BOX_KEYS[action.category]


# ----- rendering ---------------------------------------------------------------------------------


# The compact sheet's names (narrow screens): at most 12 columns, none cut short.
SHORT_LABELS: dict[Category, tuple[str, str]] = {
    Category.SUM_25: N_p("short box name", "Sum 25+"),
    Category.FOUR_OF_A_KIND: N_p("short box name", "4 of a kind"),
    Category.THREE_PAIRS: N_p("short box name", "3 pairs"),
    Category.TWO_TRIPLETS: N_p("short box name", "2 triplets"),
    Category.FOUR_AND_PAIR: N_p("short box name", "4 kind+pair"),
    Category.FIVE_OF_A_KIND: N_p("short box name", "5 of a kind"),
    Category.FIVE_STRAIGHT: N_p("short box name", "5 straight"),
    Category.SEQUENTIAL_PAIRS: N_p("short box name", "Seq. pairs"),
    Category.SIX_OF_A_KIND: N_p("short box name", "6 of a kind"),
    Category.SIX_STRAIGHT: N_p("short box name", "6 straight"),
    Category.FACE_VALUE: N_p("short box name", "Faces ×10"),
}


def box_label(box: int, *, short: bool = False) -> str:
    """The score-sheet name of box ``box``; the two Face Value boxes are numbered.

    >>> box_label(19), box_label(19, short=True)
    ('Face Value Total ×10 (2)', 'Faces ×10 2')
    """
    category = BOXES[box]
    short_label = SHORT_LABELS.get(category) if short else None
    label = category_name(category) if short_label is None else pgettext(*short_label)
    if BOXES.count(category) > 1:
        number = BOXES[:box].count(category) + 1
        label += f" {number}" if short else f" ({number})"
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


NARROW = 60  # consoles narrower than this get the compact sheet, dice first


def _dice(values: Sequence[int]) -> str:
    return " ".join(str(v) for v in values) if values else "-"


def _now_cell(points: int, wurfeltod: bool) -> Text:
    text = Text(str(points), style="bold" if points else "dim")
    if wurfeltod:
        text.append(f" {SKULL} -{WURFELTOD_PENALTY}", style=alert())
    return text


def _entry_cell(entry: Entry | None) -> Text:
    if entry is None:
        return Text("·", style="dim")
    if entry.scratch:
        return Text("0 x", style="yellow")
    text = Text(str(entry.points), style="bold" if entry.points else "")
    if entry.wurfeltod:
        text.append(f" {SKULL}", style=alert())
    return text


def describe(action: Action, view: WurfeltodView) -> Text:
    """``action`` in words; a booking says what it scores now and warns of a Wurfeltod (W3).

    >>> from gamenight.core.dice import ScriptedDice
    >>> state = GAME.start(1, GAME.parse_options(), ScriptedDice((1, 1, 4, 4, 4, 3))).state
    >>> describe(Book(Category.TRIPLE_FOURS), GAME.view(state, 0)).plain
    'book 4-4-4: 100 ☠ -250'
    >>> describe(SetAside((2, 3, 4)), GAME.view(state, 0)).plain
    'set aside 4 4 4'
    """
    if isinstance(action, SetAside):
        dice = _dice(sorted(view.rolled[i] for i in action.dice))
        return Text(_("set aside {dice}").format(dice=dice))
    label = category_name(action.category)
    if isinstance(action, Scratch):
        return Text(_("scratch {box}: 0, no Wurfeltod").format(box=label))
    booking = evaluate(view.aside, view.rolled)[action.category]
    return Text(_("book {box}:").format(box=label) + " ").append_text(
        _now_cell(booking.points, booking.wurfeltod)
    )


# The advisor's column names (its English reaches the browser too), said here in the
# player's language.
OBJECTIVE_NAMES = {"expected final score": N_("expected final score"), "vs best": N_("vs best")}


def keyed_advice(advice: Advice, view: WurfeltodView | None = None) -> Advice:
    """The advice as the terminal shows it, in the player's language: each label starts
    with the command to type and says what a booking scores now, with the Wurfeltod
    warning (from the advice's own "points now" and "Wurfeltod now" values); the table
    keeps the leading two columns (expected final score, vs best). With ``view``, the
    note (which boxes bring a Wurfeltod now) is said again from it."""
    options = []
    for option in advice.options:
        action = GAME.decode_action(option.action)
        words = option.label if view is None else describe(action, view).plain
        if view is not None and not isinstance(action, SetAside):
            options.append(
                msgspec.structs.replace(
                    option, label=f"{command_text(action):<11} {words}", values=option.values[:2]
                )
            )
            continue
        label = f"{command_text(action):<11} {words}"
        points, penalty = option.values[2], option.values[3]
        if isinstance(action, Scratch):
            label += ": " + _("0, no Wurfeltod")
        elif points is not None:
            label += f": {points:.0f}" + (f" {SKULL} {penalty:.0f}" if penalty else "")
        options.append(msgspec.structs.replace(option, label=label, values=option.values[:2]))
    objectives = tuple(
        msgspec.structs.replace(o, name=_(OBJECTIVE_NAMES.get(o.name, o.name)), note=None)
        for o in advice.objectives[:2]
    )
    note = advice.note if view is None else wurfeltod_note(view)
    return msgspec.structs.replace(advice, objectives=objectives, options=tuple(options), note=note)


def wurfeltod_note(view: WurfeltodView) -> str:
    """Which open boxes would cost a Wurfeltod if booked now (W3), in the player's words."""
    bookings = evaluate(view.aside, view.rolled)
    boxes = [category_name(c) for c in view.open_boxes if bookings[c].wurfeltod]
    if not boxes:
        return _("No open box brings a Wurfeltod if booked now.")
    return _("Booking now brings a Wurfeltod (-{penalty}) in: {boxes}.").format(
        penalty=WURFELTOD_PENALTY, boxes=", ".join(boxes)
    )


def solve_progress(console: Console) -> tuple[ProgressBar, Progress]:
    """A progress bar for the value table's solve, and the callback that advances it.

    Start the bar (``with bar:``) around ``build_table(progress=callback)``.
    """
    bar = ProgressBar(
        TextColumn("[bold]Solving Wurfeltod[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("states"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        transient=False,
    )
    task = bar.add_task("solve", total=None)

    def callback(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    return bar, callback


class UI:
    """The Wurfeltod terminal presentation (implements ``terminal.ui.TerminalUI``)."""

    parse_command = staticmethod(parse_command)  # the keys, read (TerminalUI)

    def show(self, console: Console, view: WurfeltodView, seat: int | None, table: Seating) -> None:
        if console.width < NARROW:  # the dice first, then a sheet without rules
            if not view.finished:
                for line in self._dice_lines(view, compact=True):
                    console.print(line)
            console.print(self._sheet(view, table, compact=True))
            if view.finished:
                console.print(Text(_("Game over."), style="bold"))
            return
        console.print(self._sheet(view, table))
        if view.finished:
            console.print(Text(_("Game over."), style="bold"))
            return
        for line in self._dice_lines(view):
            console.print(line)

    def _dice_lines(self, view: WurfeltodView, *, compact: bool = False) -> list[str | Text]:
        """The set-aside and rolled dice (numbered for ``s``) and what this roll allows."""
        rolled = Text("  ").join(  # a click on a die types its number (full screen)
            Text.assemble((f"{i}:", "dim"), (str(v), "bold green"), style=die_key(i))
            for i, v in enumerate(view.rolled, 1)
        )
        lines: list[str | Text]
        if compact:
            aside = Text(_("Aside") + "  ").append(_dice(view.aside), "bold")
            lines = [Text(_("Rolled") + " ") + rolled, aside]
        else:
            aside = Text("  " + _("Set aside:") + "   ").append(_dice(view.aside), "bold")
            lines = [aside, Text("  " + _("Just rolled:") + " ") + rolled]
        if view.first_roll:
            lines.append(
                "  " + _("First roll: x KEY scratches a box (0, no {skull})").format(skull=SKULL)
                if compact
                else "  " + _("First roll: you may scratch a box (x KEY) for 0 with no Wurfeltod.")
            )
        if view.must_book:
            lines.append(Text("  " + _("Only one die was rolled: book a box now."), style="yellow"))
        return lines

    def _sheet(self, view: WurfeltodView, table: Seating, *, compact: bool = False) -> RichTable:
        """Every player's score card; while a turn is on, the current player's open boxes
        carry their key and what booking them now would give (W3). ``compact``: for
        narrow screens, no rules and no wrapped labels (one line per box)."""
        playing = not view.finished
        title = (
            Text(
                _("Turn {turn}/{turns} · {name} · roll {roll}").format(
                    turn=view.turn, turns=view.turns, name=table.names[view.current], roll=view.roll
                )
            )
            if playing
            else Text(_("Score cards"))
        )
        if compact:
            grid = RichTable(
                title=title, box=None, pad_edge=False, padding=(0, 1), title_justify="left"
            )
        else:
            grid = RichTable(title=title, pad_edge=False)
        if playing:
            grid.add_column("" if compact else _("Key"), style="bold", no_wrap=True)
        # A box name longer than the column wraps in its cell, never cut (the compact
        # sheet's short names fit in 12 columns in English; other languages may fold).
        grid.add_column(_("Box"), overflow="fold", max_width=12 if compact else None)
        if playing:
            grid.add_column(
                _("Now") if compact else _("Book now"), justify="right", no_wrap=compact
            )
        for s, name in enumerate(table.names):
            style = "bold cyan" if playing and s == view.current else ""
            grid.add_column(
                plain(name[:6] if compact else name), justify="right", header_style=style,
                no_wrap=compact,
            )  # fmt: skip
        now = {key: (points, wurfeltod) for key, _, points, wurfeltod in open_box_rows(view)}
        current = view.cards[view.current]
        for box, category in enumerate(BOXES):
            cells: list[str | Text] = [box_label(box, short=compact)]
            if playing:
                key = BOX_KEYS[category]
                is_open = current.boxes[box] is None and key in now
                cells.insert(0, key if is_open else "")
                cells.append(_now_cell(*now[key]) if is_open else Text(""))
            cells += [_entry_cell(card.boxes[box]) for card in view.cards]
            grid.add_row(*cells)
        grid.add_section()
        footer: list[tuple[str | Text, list[str | Text]]] = [
            (_("Points"), [str(c.points) for c in view.cards]),
            (f"{_('Wurfeltods')} {SKULL}", [str(c.wurfeltods) for c in view.cards]),
            (Text(_("Total"), "bold"), [Text(str(c.total), "bold") for c in view.cards]),
        ]
        for label, values in footer:
            grid.add_row(*(("", label, "") if playing else (label,)), *values)
        return grid

    def show_events(self, console: Console, events: Sequence[Event], table: Seating) -> None:
        for event in events:
            console.print(self._narrate(event, table))

    def _narrate(self, event: Event, table: Seating) -> Text:
        """One line per event; the player's name is text, whatever it holds."""
        if isinstance(event, GameOver):
            return Text(_("Every player has taken 20 turns: the game is over."), style="bold")
        name = table.names[event.player]
        if isinstance(event, TurnBegan):
            return Text(
                "— " + _("Turn {turn}: {name}").format(turn=event.turn, name=name) + " —",
                style="bold",
            )
        if isinstance(event, Rolled):
            return Text.assemble(
                _("{name} rolls").format(name=name), " ", (_dice(event.dice), "bold green")
            )
        if isinstance(event, DiceSetAside):
            return Text.assemble(
                _("{name} sets aside").format(name=name), " ", (_dice(event.dice), "bold")
            )
        label = category_name(event.category)
        if isinstance(event, Scratched):
            return Text(
                _("{name} scratches {box}: 0, no Wurfeltod (total {total})").format(
                    name=name, box=label, total=event.total
                )
            )
        line = Text(
            _("{name} books {box}: {points}").format(name=name, box=label, points=event.points)
        )
        if event.wurfeltod:
            line.append(" " + _("and a Wurfeltod") + " ").append(
                f"{SKULL} -{WURFELTOD_PENALTY}", alert()
            )
        return line.append(" " + _("(total {total})").format(total=event.total))

    def ask(
        self,
        prompter: Prompter,
        view: WurfeltodView,
        legal: Sequence[Action],
        seat: int,
        table: Seating,
    ) -> Action:
        def parse(text: str) -> Action | str:
            return parse_command(text, view, legal)

        def on_help(word: str) -> bool:
            if word == "??":
                self.show_hint(prompter.console, view, legal, rows=None)
                return True
            if word in HELP_WORDS:
                prompter.console.print(Text(_(HELP)))
                self.show_hint(prompter.console, view, legal)
                return True
            return False

        # the keys in the prompt (a bare "Ann>" left them to the help); plain text
        if view.first_roll:
            question = _("{name}: a 13 set aside, b KEY book, x KEY scratch (? help) > ")
        else:
            question = _("{name}: a 13 set aside, b KEY book (? help) > ")
        offered: list[Choice] = [
            *((f"b {key}", describe(Book(c), view)) for c, key in BOX_KEYS.items()),
            *((f"x {key}", describe(Scratch(c), view)) for c, key in BOX_KEYS.items()),
        ]
        choices = legal_choices(parse, legal, offered)
        # mypy joins the union of action types to Struct when solving the TypeVar
        return cast(
            Action,
            ask_until_parsed(
                prompter, question.format(name=table.names[seat]), parse, on_help, choices=choices
            ),
        )

    def advice(self, view: WurfeltodView, legal: Sequence[Action]) -> Advice | str | None:
        """The game's advice, or why there is none (no usable value table: how to build
        it), or None when there is nothing to value."""
        from gamenight.games.wurfeltod.advisor import advise  # loads numpy and the solver

        try:
            return advise(view, view.current, legal)
        except GamenightError as exc:
            return said(exc)  # how to build the value table, in the player's language

    def hint(self, view: WurfeltodView, legal: Sequence[Action]) -> Text | None:
        """The optimal action and its expected final score, or how to get optimal hints."""
        return _hint_line(self.advice(view, legal), view)

    def show_hint(
        self,
        console: Console,
        view: WurfeltodView,
        legal: Sequence[Action],
        rows: int | None = HINT_ROWS,
    ) -> None:
        """Print the hint line and the table of options (best first), or how to build
        the value table."""
        advice = self.advice(view, legal)
        hint = _hint_line(advice, view)
        if hint is None:
            return
        parts: list[RenderableType] = [Text(_("Hint:") + " ").append_text(hint)]
        if isinstance(advice, Advice):
            title = _("Optimal play: expected final score of each option")
            shown = keyed_advice(advice, view)
            parts.append(advice_table(shown, title=title, limit=rows))
            hidden = 0 if rows is None else max(0, len(advice.options) - rows)
            if hidden:
                more = _("… and {n} more options: type ?? to list them all.").format(n=hidden)
                parts.append(Text("  " + more))
            if shown.note:
                parts.append(Text(shown.note, style="dim"))
        console.print(HintBlock(*parts))

    def show_results(
        self, console: Console, results: Results, view: WurfeltodView, table: Seating
    ) -> None:
        console.print(self._sheet(view, table))
        grid = RichTable(title=_("Final standings"), pad_edge=False)
        for column in (N_("Rank"), N_("Player"), N_("Points"), N_("Wurfeltods"), N_("Score")):
            grid.add_column(_(column), justify="left" if column == "Player" else "right")
        order = sorted(range(len(results.scores)), key=lambda s: (results.ranks[s], s))
        for s in order:
            card = view.cards[s]
            grid.add_row(
                str(results.ranks[s]),
                Text(table.names[s]),
                str(card.points),
                str(card.wurfeltods),
                str(int(results.scores[s])),
            )
        console.print(grid)
        winners = _(" and ").join(table.names[w] for w in results.winners)
        won = _("{names} share the win.") if len(results.winners) > 1 else _("{names} wins.")
        console.print(Text(won.format(names=winners), style="bold"))


ABOUT = re.compile(r"about (?P<n>\d+) s")
# The advisor's English (it reaches the browser too), said again in the player's language.
ADVISOR_WORDS: list[Rephrasing] = [
    (
        re.compile(
            r"no optimal-play value table yet: run `gamenight solve wurfeltod` to build it "
            r"\(takes (?P<time>.+)\)"
        ),
        lambda: _(
            "no optimal-play value table yet: run `gamenight solve wurfeltod` to build it "
            "(takes {time})"
        ),
    ),
    (
        re.compile(
            r"the value table cannot be used \((?P<why>.+)\); run `gamenight solve wurfeltod` "
            r"to build it \(takes (?P<time>.+)\)"
        ),
        lambda: _(
            "the value table cannot be used ({why}); run `gamenight solve wurfeltod` to build "
            "it (takes {time})"
        ),
    ),
]


def _hint_line(advice: Advice | str | None, view: WurfeltodView) -> Text | None:
    if advice is None or isinstance(advice, str):
        if advice is None:
            return None
        said = rephrase(advice, ADVISOR_WORDS)
        for about in ABOUT.finditer(said):  # the solver's estimate, "about 5 s"
            said = said.replace(about.group(), _("about {n} s").format(n=about.group("n")))
        return Text(said)
    best = advice.best_option
    action = GAME.decode_action(best.action)
    before, _key, after = _(
        "the optimal play is {command} ({what}), expected final score {score}"
    ).partition("{command}")
    score = format_decimal(cast(float, best.values[0]), places=1)
    return Text.assemble(
        before,
        (command_text(action), "bold"),
        after.format(what=describe(action, view).plain, score=score),
    )
