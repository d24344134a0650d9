"""``gamenight fit-bots GAME``: the bots' ratings of one rating pool, fitted from a seeded
tournament among them and written to the server's ``bot_ratings`` (issue 43; the fit is
``server/accounts/ratings.py``'s :func:`fit`, the pool's key :func:`pool_of`'s, the shipped
defaults ``ladder.json`` beside each game's ``game.py``; docs/accounts.md).

The tournament is :mod:`gamenight.sim.tournament`'s: every line-up of SEATS of the bots
that may sit in rated rooms, GAMES games each, the same dice for game j of every line-up
and the seats rotating; game j is the same on any number of workers, so the same seed
and count give the same rows, and the fit the same ratings.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from gamenight.cli.args import UsageFailure, game_entry, raw_options
from gamenight.core.errors import GamenightError, OptionsError, UnknownGameError, first_line
from gamenight.core.i18n import _, said

if TYPE_CHECKING:
    from gamenight.core.registry import GameEntry
    from gamenight.server.accounts.ratings import Rating

DIGITS = 2  # mu and sigma are written rounded: more is noise, and reruns compare equal


@click.command("fit-bots", context_settings={"ignore_unknown_options": True})
@click.argument("game")
@click.option("--option", "-o", "option", multiple=True, help="a game option as KEY=VALUE")
@click.option("--games", type=int, default=200, show_default=True, help="games per line-up of bots")
@click.option("--seed", type=int, default=0, show_default=True, help="the tournament's seed")
@click.option("--seats", type=int, default=2, show_default=True, help="seats per game")
@click.option(
    "--bots", "bots_text", default=None,
    help="the bots to fit, comma-separated (default: every bot that may sit in rated rooms)",
)  # fmt: skip
@click.option(
    "--db", "--database", "db_url", default=None, envvar="GAMENIGHT_DB", metavar="URL",
    help="the server's database (default: as gamenight serve; also GAMENIGHT_DB)",
)  # fmt: skip
@click.option("--dry-run", is_flag=True, help="fit and print, write nothing to the database")
@click.option(
    "--ladder", "ladder_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
    help="also put the fit into this ladder file (a game's shipped ladder.json)",
)  # fmt: skip
@click.option("-j", "--jobs", type=int, default=None, help="worker processes (default: every core)")
@click.argument("game_options", nargs=-1, type=click.UNPROCESSED)
def fit_bots(
    game: str,
    option: tuple[str, ...],
    games: int,
    seed: int,
    seats: int,
    bots_text: str | None,
    db_url: str | None,
    dry_run: bool,
    ladder_path: str | None,
    jobs: int | None,
    game_options: tuple[str, ...],
) -> None:
    """Fit the ratings of GAME's bots in one rating pool (the game and the options given)
    from a seeded tournament among them, and write them to the server's database,
    replacing the pool's earlier ones."""
    from gamenight.core.seeds import check_seed
    from gamenight.server.accounts.rated import pool_of

    try:
        entry = game_entry(game)
    except UnknownGameError:
        from gamenight.core import registry

        raise UsageFailure(
            _("unknown game '{game}' (choose from {games})").format(
                game=game, games=", ".join(e.id for e in registry.available())
            )
        ) from None
    raw = raw_options(entry.game.info, game_options, option)
    options = entry.game.parse_options(raw)  # a bad value: one line (OptionsError)
    pool = pool_of(entry.game, raw)
    if games < 1:
        raise UsageFailure(_("--games: play at least one game per line-up"))
    try:
        check_seed(seed)
    except ValueError:
        raise UsageFailure(_("--seed: not a seed a game can be played with")) from None
    bots = _bots(entry, bots_text, seats, options)
    url = None if dry_run else _database(db_url)
    from gamenight.sim.tournament import run_tournament

    report = run_tournament(
        entry, bots, seats=seats, games=games, seed=seed, options=options, jobs=jobs
    )
    if report.partial:
        raise UsageFailure(_("the tournament stopped before its last game: nothing written"))
    fitted = fitted_ratings(report.rows)
    _show(pool, fitted, report.seconds)
    if ladder_path is not None:
        from gamenight.server.accounts import ladder

        bots_fit = {b: ladder.FittedBot(r.mu, r.sigma) for b, r in fitted.items()}
        ladder.write(Path(ladder_path), pool, ladder.FittedPool(seed, games, seats, bots_fit))
    if url is None:
        click.echo(_("Dry run: nothing written."))
        return
    _write(url, pool, fitted)
    click.echo(_("Written: the bots' ratings of pool {pool}.").format(pool=pool))


