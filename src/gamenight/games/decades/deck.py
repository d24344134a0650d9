"""The question deck of The Decades: data types, loading and validation (rulings T1, T2).

A deck is a pile of question cards. Each card holds six questions, one per category,
and every answer is a year on the board (T1: 1980-2019). The project ships its own deck
(``data/questions.json``); users may load their own from JSON or CSV (T2).

Files are validated by the msgspec types below (:class:`DeckFile` for JSON,
:class:`CsvRow` for each CSV row): types, required and unknown fields, empty text
and years on the board. What types cannot say (one question per category, no
duplicates, enough cards, balance) is checked afterwards. A deck that cannot be
used is refused with a :class:`DeckError` whose message names the file, the line
(JSON) or row (CSV), the card and question, and the first bad field. This module
is pure: it never prints and knows no UI.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources
from itertools import combinations
from pathlib import Path
from typing import Any, Final, Literal, NoReturn, TypedDict

import msgspec

from gamenight.core.errors import Phrase, Sentence
from gamenight.core.files import FileProblem, check_depth, read_bytes
from gamenight.core.languages import DEFAULT as DEFAULT_LANGUAGE
from gamenight.core.languages import LanguageError, check_language
from gamenight.core.text import TextError, check_text
from gamenight.games.decades import questions

# The card types live in questions.py, which the rules import without this parser (issue
# 29); they are the deck's types too.
CATEGORIES = questions.CATEGORIES
CATEGORY_NAMES = questions.CATEGORY_NAMES
FIRST_YEAR = questions.FIRST_YEAR
LAST_YEAR = questions.LAST_YEAR
BoardYear = questions.BoardYear
DeckError = questions.DeckError
NonEmpty = questions.NonEmpty
Question = questions.Question
QuestionCard = questions.QuestionCard

FORMAT: Final = "gamenight-decades-deck"
FORMAT_VERSION: Final = 1
CARDS_PER_GAME: Final = 4  # T2: a game deals 4 cards without replacement
SHIPPED_MIN_CARDS: Final = 43  # T2: the shipped deck holds at least 43 x 6 = 258 questions
CSV_COLUMNS: Final[tuple[str, ...]] = ("card", "category", "year", "question", "source")


# ----- the types every deck passes through (msgspec validates them) ----------------

Apart = tuple[tuple[NonEmpty, NonEmpty], ...]


class Deck(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A named pile of question cards.

    ``apart`` lists pairs of questions (``"c01.1"``: card ``c01``, question 1)
    that answer each other: their cards are never dealt in one game.
    """

    name: NonEmpty
    cards: tuple[QuestionCard, ...]
    apart: Apart = ()
    language: str = DEFAULT_LANGUAGE  # the questions' language, one of core.languages


class DeckFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A deck file in JSON (``deck_to_json`` writes it)."""

    format: Literal["gamenight-decades-deck"]
    version: Literal[1]
    cards: tuple[QuestionCard, ...]
    name: NonEmpty | None = None  # default: the file name
    apart: Apart = ()
    language: str | None = None  # default: English (or the importer's --language)


class CsvRow(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One row of a CSV deck (one question)."""

    card: NonEmpty
    category: NonEmpty
    year: BoardYear
    question: NonEmpty
    source: NonEmpty


class DeckReport(TypedDict):
    """Counts of a deck's answers, per decade ('1980s') and per category x decade."""

    cards: int
    questions: int
    per_decade: dict[str, int]
    per_category: dict[str, dict[str, int]]


# ----- where a problem is ----------------------------------------------------------

Path_ = tuple[str | int, ...]  # a JSON path: ("cards", 0, "questions", 2, "year")
_EMPTY: Final[dict[str, Phrase]] = {
    "text": Phrase("the question text is empty"),
    "question": Phrase("the question text is empty"),
    "source": Phrase("the source note is empty"),
    "id": Phrase("the card id is empty"),
    "card": Phrase("the card id is empty"),
    "name": Phrase("the deck name is empty"),
    "category": Phrase("the category is empty"),
}
Place = tuple[Phrase, ...]  # "line 3, card 2 (id 'x'), question 3": said part by part


