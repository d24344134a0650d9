"""A room's catalogue options, whatever the game (``GameInfo.catalogues``).

A catalogue option's value is the full id of an entry of the game's catalogue on this
server, or one of the values meaning the default; anything else (a path, a prefix, an
id in another case, a number, content a record brought along) is refused with code
``bad_option_value``. ``GET /api/games`` describes each catalogue option and
``GET /api/games/{game}/catalogues/{option}`` lists its entries.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from gamenight.core import registry
from gamenight.core.catalogue import Catalogue, CatalogueEntry, CatalogueInfo

BAD_VALUE = "bad_option_value"  # the error code of a value that names no entry


def catalogue_of(entry: registry.GameEntry, option: str) -> CatalogueInfo | None:
    """The catalogue option ``option`` of ``entry``'s game chooses from, if any."""
    for info in entry.game.info.catalogues:
        if info.option == option:
            return info
    return None


def catalogue_url(game: str, option: str) -> str:
    return f"/api/games/{game}/catalogues/{option}"


def entries(info: CatalogueInfo) -> Sequence[CatalogueEntry]:
    """The catalogue's entries now (the function is imported on first use)."""
    listing = cast(Catalogue, registry.load_callable(info.entries))  # contract-tested
    return listing()


def catalogue_problem(entry: registry.GameEntry, option: str, value: object) -> str | None:
    """Why ``value`` may not be option ``option`` of a room (one line), or None if it
    may: not a catalogue option, a default value, or the id of an entry."""
    info = catalogue_of(entry, option)
    if info is None or info.is_default(value):
        return None
    if isinstance(value, str) and any(e.id == value for e in entries(info)):
        return None
    return (
        f"option '{option}' names no {info.noun} of this server's catalogue "
        f"(see GET {catalogue_url(entry.id, option)}; empty for {info.default_label})"
    )
