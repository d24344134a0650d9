"""Render a game's :class:`~gamenight.core.advice.Advice` as a Rich table.

One renderer for every game: a row per option, a column per objective, the
leading objective's best option marked. Labels are data, never markup.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console
from rich.table import Table as RichTable
from rich.text import Text

from gamenight.core.advice import Advice, Objective
from gamenight.core.i18n import _, format_chance, format_decimal


def format_value(value: float | None, objective: Objective) -> str:
    """A value in its objective's unit.

    >>> format_value(0.25, Objective(name="P(win)", unit="probability", best=0))
    '25.0%'
    >>> format_value(12.345, Objective(name="E", unit="points", best=0))
    '12.35'
    >>> format_value(None, Objective(name="E", unit="points", best=0))
    '–'
    """
    if value is None:
        return "–"
    if objective.unit == "probability":
        return format_chance(value, places=1)
    return format_decimal(value, places=2, grouping=False)


def advice_table(
    advice: Advice, *, title: str | None = None, limit: int | None = None
) -> RichTable:
    """The options best first; ``limit`` keeps the table short (the best always shows).
    A label too long for a narrow panel wraps (folds), never ends in an ellipsis; a
    value never breaks over lines (its column is as wide as its widest value)."""
    title = _("Hint") if title is None else title
    table = RichTable(title=Text(title), title_justify="left", box=None, pad_edge=False)
    table.add_column("")
    table.add_column(_("option"), overflow="fold")
    for n, objective in enumerate(advice.objectives):
        values = [format_value(option.values[n], objective) for option in advice.options]
        widest = max(map(cell_len, values), default=1)
        table.add_column(
            Text(_(objective.name)),
            justify="right",
            overflow="fold",
            no_wrap=True,
            min_width=widest,
        )
    leading = advice.objectives[0].best
    shown = list(enumerate(advice.options))
    if limit is not None and len(shown) > limit:
        shown = shown[:limit] if leading < limit else [*shown[: limit - 1], shown[leading]]
    for index, option in shown:
        marks = "".join(
            "★" if index == o.best and n == 0 else "☆" if index == o.best else ""
            for n, o in enumerate(advice.objectives)
        )
        style = "bold green" if index == leading else None
        cells = [format_value(v, o) for v, o in zip(option.values, advice.objectives, strict=True)]
        table.add_row(Text(marks), Text(option.label), *map(Text, cells), style=style)
    return table


def show_advice(console: Console, advice: Advice | None, *, title: str | None = None) -> None:
    """Print the advice, or say that there is nothing to value here."""
    if advice is None or not advice.options:
        console.print(Text(_("No hint here: there is no choice to value.")))
        return
    console.print(advice_table(advice, title=title))
    for objective in advice.objectives:
        if objective.note:
            console.print(Text(f"{_(objective.name)}: {_(objective.note)}", style="dim"))
    if advice.note:
        console.print(Text(_(advice.note), style="dim"))
