"""``gamenight solve GAME``: any game's exact solver, through the registry (presentation only).

The command knows no game: it asks ``registry.get(GAME).solver`` (a
:class:`gamenight.core.solver.Solver`) to build or load its solution, then prints
the solution's table, or its JSON with ``--json``. Solver options are given as
``-o KEY=VALUE``; ``--event X`` (repeatable) is shorthand for ``-o events=X,...``
and works for any solver that declares an ``events`` option (the Decathlon's).
``--rebuild`` (alias ``--force``) solves again even if a cached solution exists.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Any

import click

from gamenight.cli.args import PathType
from gamenight.core.errors import GamenightError, OptionsError
from gamenight.core.i18n import _, format_decimal, game_name
from gamenight.core.options import parse_options

if TYPE_CHECKING:
    from pathlib import Path

    from rich.table import Table as RichTable


@click.command()
@click.argument("game")
@click.option("--option", "-o", "option", multiple=True, help="a solver option as KEY=VALUE")
@click.option(
    "--event",
    "events",
    multiple=True,
    help="shorthand for -o events=X (repeatable), for solvers with an 'events' option",
)
@click.option(
    "--two-player-win", "two_player_win", is_flag=True,
    help="shorthand for -o two-player-win=true, for solvers with that option",
)  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="print the whole solution as JSON")
@click.option(
    "--rebuild", "--force", "rebuild", is_flag=True, help="solve again even if a cached one exists"
)
@click.option(
    "--plot", "plot_dir", type=PathType(file_okay=False), default=None,
    help="also draw the solution's plots (SVG and PNG) into DIR",
)  # fmt: skip
@click.option(
    "--games", type=int, default=2000, show_default=True,
    help="Monte-Carlo games for --plot, where the plot needs play (Wurfeltod)",
)  # fmt: skip
def solve(
    game: str,
    option: tuple[str, ...],
    events: tuple[str, ...],
    two_player_win: bool,
    as_json: bool,
    rebuild: bool,
    plot_dir: Path | None,
    games: int,
) -> None:
    """Solve GAME exactly and print the headline figures (or all of them with --json)."""
    from gamenight.core import registry

    if plot_dir is not None:  # before the solve: the plots need the [sim] extra
        from gamenight.core.extras import require

        require("solve --plot", "sim", "matplotlib")

    entry = registry.get(game)
    try:
        solver = entry.solver
    except ModuleNotFoundError:
        raise GamenightError(
            _("the {game} solver is not installed").format(game=game_name(entry.id, entry.name))
        ) from None
    if solver is None:
        raise GamenightError(
            _("{game} has no exact solver").format(game=game_name(entry.id, entry.name))
        )
    known = {spec.name for spec in solver.options}
    raw = _raw(option, events, known, entry.id)
    if two_player_win:
        if "two-player-win" not in known:
            raise OptionsError("the {game} solver has no two-player win objective", game=entry.id)
        raw["two-player-win"] = "true"
    options = parse_options(solver.options, raw, f"the {entry.id} solver")
    started = time.perf_counter()
    if as_json:  # no rich on this path: its import was a tenth of the command (issue 29)
        from gamenight.core.jsontext import indented

        solution = solver.solve(options, rebuild=rebuild)
        if plot_dir is not None:
            _plot(entry.id, solution.to_json(), plot_dir, True, games=games)
        sys.stdout.write(indented(solution.to_json(), indent=1) + "\n")
        return
    from rich.console import Console
    from rich.progress import Progress
    from rich.text import Text

    console = Console()
    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(_("solving"), total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        solution = solver.solve(options, rebuild=rebuild, progress=progress)
    console.print(solution_table(solution))
    seconds = format_decimal(time.perf_counter() - started, places=2)
    console.print(Text(_("solved in {seconds} s").format(seconds=seconds), style="dim"))
    if plot_dir is not None:
        _plot(entry.id, solution.to_json(), plot_dir, False, games=games)


def solution_table(solution: Any) -> RichTable:
    """A solution's headline figures as a table; a long cell (the cache's path) folds
    onto further lines, never cut with an ellipsis."""
    from rich.table import Table as RichTable
    from rich.text import Text

    table = RichTable(title=Text(solution.title))
    for column in solution.columns():
        table.add_column(Text(column), overflow="fold")
    for row in solution.rows():
        table.add_row(*(Text(cell) for cell in row))
    return table


def _raw(
    option: tuple[str, ...], events: tuple[str, ...], known: set[str], game: str
) -> dict[str, Any]:
    raw: dict[str, Any] = {}
    for item in option:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise OptionsError("--option {item}: expected KEY=VALUE", item=repr(item))
        raw[key.strip()] = value.strip()
    if events:
        if "events" not in known:
            raise OptionsError(
                "the {game} solver takes no --event (it has no 'events' option)", game=game
            )
        raw["events"] = ",".join(events)
    return raw


def _plot(game: str, solution: dict[str, Any], out: Path, quiet: bool, **kw: Any) -> None:
    """Draw ``solution``'s plots into ``out`` and say what was written (on stderr with
    --json, so the JSON stays clean); Monte-Carlo figures are reported too."""
    from rich.console import Console
    from rich.text import Text

    from gamenight.sim.plots import plot_solution

    paths, figures = plot_solution(game, solution, out, **kw)
    console = Console(stderr=quiet)
    if figures:
        pct = ", ".join(f"p{q} {v:g}" for q, v in figures["percentiles"].items())
        console.print(
            Text(
                _(
                    "Monte-Carlo, {games} games of the optimal policy (series seed {seed}): "
                    "mean {mean} ± {se}, sd {sd}, min {min}, {percentiles}, max {max}"
                ).format(
                    games=figures["games"],
                    seed=figures["seed"],
                    mean=f"{figures['mean']:.1f}",
                    se=f"{figures['se']:.1f}",
                    sd=f"{figures['sd']:.1f}",
                    min=f"{figures['min']:g}",
                    percentiles=pct,
                    max=f"{figures['max']:g}",
                )
            )
        )
    for path in paths:
        console.print(Text(_("wrote {path}").format(path=path)))
