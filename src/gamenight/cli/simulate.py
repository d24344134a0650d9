"""``gamenight sim``, ``gamenight tournament`` and ``gamenight ratings`` (presentation only).

The work happens in :mod:`gamenight.sim`; this module parses options, draws the
progress bar, prints tables and writes ``--out`` reports.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

import click

from gamenight.cli.args import PathType, game_entry, raw_options
from gamenight.cli.lazy import lazy_console
from gamenight.core.i18n import N_, _, format_decimal, game_name, ngettext

if TYPE_CHECKING:
    from pathlib import Path

# A run shorter than this shows no progress bar.
PROGRESS_AFTER_SECONDS = 1.0

GAME_OPTIONS_EPILOG = N_(
    "Any option of the game is given as --NAME VALUE or -o NAME=VALUE; "
    "`gamenight list --options` shows each game's options. docs/simulation.md explains "
    "the parallel, Ray and report options."
)

console = lazy_console()


F = TypeVar("F", bound=Callable[..., Any])


def _need_extras(command: str, out: Path | None, backend: str) -> None:
    """Refuse up front, before the games are played, a run whose end needs an extra that
    is not installed: the tournament's batch fit, --out's Parquet and plots ([sim]),
    --backend ray ([ray])."""
    from gamenight.core.extras import require

    if command == "tournament":
        require("tournament", "sim", "choix", "scipy")
    if out is not None:
        require(f"{command} --out", "sim", "pyarrow", "matplotlib")
    if backend == "ray":
        require("--backend ray", "ray")


def _parallel_options(f: F) -> F:
    """--jobs, --backend, --address, --worker-memory, --out, --seed, -o, --json."""
    for decorator in reversed(
        [
            click.option("--seed", type=int, default=0, show_default=True, help="series seed"),
            click.option(
                "--jobs",
                "-j",
                type=int,
                default=None,
                help="worker processes (default: every core; 1 = this process only)",
            ),
            click.option(
                "--backend",
                type=click.Choice(["local", "ray"]),
                default="local",
                show_default=True,
                help="where the games run",
            ),
            click.option(
                "--address",
                default=None,
                help="Ray cluster address (e.g. ray://head:10001 or auto); default: a local Ray",
            ),
            click.option(
                "--worker-memory",
                type=float,
                default=4096,
                show_default=True,
                help="stop when a worker's peak memory passes this many MB",
            ),
            click.option(
                "--out",
                type=PathType(file_okay=False),
                default=None,
                help="write games.csv, games.parquet, summary.json and report.html here",
            ),
            click.option(
                "--option", "-o", "option", multiple=True, help="any game option as KEY=VALUE"
            ),
            click.option("--json", "as_json", is_flag=True, help="print the report as JSON"),
        ]
    ):
        f = decorator(f)
    return f


@click.command(context_settings={"ignore_unknown_options": True}, epilog=GAME_OPTIONS_EPILOG)
@click.argument("game")
@click.option("--bots", required=True, help="one bot per seat, e.g. 'optimal,competitive'")
@click.option("--games", type=int, default=1000, show_default=True, help="games to play")
@click.option(
    "--fixed-seats",
    is_flag=True,
    help="keep every bot in its seat (to measure seat bias); by default each deal of dice "
    "is played once in every seat order",
)
@_parallel_options
@click.argument("game_options", nargs=-1, type=click.UNPROCESSED)
def sim(
    game: str,
    bots: str,
    games: int,
    fixed_seats: bool,
    seed: int,
    jobs: int | None,
    backend: str,
    address: str | None,
    worker_memory: float,
    out: Path | None,
    option: tuple[str, ...],
    as_json: bool,
    game_options: tuple[str, ...],
) -> None:
    """Play a seeded series of all-bot GAME games: win shares and mean scores.

    Seats change: each deal of dice is played once in every seat order (every
    order up to 4 bots, a balanced Latin square beyond), so a bot's figures do not
    depend on its seat or its neighbours (--fixed-seats keeps them). Game i is the
    same on any number of workers: its dice come from the series seed and i. Ctrl-C
    stops and reports the games finished so far (partial).
    """
    _need_extras("sim", out, backend)
    from rich.table import Table as RichTable
    from rich.text import Text

    import gamenight.sim
    from gamenight.sim.report import series_summary, write_series

    entry = game_entry(game)
    raw = raw_options(entry.game.info, game_options, option)
    names = [b.strip().removeprefix("bot:") for b in bots.split(",")]
    options = entry.game.parse_options(raw)
    with _progress_bar(
        ngettext("{game}: playing {n} game", "{game}: playing {n} games", games).format(
            game=game_name(entry.id, entry.name), n=games
        )
    ) as progress:
        report = gamenight.sim.run_series(
            entry,
            names,
            games=games,
            seed=seed,
            options=options,
            progress=progress,
            jobs=jobs,
            backend=backend,
            address=address,
            worker_memory_mb=worker_memory,
            rotate=not fixed_seats,
        )
    if report.games == 0:
        _stopped()
    written = write_series(report, out) if out is not None else []
    if as_json:
        import json  # here, as in each --json branch: `solve` imports this module

        click.echo(json.dumps(series_summary(report), indent=1))
        if report.partial:
            sys.exit(_stop_code())
        return
    unit = _(entry.game.score_unit(options))  # marked N_ by the game
    workers = ngettext("{n} worker", "{n} workers", report.jobs).format(n=report.jobs)
    fields = dict(
        game=game_name(entry.id, entry.name),
        n=report.games,
        seed=seed,
        asked=report.asked,
        seconds=_n(report.seconds, 1),
        workers=workers,
    )
    if report.partial:
        title = ngettext(
            "{game}: {n} game from seed {seed}, PARTIAL: {n} of {asked} ({seconds} s, {workers})",
            "{game}: {n} games from seed {seed}, PARTIAL: {n} of {asked} ({seconds} s, {workers})",
            report.games,
        )
    else:
        title = ngettext(
            "{game}: {n} game from seed {seed} ({seconds} s, {workers})",
            "{game}: {n} games from seed {seed} ({seconds} s, {workers})",
            report.games,
        )
    table = RichTable(
        _("seat") if fixed_seats else "#",
        _("bot"),
        _("win share"),
        _("mean score ({unit})").format(unit=unit),
        title=Text(title.format(**fields)),
    )
    for seat in report.seats:
        table.add_row(
            str(seat.seat + 1),
            Text(seat.bot),
            f"{_n(seat.win_share, 3)} ± {_n(seat.win_share_se, 3)}",
            f"{_n(seat.mean_score, 2)} ± {_n(seat.score_se, 2)}",
        )
    console.print(table)
    if fixed_seats or len(report.seats) < 2:
        note = _("± one standard error; a k-way shared win counts 1/k; seats fixed")
    else:
        note = _(
            "± one standard error; a k-way shared win counts 1/k; seats rotate: every deal "
            "is played once in each seat order"
        )
    console.print(Text(note, style="dim"))
    _footer(report.worker_peak_mb, written, report.partial)


@click.command(context_settings={"ignore_unknown_options": True}, epilog=GAME_OPTIONS_EPILOG)
@click.argument("game")
@click.option("--bots", required=True, help="the bots, e.g. 'optimal,greedy,random'")
@click.option("--seats", type=int, default=2, show_default=True, help="seats per game")
@click.option("--games", type=int, default=200, show_default=True, help="games per line-up")
@click.option(
    "--save/--no-save",
    default=True,
    show_default=True,
    help="store the bots' ratings for `gamenight ratings`",
)
@_parallel_options
@click.argument("game_options", nargs=-1, type=click.UNPROCESSED)
def tournament(
    game: str,
    bots: str,
    seats: int,
    games: int,
    save: bool,
    seed: int,
    jobs: int | None,
    backend: str,
    address: str | None,
    worker_memory: float,
    out: Path | None,
    option: tuple[str, ...],
    as_json: bool,
    game_options: tuple[str, ...],
) -> None:
    """Every line-up of SEATS bots plays GAMES games, seat order rotating.

    Reports win shares and mean scores with intervals (95%), the head-to-head
    win-share matrix, a Bradley-Terry fit of all the games (order-independent) and
    openskill (Plackett-Luce) ratings, which are added to the stored ones.
    """
    _need_extras("tournament", out, backend)
    from rich.table import Table as RichTable
    from rich.text import Text

    from gamenight.sim.ratings import RatingStore
    from gamenight.sim.report import tournament_summary, write_tournament
    from gamenight.sim.tournament import lineups, run_tournament

    entry = game_entry(game)
    raw = raw_options(entry.game.info, game_options, option)
    names = list(dict.fromkeys(b.strip().removeprefix("bot:") for b in bots.split(",")))
    options = entry.game.parse_options(raw)
    total = len(lineups(names, seats)) * games
    with _progress_bar(
        ngettext("{game}: tournament, {n} game", "{game}: tournament, {n} games", total).format(
            game=game_name(entry.id, entry.name), n=total
        )
    ) as progress:
        report = run_tournament(
            entry,
            names,
            seats=seats,
            games=games,
            seed=seed,
            options=options,
            progress=progress,
            jobs=jobs,
            backend=backend,
            address=address,
            worker_memory_mb=worker_memory,
        )
    if not report.rows:
        _stopped()
    if save and not report.partial:
        store = RatingStore(entry.id)
        _say_problem(store.problem)
        store.record_games(report.bots, report.rows)
        store.save()
    written = write_tournament(report, out) if out is not None else []
    if as_json:
        import json

        click.echo(json.dumps(tournament_summary(report), indent=1))
        if report.partial:
            sys.exit(_stop_code())
        return
    if report.partial:
        title = _(
            "{game}: {lineups} line-ups of {seats}, {games} games each, seed {seed}, "
            "PARTIAL: {done} of {asked} ({seconds} s)"
        )
    else:
        title = _(
            "{game}: {lineups} line-ups of {seats}, {games} games each, seed {seed} ({seconds} s)"
        )
    table = RichTable(
        _("bot"),
        _("games"),
        _("win share [95%]"),
        _("mean score ({unit}) [95%]").format(unit=_(entry.game.score_unit(options))),
        _("strength [95%]"),
        _("mu"),
        _("sigma"),
        _("ordinal"),
        title=Text(
            title.format(
                game=game_name(entry.id, entry.name),
                lineups=len(report.lineups),
                seats=seats,
                games=games,
                seed=seed,
                done=len(report.rows),
                asked=report.asked,
                seconds=_n(report.seconds, 1),
            )
        ),
    )
    for s in report.standings:
        table.add_row(
            Text(s.bot),
            str(s.games),
            f"{_n(s.win_share, 3)} {_interval(_n(s.win_low, 3), _n(s.win_high, 3))}",
            f"{_n(s.mean_score, 2)} {_interval(_n(s.score_low, 2), _n(s.score_high, 2))}",
            f"{_signed(s.strength.elo)} "
            + _interval(_signed(s.strength.low), _signed(s.strength.high)),
            _n(s.rating.mu, 2),
            _n(s.rating.sigma, 2),
            _n(s.rating.ordinal, 2),
        )
    console.print(table)
    for above, below in report.overlaps:
        console.print(
            Text(
                _(
                    "{above} and {below}: their strength intervals overlap, so these games "
                    "do not establish which is stronger"
                ).format(above=above, below=below)
            )
        )
    matrix = RichTable(
        _("ahead of →"), *report.bots, title=_("Head to head: row finished ahead of column")
    )
    for a, bot in enumerate(report.bots):
        cells = []
        for b in range(len(report.bots)):
            v = report.ahead[a][b]
            cells.append(
                "—"
                if a == b or math.isnan(v)
                else f"{_n(v, 2)} "
                + _interval(_n(report.ahead_low[a][b], 2), _n(report.ahead_high[a][b], 2))
            )
        matrix.add_row(Text(bot), *cells)
    console.print(matrix)
    console.print(
        Text(
            _(
                "[95%] intervals; ties count one half; strength: Bradley-Terry fit of all the "
                "games at once (Elo scale, mean 0; the order of the standings); mu, sigma, "
                "ordinal = mu - 3 sigma: openskill, game by game, stored for `gamenight ratings`"
            ),
            style="dim",
        )
    )
    _footer(report.worker_peak_mb, written, report.partial)


def _n(number: float, places: int) -> str:
    """A figure of a table, as the reader's language writes numbers (0.375 / 0,375)."""
    return format_decimal(number, places=places)


