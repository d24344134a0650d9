"""The pages in German and Polish, through the real server: the browser's Accept-Language
chooses the language (the server puts it on <html lang>), a turn of every game is played
in each, the switcher changes the language without losing the seat and is remembered, the
page asks the server for its language (Accept-Language on HTTP calls, ?lang= on the
socket), refusals are worded by their code, and numbers and dates follow the language.
Screenshots: artifacts/web/lang-<lang>-<game>-{phone,desktop}.png."""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from web import catalogues as cat
from web import webui as ui
from web.webui import Server

pytestmark = pytest.mark.browser

LOCALES = {"de": "de-DE", "pl": "pl-PL"}
BOTS = {
    "decathlon": "bot:greedy",
    "dice-duel": "bot:random",
    "wurfeltod": "bot:greedy",
    "decades": "bot:novice",
}
CHOOSERS = {
    "decathlon": ui.decathlon,
    "dice-duel": ui.dice_duel,
    "wurfeltod": ui.wurfeltod,
    "decades": ui.decades,
}
# words each table shows in its language once a turn is played: the game's own catalogue
# and its vocabulary (the server's), in the log and the table
WORDS = {
    ("de", "decathlon"): ["100-m-Lauf", "Wertungsblatt", "Was geschah"],
    ("pl", "decathlon"): ["Bieg na 100 m", "Karta wyników", "Przebieg gry"],
    ("de", "dice-duel"): ["Teller", "Chips und Summen", "würfelt"],
    ("pl", "dice-duel"): ["Talerz", "Żetony i sumy", "rzuca"],
    ("de", "wurfeltod"): ["Wertungsblatt", "Ein Paar", "würfelt"],
    ("pl", "wurfeltod"): ["Karta wyników", "Para", "rzuca"],
    ("de", "decades"): ["Spielplan: Ann", "Punkteleiste", "Deine Aktionskarten"],
    ("pl", "decades"): ["Plansza: Ann", "Tor punktów", "Twoje karty akcji"],
}


@pytest.fixture
def open_page(browser: Any) -> Iterator[Any]:
    """open_page(lang) -> a page whose browser speaks ``lang`` (Accept-Language and
    navigator.language), failing the test on a JavaScript error or a missing key."""
    contexts: list[Any] = []
    problems: list[str] = []

    def make(lang: str, viewport: dict[str, int] = ui.PHONE) -> Any:
        ctx = ui.new_context(browser, viewport, locale=LOCALES.get(lang, lang))
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.on("console", lambda m: problems.append(m.text) if "missing" in m.text else None)
        return page

    yield make
    for ctx in contexts:
        ctx.close()
    assert problems == []


@pytest.mark.parametrize("lang", ["de", "pl"])
@pytest.mark.parametrize("game", cat.GAMES)
def test_a_turn_of_every_game(open_page: Any, server: Server, game: str, lang: str) -> None:
    page = open_page(lang)
    ui.create_room(page, server.url, game, ["human", BOTS[game]], name="Ann")
    assert page.evaluate("() => document.documentElement.lang") == lang
    ui.start_if_host(page)
    ui.play(page, CHOOSERS[game], stop_after=2)
    page.wait_for_selector("body[data-my-turn=true], body[data-status=finished]")
    text = page.inner_text("body")
    missing = [w for w in WORDS[(lang, game)] if w not in text]
    assert missing == [], f"{lang} {game}: {missing}"
    assert page.locator("#language").input_value() == lang
    ui.check_layout(page, f"{lang} {game}")
    ui.check_axe(page, f"{lang} {game}", strict=True)
    ui.shoot(page, f"lang-{lang}-{game}")


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_every_game_s_lobby_form_fits_in_each_language(
    open_page: Any, server: Server, lang: str
) -> None:
    """The longer words of a language fit their boxes: no option's label spills over the
    next one ("Stabhochsprung" did, over the next event's checkbox), at every size."""
    page = open_page(lang)
    for game in BOTS:
        page.goto(f"{server.url}/?game={game}")
        page.wait_for_selector(f"button[data-game='{game}'][aria-checked='true']")
        ui.check_layout(page, f"{lang} lobby {game}")


