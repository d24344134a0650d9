"""The deck library: user decks imported once, then named by id (issue 9 §5).

A game never opens an outside file. ``gamenight decks import FILE`` validates a
deck file and stores it, in the canonical JSON of :func:`deck_to_json`, as
``<id>.json`` in ``platformdirs.user_data_dir("gamenight")/decks``. The id is the
sha256 of that content, so the same deck always gets the same id and a stored
deck cannot change under its name. The game option ``deck`` then names the deck
by its id (or an unambiguous prefix of 8 or more characters).

A record carries the deck's content and id (``DecadesGame.attachments``); on
another machine :func:`attach_deck` checks the content against the id and makes
the deck loadable by id for this process, without touching the library.

Every deck has a language (``Deck.language``). The shipped deck exists in each of
:data:`~gamenight.games.decades.deck.SHIPPED_LANGUAGES`, with the same cards, ids and
years: English is the default (option ``""``), the others are named ``shipped-de``,
``shipped-pl``. The language is part of the deck's identity, so a record that names
``shipped-pl`` replays the Polish questions; no translated text enters a record.
Front ends offer the decks in the player's language first (:func:`by_language`).
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from pathlib import Path
from typing import Final, TypeVar

import msgspec
import platformdirs

from gamenight.core.catalogue import CatalogueEntry
from gamenight.core.errors import Phrase
from gamenight.core.files import FileProblem, read_bytes
from gamenight.games.decades.deck import (
    SHIPPED_LANGUAGES,
    Deck,
    DeckError,
    deck_to_json,
    default_deck,
    load_deck,
    parse_deck_json,
)
from gamenight.games.decades.questions import DEFAULT_NAMES

SHIPPED_PREFIX: Final = "shipped-"
#: The option values naming the shipped deck in another language, by language.
SHIPPED_IDS: Final = {lang: SHIPPED_PREFIX + lang for lang in SHIPPED_LANGUAGES if lang != "en"}
MIN_PREFIX: Final = 8
_ID = re.compile(r"^[0-9a-f]{64}$")
_PREFIX = re.compile(r"^[0-9a-f]+$")

_attached: dict[str, Deck] = {}  # decks a record brought along (this process only)
_loaded: dict[str, Deck] = {}  # decks read from the library (content never changes)


class DeckInfo(msgspec.Struct, frozen=True):
    """One deck in the library."""

    id: str  # sha256 of the canonical JSON content (a shipped deck: "shipped-<lang>")
    name: str
    cards: int
    questions: int
    language: str = "en"

    @property
    def short_id(self) -> str:
        return self.id[:12]


def library_dir() -> Path:
    """Where imported decks live."""
    return Path(platformdirs.user_data_dir("gamenight")) / "decks"


def deck_for(option: str) -> Deck:
    """The deck an option names: "" or "default" is the shipped deck, anything else a
    deck id in the library (or attached by a record).

    Raises :class:`DeckError` saying what is wrong in one line.
    """
    text = option.strip().lower()
    if text in DEFAULT_NAMES:
        return default_deck()
    if text.startswith(SHIPPED_PREFIX):  # shipped-en is the default too
        return default_deck(shipped_language(text))
    return load_deck_by_id(option)


def shipped_language(option: str) -> str:
    """The language of the shipped deck that ``option`` (``shipped-<lang>``) names.

    >>> shipped_language("shipped-pl")
    'pl'
    """
    lang = option.strip().lower().removeprefix(SHIPPED_PREFIX)
    if lang not in SHIPPED_LANGUAGES:
        shown = ", ".join(SHIPPED_IDS.values())
        raise DeckError(
            "no shipped deck {option}: the shipped decks are {shipped} and default",
            option=repr(option),
            shipped=shown,
        )
    return lang


def deck_id(content: str) -> str:
    """The id of a deck's canonical JSON content.

    >>> deck_id("x")[:12]
    '2d711642b726'
    """
    return hashlib.sha256(content.encode("utf-8")).hexdigest()


def canonical(deck: Deck) -> tuple[str, str]:
    """The deck's canonical content and its id."""
    content = deck_to_json(deck)
    return content, deck_id(content)


def _info(ident: str, deck: Deck) -> DeckInfo:
    questions = sum(len(card.questions) for card in deck.cards)
    return DeckInfo(ident, deck.name, len(deck.cards), questions, deck.language)


def import_deck(path: str | Path, language: str | None = None) -> DeckInfo:
    """Validate the deck file at ``path`` (.json or .csv) and store it in the library.

    ``language``: the deck's language (default English; a JSON file may say it itself,
    and then the two must agree). Importing the same deck twice is harmless: it has
    the same id. Raises :class:`DeckError` for a bad file or an unwritable library.
    """
    deck = load_deck(path, language=language)
    content, ident = canonical(deck)
    folder = library_dir()
    target = folder / f"{ident}.json"
    if not target.exists():
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(
                "w", encoding="utf-8", dir=folder, suffix=".tmp", delete=False
            ) as handle:
                handle.write(content)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(handle.name, target)
        except OSError as err:
            raise DeckError(  # the reason is the system's own text (not translated)
                "cannot store the deck in {folder}: {reason}",
                folder=str(folder),
                reason=err.strerror or err,
            ) from None
    _loaded[ident] = deck
    return _info(ident, deck)


