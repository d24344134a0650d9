"""Teaching at the table and names, in Chromium (issue 40): the rules drawer in every room
in the player's language; the rules page opened without ``?lang=``; the Decades' action
cards say what they do where they are chosen; the Decathlon's foul and miss reasons and
Dice Duel's game-over line in German and Polish; counts with plural forms; player names
as bidi isolates in labels and log lines; the name field counts what the server counts.
(Reach on the phone is checked in test_sweep.py.)"""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from web import webui as ui
from web.webui import Server

pytestmark = pytest.mark.browser

HEBREW = "שרה 2"  # a name written right to left, ending in a digit
FSI, PDI = "\u2068", "\u2069"


def _room(server: Server, code: str) -> Any:
    with urllib.request.urlopen(f"{server.url}/api/rooms/{code}", timeout=ui.TIMEOUT_S) as r:
        return json.loads(r.read())


def _german(browser: Any) -> Any:
    """A phone context whose player chose German in the switcher (remembered), while
    the browser itself asks for English."""
    ctx = ui.new_context(browser, ui.PHONE, locale="en-US")
    ctx.add_init_script("localStorage.setItem('gamenight.lang', 'de')")
    return ctx


# ----- the rules drawer -------------------------------------------------------------------
@pytest.mark.parametrize("game", ["decathlon", "dice-duel", "wurfeltod", "decades", "toy"])
def test_every_room_has_a_rules_drawer(browser: Any, server: Server, game: str) -> None:
    ctx = _german(browser)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        bot = "bot:novice" if game == "decades" else "bot:random"
        ui.create_room(page, server.url, game, ["human", bot], name="Ann")
        ui.start_if_host(page)
        page.wait_for_selector("body[data-my-turn=true]")
        opener = page.locator("#rules-open")
        assert opener.is_visible() and opener.get_attribute("aria-haspopup") == "dialog"
        opener.click()
        page.wait_for_selector("#rules-drawer[open] .rules-text p")
        drawer = page.locator("#rules-drawer")
        assert drawer.locator("#rules-drawer-title").inner_text().startswith("Regeln")
        if game != "toy":  # the toy plug-in has English rules only: they say so (lang="en")
            assert drawer.locator(".rules-text").get_attribute("lang") == "de"
        # the focus is in the drawer; the page behind is inert (a modal dialog)
        assert page.evaluate(
            "() => document.getElementById('rules-drawer').contains(document.activeElement)"
        )
        ui.shoot(page, f"phone-rules-drawer-{game}")
        if game == "decathlon":
            ui.check_axe(page, "rules drawer", strict=True)
            ui.check_layout(page, "rules drawer")
            # a section link moves within the drawer and leaves the room's address alone
            url = page.url
            link = drawer.locator(".rules-toc a").nth(1)
            target = link.get_attribute("href")
            link.click()
            ui.poll(
                page,
                lambda: page.evaluate(
                    "(id) => { const r = document.getElementById(id).getBoundingClientRect();"
                    " return r.top >= 0 && r.top < 200; }",
                    target[1:],
                ),
                "the section scrolled into view",
            )
            assert page.url == url
        page.keyboard.press("Escape")
        page.wait_for_selector("#rules-drawer:not([open])", state="attached")
        assert page.evaluate("() => document.activeElement.id") == "rules-open"
        assert not errors, errors
    finally:
        ctx.close()


def test_the_rules_page_without_lang_follows_the_players_choice(
    browser: Any, server: Server
) -> None:
    """The player chose German (remembered), the browser asks for English: the page
    opened without ?lang= shows German rules under its German heading, never a German
    heading over English rules."""
    ctx = _german(browser)
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/rules?game=decathlon")
        page.wait_for_selector("main h1#rules-title")
        ui.poll(page, lambda: "lang=de" in page.url, "the page asked for its language")
        page.wait_for_selector("article.rules-text[lang=de]")
        body = page.locator("article.rules-text").inner_text()
        assert "Weitsprung" in body and "Long Jump" not in body
        assert (
            page.locator("#rules-title").inner_text().startswith("Reiner Knizias Zehnkampf")
            or page.locator("#rules-title").get_attribute("lang") == "de"
        )
    finally:
        ctx.close()


