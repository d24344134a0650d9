"""The question deck of The Decades: data types, loading and validation (rulings T1, T2).

A deck is a pile of question cards. Each card holds six questions, one per category,
and every answer is a year on the board (T1: 1980-2019). The project ships its own deck
(``data/questions.json``); users may load their own from JSON or CSV (T2). A deck that
cannot be used is refused with a :class:`DeckError` whose message names the file, the
row or card, and the field. This module is pure: it never prints and knows no UI.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Final, NoReturn, TypedDict

import msgspec

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

FORMAT: Final = "gamenight-decades-deck"
FORMAT_VERSION: Final = 1
FIRST_YEAR: Final = 1980  # T1: the board runs 1980-2019
LAST_YEAR: Final = 2019
CARDS_PER_GAME: Final = 4  # T2: a game deals 4 cards without replacement
SHIPPED_MIN_CARDS: Final = 43  # T2: the shipped deck holds at least 43 x 6 = 258 questions
CSV_COLUMNS: Final[tuple[str, ...]] = ("card", "category", "year", "question", "source")

_QUESTION_KEYS: Final = frozenset({"category", "text", "year", "source"})
_CARD_KEYS: Final = frozenset({"id", "questions"})
_DECK_KEYS: Final = frozenset({"format", "version", "name", "cards"})


class DeckError(ValueError):
    """A deck that cannot be used.

    The message names the file, the row (CSV) or card (JSON), and the field, e.g.
    ``deck.csv row 14, field 'year': '19x7' is not a year``.
    """


class Question(msgspec.Struct, frozen=True):
    """One question; the answer is the year."""

    category: str
    text: str
    year: int
    source: str


class QuestionCard(msgspec.Struct, frozen=True):
    """Six questions, one per category, in :data:`CATEGORIES` order (T2)."""

    id: str
    questions: tuple[Question, ...]


class Deck(msgspec.Struct, frozen=True):
    """A named pile of question cards.

    ``apart`` lists pairs of questions (``"c01.1"``: card ``c01``, question 1)
    that answer each other: their cards are never dealt in one game.
    """

    name: str
    cards: tuple[QuestionCard, ...]
    apart: tuple[tuple[str, str], ...] = ()


class DeckReport(TypedDict):
    """Counts of a deck's answers, per decade ('1980s') and per category x decade."""

    cards: int
    questions: int
    per_decade: dict[str, int]
    per_category: dict[str, dict[str, int]]


# --------------------------------------------------------------------------- places


@dataclass(frozen=True)
class _Places:
    """Where each card and question came from, so a message can point the user at it."""

    file: str
    cards: list[str]
    questions: list[list[str]]  # per card, per question in the card's stored order
    # How the file spells our logical fields (CSV says 'question' where JSON says 'text').
    fields: dict[str, str] = field(default_factory=dict)

    def fail(self, where: str, fld: str | None, problem: str) -> NoReturn:
        head = self.file if not where else f"{self.file} {where}"
        if fld is not None:
            head += f", field {self.fields.get(fld, fld)!r}"
        raise DeckError(f"{head}: {problem}")


def _bare_places(deck: Deck) -> _Places:
    cards: list[str] = []
    questions: list[list[str]] = []
    all_cards = getattr(deck, "cards", ())
    for i, card in enumerate(all_cards if isinstance(all_cards, tuple | list) else ()):
        ident = getattr(card, "id", None)
        where = f"card {i + 1} (id {ident!r})" if isinstance(ident, str) else f"card {i + 1}"
        cards.append(where)
        qs = getattr(card, "questions", ())
        count = len(qs) if isinstance(qs, tuple | list) else 0
        questions.append([f"{where}, question {j + 1}" for j in range(count)])
    name = getattr(deck, "name", None)
    return _Places(f"deck {name!r}" if isinstance(name, str) else "deck", cards, questions)


# --------------------------------------------------------------------------- validation


def _decade_label(year: int) -> str:
    return f"{year // 10 * 10}s"


