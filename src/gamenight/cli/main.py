"""The ``gamenight`` command line.

Usage errors print one line and exit 2; verification failures exit 1. No
command shows a traceback for bad input.
"""

from __future__ import annotations

from gamenight.core.threads import one_blas_thread

one_blas_thread()  # before anything imports numpy (issue 29)

import atexit  # noqa: E402
import gc  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
from collections.abc import Callable  # noqa: E402
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar  # noqa: E402

import click  # noqa: E402

from gamenight import __version__  # noqa: E402
from gamenight.cli.args import (  # noqa: E402
    CheckFailure,
    PathType,
    UsageFailure,
    choose_language,
    game_entry,
    game_seed,
    raw_options,
    reading_language,
)
from gamenight.cli.helptext import reading_argv, speak  # noqa: E402
from gamenight.cli.lazy import lazy_console, real_console  # noqa: E402
from gamenight.cli.lazy_group import Lazy, LazyGroup  # noqa: E402
from gamenight.core.errors import GamenightError, OptionsError, RecordError  # noqa: E402
from gamenight.core.i18n import N_, _, game_name, ngettext, said, set_default_language  # noqa: E402
from gamenight.terminal.glyphs import degrade_streams  # noqa: E402

# Only what `--help` and `list` need is imported above; each command imports the rest
# (rich's tables, the sessions, the menu, records, bots) when it runs (issue 29:
# tests/cli/test_cli_imports.py checks what `list` and `--help` load).
if TYPE_CHECKING:
    from pathlib import Path

    from rich.console import Console
    from rich.table import Table as RichTable

    from gamenight.cli.players import SeatSpec
    from gamenight.cli.session import Session
    from gamenight.core import registry
    from gamenight.terminal.ui import Prompter

console = lazy_console()


PLAIN_HELP = N_(
    "the line mode instead of the full-screen table (also GAMENIGHT_PLAIN=1; "
    "automatic for pipes and TERM=dumb)"
)
T = TypeVar("T")


def plain_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """``--plain``: on the group (``gamenight --plain``) and on each playing command."""
    return click.option("--plain", "plain_mode", is_flag=True, help=PLAIN_HELP)(command)


THEME_HELP = N_("the full screen's colours: dark or light (also GAMENIGHT_THEME; F4 switches)")


def front_end(target: Callable[[Console, Prompter], T], plain_mode: bool) -> T:
    """Run ``target`` (the menu or a game) on the full-screen table when the terminal
    supports it and the user did not ask for the line mode; else in the line mode."""
    from gamenight.terminal.full import run_full, wanted
    from gamenight.terminal.ui import Prompter

    ctx = click.get_current_context(silent=True)
    root = None if ctx is None else ctx.find_root()
    if wanted(plain_mode or bool(root is not None and root.meta.get("plain"))):
        return run_full(target, theme=None if root is None else root.meta.get("theme"))
    shown = real_console(console)
    return target(shown, Prompter(shown))


