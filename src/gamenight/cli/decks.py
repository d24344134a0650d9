"""``gamenight decks``: the library of question decks for The Decades.

``gamenight decks import FILE`` validates a deck file (.json or .csv) and stores
it under its id, the sha256 of its content; ``gamenight decks list`` shows the
stored decks. A game then names its deck by id: ``--option deck=ID`` (or the
first 8+ characters of it). Bad files are refused in one line naming the field
and the line or row.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from gamenight.cli.args import PathType, reading_language
from gamenight.cli.lazy import lazy_console
from gamenight.core.i18n import _, ngettext

if TYPE_CHECKING:
    from pathlib import Path

console = lazy_console()


@click.group()
def decks() -> None:
    """The Decades: import question decks and list them."""


@decks.command("import")
@click.argument("file", type=PathType(dir_okay=False))
@click.option(
    "--language",
    default=None,
    help="the questions' language (en, de, pl; default: what a JSON file says, else en)",
)
def import_command(file: Path, language: str | None) -> None:
    """Validate a deck FILE (.json or .csv) and add it to the deck library."""
    from rich.text import Text

    from gamenight.games.decades import library

    # DeckError is a GamenightError: one line, exit 2
    info = library.import_deck(file, language=language)
    cards = ngettext("{n} card", "{n} cards", info.cards).format(n=info.cards)
    questions = ngettext("{n} question", "{n} questions", info.questions).format(n=info.questions)
    line = Text(
        _("Imported {name} ({cards}, {questions}, {language}) as deck {id}").format(
            name=info.name, cards=cards, questions=questions, language=info.language,
            id=info.short_id,
        )
    )  # fmt: skip
    line.highlight_words([info.short_id], style="bold cyan")
    console.print(line)
    console.print(
        Text(_("Play it with: gamenight play decades --option deck={id}").format(id=info.short_id)),
        style="dim",
    )


@decks.command("list")
@click.option("--lang", "lang", default=None, help="list the decks in this language first")
def list_command(lang: str | None) -> None:
    """List the decks in the library (ids, names, sizes and languages), those in your
    language (--lang, else the POSIX locale) first."""
    from rich.table import Table as RichTable
    from rich.text import Text

    from gamenight.games.decades import library

    found = library.list_decks(reading_language(lang))
    shipped = ", ".join(f"deck={ident}" for ident in library.SHIPPED_IDS.values())
    note = _(
        "The shipped deck is always available as deck=default (in English), {shipped}."
    ).format(shipped=shipped)
    if not found:
        console.print(
            Text(
                _(
                    "No decks imported yet (the library is {folder}). "
                    "Add one with: gamenight decks import FILE"
                ).format(folder=library.library_dir())
            )
        )
        console.print(Text(note), style="dim")
        return
    table = RichTable(
        "id", _("name"), _("cards"), _("questions"), _("language"), box=None
    )  # fmt: skip
    for info in found:
        table.add_row(
            info.short_id, Text(info.name), str(info.cards), str(info.questions), info.language
        )
    console.print(table)
    console.print(Text(note), style="dim")
