"""The ``gamenight`` command line.

Usage errors print one line and exit 2; verification failures exit 1. No
command shows a traceback for bad input.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, NoReturn

import click
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table as RichTable

from gamenight.cli.players import SeatSpec, parse_players
from gamenight.cli.session import Session, restore
from gamenight.cli.solve import solve
from gamenight.core import registry
from gamenight.core.errors import GamenightError, OptionsError, RecordError
from gamenight.terminal.ui import Prompter

console = Console()


class UsageFailure(Exception):
    """A one-line usage error (exit 2)."""


class CheckFailure(Exception):
    """A failed verification (exit 1)."""


@click.group(invoke_without_command=True)
@click.pass_context
def app(ctx: click.Context) -> None:
    """gamenight: play, study and solve tabletop dice and quiz games."""
    if ctx.invoked_subcommand is None:
        from gamenight.cli.menu import main_menu

        main_menu(console, Prompter(console))


@app.command("list")
def list_games() -> None:
    """List the games: id and name."""
    table = RichTable("id", "game", "players", "bots", box=None)
    for entry in registry.available():
        info = entry.game.info
        span = (
            f"{info.min_players}"
            if info.min_players == info.max_players
            else (f"{info.min_players}-{info.max_players}")
        )
        table.add_row(entry.id, entry.name, f"{span} {info.seat_noun}s", ", ".join(entry.bots))
    console.print(table)


@app.command()
@click.argument("game")
def rules(game: str) -> None:
    """Print the rules of GAME (an id from `gamenight list`)."""
    entry = _entry(game)
    console.print(Markdown(entry.rules_text()))


@app.command()
@click.argument("game")
@click.option("--players", required=True, help="seats, e.g. 'Ann,Bob,bot:greedy'")
@click.option("--seed", type=int, default=None, help="dice seed (random if omitted)")
@click.option("--variant", default=None, help="variant, e.g. championship")
@click.option("--events", default=None, help="Decathlon events, e.g. 100m,shot-put")
@click.option("--mode", default=None, help="Dice Duel mode: multi or solo")
@click.option("--deck", default=None, help="The Decades: question deck file (CSV or JSON)")
@click.option("--option", "-o", "option", multiple=True, help="any game option as KEY=VALUE")
@click.option(
    "--record",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="write the game record (JSON Lines)",
)
@click.option("--watch/--quiet", default=None, help="narrate every event (default: with humans)")
def play(
    game: str,
    players: str,
    seed: int | None,
    variant: str | None,
    events: str | None,
    mode: str | None,
    deck: str | None,
    option: tuple[str, ...],
    record: Path | None,
    watch: bool | None,
) -> None:
    """Play GAME in the terminal, with humans and bots."""
    entry = _entry(game)
    options = entry.game.parse_options(_raw_options(variant, events, mode, deck, option))
    seats = parse_players(players, list(entry.bots))
    entry.game.check_players(len(seats))
    _play(entry, seats, options, _seed(seed), record, watch)


@app.command()
@click.argument("path", type=click.Path(path_type=Path))
def replay(path: Path) -> None:
    """Replay the record at PATH, verifying every event and the final result."""
    from gamenight.core.record import read_record
    from gamenight.core.record import replay as run_replay

    try:
        record = read_record(path)
        report = run_replay(record, str(path))
    except RecordError as exc:
        raise CheckFailure(str(exc)) from None
    winners = ", ".join(record.seats[w].name for w in report.results.winners)
    console.print(
        f"[green]✓[/] {path}: {report.game}, {report.actions} actions replayed, "
        f"every event and the result match (won by {winners})"
    )


@app.command()
@click.argument("path", type=click.Path(path_type=Path))
def resume(path: Path) -> None:
    """Resume the unfinished game saved at PATH."""
    from gamenight.core.record import read_record
    from gamenight.core.record import replay as run_replay

    try:
        record = read_record(path, repair_tail=True)
        run_replay(record, str(path), require_finished=False)
    except RecordError as exc:
        raise CheckFailure(str(exc)) from None
    if record.results is not None:
        raise UsageFailure(f"{path}: that game is already finished")
    entry = _entry(record.game)
    seats = []
    for seat in record.seats:
        bot = seat.agent.removeprefix("bot:") if seat.agent.startswith("bot:") else None
        if bot is not None and bot not in entry.bots:
            raise CheckFailure(f"{path}: unknown bot {bot!r} in the header")
        seats.append(SeatSpec(seat.name, bot=bot, members=(seat.name,)))
    options = entry.game.parse_options(record.options)
    session = Session(entry, seats, options, record.seed, console, Prompter(console), path)
    match = session.build(append=True)
    restore(match, [(seat, action) for seat, action, _ in record.actions])
    console.print(f"Resumed {entry.name} after {len(record.actions)} actions.")
    _finish(session, match)


app.add_command(solve)
app.add_command(registry.load("gamenight.cli.serve:serve_command"))  # the online server


@app.command()
@click.argument("game")
@click.option("--bots", required=True, help="one bot per seat, e.g. 'optimal,competitive'")
@click.option("--games", type=int, default=1000, show_default=True, help="games to play")
@click.option("--seed", type=int, default=0, show_default=True, help="dice seed of game 1")
@click.option("--variant", default=None, help="variant, e.g. championship")
@click.option("--events", default=None, help="Decathlon events, e.g. 100m,shot-put")
@click.option("--mode", default=None, help="Dice Duel mode: multi or solo")
@click.option("--option", "-o", "option", multiple=True, help="any game option as KEY=VALUE")
@click.option("--json", "as_json", is_flag=True, help="print the report as JSON")
def sim(
    game: str,
    bots: str,
    games: int,
    seed: int,
    variant: str | None,
    events: str | None,
    mode: str | None,
    option: tuple[str, ...],
    as_json: bool,
) -> None:
    """Play a seeded series of all-bot GAME games: win shares and mean scores."""
    import dataclasses
    import json

    from gamenight.sim import run_series

    entry = _entry(game)
    raw = _raw_options(variant, events, mode, None, option)
    names = [b.strip().removeprefix("bot:") for b in bots.split(",")]
    report = run_series(entry, names, games=games, seed=seed, options=entry.game.parse_options(raw))
    if as_json:
        click.echo(json.dumps(dataclasses.asdict(report), indent=1))
        return
    table = RichTable(
        "seat",
        "bot",
        "win share",
        "mean score",
        title=f"{entry.name}: {games} games from seed {seed} ({report.seconds:.1f} s)",
    )
    for seat in report.seats:
        table.add_row(
            str(seat.seat + 1),
            seat.bot,
            f"{seat.win_share:.3f} ± {seat.win_share_se:.3f}",
            f"{seat.mean_score:.2f} ± {seat.score_se:.2f}",
        )
    console.print(table)
    console.print("[dim]± one standard error; a k-way shared win counts 1/k[/]")


def _play(
    entry: registry.GameEntry,
    seats: list[SeatSpec],
    options: dict[str, Any],
    seed: int,
    record: Path | None,
    watch: bool | None,
) -> None:
    from gamenight.core.dice import SeededDice

    entry.game.start(len(seats), options, SeededDice(seed=seed))  # refuse a bad set-up first
    session = Session(entry, seats, options, seed, console, Prompter(console), record, watch)
    match = session.build()
    console.print(
        f"[bold]{entry.name}[/] · seed {seed} · " + ", ".join(s.describe() for s in seats)
    )
    _finish(session, match)


def _finish(session: Session, match: Any) -> None:
    try:
        session.finish(match)
    except (KeyboardInterrupt, EOFError):
        where = session.record_path
        console.print()
        if where is not None and not match.finished():
            console.print(f"Game saved. Resume it with: gamenight resume {where}")
        elif where is None:
            console.print("Game abandoned (no record was kept).")
        sys.exit(130)
    if session.record_path is not None:
        console.print(f"Record: {session.record_path}")


def _raw_options(
    variant: str | None,
    events: str | None,
    mode: str | None,
    deck: str | None,
    option: tuple[str, ...],
) -> dict[str, Any]:
    """Game options from the common flags and any ``-o KEY=VALUE``."""
    raw: dict[str, Any] = {}
    for key, value in (("variant", variant), ("events", events), ("mode", mode), ("deck", deck)):
        if value is not None:
            raw[key] = value
    for item in option:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise UsageFailure(f"--option {item!r}: expected KEY=VALUE")
        raw[key.strip()] = value.strip()
    return raw


def _entry(game: str) -> registry.GameEntry:
    entry = registry.get(game)
    try:
        entry.game  # noqa: B018 - import now so a missing game is a usage error
    except ModuleNotFoundError:
        raise UsageFailure(f"game '{game}' is not available in this installation") from None
    return entry


def _seed(seed: int | None) -> int:
    if seed is not None:
        return seed
    import secrets

    return secrets.randbelow(2**31)


def _fail(message: str, code: int) -> NoReturn:
    click.echo(f"gamenight: error: {' '.join(message.split())}", err=True)
    sys.exit(code)


def run(argv: list[str] | None = None) -> None:
    """Console-script entry point."""
    try:
        app.main(args=argv, standalone_mode=False, prog_name="gamenight")
    except click.UsageError as exc:
        _fail(exc.format_message().splitlines()[0], 2)
    except click.ClickException as exc:
        _fail(exc.format_message(), 2)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except (click.Abort, KeyboardInterrupt, EOFError):
        console.print()
        sys.exit(130)
    except (UsageFailure, OptionsError) as exc:
        _fail(str(exc), 2)
    except CheckFailure as exc:
        _fail(str(exc), 1)
    except GamenightError as exc:
        _fail(str(exc), 2)
