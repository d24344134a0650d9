"""``gamenight decks``: the library of question decks for The Decades.

``gamenight decks import FILE`` validates a deck file (.json or .csv) and stores
it under its id, the sha256 of its content; ``gamenight decks list`` shows the
stored decks. A game then names its deck by id: ``--option deck=ID`` (or the
first 8+ characters of it). Bad files are refused in one line naming the field
and the line or row.
"""

from __future__ import annotations

from pathlib import Path

import click

from gamenight.cli.lazy import lazy_console

console = lazy_console()


@click.group()
def decks() -> None:
    """The Decades: import question decks and list them."""


@decks.command("import")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def import_command(file: Path) -> None:
    """Validate a deck FILE (.json or .csv) and add it to the deck library."""
    from rich.text import Text

    from gamenight.games.decades import library

    info = library.import_deck(file)  # DeckError is a GamenightError: one line, exit 2
    line = Text("Imported ")
    line.append(info.name, style="bold")
    line.append(f" ({info.cards} cards, {info.questions} questions) as deck ")
    line.append(info.short_id, style="bold cyan")
    console.print(line)
    console.print(
        Text(f"Play it with: gamenight play decades --option deck={info.short_id}"), style="dim"
    )


@decks.command("list")
def list_command() -> None:
    """List the decks in the library (ids, names and sizes)."""
    from rich.table import Table as RichTable
    from rich.text import Text

    from gamenight.games.decades import library

    found = library.list_decks()
    if not found:
        console.print(
            Text(
                f"No decks imported yet (the library is {library.library_dir()}). "
                "Add one with: gamenight decks import FILE"
            )
        )
        return
    table = RichTable("id", "name", "cards", "questions", box=None)
    for info in found:
        table.add_row(info.short_id, Text(info.name), str(info.cards), str(info.questions))
    console.print(table)
    console.print(Text("The shipped deck is always available as deck=default."), style="dim")
