"""The Decades' decks in three languages (issue 26): the shipped deck in German and
Polish is the English one translated (same cards, ids, categories, years, sources and
pairs), every deck knows its language, and front ends list decks in the player's
language first. A record names the deck by id (``shipped-pl``), never by its text."""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest
from decades_helpers import deck_library, run_cli

from gamenight.core.dice import SeededDice
from gamenight.core.errors import OptionsError
from gamenight.games.decades import library
from gamenight.games.decades.deck import (
    MAX_TEXT_CHARS,
    SHIPPED_LANGUAGES,
    Deck,
    DeckError,
    deck_to_csv,
    deck_to_json,
    default_deck,
    load_deck,
    validate_deck,
)
from gamenight.games.decades.game import GAME

TRANSLATED = ("de", "pl")
QUESTION_FORM = {"de": "In welchem Jahr ", "pl": "W którym roku "}
NUMBER = re.compile(r"\d+")
FORMULA_ONE = re.compile(r"Formel-1|Formuły 1")  # the sport's name: "Formula One" in English


def _questions(lang: str) -> dict[str, tuple[str, int, str, str]]:
    """Each question by its reference (``c01.1``): (category, year, source, text)."""
    return {
        f"{card.id}.{n}": (q.category, q.year, q.source, q.text)
        for card in default_deck(lang).cards
        for n, q in enumerate(card.questions, 1)
    }


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_translated_deck_asks_the_same_questions_with_the_same_years(lang: str) -> None:
    english, translated = _questions("en"), _questions(lang)
    assert list(translated) == list(english)  # the same cards and ids, in the same order
    for ref, (category, year, source, text) in translated.items():
        assert (category, year, source) == english[ref][:3], ref
        assert text != english[ref][3], f"{ref} is not translated"
    deck, shipped = default_deck(lang), default_deck()
    assert deck.language == lang and shipped.language == "en"
    assert deck.apart == shipped.apart and deck.name != shipped.name
    validate_deck(deck, require_balance=True)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_translation_keeps_every_number_and_reads_as_a_question(lang: str) -> None:
    """A cheap guard against a translation that loses or changes a fact: the numbers a
    question mentions (9.58 seconds, 8-7, aged 90) are all still there, none added."""
    english = _questions("en")
    for ref, (_c, _y, _s, text) in _questions(lang).items():
        wanted = sorted(NUMBER.findall(english[ref][3]))
        assert sorted(NUMBER.findall(FORMULA_ONE.sub("", text))) == wanted, (ref, text)
        assert text.startswith(QUESTION_FORM[lang]) and text.endswith("?"), (ref, text)
        assert str(english[ref][1]) not in text, ref  # the answer is never given away


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translated_text_is_safe_to_show_and_of_a_sensible_length(lang: str) -> None:
    english = _questions("en")
    texts = _questions(lang)
    for ref, (_c, _y, _s, text) in texts.items():
        assert text == text.strip() and "  " not in text, ref
        assert not [c for c in text if unicodedata.category(c) in ("Cc", "Cf", "Co", "Cn")], ref
        assert unicodedata.normalize("NFC", text) == text, ref
        # not cut short, not two questions in one: within reach of the English length
        assert 0.7 * len(english[ref][3]) <= len(text) <= 1.5 * len(english[ref][3]) + 10, ref
        assert len(text) <= MAX_TEXT_CHARS
    assert len({t[3].casefold() for t in texts.values()}) == len(texts)  # no duplicates


def test_the_deck_file_states_its_language_only_when_it_is_not_english() -> None:
    """English decks imported before decks had languages keep their content and id."""
    assert "language" not in json.loads(deck_to_json(default_deck()))
    assert json.loads(deck_to_json(default_deck("pl")))["language"] == "pl"
    with pytest.raises(DeckError, match="not written in 'fr'"):
        default_deck("fr")


def test_the_same_seed_deals_the_same_cards_in_every_language() -> None:
    """The deck option is an id, and the language part of it: a record of a Polish
    game replays the Polish questions; the deal (card ids, years) is the same."""
    dealt = {}
    for value, lang in (("", "en"), ("shipped-de", "de"), (" SHIPPED-PL ", "pl")):
        options = GAME.parse_options({"deck": value})
        assert options["deck"] == library.SHIPPED_IDS.get(lang, "")
        assert GAME.attachments(options) == {}  # a shipped deck needs nothing carried
        state = GAME.start(2, options, SeededDice(seed=11)).state
        dealt[lang] = [(c.id, [q.year for q in c.questions]) for c in state.questions]
        by_id = {card.id: card for card in library.deck_for(value).cards}
        assert all(card == by_id[card.id] for card in state.questions)  # in that language
    assert dealt["en"] == dealt["de"] == dealt["pl"]
    assert GAME.parse_options({"deck": "shipped-en"})["deck"] == ""
    with pytest.raises(OptionsError, match="no shipped deck 'shipped-fr'"):
        GAME.parse_options({"deck": "shipped-fr"})