# ----- the Decades' cards -------------------------------------------------------------------
def test_decades_cards_say_what_they_do_where_chosen_and_held(browser: Any, server: Server) -> None:
    ctx = _german(browser)
    try:
        page = ctx.new_page()
        ui.create_room(page, server.url, "decades", ["human", "bot:novice"], name="Ann")
        ui.start_if_host(page)
        page.wait_for_selector("#table button.card[data-key^=deal-]")
        words = page.evaluate("async () => (await fetch('/api/vocabulary/de/decades')).json()")
        # the deal grouped by kind: one tile per kind, the seven cards counted on them
        cards = page.locator("#table button.card[data-key^=deal-]")
        dealt = page.locator("#table .keep-kind .dealt").all_inner_texts()
        assert sum(int(d.rsplit(" ", 1)[-1]) for d in dealt) == 7, dealt
        kinds = [cards.nth(i).get_attribute("data-card") for i in range(cards.count())]
        assert len(set(kinds)) == len(kinds) == len(dealt), kinds
        for i in range(cards.count()):
            card = cards.nth(i)
            kind = card.get_attribute("data-card")
            help_text = words.get(f"dc.card_help.{kind}")
            assert help_text and card.locator(".card-text").inner_text() == help_text, kind
            assert card.locator(".card-name").inner_text() == words[f"dc.card.{kind}"]
        # a tap keeps one more of a kind, "−" takes it back; the Keep button counts them
        kind = kinds[0]
        kept = page.locator(f"#table .keep-kind[data-card='{kind}'] .kept")
        page.click(f"#table button[data-key='deal-{kind}']")
        page.wait_for_selector(f"#table .keep-kind[data-card='{kind}'] .kept[data-kept='1']")
        assert page.inner_text("#table button[data-key=keep]") == "Diese behalten (1 von 4)"
        page.click(f"#table button[data-key='less-{kind}']")
        page.wait_for_selector(f"#table .keep-kind[data-card='{kind}'] .kept[data-kept='0']")
        assert kept.inner_text() == "behalten: 0"
        ui.decades(page, __import__("random").Random(1))  # keep four
        page.wait_for_selector("#table li.card .card-text")
        # One snapshot in the page: the hand re-renders as the bot plays, so locators taken
        # one by one could point at a card that has just left it.
        held = page.evaluate(
            """() => [...document.querySelectorAll('#table li.card')].map(
              (li) => [li.dataset.card, li.querySelector('.card-text')?.innerText ?? ''])"""
        )
        assert held
        for kind, text in held:
            assert text == words[f"dc.card_help.{kind}"], kind
    finally:
        ctx.close()


# ----- reasons and game-over lines in the page's language -------------------------------------
def _describe(page: Any, game: str, events: list[dict[str, Any]]) -> list[str]:
    return list(
        page.evaluate(
            """async ([game, events]) => {
          const i18n = await import('/static/js/i18n.js');
          await i18n.loadGameMessages(game);
          const renderer = (await import(`/static/js/games/${game}.js`)).default;
          const ctx = { names: ['Ann', 'Bo'], view: {}, replay: true };
          return events.map((e) => renderer.describe(e, ctx));
        }""",
            [game, events],
        )
    )