def _normal_text(text: str) -> str:
    # Duplicates are spotted regardless of case and spacing.
    return " ".join(text.casefold().split())


def _check(
    deck: Deck,
    places: _Places,
    *,
    first_year: int,
    last_year: int,
    require_balance: bool,
    require_order: bool,
) -> None:
    """Raise DeckError on the first problem found; ``places`` words the message."""
    if first_year > last_year:
        raise ValueError(f"first_year {first_year} is after last_year {last_year}")
    if not isinstance(deck, Deck):
        places.fail("", None, f"expected a Deck, got {type(deck).__name__}")
    if not isinstance(deck.name, str) or not deck.name.strip():
        places.fail("", "name", "the deck needs a non-empty name")
    if not isinstance(deck.cards, tuple):
        places.fail("", "cards", "expected a tuple of cards")

    seen_ids: dict[str, str] = {}
    seen_texts: dict[str, str] = {}
    for i, card in enumerate(deck.cards):
        card_at = places.cards[i]
        if not isinstance(card, QuestionCard):
            places.fail(card_at, None, f"expected a QuestionCard, got {type(card).__name__}")
        if not isinstance(card.id, str) or not card.id.strip():
            places.fail(card_at, "id", "the card needs a non-empty id")
        if card.id in seen_ids:
            places.fail(
                card_at, "id", f"duplicate card id {card.id!r} (first at {seen_ids[card.id]})"
            )
        seen_ids[card.id] = card_at
        if not isinstance(card.questions, tuple):
            places.fail(card_at, "questions", "expected a tuple of questions")

        card_categories: dict[str, str] = {}
        for j, question in enumerate(card.questions):
            at = places.questions[i][j]
            _check_question(question, at, places, first_year=first_year, last_year=last_year)
            if question.category in card_categories:
                places.fail(
                    at,
                    "category",
                    f"card {card.id!r} already has a {question.category!r} question "
                    f"(at {card_categories[question.category]})",
                )
            card_categories[question.category] = at
            key = _normal_text(question.text)
            if key in seen_texts:
                places.fail(at, "text", f"duplicate question (same text at {seen_texts[key]})")
            seen_texts[key] = at

        # T2: one question per category, six per card.
        missing = [c for c in CATEGORIES if c not in card_categories]
        if missing:
            places.fail(
                card_at,
                "questions",
                f"card {card.id!r} has {len(card.questions)} questions, needs 6 "
                f"(one per category); missing {', '.join(map(repr, missing))}",
            )
        if require_order and tuple(q.category for q in card.questions) != CATEGORIES:
            places.fail(card_at, "questions", f"questions must be in order {', '.join(CATEGORIES)}")

    minimum = SHIPPED_MIN_CARDS if require_balance else CARDS_PER_GAME
    if len(deck.cards) < minimum:
        why = "the shipped deck needs" if require_balance else "a game deals"
        places.fail("", "cards", f"the deck has {len(deck.cards)} cards; {why} {minimum} (T2)")
    if require_balance:
        _check_balance(deck, places, first_year=first_year, last_year=last_year)


def _check_question(
    question: object, at: str, places: _Places, *, first_year: int, last_year: int
) -> None:
    if not isinstance(question, Question):
        places.fail(at, None, f"expected a Question, got {type(question).__name__}")
    if question.category not in CATEGORIES:
        places.fail(at, "category", f"{question.category!r} is not a category ({_category_help()})")
    if not isinstance(question.text, str) or not question.text.strip():
        places.fail(at, "text", "the question text is empty")
    if not isinstance(question.source, str) or not question.source.strip():
        places.fail(at, "source", "the source note is empty")
    year = question.year
    if isinstance(year, bool) or not isinstance(year, int):
        places.fail(at, "year", f"{year!r} is not a year")
    if not first_year <= year <= last_year:
        places.fail(at, "year", f"{year} is off the board ({first_year}-{last_year})")