def test_the_server_puts_the_negotiated_language_on_every_page(server: Server) -> None:
    for path in ("/", "/replay", "/r/NOSUCH"):
        for header, lang in (("pl-PL,pl;q=0.9", "pl"), ("fr,de;q=0.5", "de"), ("", "en")):
            request = urllib.request.Request(server.url + path, headers={"Accept-Language": header})
            try:
                with urllib.request.urlopen(request) as r:
                    body, vary = r.read().decode(), r.headers["Vary"]
            except urllib.error.HTTPError as err:  # the unknown room: 404, still a page
                body, vary = err.read().decode(), err.headers["Vary"]
            assert f'<html lang="{lang}">' in body, (path, header)
            assert "Accept-Language" in vary
    with urllib.request.urlopen(server.url + "/api/languages") as r:
        assert r.read() == (
            b'[{"code":"en","name":"English"},{"code":"de","name":"Deutsch"},'
            b'{"code":"pl","name":"Polski"}]'
        )


def test_the_switcher_keeps_the_seat_and_is_remembered(open_page: Any, server: Server) -> None:
    page = open_page("de")
    code = ui.create_room(page, server.url, "wurfeltod", ["human", "bot:greedy"], name="Ann")
    ui.start_if_host(page)
    page.wait_for_selector("body[data-my-turn=true]")
    seq = page.get_attribute("body", "data-seq")
    assert page.locator("#room-title").inner_text() == "Wurfeltod"
    assert "Du bist dran" in page.inner_text("body")
    page.select_option("#language", "pl")
    page.wait_for_selector("html[lang=pl] body[data-my-turn=true]")
    assert f"/r/{code}" in page.url
    assert page.get_attribute("body", "data-seq") == seq  # the same position, same seat
    assert "Twoja kolej" in page.inner_text("body")
    # remembered: the lobby opens in Polish although the browser asks for German
    page.goto(server.url + "/")
    page.wait_for_selector("html[lang=pl] #games button")
    assert page.locator("h1").inner_text() == "Zagraj"
    assert page.locator("#language option[value=pl]").get_attribute("lang") == "pl"


def test_the_page_asks_the_server_for_its_language(open_page: Any, server: Server) -> None:
    page = open_page("pl")
    asked: list[tuple[str, str]] = []
    page.on(
        "request",
        lambda r: (
            asked.append((r.url, r.headers.get("accept-language", "")))
            if "/api/rooms" in r.url
            else None
        ),
    )
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    ui.create_room(page, server.url, "dice-duel", ["human", "bot:random"], name="Ann")
    ui.start_if_host(page)
    assert asked and all(lang == "pl" for _, lang in asked), asked
    assert sockets and all(url.endswith("?lang=pl") for url in sockets), sockets


def test_refusals_numbers_and_dates_in_the_pages_language(open_page: Any, server: Server) -> None:
    page = open_page("de")
    page.goto(server.url + "/replay")
    got = page.evaluate(
        """async () => { const i = await import("/static/js/i18n.js");
          return [i.errorText({ code: "seat_taken", message: "that seat is taken" }),
                  i.errorText({ code: "illegal", message: "the server's own words" }),
                  i.formatNumber(0.4, { style: "percent" }),
                  i.t("odds.estimate_se", { p: "5 %", se: "1,5 %" }),
                  i.formatNumber(1.5), i.formatNumber(1985), i.formatNumber(12345),
                  i.formatDate(new Date(Date.UTC(2026, 11, 1, 12)),
                               { dateStyle: "long", timeZone: "UTC" })]; }"""
    )
    assert got == [
        "Dieser Platz ist besetzt.",
        "the server's own words",
        "40\xa0%",  # German writes a (no-break) space before %
        "≈5 % ±1,5 %",
        "1,5",
        "1985",
        "12.345",
        "1. Dezember 2026",
    ]


def test_each_player_reads_their_own_language(open_page: Any, server: Server) -> None:
    """A German host and a Polish guest at one table: each page in its own language, the
    same position (the protocol carries no language)."""
    host = open_page("de")
    code = ui.create_room(host, server.url, "wurfeltod", ["human", "human"], name="Ann")
    guest = open_page("pl")
    guest.goto(f"{server.url}/r/{code}")
    guest.wait_for_selector("html[lang=pl] button[data-key=claim-1]")
    assert "Usiądź" in guest.inner_text("button[data-key=claim-1]")
    guest.fill("#claim-name", "Ola")
    guest.click("button[data-key=claim-1]")
    for page in (host, guest):  # the game begins once every human seat is claimed
        page.wait_for_selector("body[data-status=playing]")
    ui.wait_until(host, "() => document.body.dataset.seq")
    assert host.get_attribute("body", "data-seq") == guest.get_attribute("body", "data-seq")
    assert "Wertungsblatt" in host.inner_text("#table")
    assert "Karta wyników" in guest.inner_text("#table")
    assert host.evaluate("() => document.documentElement.lang") == "de"
    assert guest.evaluate("() => document.documentElement.lang") == "pl"