def fitted_ratings(rows: Any) -> dict[str, Rating]:
    """The fit of a tournament's rows (``sim.engine.GameRow``), by bot name, rounded."""
    from gamenight.server.accounts.ratings import Place, Rating, fit

    games = [
        [Place(f"bot:{b}", int(r)) for b, r in zip(row.bots, row.ranks, strict=True)]
        for row in rows
    ]
    return {
        who.removeprefix("bot:"): Rating(round(r.mu, DIGITS), round(r.sigma, DIGITS), r.games)
        for who, r in sorted(fit(games).items())
    }


def _bots(entry: GameEntry, bots_text: str | None, seats: int, options: Any) -> list[str]:
    """The bots to fit: those named, or every bot with a declared rating (the ones rated
    rooms seat) that can play ``options``; at least two."""
    from gamenight.sim.series import check_lineup

    rated = [name for name, info in entry.bot_infos.items() if info.rating is not None]
    if bots_text is None:
        chosen = []
        for name in rated:
            try:
                check_lineup(entry, [name] * seats, options)
            except OptionsError:
                continue
            chosen.append(name)
    else:
        chosen = list(dict.fromkeys(b.strip() for b in bots_text.split(",") if b.strip()))
        for name in chosen:
            if name not in entry.bot_infos:
                raise UsageFailure(
                    _("unknown bot {bot} for {game} (choose from {bots})").format(
                        bot=repr(name), game=entry.id, bots=", ".join(entry.bot_infos)
                    )
                )
            if name not in rated:
                raise UsageFailure(
                    _("bot '{bot}' has no fixed rating: rated rooms do not seat it").format(
                        bot=name
                    )
                )
        for name in chosen:
            check_lineup(entry, [name] * seats, options)
    if len(chosen) < 2:
        raise UsageFailure(_("a fit needs at least two bots that can play these options"))
    return chosen


def _database(db_url: str | None) -> str:
    """The database URL to write to, checked before any game is played: its kind, an
    SQLite file that exists, and the schema brought to the server's (as its start does)."""
    from gamenight.server.dburl import default_url, require_driver, sqlite_path, sync_url
    from gamenight.server.storage.schema import migrate

    url = db_url or default_url()
    target = sync_url(url)
    if target.partition("://")[0] not in ("sqlite", "postgresql", "postgresql+psycopg"):
        raise UsageFailure(
            _(
                "--db {url}: not a database URL like sqlite:///path or postgresql://user@host/db"
            ).format(url=url)
        )
    file = sqlite_path(url)
    if file is not None:
        path = Path(file)
        if not path.is_file():
            raise UsageFailure(
                _(
                    "--db: there is no database at {path} (the server makes it when it starts)"
                ).format(path=path)
            )
    try:
        require_driver(url)
        migrate(url)
    except Exception as exc:
        _refused(exc)
    return url


def _write(url: str, pool: str, fitted: dict[str, Rating]) -> None:
    from gamenight.server.accounts.store import AccountStore
    from gamenight.server.dburl import normalise_url
    from gamenight.server.storage.engine import make_engine

    async def write() -> None:
        target = normalise_url(url)
        engine = make_engine(target, target.startswith("postgresql"))
        try:
            await AccountStore(engine).set_bot_ratings(pool, fitted)
        finally:
            await engine.dispose()

    try:
        asyncio.run(write())
    except Exception as exc:
        _refused(exc)


def _refused(exc: BaseException) -> None:
    """The database cannot be used: one line, status 3 (as ``serve`` refuses it)."""
    # the driver's own reason (third-party English), not SQLAlchemy's wrapping of it
    reason = (
        said(exc)
        if isinstance(exc, GamenightError)
        else first_line(getattr(exc, "orig", None) or exc)
    )
    line = _("the database cannot be used: {reason}").format(reason=" ".join(reason.split()))
    click.echo(_("gamenight: error: {message}").format(message=line), err=True)
    sys.exit(3)


def _show(pool: str, fitted: dict[str, Rating], seconds: float) -> None:
    from rich.console import Console
    from rich.table import Table as RichTable

    from gamenight.core.i18n import format_decimal

    shown = format_decimal(seconds, places=1)
    title = _("Pool {pool}: fitted in {seconds} s").format(pool=pool, seconds=shown)
    table = RichTable(_("bot"), "mu", "sigma", _("games"), title=title, box=None)
    for bot, r in sorted(fitted.items(), key=lambda item: (-item[1].mu, item[0])):
        mu, sigma = (format_decimal(x, places=DIGITS) for x in (r.mu, r.sigma))
        table.add_row(bot, mu, sigma, format_decimal(r.games))
    Console(soft_wrap=True).print(table)
