"""The interactive menu (``gamenight`` / ``make play``).

A loop: pick a game (its options, players and seed), read rules, resume a saved
game, or quit. After a game: play again with the same set-up, back to the menu,
or quit. Nothing typed is lost to a mistake: a bad option, player list or seed
is asked for again, and a bot that needs a solver's table offers to build it.
Everything the user typed is printed as text, never as markup.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table as RichTable
from rich.text import Text

from gamenight.cli.args import CheckFailure, UsageFailure, reading_language
from gamenight.cli.players import SeatSpec, is_team_game, parse_players, seats_text
from gamenight.cli.resuming import play_on, resume_game
from gamenight.cli.saves import SavedGame, list_saves, saves_table
from gamenight.cli.session import SaveDeclinedError, Session, saves_folder
from gamenight.core import registry
from gamenight.core.catalogue import Catalogue
from gamenight.core.errors import GamenightError, OptionsError
from gamenight.core.game import GameInfo
from gamenight.core.i18n import N_, _, game_name, said
from gamenight.core.options import Options
from gamenight.core.seeds import MAX_SEED_DIGITS, draw_seed
from gamenight.core.text import clip
from gamenight.terminal.ui import HELP_WORDS, Choice, Prompter, is_number, plain, printing

MENU_HELP = N_("number: play that game · r: rules · s: resume a saved game · q: quit")
AFTER_HELP = N_("a: play again · m: back to the menu · q: quit")
# the prompts name their keys (a bare "> " left them to the log)
MENU_PROMPT = N_("game number, r, s or q > ")
AFTER_PROMPT = N_("a again, m menu, q quit > ")


@dataclass
class SetUp:
    """Everything typed to start a game, kept for "play again"."""

    entry: registry.GameEntry
    options: dict[str, Any]
    seats: list[SeatSpec]


def main_menu(console: Console, prompter: Prompter) -> None:
    """Run the menu until the user quits (``q``, Ctrl-C or end of input at the menu)."""
    prompter.say(plain("gamenight", "bold"), " — " + _("games for the table (Ctrl-C quits)"))
    redraw = True
    while True:
        entries = registry.available()
        if redraw:
            prompter.board(Text(_("Choose a game")), printing(games_table(entries)))
            prompter.say(plain(_(MENU_HELP), "dim"))
        redraw = True
        text = prompter.ask(_(MENU_PROMPT), choices=menu_choices(entries), quick=True).lower()
        if text in {"q", "quit", "exit"}:
            return
        if text in {"r", "rules"}:
            entry = entries[_pick(prompter, _("Rules of which game (number)? "), len(entries)) - 1]
            rules = Markdown(entry.rules_text(reading_language(None)))
            name = game_name(entry.id, entry.name)
            prompter.board(plain(_("Rules of {game}").format(game=name)), printing(rules))
            # read them before the menu comes back (the full screen redraws the board)
            _ask_back(prompter, _("Enter: back to the menu "))
            continue
        if text in HELP_WORDS:
            with prompter.aside():
                prompter.say(plain(_(MENU_HELP)))
            redraw = False  # a redrawn board would close the help again
            continue
        if text in {"s", "saves", "resume"}:
            resume_menu(console, prompter)
            continue
        if is_number(text) and 1 <= int(text) <= len(entries):
            if play_from_set_up(console, prompter, entries[int(text) - 1]) == "q":
                return
            continue
        prompter.error(_("type a game number from 1 to {n}, r, s or q").format(n=len(entries)))


def play_from_set_up(console: Console, prompter: Prompter, entry: registry.GameEntry) -> str:
    """Set up ``entry`` and play it, again and again, until the player goes back to the
    menu ("m") or quits ("q"). Ctrl-C or Ctrl-D at a set-up question goes back one step
    (seed -> players -> options -> the menu)."""
    setup = set_up(console, prompter, entry)
    while setup is not None:
        outcome = play_game(console, prompter, setup)
        if outcome == "menu":
            return "m"
        if outcome in ("players", "back"):  # bad line-up, or a step back from the seed
            seats = ask_players(console, prompter, setup.entry, setup.options)
            if seats is None:
                setup = set_up(console, prompter, entry)
            else:
                setup.seats = seats
            continue
        after = _after_game(prompter)
        if after != "a":
            return after
    return "m"


def _after_game(prompter: Prompter) -> str:
    while True:
        prompter.say(plain(_(AFTER_HELP), "dim"))
        choices = [("a", _("play again")), ("m", _("back to the menu")), ("q", _("quit"))]
        text = prompter.ask(_(AFTER_PROMPT), choices=choices, quick=True).lower() or "m"
        if text in {"a", "m", "q"}:
            return text
        prompter.error(_("type a, m or q"))


def menu_choices(entries: list[registry.GameEntry]) -> list[Choice]:
    """The menu's answers, for the full screen's list: each game, then its keys."""
    games: list[Choice] = [
        (str(n), plain(game_name(entry.id, entry.name))) for n, entry in enumerate(entries, 1)
    ]
    return [
        *games,
        ("r", _("rules of a game")),
        ("s", _("saved games: resume one")),
        ("q", _("quit")),
    ]


def games_table(entries: list[registry.GameEntry]) -> RichTable:
    """The games, each with its seats and, on a line of its own, its bots (a column
    of bots would wrap one name per line on a narrow screen)."""
    table = RichTable("#", _("game"), _("players"), box=None)
    table.columns[0].no_wrap = table.columns[2].no_wrap = True
    for n, entry in enumerate(entries, start=1):
        info = entry.game.info
        table.add_row(str(n), plain(game_name(entry.id, entry.name), "bold"), seats_text(info))
        bots = plain(_("bots:") + " " + ", ".join(entry.bot_infos), "dim")
        table.add_row("", bots, "")
    return table


def _ask_back(prompter: Prompter, prompt: str) -> None:
    """Wait for Enter (Ctrl-C or Ctrl-D too: each only means "back")."""
    try:
        prompter.ask(prompt)
    except (KeyboardInterrupt, EOFError):
        prompter.console.print()


class StepBack(Exception):
    """Ctrl-C or Ctrl-D at a set-up question: go back one question."""


def _ask_step(prompter: Prompter, prompt: str, choices: list[Choice] | None = None) -> str:
    """A set-up answer; Ctrl-C / Ctrl-D raise :class:`StepBack` (a line is ended, so
    what is printed next starts on its own line)."""
    try:
        return prompter.ask(prompt, choices=choices or ())
    except (KeyboardInterrupt, EOFError):
        prompter.console.print()
        raise StepBack from None


def set_up(console: Console, prompter: Prompter, entry: registry.GameEntry) -> SetUp | None:
    """Ask for the game's options and players (each re-asked until it is valid). Ctrl-C
    goes back one question; None: back from the first one, to the menu."""
    game = entry.game
    raw: dict[str, Any] = {}
    specs = list(game.info.options)
    offered = _catalogue_offers(game.info, reading_language(None))
    index = 0
    while True:
        while index < len(specs):
            spec = specs[index]
            hint = f" ({', '.join(spec.choices)})" if spec.choices else ""
            first, listed = offered.get(spec.name, (None, ""))
            default = _show(spec.default) if first is None else first
            try:
                text = _ask_step(prompter, f"{_(spec.help)}{hint}{listed} [{default}]: ")
            except StepBack:
                if index == 0:
                    return None
                index -= 1
                continue
            if text:
                try:
                    spec.parse(text)
                except OptionsError as exc:
                    prompter.error(said(exc))
                    continue
                raw[spec.name] = text
            elif first is not None:
                raw[spec.name] = first
            else:
                raw.pop(spec.name, None)
            index += 1
        options = game.parse_options(raw)
        seats = ask_players(console, prompter, entry, options)
        if seats is not None:
            return SetUp(entry, options, seats)
        if not specs:
            return None
        index = len(specs) - 1


def ask_players(
    console: Console, prompter: Prompter, entry: registry.GameEntry, options: Options
) -> list[SeatSpec] | None:
    """Show the bots, then ask who plays until the answer is a valid line-up for the
    chosen ``options`` (parsed); None for a step back (Ctrl-C, Ctrl-D)."""
    game = entry.game
    table = RichTable(box=None, show_header=False)
    for name, info in entry.bot_infos.items():
        table.add_row(plain(f"bot:{name}", "bold"), plain(_(info.summary)))
    prompter.listing(table)
    example = "Ann,bot:" + next(iter(b for b in entry.bot_infos if b != "random"), "random")
    if is_team_game(game.info):
        example = "Red:Ann+Bob,Blue:bot:" + example.rsplit(":", 1)[1]
    choices = bot_choices(entry, is_team_game(game.info))
    while True:
        try:
            text = _ask_step(
                prompter, _("Players, e.g. '{example}': ").format(example=example), choices
            )
        except StepBack:
            return None
        try:
            seats = parse_players(text, list(entry.bots), teams=is_team_game(game.info))
            game.check_setup(len(seats), options)
            return seats
        except OptionsError as exc:
            prompter.error(said(exc))


def bot_choices(entry: registry.GameEntry, teams: bool) -> list[Choice]:
    """A line-up against each bot, as it is typed (the key is the answer), for the
    full screen's list: the player's own name can be typed instead."""
    you = _("You")
    return [
        (
            f"Red:{you},Blue:bot:{name}" if teams else f"{you},bot:{name}",
            plain(_(info.summary), "dim"),
        )
        for name, info in entry.bot_infos.items()
    ]


def ask_seed(prompter: Prompter) -> tuple[int, bool]:
    """A seed typed as a whole number (public: the game is reproducible, not secret),
    or a secret random one for an empty answer; Ctrl-C raises :class:`StepBack`."""
    while True:
        text = _ask_step(prompter, _("Seed (a whole number; Enter for a random one) [random]: "))
        if not text:
            return draw_seed(), False
        if text.isascii() and text.isdigit() and len(text) <= MAX_SEED_DIGITS:
            return int(text), True
        if text.isascii() and text.isdigit():
            prompter.error(
                _("a seed has at most {n} digits; type a shorter one").format(n=MAX_SEED_DIGITS)
            )
            continue
        prompter.error(
            _("{typed} is not a whole number; type one, or press Enter").format(typed=clip(text))
        )


def play_game(console: Console, prompter: Prompter, setup: SetUp) -> str:
    """Play one game from ``setup``; an interrupted game is saved (or said lost).
    "played"; "players" when the game could not start with these players (they are
    asked again); "back" for a step back from the seed; "menu" when the game was left
    (Ctrl-C), or when no save can be kept and the player would not play without one."""
    try:
        seed, public = ask_seed(prompter)
    except StepBack:
        return "back"
    session = Session(
        setup.entry, setup.seats, setup.options, seed, console, prompter, seed_public=public
    )
    try:
        match = build_with_solver(console, prompter, session)
    except SaveDeclinedError as exc:
        prompter.error(said(exc))
        prompter.say(_("Back to the menu."))
        return "menu"
    except GamenightError as exc:
        prompter.error(said(exc))  # a rule's refusal in the player's language
        return "players"
    if match is None:
        return "players"
    if session.play(match) is None:  # left (Ctrl-C): it said where the game is saved
        return "menu"  # straight back to the menu, which replaces the game's board
    return "played"


def build_with_solver(console: Console, prompter: Prompter, session: Session) -> Any:
    """``session.build()``; when a bot cannot start because its game's solver has not
    been run here (e.g. Wurfeltod's ``optimal`` needs a value table), offer to build
    it now and go on. None if the user declines."""
    try:
        return session.build()
    except GamenightError:
        build = solver_builder(session.entry)
        reason = _bot_failure(session)
        if build is None or reason is None:
            raise
        prompter.error(reason)
    estimate = _build_estimate(session.entry)
    answer = prompter.ask(_("Build it now? It takes {time} [Y/n]: ").format(time=estimate)).lower()
    if answer not in {"", "y", "yes", _("y"), _("yes")}:
        prompter.say(_("Choose other players, then."))
        return None
    started = time.perf_counter()
    build(console)
    prompter.say(_("Built in {n} s.").format(n=f"{time.perf_counter() - started:.0f}"))
    return session.build()


def _build_estimate(entry: registry.GameEntry) -> str:
    """The solver's own estimate of a first build (the one its messages use)."""
    try:
        typical = getattr(entry.solver, "typical_build", None)
    except (ImportError, AttributeError):
        typical = None
    return typical() if callable(typical) else _("a while")


def _bot_failure(session: Session) -> str | None:
    """Why one of the session's bots cannot start, or None if they all can."""
    for name in dict.fromkeys(seat.bot for seat in session.seats if seat.bot is not None):
        try:
            session.entry.make_bot(name, 0)
        except GamenightError as exc:
            return said(exc)
    return None


def solver_builder(entry: registry.GameEntry) -> Callable[[Console], None] | None:
    """How to build ``entry``'s solver with a progress bar, or None if it has none."""
    try:
        solver = entry.solver
    except (ImportError, AttributeError):
        solver = None
    if solver is not None:

        def run(console: Console) -> None:
            from rich.progress import Progress

            with Progress(console=console, transient=True) as bar:
                task = bar.add_task(
                    _("Solving {game}").format(game=game_name(entry.id, entry.name)), total=None
                )

                def progress(done: int, total: int) -> None:
                    bar.update(task, completed=done, total=total)

                defaults = {spec.name: spec.default for spec in solver.options}
                solution = solver.solve(defaults, progress=progress)
            note = getattr(solution, "note", None)
            if note:  # e.g. a read-only cache: the table lives in memory for this run
                console.print(plain(note))

        return run
    return None


def resume_menu(console: Console, prompter: Prompter) -> None:
    """List the unfinished saved games as ``gamenight saves`` does (game, when, players,
    actions) and resume one, or go back with Enter."""
    saves = [s for s in list_saves() if s.moved_to is None]
    if not saves:
        prompter.say(_("No saved unfinished games in {folder}.").format(folder=saves_folder()))
        return
    # on the board, as wide as it: the log's narrow column broke every path
    prompter.board(Text(_("Saved games")), printing(saves_table(saves, numbered=True)))
    while True:
        text = prompter.ask(
            _("Resume which game (number; Enter: back)? "), choices=save_choices(saves)
        )
        if not text:
            return
        if is_number(text) and 1 <= int(text) <= len(saves):
            break
        prompter.error(_("type a number from 1 to {n}, or press Enter").format(n=len(saves)))
    resume_saved(console, prompter, saves[int(text) - 1].path)


def save_choices(saves: list[SavedGame]) -> list[Choice]:
    """The saved games as choices: the game, when, and who plays."""
    return [
        (
            str(n),
            plain(f"{save.game} {save.when:%Y-%m-%d %H:%M} {', '.join(save.players)}"),
        )
        for n, save in enumerate(saves, 1)
    ]


def resume_saved(console: Console, prompter: Prompter, path: Path) -> None:
    """Resume ``path`` as ``gamenight resume`` does; any failure is one line, and the
    menu goes on (so does a game left again: it said where it is saved)."""
    try:
        session, match = resume_game(path, console, prompter)
        play_on(session, match)
    except (UsageFailure, CheckFailure, GamenightError) as exc:
        prompter.error(said(exc))


def _pick(prompter: Prompter, prompt: str, count: int) -> int:
    while True:
        text = prompter.ask(prompt)
        if is_number(text) and 1 <= int(text) <= count:
            return int(text)
        prompter.error(_("type a number from 1 to {n}").format(n=count))


def _catalogue_offers(info: GameInfo, lang: str) -> dict[str, tuple[str | None, str]]:
    """Per catalogue option (The Decades' ``deck``): the entry offered as the answer
    to an empty line (the first in the player's language, if any and not English,
    whose entry is the game's own default) and a hint listing a few entries, the
    player's language first. A catalogue that cannot be read offers nothing."""
    offers: dict[str, tuple[str | None, str]] = {}
    for catalogue in info.catalogues:
        try:
            entries = list(cast(Catalogue, registry.load_callable(catalogue.entries))())
        except GamenightError:
            continue
        ordered = sorted(entries, key=lambda e: e.language != lang)
        first = ordered[0].id if ordered and ordered[0].language == lang != "en" else None
        shown = ", ".join(f"{e.id[:12]}: {clip(e.name, 30)} ({e.language})" for e in ordered[:4])
        more = ", ..." if len(ordered) > 4 else ""
        offers[catalogue.option] = (first, f" [{shown}{more}]" if shown else "")
    return offers


def language_defaults(info: GameInfo, lang: str) -> dict[str, str]:
    """The catalogue entries the menu offers by default in ``lang`` (The Decades' German
    deck under ``--lang de``), for ``gamenight play`` when its option is not given."""
    return {
        option: first
        for option, (first, _listed) in _catalogue_offers(info, lang).items()
        if first is not None
    }


def _show(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(map(str, value))
    return _("default") if value in (None, "") else str(value)