def _deck(name: str, lang: str) -> Deck:
    return Deck(name, default_deck(lang).cards[:4], language=lang)


def test_import_takes_the_language_from_the_file_or_the_importer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with deck_library(monkeypatch, tmp_path / "data"):
        polish = tmp_path / "polska.json"
        polish.write_text(deck_to_json(_deck("Polska", "pl")), encoding="utf-8")
        assert library.import_deck(polish).language == "pl"
        assert library.import_deck(polish, language="pl_PL.UTF-8").language == "pl"
        with pytest.raises(DeckError, match="the deck says 'pl' but 'de' was asked for"):
            library.import_deck(polish, language="de")
        german = tmp_path / "deutsch.csv"  # a CSV file cannot say: the importer does
        german.write_text(deck_to_csv(_deck("x", "de")), encoding="utf-8")
        assert library.import_deck(german, language="DE").language == "de"
        assert load_deck(german).language == "en"  # the default
        with pytest.raises(DeckError, match="field 'language': unknown language 'xx'"):
            library.import_deck(german, language="xx")
        bad = tmp_path / "bad.json"
        bad.write_text(deck_to_json(_deck("x", "pl")).replace('"pl"', '"klingon"'), "utf-8")
        with pytest.raises(DeckError, match=r"bad\.json.*'klingon'"):
            load_deck(bad)
        with pytest.raises(DeckError, match="language"):
            validate_deck(Deck("x", default_deck().cards[:4], language="PL"))


def test_the_listing_and_the_catalogue_put_the_players_language_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with deck_library(monkeypatch, tmp_path / "data"):
        for name, lang in (("Alpha", "pl"), ("Beta", "en"), ("Gamma", "de"), ("Delta", "pl")):
            path = tmp_path / f"{name}.json"
            path.write_text(deck_to_json(_deck(name, lang)), encoding="utf-8")
            library.import_deck(path)
        assert [d.name for d in library.list_decks()] == ["Alpha", "Beta", "Delta", "Gamma"]
        in_polish = library.list_decks("pl")
        assert [(d.name, d.language) for d in in_polish] == [
            ("Alpha", "pl"),
            ("Delta", "pl"),
            ("Beta", "en"),
            ("Gamma", "de"),
        ]
        entries = library.catalogue()
        assert [e.id for e in entries[:2]] == ["shipped-de", "shipped-pl"]
        assert [e.language for e in entries] == ["de", "pl", "pl", "en", "pl", "de"]
        assert [e.id for e in library.by_language(entries, "pl")][:3] == [
            "shipped-pl",
            in_polish[0].id,
            in_polish[1].id,
        ]
        assert library.by_language(entries, "en")[0].name == "Beta"


def test_cli_imports_with_a_language_and_lists_by_language(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def cli(*argv: str) -> tuple[int, str, str]:
        return run_cli(capsys, *argv)

    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    with deck_library(monkeypatch, tmp_path / "data"):
        for name, lang in (("Alpha", "en"), ("Zeta", "de")):
            path = tmp_path / f"{name}.csv"
            path.write_text(deck_to_csv(_deck(name, lang)), encoding="utf-8")
            code, out, _ = cli("decks", "import", str(path), "--language", lang)
            assert code == 0 and f", {lang})" in out  # said in LANG's language (de)
        code, out, _ = cli("decks", "list")  # LANG=de: the German deck first
        assert code == 0 and out.index("Zeta") < out.index("Alpha")
        assert "shipped-de" in out and "shipped-pl" in out
        code, out, _ = cli("decks", "list", "--lang", "en")
        assert code == 0 and out.index("Alpha") < out.index("Zeta")
        code, out, err = cli("decks", "import", str(path), "--language", "fr")
        # LANG=de: the refusal is German too (issue 41), one line
        assert code == 2 and err.count("\n") == 1 and "unbekannte Sprache 'fr'" in err


def test_every_shipped_language_has_its_deck() -> None:
    assert set(SHIPPED_LANGUAGES) == {"en", *library.SHIPPED_IDS}
    for lang in SHIPPED_LANGUAGES:
        assert library.deck_for(library.SHIPPED_IDS.get(lang, "")).language == lang
