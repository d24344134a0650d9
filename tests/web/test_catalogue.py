"""The browser's catalogues are complete in every language: the same keys as English (the
shared file and each game's), no key the pages never use, the same placeholders, and the
plural forms each language needs (Chromium's own Intl.PluralRules says which). The game
vocabulary (names of the games, events, combinations, boxes, cards, options) is the
server's alone (GET /api/vocabulary/<lang>/<game>), never in a JS catalogue too."""

from __future__ import annotations

import re
import urllib.request
from typing import Any

import pytest

from gamenight.core.languages import LANGUAGES
from gamenight.core.vocabulary import vocabulary
from web import catalogues as cat
from web.webui import Server

GAME_PREFIXES = {"decathlon": "dec", "dice-duel": "dd", "wurfeltod": "wt", "decades": "dc"}


def _english_keys() -> set[str]:
    keys: set[str] = set()
    for messages in cat.every_file("en").values():
        keys |= set(messages)
    for terms in cat.vocabulary_keys().values():
        keys |= terms
    return keys


def test_the_shipped_languages_are_the_servers() -> None:
    assert cat.SHIPPED == LANGUAGES
    for lang in LANGUAGES:
        assert sorted(p.stem for p in (cat.MESSAGES / lang).glob("*.js")) == sorted(cat.GAMES)


def test_each_games_strings_are_in_its_own_file() -> None:
    """A game's strings (its prefix) live in messages/<lang>/<game-id>.js, so a new game
    edits no shared catalogue; its lobby options and names are its vocabulary."""
    for lang in LANGUAGES:
        shared = cat.shared(lang)
        for game, prefix in GAME_PREFIXES.items():
            own = (f"{prefix}.", f"opt.{game}.", f"game.{game}.")
            assert [k for k in shared if k.startswith(own)] == [], (lang, game)
            assert [k for k in cat.game(lang, game) if not k.startswith(prefix + ".")] == []


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_catalogue_has_every_english_key_and_no_other(lang: str) -> None:
    english = cat.every_file("en")
    for name, messages in cat.every_file(lang).items():
        where = f"{lang}/{name or 'shared'}"
        assert sorted(set(english[name]) - set(messages)) == [], f"{where}: missing"
        assert sorted(set(messages) - set(english[name])) == [], f"{where}: not in English"


def test_no_vocabulary_key_is_in_a_js_catalogue() -> None:
    """One source of truth: the server's vocabulary (wt-i18n-py) or the JS catalogue."""
    words = set().union(*cat.vocabulary_keys().values())
    for lang in LANGUAGES:
        for name, messages in cat.every_file(lang).items():
            assert sorted(words & set(messages)) == [], f"{lang}/{name}"


def test_every_vocabulary_has_every_term_in_every_language() -> None:
    for game in cat.GAMES:
        english = vocabulary(game, "en")
        for lang in LANGUAGES:
            terms = vocabulary(game, lang)
            assert set(terms) == set(english), (game, lang)
            for key, text in terms.items():
                assert cat.placeholders(text) == cat.placeholders(english[key]), (lang, key)


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_placeholders_match_english(lang: str) -> None:
    english = cat.every_file("en")
    for name, messages in cat.every_file(lang).items():
        for key, text in messages.items():
            want = cat.placeholders(english[name][key])
            assert cat.placeholders(text) == want, f"{lang} {key}: {text!r}"
            assert isinstance(text, dict) == isinstance(english[name][key], dict), (lang, key)


def test_every_key_the_pages_use_exists() -> None:
    keys = _english_keys()
    used: set[str] = set()
    for path in cat.source_files():
        text = cat.source(path)
        used |= set(re.findall(r'\b(?:t|tOr)\(\s*"([^"]+)"', text))
        used |= set(re.findall(r'data-i18n(?:-label|-placeholder)?="([^"{]+)"', text))
    assert len(used) > 300
    assert sorted(used - keys) == []


def test_no_unused_keys() -> None:
    """Every key is used literally in the pages' source, or belongs to a family the pages
    build at run time (cat.DYNAMIC, each with the values it takes)."""
    sources = "\n".join(cat.source(path) for path in cat.source_files())
    prefixes = cat.dynamic_prefixes()
    assert sorted(prefixes - set(cat.DYNAMIC)) == [], "a key family missing from DYNAMIC"
    assert sorted(set(cat.DYNAMIC) - prefixes) == [], "DYNAMIC names a family no page builds"
    for messages in cat.every_file("en").values():
        unused = [
            k for k in messages if f'"{k}"' not in sources and not k.startswith(tuple(prefixes))
        ]
        assert unused == []


def test_every_member_of_a_key_family_exists() -> None:
    keys = _english_keys()
    for prefix, values in cat.DYNAMIC.items():
        missing = [v for v in values if prefix + v not in keys]
        assert not missing, (prefix, missing)
    for game in cat.GAMES:  # the vocabulary's families hold every id the game has
        terms = vocabulary(game, "en")
        assert f"game.{game}.name" in terms and f"game.{game}.summary" in terms


