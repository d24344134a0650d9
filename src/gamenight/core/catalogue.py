"""Catalogue options: an option whose value is the id of an entry of a catalogue the
game lists (The Decades' ``deck``: the decks of the local library).

A game declares one with a :class:`CatalogueInfo` in ``GameInfo.catalogues``; its
``entries`` names ("module:attribute") a function ``() -> Sequence[CatalogueEntry]``,
imported on first use. Front ends offer the entries (and the default) in a picker
and the server refuses any other value, so nothing outside the catalogue (a path, a
prefix, another machine's deck) is ever named by a room.

>>> info = CatalogueInfo("deck", "pkg.library:catalogue", noun="deck",
...                      defaults=("", "default"), default_label="the shipped deck")
>>> info.is_default(" Default "), info.is_default(None), info.is_default("ab12")
(True, True, False)
>>> CatalogueEntry("ab12", "party", "6 cards", 6).detail
'6 cards'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec


class CatalogueEntry(msgspec.Struct, frozen=True):
    """One entry: the id an option's value names, a display name (text, never markup),
    a short detail for a picker (like "48 cards"), if it has one its size, and if it
    is written in one its language (a code of ``core.languages``: a picker offers the
    player's language first)."""

    id: str
    name: str
    detail: str = ""
    count: int | None = None
    language: str | None = None


Catalogue = Callable[[], Sequence[CatalogueEntry]]  # what CatalogueInfo.entries names


class CatalogueInfo(msgspec.Struct, frozen=True):
    """Option ``option`` takes the id of one of ``entries()``, or one of ``defaults``
    (the game's own default, which ``default_label`` names for a picker, like "the
    shipped deck", and which is in ``default_language`` if it is in one). ``noun``
    names an entry in messages ("deck")."""

    option: str
    entries: str  # "module:attribute" of a Catalogue
    noun: str = "entry"
    defaults: tuple[str, ...] = ("",)
    default_label: str = "the default"
    default_language: str | None = None

    def is_default(self, value: object) -> bool:
        """Whether ``value`` means the default (None, or one of ``defaults`` in any case)."""
        if value is None:
            return True
        return isinstance(value, str) and value.strip().lower() in self.defaults
