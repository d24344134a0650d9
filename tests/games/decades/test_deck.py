"""The Decades question deck: the shipped deck, user decks and their errors (T2)."""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.core.text import BIDI_CONTROLS
from gamenight.games.decades.deck import (
    CATEGORIES,
    CATEGORY_NAMES,
    Deck,
    DeckError,
    Question,
    QuestionCard,
    deck_report,
    deck_to_csv,
    deck_to_json,
    default_deck,
    load_deck,
    validate_deck,
)

EXAMPLE_CSV = Path(__file__).parents[3] / "docs" / "examples" / "decades-deck-example.csv"
DECADES = ("1980s", "1990s", "2000s", "2010s")


# --------------------------------------------------------------------------- shipped deck


def test_shipped_deck_validates_with_balance() -> None:
    deck = default_deck()
    validate_deck(deck, first_year=1980, last_year=2019, require_balance=True)
    assert len(deck.cards) == 48
    assert default_deck() is deck  # cached


def test_shipped_deck_has_exactly_twelve_answers_per_category_and_decade() -> None:
    report = deck_report(default_deck())
    assert report["cards"] == 48
    assert report["questions"] == 288
    assert report["per_decade"] == dict.fromkeys(DECADES, 72)
    assert report["per_category"] == {c: dict.fromkeys(DECADES, 12) for c in CATEGORIES}


def test_shipped_cards_ask_one_question_per_category_in_order() -> None:
    deck = default_deck()
    assert [card.id for card in deck.cards] == [f"c{n:02d}" for n in range(1, 49)]
    for card in deck.cards:
        assert tuple(q.category for q in card.questions) == CATEGORIES


