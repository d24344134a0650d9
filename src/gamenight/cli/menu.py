"""The interactive menu (``gamenight`` / ``make play``): game, options, players."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table as RichTable

from gamenight.cli.players import parse_players
from gamenight.cli.session import Session
from gamenight.core import registry
from gamenight.core.errors import OptionsError
from gamenight.terminal.ui import Prompter, is_number


def main_menu(console: Console, prompter: Prompter) -> None:
    console.print("[bold]gamenight[/] — pick a game (Ctrl-C quits)\n")
    entries = registry.available()
    table = RichTable("#", "game", "players", "bots", box=None)
    for n, entry in enumerate(entries, start=1):
        info = entry.game.info
        table.add_row(
            str(n), entry.name, f"{info.min_players}-{info.max_players}", ", ".join(entry.bots)
        )
    console.print(table)
    entry = entries[_pick(prompter, "Game number: ", len(entries)) - 1]
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
    example = "Ann,bot:" + next(iter(b for b in entry.bots if b != "random"), "random")
    while True:
        text = prompter.ask(f"Players, e.g. '{example}' (bots: {', '.join(entry.bots)}): ")
        try:
            seats = parse_players(text, list(entry.bots))
            game.check_players(len(seats))
            break
        except OptionsError as exc:
            prompter.error(str(exc))
    seed_text = prompter.ask("Seed [random]: ")
    import secrets

    seed = int(seed_text) if is_number(seed_text) else secrets.randbelow(2**31)
    session = Session(entry, seats, options, seed, console, prompter)
    match = session.build()
    try:
        session.finish(match)
    except (KeyboardInterrupt, EOFError):
        if session.record_path is None:
            console.print("\nGame abandoned (no record was kept).")
        else:
            console.print(f"\nGame saved. Resume it with: gamenight resume {session.record_path}")


def _pick(prompter: Prompter, prompt: str, count: int) -> int:
    while True:
        text = prompter.ask(prompt)
        if is_number(text) and 1 <= int(text) <= count:
            return int(text)
        prompter.error(f"type a number from 1 to {count}")


def _show(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(map(str, value))
    return "default" if value is None else str(value)