HINT_FITS_JS = """() => {
  const out = [];
  const wrap = document.querySelector("#hint .advice-wrap");
  if (!wrap) return ["no hint table"];
  const box = wrap.getBoundingClientRect();
  const lines = (el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  };
  for (const b of wrap.querySelectorAll("button")) {
    const r = b.getBoundingClientRect();
    if (r.right > box.right + 1 || r.left < box.left - 1) out.push(`outside: ${b.textContent}`);
  }
  for (const th of wrap.querySelectorAll("thead th")) {  // a head breaks between words only
    if (th.querySelector(".visually-hidden")) continue;
    if (lines(th) > th.textContent.split(/\\s+/).filter(Boolean).length)
      out.push(`head broken inside a word: ${th.textContent}`);
  }
  for (const th of wrap.querySelectorAll("tbody th")) {  // nor an option's words
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    const words = [];
    while (walker.nextNode()) words.push(...walker.currentNode.textContent.split(/\\s+/));
    for (const word of words) {
      if (!word) continue;
      const probe = document.createElement("span");
      probe.textContent = word;
      probe.style.cssText = "position:absolute;white-space:nowrap;font:inherit";
      th.appendChild(probe);
      const wide = probe.getBoundingClientRect().width;
      probe.remove();
      if (wide > th.clientWidth) out.push(`option broken inside a word: ${word}`);
    }
  }
  for (const td of document.querySelectorAll(".sheet tr.total td")) {
    if (lines(td) > 1) out.push(`total on two lines: ${td.textContent}`);
  }
  return out;
}"""


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_the_hint_table_fits_a_phone(open_page: Any, server: Server, lang: str) -> None:
    """The Decathlon's hint table in German and Polish on a phone: every Play button within
    the table's box (not scrolled away), no column head broken inside a word (the heads
    read "oczekiwa|ny", "expecte|d"), the sheet's totals on one line ("−1|3")."""
    page = open_page(lang)
    ui.create_room(page, server.url, "decathlon", ["human", "bot:greedy"], name="Ann")
    ui.start_if_host(page)
    ui.play(page, ui.decathlon, stop_after=4)
    page.wait_for_selector("body[data-my-turn=true]")
    page.click("#hint-button")
    page.wait_for_selector("#hint[data-state=shown]")
    for size in (ui.PHONE, {"width": 360, "height": 740}):
        page.set_viewport_size(size)
        ui.next_frame(page)
        assert page.evaluate(HINT_FITS_JS) == [], (lang, size)


def test_the_bots_summaries_come_in_the_requests_language(server: Server) -> None:
    """The lobby's seat help and the room's seat list show each bot's summary as
    /api/games sends it: in the request's language (they were English on German and
    Polish pages)."""
    import json

    def summaries(lang: str) -> dict[tuple[str, str], str]:
        headers = {"Accept-Language": lang}
        request = urllib.request.Request(server.url + "/api/games", headers=headers)
        with urllib.request.urlopen(request) as r:
            games = json.loads(r.read())
        return {(g["id"], b["name"]): b["summary"] for g in games for b in g["bots"]}

    english = summaries("en")
    for lang in ("de", "pl"):
        said = summaries(lang)
        assert said[("wurfeltod", "greedy")] != english[("wurfeltod", "greedy")]
        same = sorted(key for key, text in said.items() if text == english[key])
        assert len(same) <= 1, (lang, same)  # one Decathlon bot's line is not translated yet


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_wurfeltods_hint_says_its_boxes_in_the_pages_words(
    open_page: Any, server: Server, lang: str
) -> None:
    """The advisor's note naming the boxes a booking now would kill comes in English from
    the server; the page says each box by its own key ("Any Pair" stayed English). (The
    test server has no Wurfeltod value table, so the note is handed to the panel's words
    as the table registered them.)"""
    page = open_page(lang)
    ui.create_room(page, server.url, "wurfeltod", ["human", "bot:greedy"], name="Ann")
    ui.start_if_host(page)
    page.wait_for_selector("#table .wurfeltod")
    hint = ui.page_module("js/parts/hint.js")  # the page's own copy, with the table's words
    said = page.evaluate(
        f"""async () => (await {hint}).adviceWords(
              "Booking now brings a Wurfeltod (-250) in: Any Pair, Two Pair.")"""
    )
    names = {"de": ("Ein Paar", "Zwei Paare"), "pl": ("Para", "Dwie pary")}[lang]
    assert all(name in said for name in names) and "Any Pair" not in said, said
