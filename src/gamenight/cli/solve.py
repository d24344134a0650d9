"""``gamenight solve``: the one entry point for the exact solvers (presentation only)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text


@click.group()
def solve() -> None:
    """Solve a game exactly and print the headline figures."""


@solve.command("decathlon")
@click.option(
    "--event",
    "events",
    multiple=True,
    help="an event id (repeatable), e.g. 110m-hurdles; default: all ten",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="write JSON with the full score distributions and target probabilities",
)
@click.option(
    "--plot", "plot_dir", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="also draw each event's exact score distribution (SVG and PNG) into DIR",
)  # fmt: skip
def decathlon(events: tuple[str, ...], as_json: bool, plot_dir: Path | None) -> None:
    """Expected-score policy of each Decathlon event: EV, SD, range, P(no valid result)."""
    from gamenight.games.decathlon.game import GAME
    from gamenight.games.decathlon.solver import (
        EVENTS,
        solution_table_rows,
        solve_event,
        target_probabilities,
    )

    spec = next(o for o in GAME.info.options if o.name == "events")
    chosen = list(spec.parse(",".join(events))) if events else list(EVENTS)
    started = time.perf_counter()
    solutions = [solve_event(e) for e in chosen]
    if plot_dir is not None:  # --plot (issue 13)
        _plot("decathlon", {"events": [s.to_json() for s in solutions]}, plot_dir, as_json)
        started = time.perf_counter()
    if as_json:
        out = []
        for solution in solutions:
            data = solution.to_json()
            data["p_at_least"] = {
                str(t): p for t, p in target_probabilities(solution.event).items()
            }
            data["p_more_than"] = {
                str(t): p for t, p in target_probabilities(solution.event, strict=True).items()
            }
            out.append(data)
        json.dump(
            {"game": "decathlon", "objective": "expected-score", "events": out},
            sys.stdout,
            indent=1,
        )
        sys.stdout.write("\n")
        return
    table = Table(
        "event",
        "EV",
        "SD",
        "min",
        "max",
        "P(no valid result)",
        title="Decathlon: optimal expected-score play (exact)",
    )
    for row in solution_table_rows(chosen):
        table.add_row(
            row["name"],
            f"{row['ev']:.4f}",
            f"{row['sd']:.4f}",
            _opt(row["min"]),
            _opt(row["max"]),
            f"{row['p_invalid']:.6f}",
        )
    console = Console()
    console.print(table)
    if len(chosen) == len(EVENTS):
        total = sum(s.ev for s in solutions)
        console.print(f"Expected decathlon total under optimal play: [bold]{total:.4f}[/]")
    console.print(f"[dim]solved in {time.perf_counter() - started:.2f} s[/]")


@solve.command("wurfeltod")
@click.option("--json", "as_json", is_flag=True, help="print the result as JSON")
@click.option("--force", is_flag=True, help="rebuild the value table even if a valid one exists")
@click.option(
    "--plot",
    "plot_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="also play a Monte-Carlo series of the optimal policy; report and draw its final scores",
)
@click.option("--games", type=int, default=2000, show_default=True, help="games for --plot")
def wurfeltod(as_json: bool, force: bool, plot_dir: Path | None, games: int) -> None:
    """Optimal solitaire Wurfeltod: build (or reuse) the value table, print a new game's EV."""
    from gamenight.games.wurfeltod.solver import build_table, expected_score, require_table

    started = time.perf_counter()
    path = build_table(force=force, progress=not as_json)
    table = require_table(path)
    ev = expected_score(table)
    seconds = time.perf_counter() - started
    if plot_dir is not None:
        _plot("wurfeltod", {"expected_score": ev}, plot_dir, as_json, games=games)
    if as_json:
        json.dump(
            {
                "game": "wurfeltod",
                "objective": "expected-final-score",
                "expected_score": ev,
                "table": str(path),
                "seconds": round(seconds, 3),
            },
            sys.stdout,
            indent=1,
        )
        sys.stdout.write("\n")
        return
    console = Console()
    console.print(f"Expected score of a new solitaire game under optimal play: [bold]{ev:.4f}[/]")
    console.print(f"[dim]value table: {path} ({seconds:.1f} s)[/]")


# --- --plot DIR (issue 13): plots of a solution's JSON, drawn by gamenight.sim.plots ----------


def _plot(game: str, solution: dict[str, Any], out: Path, quiet: bool, **kw: Any) -> None:
    """Draw ``solution``'s plots into ``out`` and say what was written (on stderr with
    --json, so the JSON stays clean); Monte-Carlo figures are reported too."""
    from gamenight.sim.plots import plot_solution

    paths, figures = plot_solution(game, solution, out, **kw)
    console = Console(stderr=quiet)
    if figures:
        pct = ", ".join(f"p{q} {v:g}" for q, v in figures["percentiles"].items())
        console.print(
            Text(
                f"Monte-Carlo, {figures['games']} games of the optimal policy (series seed "
                f"{figures['seed']}): mean {figures['mean']:.1f} ± {figures['se']:.1f}, sd "
                f"{figures['sd']:.1f}, min {figures['min']:g}, {pct}, max {figures['max']:g}"
            )
        )
    for path in paths:
        console.print(Text(f"wrote {path}"))


def _opt(value: int | None) -> str:
    return "—" if value is None else str(value)
