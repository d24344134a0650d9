"""``gamenight review FILE``: what each decision of a finished game cost (issue 42).

Presentation only: :func:`gamenight.core.review.review` computes everything from the
record and the game's reviewer; this prints a summary per player and their costliest
decisions (``--json``: the whole review, every decision and the graph).
"""

from __future__ import annotations

import io
import sys
from typing import TYPE_CHECKING, Any

import click

from gamenight.cli.args import PathType
from gamenight.core.errors import GamenightError
from gamenight.core.i18n import _, format_decimal, game_name, said

if TYPE_CHECKING:
    from pathlib import Path

    from gamenight.core.review import Decision, Measure, Review
    from gamenight.terminal.full.review import ReviewApp


@click.command()
@click.argument("path", type=PathType())
@click.option("--json", "as_json", is_flag=True, help="print the whole review as JSON")
@click.option("--build", is_flag=True, help="build a missing solver table first (may take minutes)")
@click.option(
    "--plain", "plain_mode", is_flag=True, help="print the review instead of the full screen"
)
def review(path: Path, as_json: bool, build: bool, plain_mode: bool) -> None:
    """Review the finished game recorded at PATH: for every decision with an exact
    value, the option taken, the best one and what the difference cost; per player an
    accuracy, inaccuracies, mistakes and blunders, and the luck of the dice."""
    from gamenight.core.i18n import language
    from gamenight.core.review import in_language
    from gamenight.core.review import review as run

    try:
        found = in_language(run(path, build=True if build else None), language())
    except (GamenightError, ModuleNotFoundError) as exc:
        line = said(exc)
        raise GamenightError(line if str(path) in line else f"{path}: {line}") from None
    if as_json:
        import msgspec

        from gamenight.core.jsontext import indented

        sys.stdout.write(indented(msgspec.to_builtins(found), indent=1) + "\n")
        return
    from gamenight.terminal.full import run_app, wanted

    ctx = click.get_current_context(silent=True)
    root = None if ctx is None else ctx.find_root()
    if wanted(plain_mode or bool(root is not None and root.meta.get("plain"))):
        run_app(review_app(path, found))
        return
    show(found)


def review_app(path: Path, found: Review) -> ReviewApp:
    """The full-screen review: the decisions table; Enter draws the position with the
    game's own terminal UI, as the deciding player saw it."""
    from rich.console import Console
    from rich.text import Text

    from gamenight.core import registry
    from gamenight.core.record import read_record, replay
    from gamenight.terminal import ui_for
    from gamenight.terminal.full.review import ReviewApp
    from gamenight.terminal.ui import Seating

    record = read_record(path)
    steps: list[Any] = []
    replay(record, str(path), visitors=[steps.append])
    entry = registry.get(record.game)
    game = steps[0].game
    names = [s.name for s in record.seats]
    seating = Seating(names, frozenset(i for i, s in enumerate(record.seats) if s.agent == "human"))
    ui = ui_for(entry)

    def board(at: int, seat: int, width: int) -> Any:
        shown = Console(width=width, record=True, file=io.StringIO(), force_terminal=True)
        ui.show(shown, game.view(steps[at].state, seat), seat, seating)
        return Text.from_ansi(shown.export_text(styles=True))

    title = _("Review of a game of {game}").format(game=game_name(entry.id, entry.name))
    return ReviewApp(found, names, board, title)


def amount(value: float, measure: Measure, *, change: bool = True) -> str:
    """A loss (``change``) or a value in its unit: points with one decimal, chances in
    percent and their changes in percentage points."""
    if measure.unit == "probability":
        n = format_decimal(100.0 * value, places=1)
        return _("{n} pp").format(n=n) if change else f"{n}%"
    if measure.unit == "honours":
        return _("{n} honours").format(n=format_decimal(value, places=2))
    return _("{n} points").format(n=format_decimal(value, places=1))


def percent(value: float | None) -> str:
    """An accuracy: one decimal and a percent sign, or a dash for none."""
    return "–" if value is None else f"{format_decimal(value, places=1)}%"


def signed(value: float) -> str:
    """A change with its sign: +3.2, -1.0."""
    return ("+" if value >= 0 else "") + format_decimal(value, places=1)


def decision_line(found: Review, decision: Decision) -> str:
    """One costly decision in words: where, what was taken, what was best, the losses."""
    taken = decision.options[decision.taken]
    judged = decision.best[found.judged]
    best = decision.options[judged] if judged is not None else taken
    losses = ", ".join(
        _("{loss} in {measure}").format(loss=amount(loss, m), measure=_(m.name))
        for m, loss in zip(found.measures, decision.loss, strict=True)
        if loss is not None
    )
    where = _("action {n}").format(n=decision.at)
    if decision.stage:
        where += f" ({decision.stage})"
    verdict = {"inaccuracy": _("inaccuracy"), "mistake": _("mistake"), "blunder": _("blunder")}
    said = verdict.get(decision.verdict, "")
    return _(
        "{where}: {verdict}took {taken}, best {best} (would give {value}); lost {losses}"
    ).format(
        where=where,
        verdict=f"{said}, " if said else "",
        taken=taken.label,
        best=best.label,
        value=amount(best.values[found.judged] or 0.0, found.measures[found.judged], change=False),
        losses=losses,
    )


def show(found: Review) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console()
    from gamenight.core import registry

    entry = registry.get(found.game)
    title = _("Review of a game of {game}").format(game=game_name(entry.id, entry.name))
    if found.hindsight:
        title += " " + _("(in hindsight: values use what was revealed later)")
    table = Table(title=Text(title))
    judged = found.measures[found.judged]
    for heading in (
        _("player"), _("accuracy"), _("inaccuracies"), _("mistakes"), _("blunders"),
        _("lost"), _("luck"),
        _("final"),
    ):  # fmt: skip
        table.add_column(Text(heading))
    for player in found.players:
        table.add_row(
            Text(player.name),
            Text(percent(player.accuracy)),
            Text(str(player.inaccuracies)),
            Text(str(player.mistakes)),
            Text(str(player.blunders)),
            Text(amount(player.loss[found.judged], judged)),
            Text("–" if player.luck is None else signed(player.luck)),
            Text("–" if player.final is None else format_decimal(player.final, places=0)),
        )
    console.print(table)
    console.print(
        Text(
            _("lost: in {measure}; luck: what the dice changed in the expected final score").format(
                measure=_(judged.name)
            ),
            style="dim",
        )
    )
    measures = "; ".join(_(m.name) for m in found.measures)
    console.print(Text(_("Losses are measured in: {measures}.").format(measures=measures)))
    if found.note:
        console.print(Text(_(found.note), style="yellow"))
    if found.waiting is not None:
        console.print(
            Text(_("gamenight review --build builds it first (it may take minutes)."), "yellow")
        )
    for player in found.players:
        if len(player.stages) > 1:
            parts = ", ".join(f"{s.stage} {percent(s.accuracy)}" for s in player.stages)
            console.print(
                Text(_("{name}'s accuracy by event: {list}").format(name=player.name, list=parts))
            )
    for player in found.players:
        if not player.costliest:
            continue
        console.print(Text(_("{name}'s costliest decisions:").format(name=player.name), "bold"))
        for index in player.costliest:
            console.print(Text("  " + decision_line(found, found.decisions[index])))