REASONS = [
    {
        "kind": "invalid",
        "player": 0,
        "reason": "stepped over: the frozen run-up dice total 11, more than 8",
    },
    {
        "kind": "invalid",
        "player": 0,
        "reason": "stepped over: even the lowest die just thrown takes the run-up to 10, "
        "more than 8",
    },
    {"kind": "invalid", "player": 1, "reason": "die 3 shows a 1"},
    {"kind": "invalid", "player": 1, "reason": "no even die among 1, 3, 5: nothing may be frozen"},
    {"kind": "miss", "player": 0, "height": 14, "jump": 1, "reason": "total 12 < 14 and a 1 shows"},
    {"kind": "miss", "player": 0, "height": 14, "jump": 2, "reason": "a 1 shows (total 15)"},
]


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        (
            "de",
            [
                "übergetreten: die festgelegten Anlaufwürfel ergeben 11, mehr als 8",
                "übergetreten: schon der niedrigste eben geworfene Würfel bringt den Anlauf auf 10",
                "Würfel 3 zeigt eine 1",
                "kein gerader Würfel unter 1, 3, 5",
                "Summe 12 < 14 und eine 1 liegt",
                "eine 1 liegt (Summe 15)",
            ],
        ),
        (
            "pl",
            [
                "rozbieg spalony: odłożone kości rozbiegu dają 11, więcej niż 8",
                "rozbieg spalony: nawet najniższa właśnie rzucona kość daje rozbieg 10",
                "kość 3 pokazuje 1",
                "brak parzystej kości wśród 1, 3, 5",
                "suma 12 < 14 i wypadła 1",
                "wypadła 1 (suma 15)",
            ],
        ),
    ],
)
def test_fouls_misses_and_game_over_in_the_pages_language(
    page: Any, server: Server, lang: str, words: list[str]
) -> None:
    page.goto(f"{server.url}/?lang={lang}")
    page.wait_for_selector("#create")
    lines = _describe(page, "decathlon", REASONS)
    for line, word in zip(lines, words, strict=True):
        assert word in line, (line, word)
        assert "stepped" not in line and "shows" not in line and "total" not in line, line
    over = _describe(
        page,
        "dice-duel",
        [
            {
                "kind": "game-over",
                "reason": "the plate is empty",
                "last_chip": 0,
                "totals": [10, 5],
            },
            {
                "kind": "game-over",
                "reason": "the last chip on the plate was set aside",
                "last_chip": None,
                "totals": [10, 5],
            },
        ],
    )
    expected = {
        "de": ["der Teller ist leer", "der letzte Chip auf dem Teller wurde beiseitegelegt"],
        "pl": ["talerz jest pusty", "ostatni żeton z talerza został odłożony na bok"],
    }[lang]
    for line, word in zip(over, expected, strict=True):
        assert word in line and "plate" not in line, line


def test_decades_points_use_plural_forms(page: Any, server: Server) -> None:
    page.goto(f"{server.url}/")
    page.wait_for_selector("#create")
    said = {}
    for lang in ("en", "de", "pl"):
        page.goto(f"{server.url}/?lang={lang}")
        page.wait_for_selector("#create")
        said[lang] = page.evaluate(
            """async () => {
              const i18n = await import('/static/js/i18n.js');
              await i18n.loadGameMessages('decades');
              return [1, 2, 5, 22].map((n) => i18n.t('dc.points', { count: n })).concat([
                i18n.t('dc.log.kept', { count: 1 }), i18n.t('dc.early_win', { count: 1 })]);
            }"""
        )
    assert said["en"] == [
        "1 point",
        "2 points",
        "5 points",
        "22 points",
        "Both teams kept 1 card",
        "1 point wins early",
    ]
    assert said["de"][:4] == ["1 Punkt", "2 Punkte", "5 Punkte", "22 Punkte"]
    assert said["pl"][:4] == ["1 punkt", "2 punkty", "5 punktów", "22 punkty"]