def _stored_ids() -> list[str]:
    try:
        names = os.listdir(library_dir())
    except OSError:
        return []
    return sorted(n[:-5] for n in names if n.endswith(".json") and _ID.match(n[:-5]))


def list_decks(language: str | None = None) -> list[DeckInfo]:
    """The decks in the library, by name; with ``language``, the decks in that
    language first (:func:`by_language`). Damaged files (content that no longer
    matches its id, or no longer loads) are left out."""
    found = []
    for ident in _stored_ids():
        try:
            found.append(_info(ident, load_deck_by_id(ident)))
        except DeckError:
            continue
    named = sorted(found, key=lambda info: (info.name.casefold(), info.id))
    return named if language is None else by_language(named, language)


T = TypeVar("T", DeckInfo, CatalogueEntry)


def shipped_decks() -> list[DeckInfo]:
    """The shipped deck in each language but English (the option's default), as
    library entries named by their option value (``shipped-de``...)."""
    return [_info(ident, default_deck(lang)) for lang, ident in SHIPPED_IDS.items()]


def by_language(decks: list[T], language: str) -> list[T]:
    """``decks`` with those in ``language`` first, each group in its former order.

    >>> names = [DeckInfo("a", "A", 4, 24, "de"), DeckInfo("b", "B", 4, 24, "pl")]
    >>> [d.name for d in by_language(names, "pl")]
    ['B', 'A']
    """
    return sorted(decks, key=lambda deck: deck.language != language)


def catalogue() -> list[CatalogueEntry]:
    """The catalogue of option ``deck`` (``GameInfo.catalogues``): the shipped deck in
    the other languages, then the library, each deck by its id, name, card count and
    language. Front ends put the player's language first (:func:`by_language`)."""
    return [
        CatalogueEntry(
            d.id, d.name, f"{d.cards} card{'s' if d.cards != 1 else ''}", d.cards, d.language
        )
        for d in (*shipped_decks(), *list_decks())
    ]


def resolve_id(text: str) -> str:
    """The full id that ``text`` names: an id or an unambiguous prefix (>= 8 characters)."""
    wanted = text.strip().lower()
    if _ID.match(wanted):
        return wanted
    if len(wanted) < MIN_PREFIX or not _PREFIX.match(wanted):
        raise DeckError(
            "{text} is not a deck id (see `gamenight decks list`; to play a deck file, "
            "import it first with `gamenight decks import FILE`)",
            text=repr(text),
        )
    matches = sorted({i for i in (*_attached, *_stored_ids()) if i.startswith(wanted)})
    if not matches:
        raise DeckError(
            "no deck {deck} in the library (see `gamenight decks list`)", deck=repr(text)
        )
    if len(matches) > 1:
        raise DeckError("deck id {text} is ambiguous: give more of it", text=repr(text))
    return matches[0]


def load_deck_by_id(text: str) -> Deck:
    """The deck an id (or prefix) names: attached by a record, or in the library."""
    ident = resolve_id(text)
    if ident in _attached:
        return _attached[ident]
    if ident in _loaded:
        return _loaded[ident]
    path = library_dir() / f"{ident}.json"
    if not path.exists() and not path.is_symlink():
        raise DeckError(
            "no deck {deck} in the library (see `gamenight decks list`)", deck=ident[:12]
        )
    try:  # a regular file only: a FIFO named like a deck is never waited on
        content = read_bytes(path).decode("utf-8")
    except (FileProblem, UnicodeDecodeError) as err:
        raise DeckError(
            "{path}: cannot read the stored deck ({reason})", path=str(path), reason=err
        ) from None
    if deck_id(content) != ident:
        raise DeckError(
            "{path}: the stored deck was changed (its content no longer has this id)",
            path=str(path),
        )
    deck = parse_deck_json(content, str(path), "imported")
    _loaded[ident] = deck
    return deck


def deck_content(text: str) -> tuple[str, str]:
    """(id, canonical content) of the deck an id names, for a record to carry."""
    deck = load_deck_by_id(text)
    content, ident = canonical(deck)
    return ident, content


def attach_deck(ident: str, content: str) -> Deck:
    """Make a record's deck loadable by ``ident`` in this process (not stored).

    Raises :class:`DeckError` if ``content`` is not the deck that ``ident`` names.
    """
    if not isinstance(ident, str) or not _ID.match(ident):
        raise DeckError("the record names no valid deck id ({id})", id=repr(ident))
    if not isinstance(content, str) or deck_id(content) != ident:
        raise DeckError("the deck in the record does not match its id {id}", id=ident[:12])
    deck = parse_deck_json(content, Phrase("deck {id} in the record", id=ident[:12]), "attached")
    _attached[ident] = deck
    return deck


def forget() -> None:
    """Drop attached and cached decks (tests; a new "machine")."""
    _attached.clear()
    _loaded.clear()