@dataclass
class _Places:
    """Words the place of a problem for one file (or a deck built in memory)."""

    file: str | Phrase  # a path, or "deck 'name'" (said in the player's language)
    card_at: Callable[[int], Phrase]  # "card 2 (id 'x')" / "rows 8-13 (card 'x')"
    question_at: Callable[[int, int], Phrase]  # "..., question 3" / "row 14"
    fields: dict[str, str] = field(default_factory=dict)  # our field -> the file's word
    line_of: Callable[[Path_], int | None] = lambda _path: None
    show: Callable[[object], str] = json.dumps  # how a bad value is quoted

    def where(self, path: Path_, fld: str | None = None) -> Place:
        parts: list[Phrase] = []
        line = self.line_of((*path, fld)) if fld is not None else None
        if line is None:
            line = self.line_of(path)
        if line is not None:
            parts.append(Phrase("line {line}", line=line))
        if len(path) >= 4 and path[0] == "cards" and path[2] == "questions":
            assert isinstance(path[1], int) and isinstance(path[3], int)
            parts.append(self.question_at(path[1], path[3]))
        elif len(path) >= 2 and path[0] == "cards" and isinstance(path[1], int):
            parts.append(self.card_at(path[1]))
        elif len(path) >= 2 and path[0] == "apart" and isinstance(path[1], int):
            parts.append(Phrase("pair {number} of 'apart'", number=path[1] + 1))
        return tuple(parts)

    def fail(self, path: Path_, fld: str | None, problem: Sentence | str) -> NoReturn:
        """Refuse the deck: the file, the place and the field, then ``problem`` (a
        :class:`Phrase`; a str only for a library's own English, such as msgspec's)."""
        at, file = self.where(path, fld), self.file
        if fld is None and not at:
            raise DeckError("{file}: {problem}", file=file, problem=problem)
        if fld is None:
            raise DeckError("{file} {at}: {problem}", file=file, at=at, problem=problem)
        name = repr(self.fields.get(fld, fld))
        if not at:
            raise DeckError(
                "{file}, field {field}: {problem}", file=file, field=name, problem=problem
            )
        raise DeckError(
            "{file} {at}, field {field}: {problem}", file=file, at=at, field=name, problem=problem
        )

    def refuse(self, error: msgspec.ValidationError, tree: object) -> NoReturn:
        """Word msgspec's first complaint about ``tree`` (the decoded builtins)."""
        message, path = _split_error(str(error))
        fld: str | None = None
        missing = re.match(r"Object (missing required|contains unknown) field `(.+)`", message)
        if missing:
            fld = missing.group(2)
            known = missing.group(1) == "missing required"
            self.fail(path, fld, Phrase("missing") if known else Phrase("unknown field"))
        if path and isinstance(path[-1], str):
            fld = path[-1]
            path = path[:-1]
        elif len(path) >= 2 and path[0] == "apart":
            fld = "apart"
        value = _at(tree, (*path, fld) if fld is not None else path)
        self.fail(path, fld, _problem(message, fld, value, self.show))


def _split_error(message: str) -> tuple[str, Path_]:
    """msgspec's "Expected `int`, got `str` - at `$.cards[0].year`" -> (text, path)."""
    text, _, where = message.partition(" - at `$")
    steps: list[str | int] = []
    for key, index in re.findall(r"\.([^.\[`]+)|\[(\d+)\]", where.rstrip("`")):
        steps.append(int(index) if index else key)
    return text, tuple(steps)


def _at(tree: object, path: Path_) -> object:
    for step in path:
        if isinstance(tree, dict) and step in tree:
            tree = tree[step]
            continue
        if isinstance(step, int) and isinstance(tree, list | tuple) and step < len(tree):
            tree = tree[step]
            continue
        return None
    return tree