# ----- names --------------------------------------------------------------------------------
def test_a_right_to_left_name_reads_as_itself_in_labels_and_log_lines(
    page: Any, server: Server
) -> None:
    """A Hebrew name ending in a digit: every label and log line holds it as an isolate, and
    in a line where a number follows it ("שרה 2 12" in the Decades' final line) the number
    is drawn after the name, not inside it."""
    ui.create_room(
        page, server.url, "toy", ["human", "bot:random"], name=HEBREW, fills={"target": "50"}
    )
    ui.start_if_host(page)
    page.wait_for_selector("body[data-my-turn=true]")
    ui.toy(page, __import__("random").Random(2))
    page.wait_for_selector(".log-list li")
    page.wait_for_selector("body[data-my-turn=true], body[data-status=finished]")
    shown = page.evaluate(
        """(name) => {
          const out = [];
          for (const root of document.querySelectorAll('.log-list, #seats, #bar, #table')) {
            const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
            for (let node = walk.nextNode(); node; node = walk.nextNode()) {
              if (!node.textContent.includes(name.slice(0, 3))) continue;
              const bdi = node.parentElement;
              out.push([bdi.tagName, bdi.dir, bdi.textContent, bdi.parentElement.textContent]);
            }
          }
          return out;
        }""",
        HEBREW,
    )
    assert len(shown) >= 2, shown  # the seat list and the log at least
    for tag, direction, text, context in shown:
        # a <bdi> of its own, or an element that is the name alone and isolates it
        assert (tag == "BDI" or direction == "auto") and text == HEBREW, (tag, text, context)
        assert FSI not in context and PDI not in context  # the marks became the element
    # drawn: the score after the name stays to its right (left-to-right page)
    order = page.evaluate(
        """async (name) => {
          const i18n = await import('/static/js/i18n.js');
          await i18n.loadGameMessages('decades');
          const seats = await import('/static/js/parts/seats.js');
          const renderer = (await import('/static/js/games/decades.js')).default;
          const names = seats.seatNames([{ seat: 0, name }, { seat: 1, name: 'Bo' }]);
          const end = { kind: 'end', scores: [12, 7], early_win: false };
          const line = renderer.describe(end, { names, replay: true, view: {} });
          const { h } = await import('/static/js/dom.js');
          const li = h('li', {}, line);  // as the log adds a line
          document.querySelector('.log-list').append(li);
          const bdi = [...li.querySelectorAll('bdi')].find((el) => el.textContent === name);
          const after = bdi.nextSibling;  // " 12; ..."
          const r = document.createRange();
          r.setStart(after, after.textContent.indexOf('12'));
          r.setEnd(after, after.textContent.indexOf('12') + 2);
          return { line: li.textContent, nameRight: bdi.getBoundingClientRect().right,
                   scoreLeft: r.getBoundingClientRect().left };
        }""",
        HEBREW,
    )
    assert order["scoreLeft"] >= order["nameRight"] - 1, order


def test_the_name_field_counts_characters_as_the_server_does(page: Any, server: Server) -> None:
    """40 characters with an emoji (41 UTF-16 units) are a whole name: the field keeps the
    last character, the server takes the name as typed; a 41st character is not taken."""
    name = "W" * 39 + "🎲"
    page.goto(f"{server.url}/?game=toy")
    page.wait_for_selector("#my-name")
    page.fill("#my-name", name)
    assert page.input_value("#my-name") == name
    page.fill("#my-name", name + "X")
    assert page.input_value("#my-name") == name  # one character too many: cut there
    page.fill("#my-name", "W" * 39 + "👍🏽")  # an emoji with its skin tone is never cut in two
    assert page.input_value("#my-name") == "W" * 39
    code = ui.create_room(page, server.url, "toy", ["human", "bot:random"], name=name)
    assert _room(server, code)["seats"][0]["name"] == name
    # the room's own claim field counts the same way
    other = page.context.new_page()
    try:
        code = ui.create_room(other, server.url, "toy", ["human", "human"], name="Host")
        guest = page.context.browser.new_context(viewport=ui.PHONE)
        try:
            seat = guest.new_page()
            seat.goto(f"{server.url}/r/{code}")
            seat.wait_for_selector("#claim-name")
            seat.fill("#claim-name", name)
            assert seat.input_value("#claim-name") == name
            seat.click("button.claim-seat")
            ui.poll(seat, lambda: _room(server, code)["seats"][1].get("name") == name, "the claim")
        finally:
            guest.close()
    finally:
        other.close()