def test_no_inner_html_anywhere() -> None:
    """User text is inserted with textContent only."""
    for path in (cat.STATIC / "js").rglob("*.js"):
        text = path.read_text(encoding="utf-8")
        assert "innerHTML" not in text and "insertAdjacentHTML" not in text, path
        assert "eval(" not in text and "new Function" not in text, path


# ----- in Chromium ------------------------------------------------------------------------
IMPORT_ALL = """async ([langs, games]) => {
  const out = {};
  for (const lang of langs) {
    out[lang] = { "": (await import(`/static/js/messages/${lang}.js`)).default };
    for (const g of games) {
      out[lang][g] = (await import(`/static/js/messages/${lang}/${g}.js`)).default;
    }
  }
  const categories = Object.fromEntries(langs.map((l) =>
    [l, new Intl.PluralRules(l).resolvedOptions().pluralCategories]));
  const ordinals = Object.fromEntries(langs.map((l) =>
    [l, new Intl.PluralRules(l, { type: "ordinal" }).resolvedOptions().pluralCategories]));
  return { out, categories, ordinals };
}"""


@pytest.fixture(scope="module")
def in_chromium(server: Server, browser: Any) -> dict[str, Any]:
    page = browser.new_page()
    try:
        page.goto(f"{server.url}/replay")
        found: dict[str, Any] = page.evaluate(IMPORT_ALL, [list(LANGUAGES), list(cat.GAMES)])
    finally:
        page.close()
    return found


def test_chromium_reads_the_catalogues_as_these_tests_do(in_chromium: dict[str, Any]) -> None:
    for lang in LANGUAGES:
        assert in_chromium["out"][lang] == cat.every_file(lang), lang


def test_plural_messages_have_every_form_of_their_language(in_chromium: dict[str, Any]) -> None:
    """A plural message holds exactly the CLDR categories Intl.PluralRules gives for its
    language (Polish: one, few, many, other; German and English: one, other); the
    ordinals ("ordinal", i18n.ordinal) those of its ordinal rules (English: one, two, few,
    other; German and Polish: other)."""
    assert set(in_chromium["categories"]["pl"]) == {"one", "few", "many", "other"}
    for lang in LANGUAGES:
        plurals = 0
        for name, messages in cat.every_file(lang).items():
            for key, text in messages.items():
                if isinstance(text, dict):
                    plurals += 1
                    rules = "ordinals" if key == "ordinal" else "categories"
                    want = set(in_chromium[rules][lang])
                    assert set(text) == want, f"{lang} {name} {key}: {sorted(text)}"
        assert plurals >= 15, lang


@pytest.mark.parametrize(("lang", "count", "text"), [
    ("en", 1, "1 rethrow left"),
    ("en", 3, "3 rethrows left"),
    ("de", 1, "noch 1 Neuwurf"),
    ("de", 5, "noch 5 Neuwürfe"),
    ("pl", 1, "została 1 powtórka"),
    ("pl", 3, "zostały 3 powtórki"),
    ("pl", 5, "zostało 5 powtórek"),
    ("pl", 22, "zostały 22 powtórki"),
])  # fmt: skip
def test_t_picks_the_plural_form_of_the_page(
    server: Server, browser: Any, lang: str, count: int, text: str
) -> None:
    page = browser.new_page()
    try:
        page.goto(f"{server.url}/replay?lang={lang}")
        got = page.evaluate(
            """async ([n]) => { const i18n = await import("/static/js/i18n.js");
                await i18n.loadGameMessages("decathlon");
                return i18n.t("dec.rethrows", { count: n }); }""",
            [count],
        )
    finally:
        page.close()
    assert got == text


def test_the_vocabulary_route(server: Server) -> None:
    with urllib.request.urlopen(f"{server.url}/api/vocabulary/pl/decathlon") as r:
        assert "public" in r.headers["Cache-Control"]
        import json

        terms = json.loads(r.read())
    assert terms == vocabulary("decathlon", "pl")
    assert terms["dec.event.shot-put"] == "Pchnięcie kulą"
    for bad in ("fr/decathlon", "pl/chess", "qps/decathlon", "EN/decathlon"):
        try:
            urllib.request.urlopen(f"{server.url}/api/vocabulary/{bad}")
        except urllib.error.HTTPError as err:
            assert err.code == 404
            body = json.loads(err.read())
            assert body["code"] == "not_found" and "\n" not in body["message"]
        else:
            raise AssertionError(bad)


def test_every_odds_label_a_game_sends_has_a_key() -> None:
    """The live odds' labels are the games' English (the odds bar says them through
    odds.objective.<label>): each label a game can send is a member of that family."""
    from gamenight.core.odds import Odds
    from gamenight.games.decathlon import odds, win_play

    sent = {
        Odds(win=(1.0,)).label,
        odds.POINTS_LABEL,
        odds.POINTS_PLAY_LABEL,
        odds.HONOURS_LABEL,
        win_play.WIN_PLAY_LABEL,
    }
    assert sorted(sent - set(cat.DYNAMIC["odds.objective."])) == []