def _signed(number: float) -> str:
    """A whole number with its sign, ungrouped (+1623, -401: a group space would let the
    table wrap inside the number)."""
    return f"{round(number):+d}"


def _interval(low: str, high: str) -> str:
    """A 95% interval, ``[low, high]`` (German and Polish write ``;`` after a decimal comma)."""
    return _("[{low}, {high}]").format(low=low, high=high)


def _say_problem(problem: str | None) -> None:
    """A damaged ratings store, set aside: one line on stderr (the command goes on)."""
    if problem:
        click.echo(f"gamenight: {problem}", err=True)


# openskill rates one game at a time, in the order they were played (issue 45)
ORDER_CAVEAT = N_(
    "These ratings depend on the order of the games: openskill rates one game at a time, "
    "in the order they were played, and the same games in another order give other "
    "ratings. For an order-independent comparison of bots, see the strength column of "
    "gamenight tournament."
)


@click.command()
@click.argument("game")
@click.option("--json", "as_json", is_flag=True, help="print the ratings as JSON")
def ratings(game: str, as_json: bool) -> None:
    """The stored openskill ratings of GAME: bots from tournaments, players from
    terminal games against bots."""
    from rich.table import Table as RichTable
    from rich.text import Text

    from gamenight.sim.ratings import RatingStore

    entry = game_entry(game)
    store = RatingStore(entry.id)
    _say_problem(store.problem)
    rows = store.table()
    name = game_name(entry.id, entry.name)
    if as_json:
        import json

        click.echo(
            json.dumps(
                {
                    "game": entry.id,
                    "players": [
                        {
                            "name": n,
                            "mu": r.mu,
                            "sigma": r.sigma,
                            "ordinal": r.ordinal,
                            "games": r.games,
                        }
                        for n, r in rows
                    ],
                    "caveat": _(ORDER_CAVEAT),
                },
                indent=1,
            )
        )
        return
    if not rows:
        console.print(
            Text(
                _(
                    "No ratings for {game} yet: play against bots, or run "
                    "gamenight tournament {id} --bots ..."
                ).format(game=name, id=entry.id)
            )
        )
        return
    table = RichTable(
        "#",
        _("player"),
        _("ordinal"),
        _("mu"),
        _("sigma"),
        _("games"),
        title=Text(_("{game}: ratings (openskill Plackett-Luce)").format(game=name)),
    )
    for i, (name, r) in enumerate(rows, start=1):
        table.add_row(
            str(i), Text(name), _n(r.ordinal, 2), _n(r.mu, 2), _n(r.sigma, 2), str(r.games)
        )
    console.print(table)
    console.print(
        Text(_("ordinal = mu - 3 sigma; stored in {path}").format(path=store.path), style="dim")
    )
    console.print(Text(_(ORDER_CAVEAT)))


