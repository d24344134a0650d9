"""The full-screen game review (issue 42): a table of every decision, costly ones
highlighted, and Enter to see the position with every option's value.

What it shows is :class:`gamenight.core.review.Review`; the position's board is drawn by
the game's own terminal UI (``GameInfo.terminal``), handed in as ``board(at)``, so this
module names no game. Keys: arrows move, Enter opens a decision, Escape goes back,
``c`` shows only the costly decisions (or all again), ``q`` leaves.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from gamenight.core.advice import Advice, Objective, Option
from gamenight.core.i18n import N_, _, format_chance, format_decimal
from gamenight.core.review import Decision, Measure, Review
from gamenight.terminal.advice import advice_table

STYLES = {"blunder": "bold red", "mistake": "bold yellow", "inaccuracy": "yellow", "": ""}
VERDICTS = {
    "blunder": N_("blunder"),
    "mistake": N_("mistake"),
    "inaccuracy": N_("inaccuracy"),
}


def amount(value: float | None, measure: Measure, *, change: bool = True) -> str:
    """A value or a loss (``change``) in the measure's unit."""
    if value is None:
        return "–"
    if measure.unit == "probability":
        if change:
            return _("{n} pp").format(n=format_decimal(100.0 * value, places=1))
        return format_chance(value, places=1)
    return format_decimal(value, places=1)


def summary(review: Review, names: Sequence[str]) -> RichTable:
    """Per player: accuracy, the verdicts' counts, what was lost and the luck."""
    judged = review.measures[review.judged]
    table = RichTable(box=None, pad_edge=False, title_justify="left")
    for heading in (_("player"), _("accuracy"), _("inaccuracies"), _("mistakes"),
                    _("blunders"), _("lost"), _("luck")):  # fmt: skip
        table.add_column(Text(heading), justify="left" if heading == _("player") else "right")
    for p in review.players:
        table.add_row(
            Text(names[p.seat]),
            Text("–" if p.accuracy is None else f"{format_decimal(p.accuracy, places=1)}%"),
            Text(str(p.inaccuracies)),
            Text(str(p.mistakes)),
            Text(str(p.blunders)),
            Text(amount(p.loss[review.judged], judged)),
            Text(
                "–"
                if p.luck is None
                else ("+" if p.luck >= 0 else "") + format_decimal(p.luck, places=1)
            ),
        )
    return table


def _index(best: int | None) -> int:
    return -1 if best is None else best  # -1: no option is best in that measure


def options_advice(review: Review, decision: Decision) -> Advice:
    """The decision's options as the hint table shows them: the judged measure first."""
    order = [review.judged, *(j for j in range(len(review.measures)) if j != review.judged)]
    measures = review.measures
    objectives = tuple(
        Objective(name=measures[j].name, unit=measures[j].unit, best=_index(decision.best[j]))
        for j in order
    )
    options = tuple(
        Option(action=o.action, label=o.label, values=tuple(o.values[j] for j in order))
        for o in decision.options
    )
    return Advice(objectives=objectives, options=options)


class PositionScreen(Screen[None]):
    """One decision: the position as the player saw it, and every option's value."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,enter", "back", N_("Back"))]

    def __init__(self, title: str, body: RenderableType) -> None:
        super().__init__()
        self.heading = title
        self.body = body

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="position"):
            yield Static(Text(self.heading, style="bold"), id="position-title")
            yield Static(self.body, id="position-body")
        yield Footer()

    def action_back(self) -> None:
        self.app.pop_screen()


class ReviewApp(App[None]):
    """The review: the summary, then the decisions table."""

    CSS = """
    #summary { height: auto; margin: 0 1; }
    #notes { height: auto; margin: 0 1; color: $text-muted; }
    #decisions { height: 1fr; }
    #position { padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "costly", N_("Costly only")),
        Binding("q,escape", "quit", N_("Leave")),
    ]

    def __init__(
        self,
        review: Review,
        names: Sequence[str],
        board: Callable[[int, int, int], RenderableType],
        title: str,
    ) -> None:
        super().__init__()
        self.review = review
        self.names = list(names)
        self.board = board  # (position, seat, width) -> that seat's view of it, drawn
        self.heading = title
        self.costly_only = False

    def compose(self) -> ComposeResult:
        yield Static(Text(self.heading, style="bold"), id="title")
        yield Static(summary(self.review, self.names), id="summary")
        yield Static(Text(self.notes()), id="notes")
        yield DataTable(id="decisions", cursor_type="row", zebra_stripes=True)
        yield Footer()

    def notes(self) -> str:
        judged = self.review.measures[self.review.judged]
        lines = [_("Losses are measured in: {measures}.").format(measures=_(judged.name))]
        if self.review.hindsight or self.review.note:
            lines.append(_(self.review.note))
        lines.append(_("Enter: the position and every option's value; c: costly decisions only"))
        return "\n".join(lines)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(_("step"), _("player"), "", _("lost"), _("option taken"), _("best"))
        self.fill()
        table.focus()

    def fill(self) -> None:
        table = self.query_one(DataTable)
        table.clear()
        judged = self.review.measures[self.review.judged]
        for index, d in enumerate(self.review.decisions):
            if self.costly_only and not d.verdict:
                continue
            style = STYLES[d.verdict]
            best = d.best[self.review.judged]
            table.add_row(
                Text(str(d.at - 1), style=style),
                Text(self.names[d.seat], style=style),
                Text(_(VERDICTS[d.verdict]) if d.verdict else "", style=style),
                Text(amount(d.loss[self.review.judged], judged), style=style),
                Text(d.options[d.taken].label, style=style),
                Text("" if best is None else d.options[best].label, style=style),
                key=str(index),
            )

    def action_costly(self) -> None:
        self.costly_only = not self.costly_only
        self.fill()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        decision = self.review.decisions[int(str(event.row_key.value))]
        self.push_screen(self.position(decision))

    def position(self, decision: Decision) -> PositionScreen:
        judged = self.review.measures[self.review.judged]
        best = decision.best[self.review.judged]
        words = _("{name} took {taken}; best was {best} ({value}); lost {loss}").format(
            name=self.names[decision.seat],
            taken=decision.options[decision.taken].label,
            best="–" if best is None else decision.options[best].label,
            value="–"
            if best is None
            else amount(decision.options[best].values[self.review.judged], judged, change=False),
            loss=amount(decision.loss[self.review.judged], judged),
        )
        title = _("Step {n}").format(n=decision.at - 1)
        if decision.stage:
            title += f" · {decision.stage}"
        body = Group(
            self.board(decision.at - 1, decision.seat, max(40, self.size.width - 4)),
            Text(words, style=STYLES[decision.verdict] or "bold"),
            advice_table(options_advice(self.review, decision), title=_("Every option")),
        )
        return PositionScreen(title, body)