# The commands kept in modules of their own, imported only when one runs (issue 46:
# `--help` and `list` import none of them). A command is one row: its name, where it
# lives and its help as written there (tests/cli/test_cli_lazy.py checks each row);
# a row without the help works too, but the group's --help then imports its module.
LAZY_COMMANDS = {
    "solve": Lazy(
        "gamenight.cli.solve:solve",
        "Solve GAME exactly and print the headline figures (or all of them with --json).",
    ),
    "review": Lazy(  # issue 42: a finished game's review
        "gamenight.cli.review:review",
        "Review the finished game recorded at PATH: for every decision with an exact\n"
        "value, the option taken, the best one and what the difference cost; per player an\n"
        "accuracy, inaccuracies, mistakes and blunders, and the luck of the dice.",
    ),
    "serve": Lazy(  # the online server (it imports the server when it runs)
        "gamenight.cli.serve:serve_command",
        "Run the online game server: rooms, seats, bots and the browser protocol.",
    ),
    "backup": Lazy(  # a copy of its SQLite database while it runs
        "gamenight.cli.serve:backup_command",
        "Copy the server's SQLite database to DEST while it runs (use pg_dump for PostgreSQL).",
    ),
    "fit-bots": Lazy(  # issue 43: the bots' ratings of a pool, fitted and written
        "gamenight.cli.fitbots:fit_bots",
        "Fit the ratings of GAME's bots in one rating pool (the game and the options given)\n"
        "from a seeded tournament among them, and write them to the server's database,\n"
        "replacing the pool's earlier ones.",
    ),
    "turns": Lazy(  # issue 44: the "your turn" list of the saved online seats
        "gamenight.cli.turns:turns",
        "List the online rooms where it is your move: for every seat saved by `gamenight\n"
        "join`, its server is asked; the command to take the seat is shown.",
    ),
    "decks": Lazy("gamenight.cli.decks:decks", "The Decades: import question decks and list them."),
    "sim": Lazy(
        "gamenight.cli.simulate:sim",
        "Play a seeded series of all-bot GAME games: win shares and mean scores.\n\n"
        "Seats change: each deal of dice is played once in every seat order (every\n"
        "order up to 4 bots, a balanced Latin square beyond), so a bot's figures do not\n"
        "depend on its seat or its neighbours (--fixed-seats keeps them). Game i is the\n"
        "same on any number of workers: its dice come from the series seed and i. Ctrl-C\n"
        "stops and reports the games finished so far (partial).",
    ),
    "tournament": Lazy(
        "gamenight.cli.simulate:tournament",
        "Every line-up of SEATS bots plays GAMES games, seat order rotating.\n\n"
        "Reports win shares and mean scores with intervals (95%), the head-to-head\n"
        "win-share matrix, a Bradley-Terry fit of all the games (order-independent) and\n"
        "openskill (Plackett-Luce) ratings, which are added to the stored ones.",
    ),
    "ratings": Lazy(
        "gamenight.cli.simulate:ratings",
        "The stored openskill ratings of GAME: bots from tournaments, players from\n"
        "terminal games against bots.",
    ),
}