STOPPED_BY_CTRL_C = 130  # 128 + SIGINT


def _stop_code() -> int:
    """The exit of a run stopped early: 128 + the signal that stopped it (Ctrl-C: 130,
    SIGTERM: 143), after the partial report."""
    from gamenight.sim.engine import stopped_by

    signum = stopped_by()
    return STOPPED_BY_CTRL_C if signum is None else 128 + int(signum)


def _stopped() -> None:
    from rich.text import Text

    console.print(Text(_("Stopped before any game finished.")))
    sys.exit(_stop_code())


def _footer(peaks: list[float], written: list[Path], partial: bool) -> None:
    from rich.text import Text

    if peaks:
        console.print(
            Text(
                _("peak memory per worker: {peaks} MB").format(
                    peaks=", ".join(_n(p, 0) for p in peaks)
                ),
                style="dim",
            )
        )
    for path in written:
        console.print(Text(_("wrote {path}").format(path=path)))
    if partial:  # the report is printed, but the run was interrupted: the exit says so
        if _stop_code() != STOPPED_BY_CTRL_C:
            console.print(
                Text(_("Stopped by SIGTERM: these are the games finished so far (partial)."))
            )
            sys.exit(_stop_code())
        console.print(
            Text(_("Stopped with Ctrl-C: these are the games finished so far (partial)."))
        )
        sys.exit(_stop_code())


@contextmanager
def _progress_bar(title: str) -> Iterator[Callable[[int, int], None]]:
    """A ``(done, total)`` callback that shows a progress bar on stderr once the work
    has taken longer than :data:`PROGRESS_AFTER_SECONDS` (short runs stay quiet)."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    started = time.perf_counter()
    bar: Progress | None = None
    task = None

    def update(done: int, total: int) -> None:
        nonlocal bar, task
        if bar is None:
            if time.perf_counter() - started < PROGRESS_AFTER_SECONDS:
                return
            bar = Progress(
                TextColumn(title, markup=False),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            bar.start()
            task = bar.add_task("games", total=total)
        assert task is not None
        bar.update(task, completed=done, total=total)

    try:
        yield update
    finally:
        if bar is not None:
            bar.stop()
