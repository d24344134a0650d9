"""What ``gamenight --help`` lists, without click: every command's name and help, and the
group's own help and options (issue 46).

The commands themselves are click commands (``gamenight.cli.app`` and the modules named
in :data:`LAZY_COMMANDS`); this index is what the group's ``--help`` reads, so that
printing it imports neither click nor a command module
(:mod:`gamenight.cli.fast_help` prints it; the click group lists the lazy rows too).
``tests/cli/test_cli_lazy.py`` checks every row against the real command, and
``tests/cli/test_fast_help.py`` the printed help against click's own, byte for byte.
The texts are English as written in the commands (cleaned as click cleans them): they
are the msgids the catalogues translate.

>>> Lazy("gamenight.cli.decks:decks").load().name
'decks'
>>> sorted(COMMANDS) == sorted({*EAGER_COMMANDS, *LAZY_COMMANDS})
True
"""

from __future__ import annotations

from gamenight.core.i18n import N_

TYPE_CHECKING = False  # typing is the type checker's only (issue 46: --help imports none)
if TYPE_CHECKING:
    import click


class Lazy:
    """Where a command lives (``module:attribute``) and its help (English, as written;
    without it the group's ``--help`` imports the command to read it)."""

    __slots__ = ("help", "target")

    def __init__(self, target: str, help: str | None = None) -> None:
        self.target = target
        self.help = help

    def __repr__(self) -> str:
        return f"Lazy({self.target!r}, {self.help!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Lazy):
            return NotImplemented
        return (self.target, self.help) == (other.target, other.help)

    def __hash__(self) -> int:
        return hash((self.target, self.help))

    def load(self) -> click.Command:
        """The real command (imports its module)."""
        from importlib import import_module

        module, attribute = self.target.split(":")
        command: click.Command = getattr(import_module(module), attribute)
        return command


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

# The commands defined in gamenight.cli.app itself: their docstrings, as click cleans them.
EAGER_COMMANDS = {
    "host": "Create an online room for GAME on a server and print its invite link.",
    "join": "Join an online room: LINK is an invite link (http://HOST/r/CODE) or a room code\n"
    "(with --server). A seat taken before is taken back.",
    "list": "List the games: id, name, seats and bots (imports no bot and no solver).",
    "play": "Play GAME in the terminal, with humans and bots.",
    "replay": "Replay the record at PATH: check the seed against the commitment made\n"
    "before the game, then re-derive every die and card and verify every event\n"
    "and the result.",
    "resume": "Resume the unfinished game saved at PATH (or the newest with --last).",
    "rules": "Print the rules of GAME (an id from `gamenight list`), in the language of --lang\n"
    "or the POSIX locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG); English when missing.",
    "saves": "List the saved unfinished games, newest first.",
}

#: Every command's help, by name (the group's --help lists them sorted).
COMMANDS: dict[str, str] = {
    **EAGER_COMMANDS,
    **{name: row.help for name, row in LAZY_COMMANDS.items() if row.help is not None},
}

#: The group's own help (``app``'s docstring) and its options' help.
GROUP_HELP = "gamenight: play, study and solve tabletop dice and quiz games."
PLAIN_HELP = N_(
    "the line mode instead of the full-screen table (also GAMENIGHT_PLAIN=1; "
    "automatic for pipes and TERM=dumb)"
)
LANG_HELP = "the language to play in: en, de, pl (default: LANG/LC_MESSAGES)"
THEME_HELP = N_("the full screen's colours: dark or light (also GAMENIGHT_THEME; F4 switches)")
THEMES = ("dark", "light")
