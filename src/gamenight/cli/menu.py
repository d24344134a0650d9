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
from datetime import datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table as RichTable
from rich.text import Text

from gamenight.cli.args import CheckFailure, UsageFailure
from gamenight.cli.players import SeatSpec, is_team_game, parse_players, seats_text
from gamenight.cli.resuming import play_on, resume_game
from gamenight.cli.session import Session, saves_folder
from gamenight.core import registry
from gamenight.core.errors import GamenightError, OptionsError
from gamenight.core.options import Options
from gamenight.core.seeds import draw_seed
from gamenight.terminal.ui import Prompter, is_number, plain, printing

MENU_HELP = "number: play that game · r: rules · s: resume a saved game · q: quit"
AFTER_HELP = "a: play again · m: back to the menu · q: quit"


@dataclass
class SetUp:
    """Everything typed to start a game, kept for "play again"."""

    entry: registry.GameEntry
    options: dict[str, Any]
    seats: list[SeatSpec]


def main_menu(console: Console, prompter: Prompter) -> None:
    """Run the menu until the user quits (``q``, Ctrl-C or end of input at the menu)."""
    prompter.say(plain("gamenight", "bold"), " — games for the table (Ctrl-C quits)")
    while True:
        entries = registry.available()
        prompter.board(Text("Choose a game"), printing(games_table(entries)))
        prompter.say(plain(MENU_HELP, "dim"))
        text = prompter.ask("> ").lower()
        if text in {"q", "quit", "exit"}:
            return
        if text in {"r", "rules"}:
            entry = entries[_pick(prompter, "Rules of which game (number)? ", len(entries)) - 1]
            rules = Markdown(entry.rules_text())
            prompter.board(plain(f"Rules of {entry.name}"), printing(rules))
            continue
        if text in {"s", "saves", "resume"}:
            resume_menu(console, prompter)
            continue
        if is_number(text) and 1 <= int(text) <= len(entries):
            setup = set_up(console, prompter, entries[int(text) - 1])
            while True:
                while not play_game(console, prompter, setup):
                    setup.seats = ask_players(console, prompter, setup.entry, setup.options)
                after = _after_game(prompter)
                if after == "q":
                    return
                if after == "m":
                    break
            continue
        prompter.error(f"type a game number from 1 to {len(entries)}, r, s or q")


def _after_game(prompter: Prompter) -> str:
    while True:
        prompter.say(plain(AFTER_HELP, "dim"))
        text = prompter.ask("> ").lower() or "m"
        if text in {"a", "m", "q"}:
            return text
        prompter.error("type a, m or q")


def games_table(entries: list[registry.GameEntry]) -> RichTable:
    table = RichTable("#", "game", "players", "bots", box=None)
    for n, entry in enumerate(entries, start=1):
        info = entry.game.info
        table.add_row(str(n), entry.name, seats_text(info), ", ".join(entry.bot_infos))
    return table


def set_up(console: Console, prompter: Prompter, entry: registry.GameEntry) -> SetUp:
    """Ask for the game's options and players (each re-asked until it is valid)."""
    game = entry.game
    raw: dict[str, Any] = {}
    for spec in game.info.options:
        hint = f" ({', '.join(spec.choices)})" if spec.choices else ""
        while True:
            text = prompter.ask(f"{spec.help}{hint} [{_show(spec.default)}]: ")
            if not text:
                break
            try:
                spec.parse(text)
            except OptionsError as exc:
                prompter.error(str(exc))
                continue
            raw[spec.name] = text
            break
    options = game.parse_options(raw)
    return SetUp(entry, options, ask_players(console, prompter, entry, options))


def ask_players(
    console: Console, prompter: Prompter, entry: registry.GameEntry, options: Options
) -> list[SeatSpec]:
    """Show the bots, then ask who plays until the answer is a valid line-up for the
    chosen ``options`` (parsed)."""
    game = entry.game
    table = RichTable(box=None, show_header=False)
    for name, info in entry.bot_infos.items():
        table.add_row(plain(f"bot:{name}", "bold"), plain(info.summary))
    console.print(table)
    example = "Ann,bot:" + next(iter(b for b in entry.bot_infos if b != "random"), "random")
    if is_team_game(game.info):
        example = "Red:Ann+Bob,Blue:bot:" + example.rsplit(":", 1)[1]
    while True:
        text = prompter.ask(f"Players, e.g. '{example}': ")
        try:
            seats = parse_players(text, list(entry.bots), teams=is_team_game(game.info))
            game.check_setup(len(seats), options)
            return seats
        except OptionsError as exc:
            prompter.error(str(exc))


