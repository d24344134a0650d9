"""The Decades' question cards as a game reads them: the six categories and the card types.

Split from :mod:`gamenight.games.decades.deck` (which re-exports all of it) so that the
rules, the view and the game's listing never import the deck files' parser and
library: `gamenight list` reads no deck (issue 29).
"""

from __future__ import annotations

from typing import Annotated, Final

import msgspec

from gamenight.core.errors import GamenightError, Sentence

# T2: the six categories, in the order a card asks them.
CATEGORIES: Final[tuple[str, ...]] = (
    "births-deaths",
    "screen",
    "music",
    "technology",
    "sport",
    "news",
)
CATEGORY_NAMES: Final[dict[str, str]] = {
    "births-deaths": "Births and Deaths",
    "screen": "Cinema, TV and Video Games",
    "music": "Music",
    "technology": "Objects and Technology",
    "sport": "Sport and Hobbies",
    "news": "News and Society",
}

FIRST_YEAR: Final = 1980  # T1: the board runs 1980-2019
LAST_YEAR: Final = 2019
DEFAULT_NAMES: Final = ("", "default")  # the deck option values meaning the shipped deck


class DeckError(Sentence, GamenightError, ValueError):
    """A deck that cannot be used. Its message is a
    :class:`~gamenight.core.errors.Sentence` (issue 41), its place and reason
    :class:`~gamenight.core.errors.Phrase` fields said in the same language.

    The message names the file, the row (CSV) or line and card (JSON), and the
    field, e.g. ``deck.csv row 14, field 'year': '19x7' is not a year``.
    """


# The types every deck passes through (msgspec validates them).
NonEmpty = Annotated[str, msgspec.Meta(pattern=r"\S")]  # not empty, not only spaces
BoardYear = Annotated[int, msgspec.Meta(ge=FIRST_YEAR, le=LAST_YEAR)]  # T1


class Question(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One question; the answer is the year."""

    category: NonEmpty
    text: NonEmpty
    year: BoardYear
    source: NonEmpty


class QuestionCard(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Six questions, one per category, in :data:`CATEGORIES` order (T2)."""

    id: NonEmpty
    questions: tuple[Question, ...]