def _problem(
    message: str, fld: str | None, value: object, show: Callable[[object], str]
) -> Phrase | str:
    """msgspec's complaint worded for a player; one it does not know stays msgspec's
    own English (third-party text, not translated)."""
    if fld == "year" and "Expected `int`, got" in message:
        return Phrase("{value} is not a year", value=show(value))
    if fld == "year" and re.search(r"Expected `int` [<>]=", message):
        return _off_board(value, FIRST_YEAR, LAST_YEAR)
    if "matching regex" in message:
        return _EMPTY.get(fld or "", Phrase("empty"))
    if fld == "format":
        return Phrase(
            "expected {format}, got {value}", format=json.dumps(FORMAT), value=json.dumps(value)
        )
    if fld == "version":
        return Phrase(
            "unsupported version {value} (expected {version})",
            value=json.dumps(value),
            version=FORMAT_VERSION,
        )
    if fld is None and message.startswith("Expected `object`"):
        return Phrase('expected a JSON object with "format": {format}', format=json.dumps(FORMAT))
    return message[:1].lower() + message[1:].replace("`", "")


def _off_board(year: object, first: int, last: int) -> Phrase:
    return Phrase("{year} is off the board ({first}-{last})", year=year, first=first, last=last)


def _json_offset(text: str, path: Path_) -> int | None:
    """Where ``path`` starts in the JSON ``text`` (None if it cannot be found)."""
    decoder = json.JSONDecoder()
    space = re.compile(r"[ \t\n\r]*")

    def skip(at: int) -> int:
        match = space.match(text, at)
        return match.end() if match else at

    at = skip(0)
    try:
        for step in path:
            if isinstance(step, str):
                if text[at] != "{":
                    return None
                at = skip(at + 1)
                while text[at] == '"':
                    # scanstring is real; typeshed omits it
                    key, at = json.decoder.scanstring(text, at + 1)  # type: ignore[attr-defined]
                    at = skip(skip(at) + 1)  # the colon
                    if key == step:
                        break
                    at = skip(decoder.raw_decode(text, at)[1])
                    if text[at] == ",":
                        at = skip(at + 1)
                else:
                    return None
            else:
                if text[at] != "[":
                    return None
                at = skip(at + 1)
                for _ in range(step):
                    at = skip(decoder.raw_decode(text, at)[1])
                    if text[at] != ",":
                        return None
                    at = skip(at + 1)
    except (ValueError, IndexError):
        return None
    return at


def _json_places(text: str, file: str | Phrase, tree: object) -> _Places:
    def line_of(path: Path_) -> int | None:
        offset = _json_offset(text, path)
        return None if offset is None else text.count("\n", 0, offset) + 1

    return _Places(file, _card_in(tree), _question_in(tree), line_of=line_of)


def _card_in(tree: object) -> Callable[[int], Phrase]:
    def card_at(i: int) -> Phrase:
        ident = _at(tree, ("cards", i, "id"))
        if isinstance(ident, str):
            return Phrase("card {number} (id {id})", number=i + 1, id=repr(ident))
        return Phrase("card {number}", number=i + 1)

    return card_at


def _question_in(tree: object) -> Callable[[int, int], Phrase]:
    card_at = _card_in(tree)
    return lambda i, j: Phrase("{card}, question {number}", card=card_at(i), number=j + 1)


def _memory_places(deck: object) -> _Places:
    tree = msgspec.to_builtins(deck)
    name = _at(tree, ("name",))
    label = Phrase("deck {name}", name=repr(name)) if isinstance(name, str) else Phrase("deck")
    return _Places(label, _card_in(tree), _question_in(tree))


# ----- checks the types cannot make ---------------------------------------------------


def _decade_label(year: int) -> str:
    return f"{year // 10 * 10}s"


