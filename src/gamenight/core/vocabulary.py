"""Each game's shared vocabulary in a language: the terms both front ends show (the
game's, events', boxes', cards' and options' names), one source of truth.

A game declares its terms in ``GameInfo.vocabulary`` (``games/<id>/vocabulary.py``), keyed
by the browser's message keys; the gettext catalogues translate each with its key as the
context. The browser gets them from ``GET /api/vocabulary/{lang}/{game}``. Apart from
:mod:`gamenight.core.i18n` so that the registry, which marks its own strings for
translation, and the catalogues import each other one way only.
"""

from __future__ import annotations

from gamenight.core import registry
from gamenight.core.i18n import checked, translations


def vocabulary(game_id: str, lang: str) -> dict[str, str]:
    """Every term game ``game_id`` declares (its ``GameInfo.vocabulary``), in ``lang``.

    The keys are stable (the browser's message keys, e.g. ``dec.event.100m``); each value
    is the term's translation, English where a catalogue lacks one. Raises
    UnknownGameError for an unknown game and LanguageError for an unknown language.

    >>> vocabulary("decathlon", "pl")["dec.event.shot-put"]
    'Pchnięcie kulą'
    """
    lang = checked(lang)
    entry = registry.get(game_id)
    path = entry.game.info.vocabulary
    terms = registry.load_mapping(path) if path is not None else {}
    catalogue = translations(lang)
    return {key: catalogue.pgettext(key, english) for key, english in terms.items()}