def ask_seed(prompter: Prompter) -> tuple[int, bool]:
    """A seed typed as a whole number (public: the game is reproducible, not secret),
    or a secret random one for an empty answer."""
    while True:
        text = prompter.ask("Seed (a whole number; Enter for a random one) [random]: ")
        if not text:
            return draw_seed(), False
        if is_number(text):
            return int(text), True
        prompter.error(f"{text!r} is not a whole number; type one, or press Enter")


def play_game(console: Console, prompter: Prompter, setup: SetUp) -> bool:
    """Play one game from ``setup``; an interrupted game is saved (or said lost).
    False when the game could not start with these players (they are asked again)."""
    seed, public = ask_seed(prompter)
    session = Session(
        setup.entry, setup.seats, setup.options, seed, console, prompter, seed_public=public
    )
    try:
        match = build_with_solver(console, prompter, session)
    except GamenightError as exc:
        prompter.error(str(exc))
        return False
    if match is None:
        return False
    session.play(match)  # Ctrl-C: says where the game is saved, or asks before abandoning
    return True


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
    answer = prompter.ask("Build it now? It takes about 10 seconds [Y/n]: ").lower()
    if answer not in {"", "y", "yes"}:
        prompter.say("Choose other players, then.")
        return None
    started = time.perf_counter()
    build(console)
    prompter.say(f"Built in {time.perf_counter() - started:.0f} s.")
    return session.build()


def _bot_failure(session: Session) -> str | None:
    """Why one of the session's bots cannot start, or None if they all can."""
    for name in dict.fromkeys(seat.bot for seat in session.seats if seat.bot is not None):
        try:
            session.entry.make_bot(name, 0)
        except GamenightError as exc:
            return str(exc)
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
                task = bar.add_task(f"Solving {entry.name}", total=None)

                def progress(done: int, total: int) -> None:
                    bar.update(task, completed=done, total=total)

                defaults = {spec.name: spec.default for spec in solver.options}
                solver.solve(defaults, progress=progress)

        return run
    return None


def saved_games(folder: Path | None = None) -> list[Path]:
    """The saved games (``*.jsonl``), newest first."""
    folder = folder or saves_folder()
    try:
        found = [p for p in folder.glob("*.jsonl") if p.is_file()]
    except OSError:
        return []
    return sorted(found, key=lambda p: p.stat().st_mtime, reverse=True)


def resume_menu(console: Console, prompter: Prompter) -> None:
    """List the saved games and resume one (or go back with Enter)."""
    saves = saved_games()
    if not saves:
        prompter.say(f"No saved games in {saves_folder()}.")
        return
    table = RichTable("#", "saved game", "last played", box=None)
    for n, path in enumerate(saves, start=1):
        when = datetime.fromtimestamp(path.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
        table.add_row(str(n), plain(path.name), when)
    console.print(table)
    while True:
        text = prompter.ask("Resume which game (number; Enter: back)? ")
        if not text:
            return
        if is_number(text) and 1 <= int(text) <= len(saves):
            break
        prompter.error(f"type a number from 1 to {len(saves)}, or press Enter")
    resume_saved(console, prompter, saves[int(text) - 1])


def resume_saved(console: Console, prompter: Prompter, path: Path) -> None:
    """Resume ``path`` as ``gamenight resume`` does; any failure is one line, and the
    menu goes on (so does a game left again: it said where it is saved)."""
    try:
        session, match = resume_game(path, console, prompter)
        play_on(session, match)
    except (UsageFailure, CheckFailure, GamenightError) as exc:
        prompter.error(str(exc))


def _pick(prompter: Prompter, prompt: str, count: int) -> int:
    while True:
        text = prompter.ask(prompt)
        if is_number(text) and 1 <= int(text) <= count:
            return int(text)
        prompter.error(f"type a number from 1 to {count}")


def _show(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(map(str, value))
    return "default" if value in (None, "") else str(value)