def test_shipped_cards_mix_decades_and_never_repeat_a_year() -> None:
    for card in default_deck().cards:
        decades = Counter(q.year // 10 for q in card.questions)
        years = Counter(q.year for q in card.questions)
        assert max(decades.values()) <= 2, card.id
        assert max(years.values()) == 1, card.id


def test_shipped_questions_do_not_give_the_year_away() -> None:
    board_year = re.compile(r"(?<!\d)(19[89]\d|20[01]\d)(?!\d)")
    for card in default_deck().cards:
        for q in card.questions:
            assert not board_year.search(q.text), q.text
            assert not board_year.search(q.source), q.source  # sources may be shown early
            assert q.text.endswith("?"), q.text
            assert ": " in q.source, q.source  # "Reference: article"


def test_category_names_follow_the_rulebook_order() -> None:
    assert list(CATEGORY_NAMES) == list(CATEGORIES)
    assert CATEGORY_NAMES["screen"] == "Cinema, TV and Video Games"
    assert CATEGORY_NAMES["technology"] == "Objects and Technology"


# --------------------------------------------------------------------------- user decks


def test_example_csv_loads_in_category_order() -> None:
    deck = load_deck(EXAMPLE_CSV)
    assert deck.name == "decades-deck-example"
    assert [card.id for card in deck.cards] == ["ex1", "ex2", "ex3", "ex4"]
    # ex2 lists its rows out of order (and says "Music"); the loaded card is in order.
    ex2 = deck.cards[1]
    assert tuple(q.category for q in ex2.questions) == CATEGORIES
    assert ex2.questions[0].year == 2016
    assert ex2.questions[2] == Question(
        "music", "Michael Jackson's album Thriller came out in which year?", 1982,
        "Wikipedia: Thriller (album)",
    )  # fmt: skip
    assert sum(deck_report(deck)["per_decade"].values()) == 24
    validate_deck(deck)


def test_example_csv_is_refused_by_a_narrower_board() -> None:
    with pytest.raises(
        DeckError, match=r"row 3, field 'year': 1985 is off the board \(1990-2019\)"
    ):
        load_deck(EXAMPLE_CSV, first_year=1990)


def test_user_deck_round_trips_through_json(tmp_path: Path) -> None:
    deck = load_deck(EXAMPLE_CSV)
    path = tmp_path / "mine.json"
    path.write_text(deck_to_json(deck), encoding="utf-8")
    again = load_deck(path)
    assert again == deck
    data = json.loads(path.read_text(encoding="utf-8"))
    assert (data["format"], data["version"]) == ("gamenight-decades-deck", 1)


def test_user_deck_round_trips_through_csv(tmp_path: Path) -> None:
    deck = load_deck(EXAMPLE_CSV)
    path = tmp_path / "mine.csv"
    path.write_text(deck_to_csv(deck), encoding="utf-8")
    assert load_deck(path) == msgspec.structs.replace(deck, name="mine")


def test_spreadsheet_csv_with_bom_crlf_and_blank_rows_loads(tmp_path: Path) -> None:
    text = EXAMPLE_CSV.read_text(encoding="utf-8").replace("\n", "\r\n")
    lines = [line + "," for line in text.split("\r\n") if line]  # an empty trailing column
    lines.insert(7, ",,,,,")  # a blank spreadsheet row between cards
    path = tmp_path / "excel.CSV"
    path.write_bytes(("\ufeff" + "\r\n".join(lines)).encode("utf-8"))
    assert load_deck(path).cards == load_deck(EXAMPLE_CSV).cards


def test_json_without_name_takes_the_file_name(tmp_path: Path) -> None:
    data = json.loads(deck_to_json(load_deck(EXAMPLE_CSV)))
    del data["name"]
    path = tmp_path / "party.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert load_deck(path).name == "party"


# --------------------------------------------------------------------------- bad files

Rows = list[list[str]]


def _example_rows() -> Rows:
    return list(csv.reader(io.StringIO(EXAMPLE_CSV.read_text(encoding="utf-8"))))


def _csv_text(rows: Rows) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def _edit_rows(edit: Callable[[Rows], None]) -> str:
    rows = _example_rows()
    edit(rows)
    return _csv_text(rows)


def _set(row: int, column: int, value: str) -> Callable[[Rows], None]:
    """Set a cell; ``row`` is the 1-based CSV row number (header = row 1)."""

    def edit(rows: Rows) -> None:
        rows[row - 1][column] = value

    return edit


def _example_json() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(deck_to_json(load_deck(EXAMPLE_CSV)))
    return data


def _edit_json(edit: Callable[[dict[str, Any]], None]) -> str:
    data = _example_json()
    edit(data)
    return json.dumps(data, indent=2)


def _drop_news_of_ex1(rows: Rows) -> None:
    del rows[6]  # row 7: ex1, news


def _split_ex1(rows: Rows) -> None:
    rows.append(rows.pop(6))  # ex1's news row moves to the end, after ex4


def _drop_source_cell(rows: Rows) -> None:
    rows[4] = rows[4][:4]


def _missing_header_column(rows: Rows) -> None:
    for row in rows:
        del row[4]


def _three_cards(rows: Rows) -> None:
    del rows[19:]


def _q(card: int, question: int, key: str, value: object) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        data["cards"][card]["questions"][question][key] = value

    return edit


def _del_source(data: dict[str, Any]) -> None:
    del data["cards"][0]["questions"][5]["source"]


def _five_questions(data: dict[str, Any]) -> None:
    del data["cards"][1]["questions"][3]


def _duplicate_card_id(data: dict[str, Any]) -> None:
    data["cards"][1]["id"] = "ex1"


def _json_duplicate_text(data: dict[str, Any]) -> None:
    data["cards"][3]["questions"][0]["text"] = data["cards"][0]["questions"][0]["text"].upper()


def _wrong_version(data: dict[str, Any]) -> None:
    data["version"] = 2


def _no_format(data: dict[str, Any]) -> None:
    del data["format"]


BAD_FILES: list[tuple[str, str, str, str]] = [
    # (id, file name, content, expected message after the file name)
    ("csv-bad-year", "deck.csv", _edit_rows(_set(4, 2, "19x7")),
     "row 4, field 'year': '19x7' is not a year"),
    ("csv-year-off-board", "deck.csv", _edit_rows(_set(3, 2, "2025")),
     "row 3, field 'year': 2025 is off the board (1980-2019)"),
    ("csv-missing-field", "deck.csv", _edit_rows(_drop_source_cell),
     "row 5, field 'source': missing"),
    ("csv-wrong-category", "deck.csv", _edit_rows(_set(6, 1, "weather")),
     "row 6, field 'category': 'weather' is not a category"),
    ("csv-duplicate-question", "deck.csv",
     _edit_rows(_set(20, 3, "  which YEAR saw the deaths of both Princess Diana and  Mother "
                            "Teresa, within a week of each other?")),
     "row 20, field 'question': duplicate question (same text at row 2)"),
    ("csv-card-with-5-questions", "deck.csv", _edit_rows(_drop_news_of_ex1),
     "rows 2-6 (card 'ex1'), field 'category': card 'ex1' has 5 questions, needs 6"),
    ("csv-empty-text", "deck.csv", _edit_rows(_set(9, 3, "   ")),
     "row 9, field 'question': the question text is empty"),
    ("csv-empty-source", "deck.csv", _edit_rows(_set(12, 4, "")),
     "row 12, field 'source': the source note is empty"),
    ("csv-empty-card-id", "deck.csv", _edit_rows(_set(12, 0, "")),
     "row 12, field 'card': the card id is empty"),
    ("csv-category-twice", "deck.csv", _edit_rows(_set(3, 1, "births-deaths")),
     "row 3, field 'category': card 'ex1' already has a 'births-deaths' question (at row 2)"),
    ("csv-card-rows-apart", "deck.csv", _edit_rows(_split_ex1),
     "row 25, field 'card': card 'ex1' continues here but its rows ended at row 6"),
    ("csv-header-lacks-column", "deck.csv", _edit_rows(_missing_header_column),
     "row 1, field 'source': column missing from the header"),
    ("csv-too-few-cards", "deck.csv", _edit_rows(_three_cards),
     "field 'cards': the deck has 3 cards; a game deals 4"),
    ("csv-malformed", "deck.csv", 'card,category,year,question,source\nex1,news,1989,"a"b,src\n',
     "row 2: malformed CSV"),
    ("csv-empty-file", "deck.csv", "", "row 1: missing header row"),
    ("json-bad-year", "deck.json", _edit_json(_q(0, 2, "year", "2011")),
     "card 1 (id 'ex1'), question 3, field 'year': \"2011\" is not a year"),
    ("json-year-off-board", "deck.json", _edit_json(_q(2, 4, "year", 1979)),
     "card 3 (id 'ex3'), question 5, field 'year': 1979 is off the board (1980-2019)"),
    ("json-missing-field", "deck.json", _edit_json(_del_source),
     "card 1 (id 'ex1'), question 6, field 'source': missing"),
    ("json-wrong-category", "deck.json", _edit_json(_q(1, 1, "category", "films")),
     "card 2 (id 'ex2'), question 2, field 'category': 'films' is not a category"),
    ("json-duplicate-question", "deck.json", _edit_json(_json_duplicate_text),
     "card 4 (id 'ex4'), question 1, field 'text': duplicate question "
     "(same text at line 9, card 1 (id 'ex1'), question 1)"),
    ("json-card-with-5-questions", "deck.json", _edit_json(_five_questions),
     "card 2 (id 'ex2'), field 'questions': card 'ex2' has 5 questions, needs 6"),
    ("json-empty-text", "deck.json", _edit_json(_q(3, 5, "text", "")),
     "card 4 (id 'ex4'), question 6, field 'text': the question text is empty"),
    ("json-duplicate-card-id", "deck.json", _edit_json(_duplicate_card_id),
     "line 48, card 2 (id 'ex1'), field 'id': duplicate card id 'ex1' "
     "(first at line 6, card 1 (id 'ex1'))"),
    ("json-unknown-field", "deck.json", _edit_json(_q(0, 0, "yaer", 1997)),
     "card 1 (id 'ex1'), question 1, field 'yaer': unknown field"),
    ("json-wrong-version", "deck.json", _edit_json(_wrong_version),
     "field 'version': unsupported version 2"),
    ("json-no-format", "deck.json", _edit_json(_no_format), "field 'format': missing"),
    ("json-malformed", "deck.json", '{\n  "format": "gamenight-decades-deck",\n  "version": 1,,\n}',
     "line 3, column 16: malformed JSON"),
    ("json-not-an-object", "deck.json", "[1, 2]", ": expected a JSON object"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("name", "content", "expected"),
    [pytest.param(name, content, expected, id=case) for case, name, content, expected in BAD_FILES],
)
def test_bad_deck_is_refused_naming_file_place_and_field(
    tmp_path: Path, name: str, content: str, expected: str
) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(DeckError) as caught:
        load_deck(path)
    message = str(caught.value)
    assert message.startswith(str(path)), message
    assert expected in message, message


@pytest.mark.parametrize(
    ("content", "expected"),
    [pytest.param(c, e, id=case) for case, n, c, e in BAD_FILES if n.endswith(".json")],
)
def test_json_errors_name_the_line_of_the_bad_field(
    tmp_path: Path, content: str, expected: str
) -> None:
    path = tmp_path / "deck.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(DeckError) as caught:
        load_deck(path)
    message = str(caught.value)
    found = re.match(rf"{re.escape(str(path))} line (\d+)", message)
    field = re.search(r"field '(\w+)': (\w+)", message)
    if field is None or found is None:  # a whole-file problem, or malformed JSON
        return
    line = content.splitlines()[int(found.group(1)) - 1]
    if field.group(2) != "missing":
        assert f'"{field.group(1)}"' in line, (message, line)


def test_bad_year_message_reads_as_documented(tmp_path: Path) -> None:
    path = tmp_path / "deck.csv"
    path.write_text(_edit_rows(_set(14, 2, "19x7")), encoding="utf-8")
    with pytest.raises(DeckError) as caught:
        load_deck(path)
    assert str(caught.value) == f"{path} row 14, field 'year': '19x7' is not a year"


def test_unknown_extension_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deck.txt"
    path.write_text(EXAMPLE_CSV.read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(DeckError, match=r"deck\.txt: unknown deck file type '\.txt'"):
        load_deck(path)
    with pytest.raises(DeckError, match="without an extension"):
        load_deck(tmp_path / "deck")


def test_missing_file_is_a_clear_deck_error(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.csv"
    with pytest.raises(DeckError) as caught:
        load_deck(path)
    assert str(caught.value) == f"{path}: no such deck file"
    assert caught.value.__cause__ is None and caught.value.__suppress_context__


def test_directory_and_non_utf8_files_are_deck_errors(tmp_path: Path) -> None:
    folder = tmp_path / "folder.json"
    folder.mkdir()
    with pytest.raises(DeckError, match="is a directory"):
        load_deck(folder)
    latin = tmp_path / "latin.csv"
    latin.write_bytes(
        "card,category,year,question,source\nx,news,1989,Caf\xe9?,s\n".encode("latin-1")
    )
    with pytest.raises(DeckError, match="not UTF-8"):
        load_deck(latin)


# --------------------------------------------------------------------------- validate_deck


def test_validate_deck_checks_types_and_order_of_a_built_deck() -> None:
    deck = load_deck(EXAMPLE_CSV)
    card = deck.cards[0]
    wrong_year = Question("news", "Typed year?", "1989", "src")  # type: ignore[arg-type]
    typed = msgspec.structs.replace(card, questions=(*card.questions[:5], wrong_year))
    with pytest.raises(DeckError, match=r"card 1 \(id 'ex1'\), question 6, field 'year'"):
        validate_deck(msgspec.structs.replace(deck, cards=(typed, *deck.cards[1:])))

    swapped = msgspec.structs.replace(card, questions=card.questions[::-1])
    with pytest.raises(DeckError, match=r"card 1 \(id 'ex1'\), field 'questions': .* in order"):
        validate_deck(msgspec.structs.replace(deck, cards=(swapped, *deck.cards[1:])))


def test_balance_is_required_only_of_the_shipped_deck() -> None:
    example = load_deck(EXAMPLE_CSV)
    validate_deck(example, require_balance=False)
    with pytest.raises(DeckError, match="the deck has 4 cards; the shipped deck needs 43"):
        validate_deck(example, require_balance=True)

    # Move one 1980s music answer into the 2010s: 11 vs 13 breaks the balance.
    shipped = default_deck()
    k, card = next((k, c) for k, c in enumerate(shipped.cards) if c.questions[2].year < 1990)
    moved = msgspec.structs.replace(card.questions[2], year=2019)
    bent = msgspec.structs.replace(
        card, questions=(*card.questions[:2], moved, *card.questions[3:])
    )
    unbalanced = msgspec.structs.replace(
        shipped, cards=(*shipped.cards[:k], bent, *shipped.cards[k + 1 :])
    )
    validate_deck(unbalanced, require_balance=False)
    with pytest.raises(DeckError, match=r"category 'music' is unbalanced .*1980s: 11.*2010s: 13"):
        validate_deck(unbalanced, require_balance=True)


# --------------------------------------------------------------------------- property


_texts = (  # deck text follows the user-text policy (core.text): what it refuses is left out
    st.text(
        st.characters(blacklist_categories=("Cs", "Cc", "Co", "Cn", "Zl", "Zp")).filter(
            lambda c: c not in BIDI_CONTROLS
        ),
        min_size=1,
        max_size=30,
    )
    .map(str.strip)
    .filter(bool)
)


@st.composite
def _decks(draw: st.DrawFn) -> Deck:
    n_cards = draw(st.integers(min_value=4, max_value=6))
    cards = []
    for i in range(n_cards):
        questions = tuple(
            Question(
                category=category,
                text=f"{draw(_texts)} #{i}.{j}",  # the suffix keeps texts distinct
                year=draw(st.integers(min_value=1980, max_value=2019)),
                source=draw(_texts),
            )
            for j, category in enumerate(CATEGORIES)
        )
        cards.append(QuestionCard(id=f"k{i}", questions=questions))
    return Deck(name=draw(_texts), cards=tuple(cards))


@settings(max_examples=40, deadline=None)
@given(deck=_decks())
def test_any_valid_deck_round_trips_through_json_and_csv(tmp_path_factory: Any, deck: Deck) -> None:
    validate_deck(deck)
    folder: Path = tmp_path_factory.mktemp("rt")
    (folder / "d.json").write_text(deck_to_json(deck), encoding="utf-8")
    (folder / "d.csv").write_text(deck_to_csv(deck), encoding="utf-8", newline="")
    assert load_deck(folder / "d.json") == deck
    assert load_deck(folder / "d.csv").cards == deck.cards