@click.group(
    cls=LazyGroup,
    lazy=LAZY_COMMANDS,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(__version__, "--version", "-V", prog_name="gamenight")
@plain_option
@click.option(
    "--lang",
    "lang",
    default=None,
    metavar="LANG",
    help="the language to play in: en, de, pl (default: LANG/LC_MESSAGES)",
)
@click.option(
    "--theme",
    "theme",
    type=click.Choice(["dark", "light"], case_sensitive=False),
    default=None,
    help=THEME_HELP,
)
@click.pass_context
def app(ctx: click.Context, plain_mode: bool, lang: str | None, theme: str | None) -> None:
    """gamenight: play, study and solve tabletop dice and quiz games."""
    # --lang is checked (a bad one: one line, exit 2); else the POSIX locale decides.
    choose_language(lang)
    ctx.meta["plain"] = plain_mode
    ctx.meta["theme"] = theme
    if ctx.invoked_subcommand is None:
        from gamenight.cli.menu import main_menu

        _need_input(_("the menu"))
        try:
            front_end(main_menu, plain_mode)
        except (KeyboardInterrupt, EOFError):  # the menu's own way out ("Ctrl-C quits"): exit 0
            console.print()


@app.command("list")
@click.option("--bots", "show_bots", is_flag=True, help="say what each bot does and how strong")
@click.option("--options", "show_options", is_flag=True, help="each game's options")
def list_games(show_bots: bool, show_options: bool) -> None:
    """List the games: id, name, seats and bots (imports no bot and no solver)."""
    from rich.console import Console
    from rich.table import Table as RichTable
    from rich.text import Text

    from gamenight.cli.players import seats_text
    from gamenight.core import registry

    table = RichTable("id", _("game"), _("players"), _("bots"), box=None)
    for entry in registry.available():
        info = entry.game.info
        name = game_name(entry.id, entry.name)
        table.add_row(entry.id, name, seats_text(info), ", ".join(entry.bot_infos))
    console.print(table)
    for problem in registry.problems().values():  # a broken plug-in: one line, the rest listed
        Console(stderr=True).print(Text(f"gamenight: {problem}", style="yellow"), soft_wrap=True)
    for entry in registry.available() if show_bots or show_options else ():
        if show_bots:
            console.print()
            console.print(bots_table(entry))
        if show_options and entry.game.info.options:
            console.print()
            console.print(options_table(entry))


def options_table(entry: registry.GameEntry) -> RichTable:
    """One line per game option: its flag, its default and what it sets."""
    from rich.table import Table as RichTable

    from gamenight.terminal.ui import plain

    title = _("{game} options").format(game=game_name(entry.id, entry.name))
    table = RichTable(_("option"), _("default"), _("what it sets"), title=title, box=None)
    for spec in entry.game.info.options:
        default = spec.default
        shown = ",".join(map(str, default)) if isinstance(default, list) else str(default)
        if spec.kind == "multi" and list(default) == list(spec.choices):
            shown = _("all")
        choices = ""
        if spec.choices:
            choices = " " + _("(one of: {choices})").format(choices=", ".join(spec.choices))
        table.add_row(plain(f"--{spec.name}"), plain(shown or '""'), plain(_(spec.help) + choices))
    return table


def bots_table(entry: registry.GameEntry) -> RichTable:
    """One line per bot of ``entry``: its name, what it does and how strong it is."""
    from rich.table import Table as RichTable

    from gamenight.terminal.ui import plain

    title = game_name(entry.id, entry.name)
    table = RichTable(_("bot"), _("what it does and how strong"), title=title, box=None)
    for name, info in entry.bot_infos.items():
        table.add_row(plain(name, "bold"), plain(_(info.summary)))
    return table


@app.command()
@click.argument("game")
@click.option("--lang", "lang", default=None, help="the rules' language (en, de, pl)")
def rules(game: str, lang: str | None) -> None:
    """Print the rules of GAME (an id from `gamenight list`), in the language of --lang
    or the POSIX locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG); English when missing."""
    from rich.markdown import Markdown

    entry = game_entry(game)
    console.print(Markdown(entry.rules_text(reading_language(lang))))


GAME_OPTIONS_HELP = N_(
    "Any option of the game is given as --NAME VALUE or -o NAME=VALUE "
    "(e.g. --variant championship, --events 100m,shot-put, --mode solo); "
    "`gamenight list --options` shows each game's options."
)
TAKES_GAME_OPTIONS: dict[str, Any] = {
    "context_settings": {"ignore_unknown_options": True},
    "epilog": GAME_OPTIONS_HELP,
}


@app.command(**TAKES_GAME_OPTIONS)
@click.argument("game")
@click.option("--players", required=True, help="seats, e.g. 'Ann,Bob,bot:greedy'")
@click.option("--seed", type=int, default=None, help="dice seed (random if omitted)")
@click.option("--option", "-o", "option", multiple=True, help="any game option as KEY=VALUE")
@click.option(
    "--record",
    type=PathType(dir_okay=False),
    default=None,
    help="write the game record (JSON Lines)",
)
@click.option("--force", is_flag=True, help="replace an existing record file (records only)")
@click.option("--watch/--quiet", default=None, help="narrate every event (default: with humans)")
@plain_option
@click.argument("game_options", nargs=-1, type=click.UNPROCESSED)
def play(
    game: str,
    players: str,
    seed: int | None,
    option: tuple[str, ...],
    record: Path | None,
    force: bool,
    watch: bool | None,
    plain_mode: bool,
    game_options: tuple[str, ...],
) -> None:
    """Play GAME in the terminal, with humans and bots."""
    from gamenight.cli.menu import language_defaults
    from gamenight.cli.players import is_team_game, parse_players

    entry = game_entry(game)
    raw = raw_options(entry.game.info, game_options, option)
    # the deck in the player's language unless one is named, as the menu offers it
    defaults = language_defaults(entry.game.info, reading_language(None))
    options = entry.game.parse_options({**defaults, **raw})
    info = entry.game.info
    seats = parse_players(players, list(entry.bots), teams=is_team_game(info))
    entry.game.check_setup(len(seats), options)
    chosen = game_seed(seed)
    from gamenight.core.dice import SeededDice

    entry.game.start(len(seats), options, SeededDice(seed=chosen))  # refuse a bad set-up first
    if any(s.bot is None for s in seats):
        _need_input(_("a game with humans"))

    def run_game(shown: Console, prompter: Prompter) -> None:
        _play(entry, seats, options, chosen, record, watch, shown, prompter,
              seed_public=seed is not None, force=force)  # fmt: skip

    front_end(run_game, plain_mode)


@app.command()
@click.argument("path", type=PathType())
@click.option(
    "--as",
    "as_seat",
    default=None,
    metavar="SEAT",
    help="print what one seat saw: its number (1, 2, ...), its name, or 'spectator'",
)
@click.option("--odds", "show_odds", is_flag=True, help="print each player's win odds per decision")
def replay(path: Path, as_seat: str | None, show_odds: bool) -> None:
    """Replay the record at PATH: check the seed against the commitment made
    before the game, then re-derive every die and card and verify every event
    and the result."""
    from rich.text import Text

    from gamenight.cli.saves import SeatView, resolve_seat, show_as
    from gamenight.core import registry
    from gamenight.core.record import read_record
    from gamenight.core.record import replay as run_replay
    from gamenight.core.seeds import fingerprint

    try:
        record = read_record(path)
        viewer = None if as_seat is None else resolve_seat(as_seat, record.seats)
        seen = SeatView(viewer)
        # --odds (games with the odds capability): a line of win odds after every action
        track: list[str] = []
        odds_step = _odds_step(record, track) if show_odds else None
        visitors = [v for v in (seen if as_seat is not None else None, odds_step) if v]
        report = run_replay(record, str(path), require_finished=False, visitors=visitors)
    except RecordError as exc:
        raise CheckFailure(said(exc)) from None
    if as_seat is not None:
        show_as(real_console(console), game_entry(record.game), record, seen)
    if show_odds:
        with_odds = [
            game_name(e.id, e.name) for e in registry.available() if e.game.info.odds is not None
        ]
        none = _("Win odds are only available for {games} with two or more players.").format(
            games=", ".join(with_odds) or _("no game")
        )
        for line in track or [none]:
            console.print(Text(line))
    if report.committed:
        commitment = fingerprint(record.commitment or "")
        fair = _("the seed matches the commitment {fingerprint}").format(fingerprint=commitment)
        if record.contributions:  # player entropy: the dice came from every seat's part too
            made = {"player": 0, "server": 0}
            for part in record.contributions:
                made[part.by] = made.get(part.by, 0) + 1
            if made["server"]:
                fair = _(
                    "the seed matches the commitment {fingerprint}, the dice seed is derived "
                    "from it and {players} player contribution(s) and {server} made by the "
                    "server for silent seats"
                )
            else:
                fair = _(
                    "the seed matches the commitment {fingerprint}, the dice seed is derived "
                    "from it and {players} player contribution(s)"
                )
            fair = fair.format(
                fingerprint=commitment, players=made["player"], server=made["server"]
            )
    else:
        fair = _("a format 1 record: no commitment to check the seed against")
    actions = ngettext("{n} action", "{n} actions", report.actions).format(n=report.actions)
    if not report.finished:
        console.print(
            Text(
                _(
                    "✓ {path}: {game}, unfinished: {actions} verified, {fair}, every event so "
                    "far matches. Resume it with: gamenight resume {path}"
                ).format(path=path, game=report.game, actions=actions, fair=fair)
            )
        )
        return
    winners = ", ".join(record.seats[w].name for w in report.results.winners)
    console.print(
        Text.assemble(
            ("✓", "green"),
            " "
            + _(
                "{path}: {game}, {actions} replayed, {fair}, every event and the result match "
                "(won by {winners})"
            ).format(path=path, game=report.game, actions=actions, fair=fair, winners=winners),
        )
    )


def _odds_step(record: Any, track: list[str]) -> Any:
    """For ``replay --odds``: a step that appends one line per action of each seat's
    win odds, from the game's ``odds`` capability (None for a game without one)."""
    from gamenight.terminal.odds import live_odds, odds_line, stage_of

    entry = game_entry(record.game)
    if entry.game.info.odds is None:
        return None
    names = [s.name for s in record.seats]

    def step(step: Any) -> None:
        view = step.frame(None).position.view  # the spectator's: odds never rest on a secret
        odds = live_odds(entry, view)
        if odds is not None:
            track.append(odds_line(step.seq, odds, names, stage_of(entry, view)))

    return step


@app.command()
@click.argument("path", type=PathType(), required=False)
@click.option("--last", is_flag=True, help="resume the newest saved game (see gamenight saves)")
@plain_option
def resume(path: Path | None, last: bool, plain_mode: bool) -> None:
    """Resume the unfinished game saved at PATH (or the newest with --last)."""
    from gamenight.cli.resuming import resume_game
    from gamenight.cli.saves import newest_unfinished

    if last == (path is not None):
        raise UsageFailure(_("name a saved game file or use --last (gamenight saves lists them)"))
    _need_input(_("resuming a game"))
    if path is None:
        path = newest_unfinished()
        if path is None:
            raise UsageFailure(_("there is no saved unfinished game (gamenight saves lists them)"))
    found = path  # a save that cannot be resumed: one line once the screen is closed

    def run_game(shown: Console, prompter: Prompter) -> None:
        session, match = resume_game(found, shown, prompter)
        _finish(session, match)

    front_end(run_game, plain_mode)


@app.command()
def saves() -> None:
    """List the saved unfinished games, newest first."""
    from gamenight.cli.saves import list_saves, show_saves

    show_saves(real_console(console), list_saves())


SERVER_HELP = N_("the server's address, e.g. http://192.168.1.5:8000 (also GAMENIGHT_SERVER)")


@app.command()
@click.argument("target", metavar="LINK")
@click.option("--server", default=None, metavar="URL", help=SERVER_HELP)
@click.option("--name", default=None, help="your name at the table (default: your login name)")
@click.option(
    "--seat", type=click.IntRange(1, 99), default=None, help="the seat to take (1, 2, ...)"
)
@click.option("--word", default=None, help="a word of yours added to your part of the dice")
@plain_option
def join(
    target: str,
    server: str | None,
    name: str | None,
    seat: int | None,
    word: str | None,
    plain_mode: bool,
) -> None:
    """Join an online room: LINK is an invite link (http://HOST/r/CODE) or a room code
    (with --server). A seat taken before is taken back."""
    from gamenight.cli.online import prepare_join

    _need_input(_("an online game"))
    run_table, _title = prepare_join(target, server, name, seat, word)
    front_end(run_table, plain_mode)


@app.command()
@click.argument("game")
@click.option("--server", default=None, metavar="URL", help=SERVER_HELP)
@click.option(
    "--seats", "seats_text", default=None, metavar="SEATS",
    help="the seats: human or bot:NAME, comma-separated (default: two humans)",
)  # fmt: skip
@click.option("--option", "-o", "option", multiple=True, help="a game option as KEY=VALUE")
@click.option("--hints", is_flag=True, help="players may ask for hints")
@click.option("--odds", is_flag=True, help="live win odds for everyone (games that have them)")
@click.option("--public", is_flag=True, help="list the room in the lobby")
@click.option(
    "--bot-pace", type=click.FloatRange(0, 10), default=None,
    help="seconds a bot waits before acting (server default 0.8)",
)  # fmt: skip
@click.option(
    "--takeover-after", type=click.IntRange(1, 86400), default=None,
    help="seconds a player may be away before a bot plays the seat",
)  # fmt: skip
@click.option("--join", "then_join", is_flag=True, help="take the first seat at once")
@plain_option
def host(
    game: str,
    server: str | None,
    seats_text: str | None,
    option: tuple[str, ...],
    hints: bool,
    odds: bool,
    public: bool,
    bot_pace: float | None,
    takeover_after: int | None,
    then_join: bool,
    plain_mode: bool,
) -> None:
    """Create an online room for GAME on a server and print its invite link."""
    from rich.text import Text

    from gamenight.cli.online import host_room, options_of, prepare_join
    from gamenight.core.seeds import fingerprint

    room_options: dict[str, Any] = {"hints": hints, "odds": odds}
    if bot_pace is not None:
        room_options["bot_pace"] = bot_pace
    if takeover_after is not None:
        room_options["takeover_after"] = takeover_after
    where, created = host_room(game, server, seats_text, options_of(option), room_options, public)
    link = f"{where.server}{created.get('invite') or '/r/' + where.code}"
    shown = real_console(console)
    shown.print(Text(_("Room created. Invite link: {link}").format(link=link)), soft_wrap=True)
    shown.print(Text(_("Room code: {code}").format(code=where.code)), soft_wrap=True)
    commitment = str(created.get("commitment") or "")
    if commitment:
        shown.print(
            Text(
                _("Dice fixed before play: commitment {fingerprint}").format(
                    fingerprint=fingerprint(commitment)
                )
            )
        )
    shown.print(Text(_("Take a seat: gamenight join {link}").format(link=link)), soft_wrap=True)
    if then_join:
        _need_input(_("an online game"))
        run_table, _title = prepare_join(link, None, None, None, None)
        front_end(run_table, plain_mode)


def _play(
    entry: registry.GameEntry,
    seats: list[SeatSpec],
    options: dict[str, Any],
    chosen: int,
    record: Path | None,
    watch: bool | None,
    shown: Console,
    prompter: Prompter,
    *,
    seed_public: bool,
    force: bool = False,
) -> None:
    from rich.text import Text

    from gamenight.cli.session import Session

    session = Session(
        entry, seats, options, chosen, shown, prompter, record, watch,
        seed_public=seed_public, force=force,
    )  # fmt: skip
    session.title = Text.assemble(
        (game_name(entry.id, entry.name), "bold"), " · ", ", ".join(s.describe() for s in seats)
    )
    match = session.build()
    _finish(session, match)


def _need_input(what: str) -> None:
    """Refuse up front, before any save is made, what needs a keyboard when there is
    none (``gamenight <&-``)."""
    if sys.stdin is None:
        raise UsageFailure(
            _("standard input is closed, and {what} needs one to type on").format(what=what)
        )


def _finish(session: Session, match: Any) -> None:
    from gamenight.cli.resuming import play_on

    if not play_on(session, match):
        sys.exit(130)


MAX_ERROR_CHARS = 400  # an error quoting a huge input is cut: one readable line


def _fail(message: str, code: int) -> NoReturn:
    line = " ".join(message.split())
    if len(line) > MAX_ERROR_CHARS:
        line = line[: MAX_ERROR_CHARS - 1] + "…"
    click.echo(_("gamenight: error: {message}").format(message=line), err=True)
    sys.exit(code)


def run(argv: list[str] | None = None) -> None:
    """Console-script entry point."""
    # The process drops its heap when it exits: the interpreter's exit collections,
    # which would walk every object the imports made (numpy's, click's...), walk none
    # (issue 29: 3% of `solve decathlon --json`). At exit only, so a long-running
    # command, or a test calling this in its own process, collects as usual.
    atexit.unregister(gc.freeze)  # once, however often a test calls this
    atexit.register(gc.freeze)
    degrade_streams()  # a non-UTF-8 locale: characters it lacks become ASCII, never a crash
    if sys.stdout is None:  # gamenight >&-: nothing can be shown
        if sys.stderr is not None:
            print(
                "gamenight: error: standard output is closed; nothing can be shown", file=sys.stderr
            )
        sys.exit(2)
    # --help is built before the group reads --lang: the language is read from argv now
    set_default_language(reading_argv(sys.argv[1:] if argv is None else argv, os.environ))
    speak(app)
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
    except UsageFailure as exc:
        _fail(str(exc), 2)
    except OptionsError as exc:  # a refused option in the player's language
        _fail(said(exc), 2)
    except CheckFailure as exc:
        _fail(str(exc), 1)
    except GamenightError as exc:  # a rule's refusal in the player's language
        _fail(said(exc), 2)