def _normal_text(text: str) -> str:
    # Duplicates are spotted regardless of case and spacing.
    return " ".join(text.casefold().split())


def _check(
    cards: Sequence[QuestionCard],
    apart: Apart,
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
    seen_ids: dict[str, Place] = {}
    seen_texts: dict[str, Place] = {}
    for i, card in enumerate(cards):
        card_path: Path_ = ("cards", i)
        _check_texts(places, card_path, id=card.id)
        if card.id in seen_ids:
            places.fail(
                card_path,
                "id",
                Phrase(
                    "duplicate card id {id} (first at {at})",
                    id=repr(card.id),
                    at=seen_ids[card.id],
                ),
            )
        seen_ids[card.id] = places.where(card_path)
        card_categories: dict[str, Place] = {}
        for j, question in enumerate(card.questions):
            at: Path_ = ("cards", i, "questions", j)
            _check_texts(places, at, text=question.text, source=question.source)
            category = _category_id(question.category)
            if category not in CATEGORIES:
                places.fail(
                    at,
                    "category",
                    Phrase(
                        "{category} is not a category ({known})",
                        category=repr(question.category),
                        known=_category_help(),
                    ),
                )
            if not first_year <= question.year <= last_year:
                places.fail(at, "year", _off_board(question.year, first_year, last_year))
            if category in card_categories:
                places.fail(
                    at,
                    "category",
                    Phrase(
                        "card {id} already has a {category} question (at {at})",
                        id=repr(card.id),
                        category=repr(category),
                        at=card_categories[category],
                    ),
                )
            card_categories[category] = places.where(at)
            key = _normal_text(question.text)
            if key in seen_texts:
                places.fail(
                    at,
                    "text",
                    Phrase("duplicate question (same text at {at})", at=seen_texts[key]),
                )
            seen_texts[key] = places.where(at)

        # T2: one question per category, six per card.
        missing = [c for c in CATEGORIES if c not in card_categories]
        if missing:
            places.fail(
                card_path,
                "questions",
                Phrase(
                    "card {id} has {count} questions, needs 6 (one per category); "
                    "missing {missing}",
                    id=repr(card.id),
                    count=len(card.questions),
                    missing=", ".join(map(repr, missing)),
                ),
            )
        if require_order and tuple(q.category for q in card.questions) != CATEGORIES:
            places.fail(
                card_path,
                "questions",
                Phrase("questions must be in order {order}", order=", ".join(CATEGORIES)),
            )

    minimum = SHIPPED_MIN_CARDS if require_balance else CARDS_PER_GAME
    if len(cards) < minimum:
        if require_balance:
            few = Phrase(
                "the deck has {count} cards; the shipped deck needs {minimum}",
                count=len(cards),
                minimum=minimum,
            )
        else:
            few = Phrase(
                "the deck has {count} cards; a game deals {minimum}",
                count=len(cards),
                minimum=minimum,
            )
        places.fail((), "cards", few)
    sizes = {card.id: len(card.questions) for card in cards}
    for k, pair in enumerate(apart):
        for ref in pair:
            ident, _, number = ref.rpartition(".")
            if ident not in sizes or not number.isdigit() or not 1 <= int(number) <= sizes[ident]:
                places.fail(
                    ("apart", k),
                    "apart",
                    Phrase("{ref} names no question (write card.number: c01.1)", ref=repr(ref)),
                )
    if apart:
        _check_dealable(cards, apart, places)
    if require_balance:
        _check_balance(cards, places, first_year=first_year, last_year=last_year)


MAX_TEXT_CHARS: Final = 1000  # a question or a source note; ids are shorter still


def _check_texts(places: _Places, at: Path_, **texts: str) -> None:
    """Deck text is shown at the table: the one policy for user text (core.text: no
    control characters such as ESC, no bidirectional controls), on import and on load."""
    for fld, text in texts.items():
        try:
            check_text(text, what=f"the {fld}", limit=MAX_TEXT_CHARS)
        except TextError as error:
            places.fail(at, fld, str(error))  # TextError: core.text's own English


def _check_dealable(cards: Sequence[QuestionCard], apart: Apart, places: _Places) -> None:
    """Whatever is drawn first, 4 cards can still be dealt: each draw takes its card and
    the cards paired with it out of the pool, so the pool must outlast the worst case."""
    paired: dict[str, set[str]] = {}
    for first, second in apart:
        a, b = first.rpartition(".")[0], second.rpartition(".")[0]
        if a != b:
            paired.setdefault(a, set()).add(b)
            paired.setdefault(b, set()).add(a)
    worst = sorted((len(others) for others in paired.values()), reverse=True)
    if len(cards) - (CARDS_PER_GAME - 1) - sum(worst[: CARDS_PER_GAME - 1]) >= 1:
        return  # even the worst draws leave a card: the common case, checked cheaply
    # Exactly: the deal fails iff up to 3 cards, no two paired, take every card out.
    ids = [card.id for card in cards]
    stuck = any(
        all(b not in paired.get(a, ()) for a, b in combinations(drawn, 2))
        and set(ids) <= set(drawn).union(*(paired.get(a, set()) for a in drawn))
        for size in range(1, CARDS_PER_GAME)
        for drawn in combinations(ids, size)
    )
    if stuck:
        places.fail(
            (),
            "apart",
            Phrase(
                "with these pairs kept apart, {count} cards may not deal {dealt}; "
                "add cards or drop pairs",
                count=len(cards),
                dealt=CARDS_PER_GAME,
            ),
        )


def _check_balance(
    cards: Sequence[QuestionCard], places: _Places, *, first_year: int, last_year: int
) -> None:
    # T2: answers spread evenly over the decades. Per category, the board's decades may
    # differ by at most one answer.
    decades = [_decade_label(y) for y in range(first_year // 10 * 10, last_year + 1, 10)]
    for category in CATEGORIES:
        counts = dict.fromkeys(decades, 0)
        for card in cards:
            for question in card.questions:
                if question.category == category:
                    counts[_decade_label(question.year)] += 1
        if max(counts.values()) - min(counts.values()) > 1:
            spread = ", ".join(f"{d}: {n}" for d, n in counts.items())
            places.fail(
                (),
                "year",
                Phrase(
                    "category {category} is unbalanced over decades ({spread})",
                    category=repr(category),
                    spread=spread,
                ),
            )


def validate_deck(
    deck: Deck,
    *,
    first_year: int = FIRST_YEAR,
    last_year: int = LAST_YEAR,
    require_balance: bool = False,
) -> None:
    """Raise DeckError unless ``deck`` is playable on a board of ``first_year``-``last_year``.

    The deck's types go through msgspec (fields, non-empty text and source, years
    on the T1 board); then six questions per card in :data:`CATEGORIES` order (one
    per category), no duplicate question text (ignoring case and spacing), no
    duplicate card ids, at least 4 cards (T2) and ``apart`` naming real questions.
    With ``require_balance`` (the shipped deck) it also wants >= 43 cards and, per
    category, decade counts that differ by at most one.
    """
    places = _memory_places(deck)
    tree = msgspec.to_builtins(deck)
    try:
        typed = msgspec.convert(tree, Deck)
    except msgspec.ValidationError as error:
        places.refuse(error, tree)
    if _language(places, typed.language, None) != typed.language:
        places.fail(
            (),
            "language",
            Phrase("write the language as its code ({language})", language=repr(typed.language)),
        )
    _check(
        typed.cards,
        typed.apart,
        places,
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


# ----- parsing ----------------------------------------------------------------------


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
    questions = tuple(
        sorted(
            (msgspec.structs.replace(q, category=_category_id(q.category)) for q in card.questions),
            key=lambda q: rank[q.category],
        )
    )
    return QuestionCard(id=card.id, questions=questions)


def _language(places: _Places, stated: str | None, wanted: str | None) -> str:
    """The deck's language: what the file states and the importer wants must agree;
    neither: English. A language gamenight does not speak is refused."""
    try:
        found = [check_language(v) for v in (stated, wanted) if v is not None]
    except LanguageError as error:
        places.fail((), "language", error)
    if len(set(found)) > 1:
        places.fail(
            (),
            "language",
            Phrase(
                "the deck says {stated} but {wanted} was asked for",
                stated=repr(found[0]),
                wanted=repr(found[1]),
            ),
        )
    return found[0] if found else DEFAULT_LANGUAGE


def _finish(
    name: str,
    cards: Sequence[QuestionCard],
    apart: Apart,
    places: _Places,
    *,
    first_year: int,
    last_year: int,
    require_balance: bool,
    language: str = DEFAULT_LANGUAGE,
) -> Deck:
    # Files may list a card's questions in any order; the loaded card follows CATEGORIES.
    _check_texts(places, (), name=name)
    _check(
        cards,
        apart,
        places,
        first_year=first_year,
        last_year=last_year,
        require_balance=require_balance,
        require_order=False,
    )
    ordered = tuple(_ordered(card) for card in cards)
    return Deck(name=name, cards=ordered, apart=apart, language=language)


def _trim(card: QuestionCard) -> QuestionCard:
    """Cells and strings are trimmed of surrounding spaces."""
    return QuestionCard(
        id=card.id.strip(),
        questions=tuple(
            Question(q.category.strip(), q.text.strip(), q.year, q.source.strip())
            for q in card.questions
        ),
    )


def _parse_csv(
    text: str,
    file: str,
    default_name: str,
    *,
    first_year: int,
    last_year: int,
    language: str | None = None,
) -> Deck:
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows_of_card: list[list[int]] = []
    cards: list[QuestionCard] = []

    def card_at(i: int) -> Phrase:
        rows = rows_of_card[i]
        return Phrase(
            "rows {first}-{last} (card {id})", first=rows[0], last=rows[-1], id=repr(cards[i].id)
        )

    places = _Places(
        file,
        card_at,
        lambda i, j: Phrase("row {row}", row=rows_of_card[i][j]),
        {"text": "question", "id": "card", "questions": "category"},
        show=repr,
    )
    records: list[list[str]] = []
    try:
        records.extend(reader)
    except csv.Error as err:
        # the reason is the csv module's own English (third-party text, not translated)
        raise DeckError(
            "{file} row {row}: malformed CSV ({reason})",
            file=file,
            row=len(records) + 1,
            reason=str(err),
        ) from None
    if not records or not any(cell.strip() for cell in records[0]):
        raise DeckError(
            "{file} row 1: missing header row ({columns})", file=file, columns=",".join(CSV_COLUMNS)
        )

    header = [cell.strip().casefold() for cell in records[0]]
    while not header[-1]:
        header.pop()  # spreadsheets may export empty trailing columns
    for name in header:
        if name not in CSV_COLUMNS:
            raise DeckError(
                "{file} row 1: unknown column {name}; expected {columns}",
                file=file,
                name=repr(name),
                columns=",".join(CSV_COLUMNS),
            )
    for name in CSV_COLUMNS:
        if header.count(name) == 0:
            raise DeckError(
                "{file} row 1, field {field}: column missing from the header",
                file=file,
                field=repr(name),
            )
        if header.count(name) > 1:
            raise DeckError(
                "{file} row 1, field {field}: column repeated in the header",
                file=file,
                field=repr(name),
            )

    card_index: dict[str, int] = {}
    for row_no, cells in enumerate(records[1:], start=2):
        if not any(cell.strip() for cell in cells):
            continue  # blank rows are allowed (and still counted)
        at = Phrase("{file} row {row}", file=file, row=row_no)
        if any(cell.strip() for cell in cells[len(header) :]):
            raise DeckError(
                "{at}: {count} fields, but the header has {columns}",
                at=at,
                count=len(cells),
                columns=len(header),
            )
        raw = {name: cell.strip() for name, cell in zip(header, cells, strict=False)}
        try:
            row = msgspec.convert(raw, CsvRow, strict=False)
        except msgspec.ValidationError as error:
            row_places = _Places(at, _nowhere, lambda i, j: _nowhere(i), places.fields, show=repr)
            row_places.refuse(error, raw)
        question = Question(row.category, row.question, row.year, row.source)
        if row.card not in card_index:
            card_index[row.card] = len(cards)
            cards.append(QuestionCard(id=row.card, questions=()))
            rows_of_card.append([])
        k = card_index[row.card]
        if k != len(cards) - 1:
            raise DeckError(
                "{at}, field 'card': card {id} continues here but its rows ended "
                "at row {row}; keep a card's rows together",
                at=at,
                id=repr(row.card),
                row=rows_of_card[k][-1],
            )
        cards[k] = QuestionCard(id=row.card, questions=(*cards[k].questions, question))
        rows_of_card[k].append(row_no)
    return _finish(
        default_name,
        cards,
        (),
        places,
        first_year=first_year,
        last_year=last_year,
        require_balance=False,
        language=_language(places, None, language),
    )


def parse_deck_json(
    text: str,
    file: str | Phrase,
    default_name: str,
    *,
    first_year: int = FIRST_YEAR,
    last_year: int = LAST_YEAR,
    require_balance: bool = False,
    language: str | None = None,
) -> Deck:
    """A deck from the JSON text of a deck file; ``file`` names it in messages.
    ``language``: the deck's language if the file states none (if it does, the two
    must agree)."""
    try:
        check_depth(text, MAX_DEPTH)  # before any parser recurses into it
    except FileProblem as problem:
        raise DeckError("{file}: {problem}", file=file, problem=problem) from None
    try:
        typed = msgspec.json.decode(text, type=DeckFile)
    except msgspec.ValidationError as error:
        try:
            tree = _tree(text)
        except ValueError:  # msgspec refused a field before it met malformed JSON after it
            try:
                msgspec.json.decode(text)
            except msgspec.DecodeError as malformed:
                raise _malformed(text, file, str(malformed)) from None
            raise  # json refuses what msgspec reads: not expected
        _json_places(text, file, tree).refuse(error, tree)
    except msgspec.DecodeError as error:
        raise _malformed(text, file, str(error)) from None
    cards = tuple(_trim(card) for card in typed.cards)
    places = _json_places(text, file, _tree(text))
    return _finish(
        (typed.name or default_name).strip(),
        cards,
        typed.apart,
        places,
        first_year=first_year,
        last_year=last_year,
        require_balance=require_balance,
        language=_language(places, typed.language, language),
    )


MAX_DECK_BYTES: Final = 8 << 20  # the shipped deck is 60 kB
MAX_DEPTH: Final = 16  # a deck nests 5 deep (cards, a card, questions, a question)


def _tree(text: str) -> object:
    """The JSON as builtins, to word a complaint; a number too large for msgspec
    (``1e400``) reads as infinity here, never as a second error."""
    return json.loads(text)


def _nowhere(_index: int) -> Phrase:
    raise AssertionError("a CSV row's own places name no card")


def _malformed(text: str, file: str | Phrase, message: str) -> DeckError:
    """'FILE line 3, column 16: malformed JSON (...)' from msgspec's byte offset; the
    reason is msgspec's own English (third-party text, not translated)."""
    reason = message.removeprefix("JSON is malformed: ")
    found = re.search(r"\(byte (\d+)\)$", reason)
    if not found:
        return DeckError(
            "{file} malformed JSON ({reason})", file=file, reason=reason[:1].lower() + reason[1:]
        )
    data = text.encode("utf-8")
    offset = int(found.group(1))
    line = data.count(b"\n", 0, offset) + 1
    column = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
    return DeckError(
        "{file} line {line}, column {column}: malformed JSON ({reason})",
        file=file,
        line=line,
        column=column,
        reason=reason[: found.start()].strip(),
    )


# --------------------------------------------------------------------------- public I/O


def load_deck(
    path: str | Path,
    *,
    first_year: int = FIRST_YEAR,
    last_year: int = LAST_YEAR,
    language: str | None = None,
) -> Deck:
    """Load and validate a user deck from ``.json`` or ``.csv`` (T2).

    ``language`` is the deck's language (default English); a JSON file may state it
    itself (field ``language``), and then the two must agree.

    Balance over decades is not required of user decks. Raises DeckError naming the file,
    the row (CSV, header = row 1) or card (JSON), and the field.
    """
    p = Path(path)
    suffix = p.suffix.casefold()
    if suffix not in (".json", ".csv"):
        if p.suffix:
            raise DeckError(
                "{path}: unknown deck file type {suffix}; use a .json or .csv file",
                path=str(p),
                suffix=repr(p.suffix),
            )
        raise DeckError(
            "{path}: unknown deck file without an extension; use a .json or .csv file",
            path=str(p),
        )
    if not p.exists() and not p.is_symlink():
        raise DeckError("{path}: no such deck file", path=str(p)) from None
    try:  # a regular file of bounded size only (a FIFO would wait forever)
        text = read_bytes(p, limit=MAX_DECK_BYTES).decode("utf-8-sig")  # -sig: a BOM
    except UnicodeDecodeError as err:
        raise DeckError(
            "{path}: not UTF-8 text (bad byte at offset {offset})", path=str(p), offset=err.start
        ) from None
    except FileProblem as err:
        raise DeckError("deck file {problem}", problem=err) from None
    read = parse_deck_json if suffix == ".json" else _parse_csv
    return read(text, str(p), p.stem, first_year=first_year, last_year=last_year, language=language)


#: The languages the shipped deck is written in: the same cards, ids and years in each.
SHIPPED_LANGUAGES: Final[tuple[str, ...]] = ("en", "de", "pl")


@functools.cache
def default_deck(language: str = DEFAULT_LANGUAGE) -> Deck:
    """The shipped deck (48 cards) in ``language`` (one of :data:`SHIPPED_LANGUAGES`:
    ``data/questions.json`` is English, ``data/questions.<lang>.json`` the others),
    validated with balance; loaded once and cached."""
    if language not in SHIPPED_LANGUAGES:
        raise DeckError("the shipped deck is not written in {language}", language=repr(language))
    name = "questions.json" if language == DEFAULT_LANGUAGE else f"questions.{language}.json"
    text = (resources.files("gamenight.games.decades") / "data" / name).read_text(encoding="utf-8")
    deck = parse_deck_json(text, name, "shipped", require_balance=True)
    if deck.language != language:
        raise DeckError(
            "{name}: the deck says {stated}, expected {wanted}",
            name=name,
            stated=repr(deck.language),
            wanted=repr(language),
        )
    return deck


def deck_to_json(deck: Deck) -> str:
    """The deck in the versioned JSON format that :func:`load_deck` reads.

    The text is canonical (same deck, same bytes), so its sha256 can name the deck.
    """
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "name": deck.name,
        # English is left unsaid: a deck imported before decks had languages keeps its id
        **({"language": deck.language} if deck.language != DEFAULT_LANGUAGE else {}),
        "cards": [
            {"id": card.id, "questions": [msgspec.structs.asdict(q) for q in card.questions]}
            for card in deck.cards
        ],
    }
    if deck.apart:
        data["apart"] = [list(pair) for pair in deck.apart]
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