def _check_balance(deck: Deck, places: _Places, *, first_year: int, last_year: int) -> None:
    # T2: answers spread evenly over the decades. Per category, the board's decades may
    # differ by at most one answer.
    decades = [_decade_label(y) for y in range(first_year // 10 * 10, last_year + 1, 10)]
    for category in CATEGORIES:
        counts = dict.fromkeys(decades, 0)
        for card in deck.cards:
            for question in card.questions:
                if question.category == category:
                    counts[_decade_label(question.year)] += 1
        if max(counts.values()) - min(counts.values()) > 1:
            spread = ", ".join(f"{d}: {n}" for d, n in counts.items())
            places.fail("", "year", f"category {category!r} is unbalanced over decades ({spread})")


def validate_deck(
    deck: Deck,
    *,
    first_year: int = FIRST_YEAR,
    last_year: int = LAST_YEAR,
    require_balance: bool = False,
) -> None:
    """Raise DeckError unless ``deck`` is playable on a board of ``first_year``-``last_year``.

    Checks types, non-empty text and source, years on the board, six questions per card
    in :data:`CATEGORIES` order (one per category), no duplicate question text (ignoring
    case and spacing), no duplicate card ids and at least 4 cards (T2). With
    ``require_balance`` (the shipped deck) it also wants >= 43 cards and, per category,
    decade counts that differ by at most one.
    """
    _check(
        deck,
        _bare_places(deck),
        first_year=first_year,
        last_year=last_year,
        require_balance=require_balance,
        require_order=True,
    )


def deck_report(deck: Deck) -> DeckReport:
    """Count answers per decade and per category x decade (decades with none count 0)."""
    years = [q.year for card in deck.cards for q in card.questions]
    decades = (
        [_decade_label(y) for y in range(min(years) // 10 * 10, max(years) + 1, 10)]
        if years
        else []
    )
    per_decade = dict.fromkeys(decades, 0)
    per_category = {c: dict.fromkeys(decades, 0) for c in CATEGORIES}
    for card in deck.cards:
        for question in card.questions:
            label = _decade_label(question.year)
            per_decade[label] += 1
            per_category.setdefault(question.category, dict.fromkeys(decades, 0))[label] += 1
    return DeckReport(
        cards=len(deck.cards),
        questions=len(years),
        per_decade=per_decade,
        per_category=per_category,
    )


# --------------------------------------------------------------------------- parsing


def _category_help() -> str:
    return "use one of " + ", ".join(CATEGORIES)


_CATEGORY_LOOKUP: Final[dict[str, str]] = {
    **{c: c for c in CATEGORIES},
    **{name.casefold(): c for c, name in CATEGORY_NAMES.items()},
}


def _category_id(value: str) -> str:
    """Accept a category id or its English name, any case; unknown values pass through."""
    return _CATEGORY_LOOKUP.get(value.strip().casefold(), value.strip())


def _ordered(card: QuestionCard) -> QuestionCard:
    rank = {c: k for k, c in enumerate(CATEGORIES)}
    questions = tuple(sorted(card.questions, key=lambda q: rank[q.category]))
    return QuestionCard(id=card.id, questions=questions)


def _finish(
    deck: Deck, places: _Places, *, first_year: int, last_year: int, require_balance: bool
) -> Deck:
    # Files may list a card's questions in any order; the loaded card follows CATEGORIES.
    _check(
        deck,
        places,
        first_year=first_year,
        last_year=last_year,
        require_balance=require_balance,
        require_order=False,
    )
    return Deck(name=deck.name, cards=tuple(_ordered(card) for card in deck.cards))


_DIGITS: Final = re.compile(r"[0-9]+")


def _parse_csv(text: str, file: str, default_name: str) -> tuple[Deck, _Places]:
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    places = _Places(file, [], [], {"text": "question", "id": "card", "questions": "category"})
    records: list[list[str]] = []
    try:
        records.extend(reader)
    except csv.Error as err:
        places.fail(f"row {len(records) + 1}", None, f"malformed CSV ({err})")
    if not records or not any(cell.strip() for cell in records[0]):
        places.fail("row 1", None, f"missing header row ({','.join(CSV_COLUMNS)})")

    header = [cell.strip().casefold() for cell in records[0]]
    while not header[-1]:
        header.pop()  # spreadsheets may export empty trailing columns
    for name in header:
        if name not in CSV_COLUMNS:
            places.fail("row 1", None, f"unknown column {name!r}; expected {','.join(CSV_COLUMNS)}")
    for name in CSV_COLUMNS:
        if header.count(name) != 1:
            problem = "missing from the header" if name not in header else "repeated in the header"
            places.fail("row 1", name, f"column {problem}")
    column = {name: header.index(name) for name in CSV_COLUMNS}

    cards: list[QuestionCard] = []
    rows_of_card: list[list[int]] = []
    card_index: dict[str, int] = {}
    for row_no, cells in enumerate(records[1:], start=2):
        if not any(cell.strip() for cell in cells):
            continue  # blank rows are allowed (and still counted)
        at = f"row {row_no}"
        if len(cells) < len(header):
            places.fail(at, header[len(cells)], f"missing (row has {len(cells)} of 5 fields)")
        if any(cell.strip() for cell in cells[len(header) :]):
            places.fail(at, None, f"{len(cells)} fields, but the header has {len(header)}")
        value = {name: cells[column[name]].strip() for name in CSV_COLUMNS}

        ident = value["card"]
        if not ident:
            places.fail(at, "card", "the card id is empty")
        if not _DIGITS.fullmatch(value["year"]):
            places.fail(at, "year", f"{value['year']!r} is not a year")
        question = Question(
            category=_category_id(value["category"]),
            text=value["question"],
            year=int(value["year"]),
            source=value["source"],
        )
        if ident not in card_index:
            card_index[ident] = len(cards)
            cards.append(QuestionCard(id=ident, questions=()))
            rows_of_card.append([])
        k = card_index[ident]
        if k != len(cards) - 1:
            places.fail(
                at,
                "card",
                f"card {ident!r} continues here but its rows ended at row "
                f"{rows_of_card[k][-1]}; keep a card's rows together",
            )
        cards[k] = QuestionCard(id=ident, questions=(*cards[k].questions, question))
        rows_of_card[k].append(row_no)

    for card, rows in zip(cards, rows_of_card, strict=True):
        places.cards.append(f"rows {rows[0]}-{rows[-1]} (card {card.id!r})")
        places.questions.append([f"row {r}" for r in rows])
    return Deck(name=default_name, cards=tuple(cards)), places


def _require_keys(obj: dict[str, Any], keys: frozenset[str], at: str, places: _Places) -> None:
    for key in obj:
        if key not in keys:
            places.fail(at, key, f"unknown field (expected {', '.join(sorted(keys))})")


def _json_str(obj: dict[str, Any], key: str, at: str, places: _Places) -> str:
    if key not in obj:
        places.fail(at, key, "missing")
    value = obj[key]
    if not isinstance(value, str):
        places.fail(at, key, f"expected a string, got {json.dumps(value)}")
    return value.strip()


def _parse_json(text: str, file: str, default_name: str) -> tuple[Deck, _Places]:
    places = _Places(file, [], [])
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        places.fail(f"line {err.lineno}, column {err.colno}", None, f"malformed JSON ({err.msg})")
    if not isinstance(data, dict):
        places.fail("", None, f'expected a JSON object with "format": {json.dumps(FORMAT)}')
    _require_keys(data, _DECK_KEYS, "", places)
    if "format" not in data:
        places.fail("", "format", f'missing (a deck file says "format": {json.dumps(FORMAT)})')
    if data["format"] != FORMAT:
        places.fail(
            "", "format", f"expected {json.dumps(FORMAT)}, got {json.dumps(data['format'])}"
        )
    version = data.get("version")
    if isinstance(version, bool) or version != FORMAT_VERSION:
        places.fail("", "version", f"unsupported version {json.dumps(version)} (expected 1)")
    name = _json_str(data, "name", "", places) if "name" in data else default_name
    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list):
        places.fail("", "cards", "expected a list of cards")

    cards: list[QuestionCard] = []
    for i, raw_card in enumerate(raw_cards):
        card_at = f"card {i + 1}"
        if not isinstance(raw_card, dict):
            places.fail(card_at, None, "expected a JSON object with 'id' and 'questions'")
        _require_keys(raw_card, _CARD_KEYS, card_at, places)
        ident = _json_str(raw_card, "id", card_at, places)
        card_at = f"card {i + 1} (id {ident!r})"
        raw_questions = raw_card.get("questions")
        if not isinstance(raw_questions, list):
            places.fail(card_at, "questions", "expected a list of questions")
        questions: list[Question] = []
        for j, raw in enumerate(raw_questions):
            at = f"{card_at}, question {j + 1}"
            if not isinstance(raw, dict):
                places.fail(at, None, "expected a JSON object")
            _require_keys(raw, _QUESTION_KEYS, at, places)
            category = _json_str(raw, "category", at, places)
            question_text = _json_str(raw, "text", at, places)
            if "year" not in raw:
                places.fail(at, "year", "missing")
            year = raw["year"]
            if isinstance(year, bool) or not isinstance(year, int):
                places.fail(at, "year", f"{json.dumps(year)} is not a year (use a whole number)")
            source = _json_str(raw, "source", at, places)
            questions.append(Question(_category_id(category), question_text, year, source))
        cards.append(QuestionCard(id=ident, questions=tuple(questions)))
        places.cards.append(card_at)
        places.questions.append([f"{card_at}, question {j + 1}" for j in range(len(questions))])
    return Deck(name=name, cards=tuple(cards)), places


# --------------------------------------------------------------------------- public I/O


def load_deck(
    path: str | Path, *, first_year: int = FIRST_YEAR, last_year: int = LAST_YEAR
) -> Deck:
    """Load and validate a user deck from ``.json`` or ``.csv`` (T2).

    Balance over decades is not required of user decks. Raises DeckError naming the file,
    the row (CSV, header = row 1) or card (JSON), and the field.
    """
    p = Path(path)
    suffix = p.suffix.casefold()
    if suffix not in (".json", ".csv"):
        kind = f"file type {p.suffix!r}" if p.suffix else "file without an extension"
        raise DeckError(f"{p}: unknown deck {kind}; use a .json or .csv file")
    try:
        text = p.read_text(encoding="utf-8-sig")  # -sig: tolerate a spreadsheet's BOM
    except FileNotFoundError:
        raise DeckError(f"{p}: no such deck file") from None
    except IsADirectoryError:
        raise DeckError(f"{p}: is a directory, not a deck file") from None
    except UnicodeDecodeError as err:
        raise DeckError(f"{p}: not UTF-8 text (bad byte at offset {err.start})") from None
    except OSError as err:
        raise DeckError(f"{p}: cannot read deck file ({err.strerror})") from None
    parse = _parse_json if suffix == ".json" else _parse_csv
    deck, places = parse(text, str(p), p.stem)
    return _finish(deck, places, first_year=first_year, last_year=last_year, require_balance=False)


@functools.cache
def default_deck() -> Deck:
    """The shipped deck (48 cards), validated with balance; loaded once and cached."""
    resource = resources.files("gamenight.games.decades") / "data" / "questions.json"
    deck, places = _parse_json(resource.read_text(encoding="utf-8"), "questions.json", "shipped")
    return _finish(deck, places, first_year=FIRST_YEAR, last_year=LAST_YEAR, require_balance=True)


def deck_to_json(deck: Deck) -> str:
    """The deck in the versioned JSON format that :func:`load_deck` reads."""
    data = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "name": deck.name,
        "cards": [
            {"id": card.id, "questions": [msgspec.structs.asdict(q) for q in card.questions]}
            for card in deck.cards
        ],
    }
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def deck_to_csv(deck: Deck) -> str:
    """The deck as CSV (header ``card,category,year,question,source``); it loses the name."""
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for card in deck.cards:
        for q in card.questions:
            writer.writerow((card.id, q.category, q.year, q.text, q.source))
    return out.getvalue()
