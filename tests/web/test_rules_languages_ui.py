"""The rules page and the deck picker in the player's language (issue 26): the page is
rendered on the server in ``?lang=`` (checked) or the browser's Accept-Language, says so
in ``<html lang>``, links to the other languages; the lobby offers the decks in the
page's language first."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from typing import Any

import pytest

from web import webui as ui
from web.webui import Server

pytestmark = pytest.mark.browser

RULING_ID = re.compile(r"\b[DKTW]\d{1,2}\b")
CLI_WORDS = ("gamenight play", "gamenight decks", "boards.py", "cards.py", "-o ")


def _get(server: Server, path: str, accept: str | None = None) -> tuple[int, dict[str, str], str]:
    headers = {"Accept-Language": accept} if accept else {}
    request = urllib.request.Request(server.url + path, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=ui.TIMEOUT_S) as r:
            return r.status, {k.lower(): v for k, v in r.headers.items()}, r.read().decode("utf-8")
    except urllib.error.HTTPError as err:
        return err.code, {k.lower(): v for k, v in err.headers.items()}, err.read().decode("utf-8")


def test_the_rules_page_is_served_in_the_language_asked_for(server: Server) -> None:
    status, headers, body = _get(server, "/rules?game=decathlon&lang=pl", accept="de")
    assert status == 200 and '<html lang="pl">' in body  # ?lang= wins over the header
    assert headers["content-language"] == "pl" and "Accept-Language" in headers["vary"]
    assert '<h1 id="rules-title" data-game="decathlon" lang="pl">Dziesięciobój Reinera' in body
    assert 'class="rules-text" aria-labelledby="rules-title" lang="pl"' in body
    assert "Skok w dal" in body and "Long Jump" not in body
    links = re.findall(r'href="/rules\?game=decathlon&amp;lang=(\w+)" hreflang="\1"', body)
    assert links == ["en", "de"]  # the others, each named in itself
    assert ">English<" in body and ">Deutsch<" in body and ">Polski<" not in body
    # no ?lang=: the browser's Accept-Language; nothing usable: English
    for accept, lang, word in (
        ("de-AT,de;q=0.9,en;q=0.5", "de", "Weitsprung"),
        ("fr, pl;q=0.3", "pl", "Skok w dal"),
        ("fr", "en", "Long Jump"),
    ):
        status, headers, body = _get(server, "/rules?game=decathlon", accept=accept)
        assert status == 200 and f'<html lang="{lang}">' in body and word in body, accept
        assert headers["content-language"] == lang
    # a language gamenight does not speak: one line, 400, no rules
    status, _, body = _get(server, "/rules?game=decathlon&lang=xx")
    assert status == 400 and "unknown language &#x27;xx&#x27;: choose one of en, de, pl" in body
    assert "rules-text" not in body
    status, _, body = _get(server, "/rules?game=decathlon&lang=%3Cscript%3E")
    assert status == 400 and "<script>" not in body
    status, _, _ = _get(server, "/rules?game=chess&lang=pl")
    assert status == 404


def test_the_rules_page_in_polish(browser: Any, server: Server) -> None:
    """A Polish browser (Accept-Language pl-PL) reads the Decathlon's rules in Polish,
    the Polish rulebook's words, without the terminal's parts; it can switch to German."""
    ctx = ui.new_context(browser, ui.DESKTOP, locale="pl-PL")
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{server.url}/rules?game=decathlon")
        page.wait_for_selector("article.rules-text[lang=pl]")
        assert page.locator("main h1").inner_text() == "Dziesięciobój Reinera Knizii"
        text = page.locator("article.rules-text").inner_text().replace("\u00a0", " ")
        for word in ("Bieg na 100 m", "Skok w dal", "Pchnięcie kulą", "Skok o tyczce",
                     "Rzut oszczepem", "Mistrzostwa", "odłoż", "spalon"):  # fmt: skip
            assert word in text, word
        assert not [w for w in CLI_WORDS if w in text]
        assert not RULING_ID.findall(text), RULING_ID.findall(text)
        targets = page.locator(".rules-toc a").evaluate_all(
            "as => as.map(a => document.getElementById(a.hash.slice(1))?.tagName)"
        )
        assert len(targets) > 2 and set(targets) == {"H2"}
        ui.check_axe(page, "rules decathlon pl", strict=True)
        ui.check_layout(page, "rules decathlon pl")
        ui.shoot(page, "rules-decathlon-pl")
        page.click(".rules-langs a[hreflang=de]")
        page.wait_for_selector("article.rules-text[lang=de]")
        assert "Kugelstoßen" in page.locator("article.rules-text").inner_text()
        assert page.url.endswith("/rules?game=decathlon&lang=de")
    finally:
        ctx.close()
    assert not errors, errors


TITLES = {
    "de": {"decathlon": "Reiner Knizias Zehnkampf", "dice-duel": "Kniffel Würfelduell",
           "wurfeltod": "Wurfeltod", "decades": "Die Jahrzehnte"},
    "pl": {"decathlon": "Dziesięciobój Reinera Knizii", "dice-duel": "Kniffel: pojedynek w kości",
           "wurfeltod": "Wurfeltod", "decades": "Dekady"},
}  # fmt: skip


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_every_games_rules_page_in_german_and_polish(page: Any, server: Server, lang: str) -> None:
    """Each game's rules page in the language: its translated title, the player's text
    only (no terminal parts, no ruling ids), nothing overflowing at phone size."""
    for game, title in TITLES[lang].items():
        page.goto(f"{server.url}/rules?game={game}&lang={lang}")
        page.wait_for_selector(f"article.rules-text[lang={lang}]")
        assert page.locator("main h1").inner_text() == title, game
        text = page.locator("article.rules-text").inner_text()
        assert not [w for w in CLI_WORDS if w in text], (game, lang)
        assert not RULING_ID.findall(text), (game, lang, RULING_ID.findall(text))
        ui.check_layout(page, f"rules {game} {lang}")
    ui.shoot(page, f"rules-decades-{lang}")


def test_the_lobby_offers_the_decks_in_the_pages_language_first(page: Any, server: Server) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("button[data-game='decades']")
    for lang, first in (("pl", "shipped-pl"), ("de", "shipped-de"), ("en", "")):
        page.evaluate("(lang) => { document.documentElement.lang = lang; }", lang)
        page.click("button[data-game='dice-duel']")  # re-render the options on return
        page.click("button[data-game='decades']")
        page.wait_for_selector("#opt-deck option", state="attached")
        values = page.locator("#opt-deck option").evaluate_all("os => os.map(o => o.value)")
        shipped = [
            v for v in values if v in ("", "shipped-de", "shipped-pl")
        ]  # decks others imported may follow
        assert values[0] == first and sorted(shipped) == ["", "shipped-de", "shipped-pl"], lang
        assert page.locator("#opt-deck").input_value() == first, lang
    shown = page.locator("#opt-deck option").evaluate_all(
        "os => os.filter(o => ['shipped-de', 'shipped-pl'].includes(o.value))"
        ".map(o => o.textContent)"
    )  # decks other tests imported into the shared server may stand between them
    assert shown == [  # each deck says its language (Intl.DisplayNames) and size
        "Gamenight-Standardstapel (German, 48 cards)",
        "Standardowa talia gamenight (Polish, 48 cards)",
    ]


def test_a_room_with_the_english_deck_says_so_in_polish(browser: Any, server: Server) -> None:
    """A Polish player at a table whose deck is the English one: the lobby names each
    deck's language, and the room says which deck it plays and in which language."""
    ctx = ui.new_context(browser, ui.PHONE, locale="pl-PL")
    page = ctx.new_page()
    try:
        page.goto(f"{server.url}/?game=decades")
        page.wait_for_selector("#opt-deck option", state="attached")
        shown = page.locator("#opt-deck option").evaluate_all(
            "os => os.filter(o => ['shipped-pl', '', 'shipped-de'].includes(o.value))"
            ".map(o => o.textContent)"
        )  # (decks other tests imported may stand between; the shipped ones keep their order)
        assert shown == [
            "Standardowa talia gamenight (polski, 48 kart)",
            "Talia dołączona do gry (angielski)",
            "Gamenight-Standardstapel (niemiecki, 48 kart)",
        ]
        ui.create_room(page, server.url, "decades", ["human", "bot:novice"], choices={"deck": ""})
        fact = page.locator(".catalogue-fact[data-option=deck]")
        assert fact.inner_text() == "Talia: Talia dołączona do gry (angielski)"
        page.goto(f"{server.url}/?game=decades")
        page.wait_for_selector("#opt-deck option", state="attached")
        ui.create_room(page, server.url, "decades", ["human", "bot:novice"])  # the first: Polish
        assert fact.inner_text() == "Talia: Standardowa talia gamenight (polski, 48 kart)"
    finally:
        ctx.close()
