"""Full games through the browser UI, against the real server and its bots."""

from __future__ import annotations

import json
import random
import re
import urllib.error
import urllib.request
from typing import Any

import pytest

from gamenight.core.i18n import format_chance
from gamenight.games.decades.deck import Deck, default_deck
from web import webui as ui
from web.webui import Server

pytestmark = pytest.mark.browser


def _api(server: Server, path: str) -> Any:
    with urllib.request.urlopen(server.url + path, timeout=ui.TIMEOUT_S) as r:
        return json.loads(r.read())


def _finished_checks(page: Any, server: Server, code: str) -> None:
    page.wait_for_selector("#end:not([hidden]) .ranks li")
    page.wait_for_selector(".fair-check[data-checked=ok]")
    room = _api(server, f"/api/rooms/{code}")
    assert room["status"] == "finished"
    assert page.locator("code.seed").inner_text() == room["seed"]
    assert page.locator("a[download]").get_attribute("href") == f"/api/rooms/{code}/record"


def test_dice_duel_against_a_bot(page: Any, server: Server) -> None:
    code = ui.create_room(
        page, server.url, "dice-duel", ["human", "bot:turn-optimal"], name="Ann <b>&amp;"
    )
    ui.start_if_host(page)
    page.wait_for_selector("#table .dice-duel")
    ui.check_axe(page, "dice duel table")
    # names are text, never markup
    assert page.locator(".seat-name", has_text="Ann <b>&amp;").count() == 1
    assert page.locator(".seat-name b").count() == 0
    steps = ui.play(page, ui.dice_duel, moments={0: "dice-duel-start", 12: "dice-duel-middle"})
    assert steps > 5
    _finished_checks(page, server, code)
    ui.shoot(page, "dice-duel-end")
    # play again: a new room with the same seats, we sit in the same seat; a double tap
    # makes one room
    made: list[str] = []

    def made_room(r: Any) -> None:
        if r.method == "POST" and r.url.endswith("/api/rooms"):
            made.append(r.url)

    page.on("request", made_room)
    page.dblclick("#again")
    page.wait_for_url(re.compile(r".*/r/(?!" + re.escape(code) + r")[\w-]+$"))
    page.wait_for_selector("body[data-status=playing][data-seat='0']")
    page.wait_for_selector("#table .dice-duel")
    assert len(made) == 1, made


def test_dice_duel_solo(page: Any, server: Server) -> None:
    ui.create_room(page, server.url, "dice-duel", ["human"], choices={"mode": "solo"})
    ui.start_if_host(page)
    page.wait_for_selector("#table .dice-duel")
    assert "Solo" in page.locator("#table caption").first.inner_text()
    # keyboard: a die is a toggle button; Space keeps it and the focus stays on it
    page.wait_for_selector("body[data-my-turn=true]")
    page.focus("#table button.die[data-key='die-0']")
    page.keyboard.press("Space")
    die = page.locator("#table button.die[data-key='die-0']")
    assert die.get_attribute("aria-pressed") == "true"
    assert page.evaluate("() => document.activeElement.dataset.key") == "die-0"
    assert "Roll 4 dice" in page.locator("#table button[data-key=roll]").inner_text()
    page.keyboard.press("Space")
    assert die.get_attribute("aria-pressed") == "false"
    ui.shoot(page, "dice-duel-solo")


def test_the_lobby_offers_only_the_seat_counts_of_the_chosen_mode(
    page: Any, server: Server
) -> None:
    """The counts come from /api/games (each choice's `seats`), for any game."""

    def counts() -> list[str]:
        values: list[str] = page.locator("#seat-count option").evaluate_all(
            "os => os.map(o => o.value)"
        )
        return values

    page.goto(f"{server.url}/?game=dice-duel")
    page.wait_for_selector("button[data-game='dice-duel'][aria-checked='true']")
    assert page.locator("#opt-mode").input_value() == "multi"
    assert counts() == ["2", "3", "4", "5", "6"]
    page.select_option("#seat-count", "4")
    page.select_option("#opt-mode", "solo")
    assert counts() == ["1"] and page.locator("#seat-count").input_value() == "1"
    assert page.locator(".seats-box select").count() == 1
    page.select_option("#opt-mode", "multi")
    assert counts() == ["2", "3", "4", "5", "6"]
    assert page.locator("#seat-count").input_value() == "2"
    assert page.locator(".seats-box select").count() == 2
    page.click("button[data-game='wurfeltod']")
    page.wait_for_selector("#game-detail a[href^='/rules?game=wurfeltod&lang=']")
    assert counts() == [str(n) for n in range(1, 9)]


def test_the_lobby_renders_any_catalogue_option_from_api_games(page: Any, server: Server) -> None:
    """A catalogue option's picker comes from /api/games (its `catalogue`) and the entries
    from its url, for any game: here an option the page has never heard of, given to
    Wurfeltod by a rewritten /api/games; and the lobby never asks /api/decks."""
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))

    def games(route: Any) -> None:
        listed = route.fetch().json()
        wurfeltod = next(g for g in listed if g["id"] == "wurfeltod")
        wurfeltod["options"] = [
            {
                "name": "table",
                "kind": "str",
                "help": "which value table",
                "default": "",
                "choices": [],
                "minimum": None,
                "maximum": None,
                "seats": {},
                "catalogue": {
                    "url": "/api/games/wurfeltod/catalogues/table",
                    "noun": "table",
                    "defaults": ["", "default"],
                    "default_label": "the built-in table",
                },
            }
        ]
        route.fulfill(json=listed)

    entries = [{"id": "t1", "name": "<i>Big</i>", "detail": "3 MB", "count": None}]
    page.route("**/api/games", games)
    page.route("**/api/games/wurfeltod/catalogues/table", lambda route: route.fulfill(json=entries))
    page.goto(f"{server.url}/?game=wurfeltod")
    page.wait_for_selector("button[data-game='wurfeltod'][aria-checked='true']")
    options = page.locator("#opt-table option")
    assert options.evaluate_all("os => os.map(o => o.value)") == ["", "t1"]
    assert options.evaluate_all("os => os.map(o => o.textContent)") == [
        "The built-in table",
        "<i>Big</i> (3 MB)",
    ]
    assert page.locator("#opt-table i").count() == 0  # names are text only
    # the real catalogue of The Decades is rendered the same way
    page.click("button[data-game='decades']")
    page.wait_for_selector("#opt-deck option", state="attached")
    # with its language: a player on another language's page knows the questions' language
    assert page.locator("#opt-deck option").first.text_content() == "The shipped deck (English)"
    assert not [url for url in asked if "/api/decks" in url]
    assert [url for url in asked if url.endswith("/api/games/decades/catalogues/deck")]


def test_wurfeltod_against_a_bot_with_hints(page: Any, browser: Any, server: Server) -> None:
    code = ui.create_room(page, server.url, "wurfeltod", ["human", "bot:greedy"])
    ui.start_if_host(page)
    page.wait_for_selector("#table .wurfeltod")
    page.wait_for_selector("body[data-my-turn=true]")
    # the open boxes preview their booking; the hint lists every option with the best marked
    assert page.locator("#table button[data-key^=book-]").count() >= 10
    page.click("#hint-button")  # an Advice table, or the server's "no hints" message
    page.wait_for_selector("#hint .advice-table tr.best, #hint p.muted")
    ui.shoot(page, "wurfeltod-start")
    ui.check_axe(page, "wurfeltod table")
    # a spectator sees the table but cannot act
    watcher = ui.new_context(browser, ui.PHONE)
    spectator = watcher.new_page()
    spectator.goto(f"{server.url}/r/{code}")
    spectator.wait_for_selector("#table .wurfeltod")
    assert spectator.get_attribute("body", "data-seat") == ""
    assert spectator.locator("#table button:enabled").count() == 0
    watcher.close()
    ui.play(page, ui.wurfeltod, moments={8: "wurfeltod-middle"})
    _finished_checks(page, server, code)
    ui.shoot(page, "wurfeltod-end")


def test_decathlon_three_events_with_heights(page: Any, server: Server) -> None:
    code = ui.create_room(
        page,
        server.url,
        "decathlon",
        ["human", "bot:greedy"],
        events=["100m", "long-jump", "high-jump"],
        choices={"variant": "championship"},
    )
    ui.start_if_host(page)
    page.wait_for_selector("#table .decathlon")
    page.wait_for_selector("body[data-my-turn=true]")
    page.click("#hint-button")  # an Advice table, or the server's "no hints" message
    page.wait_for_selector("#hint .advice-table tr.best, #hint p.muted")
    ui.check_axe(page, "decathlon table")
    seen: set[str] = set()

    def choose(pg: Any, rng: random.Random) -> bool:
        seen.add(pg.locator(".event-panel h3").inner_text())
        return ui.decathlon(pg, rng)

    ui.play(page, choose, moments={1: "decathlon-sprint", 6: "decathlon-long-jump"})
    assert any("High Jump" in s for s in seen), seen
    _finished_checks(page, server, code)
    assert page.locator("#table tr.total th", has_text="Honours").count() == 1
    ui.shoot(page, "decathlon-end")


def _odds_shown(page: Any) -> dict[str, str]:
    """The odds legend read back: each name and its chance as written ("66%", ">99%")."""
    items = page.locator("#table .odds-legend li")
    return {
        items.nth(i).locator(".odds-name").inner_text(): items.nth(i)
        .locator(".odds-chance")
        .inner_text()
        for i in range(items.count())
    }


def _whole(chance: str) -> int:
    """ "66%" -> 66, ">99%" -> 99, "<1%" -> 1: the percentage a legend entry rounds to."""
    return int(chance.strip("≈<>%"))


def test_decathlon_live_odds_bar(page: Any, server: Server) -> None:
    page.goto(f"{server.url}/?game=wurfeltod")
    page.wait_for_selector("#create-form")
    assert page.locator("#odds").count() == 0  # only games with odds offer them
    ui.create_room(
        page,
        server.url,
        "decathlon",
        ["human", "bot:greedy"],
        name="Ann <b>",
        events=["100m", "long-jump"],
        checks=("odds",),
    )
    ui.start_if_host(page)
    page.wait_for_selector("#table .odds .odds-legend[aria-label='Chance to win'] li")
    bot = page.locator(".seat-name").nth(1).inner_text()
    shown = _odds_shown(page)
    assert set(shown) == {"Ann <b>", bot}, shown
    assert 98 <= sum(map(_whole, shown.values())) <= 102
    segments = page.locator("#table .odds-seg")
    assert segments.count() == 2 and page.locator("#table .odds b").count() == 0
    # the bar carries the chances as the legend writes them (the room's dice are random and
    # the bot may have played first, so a chance may already read ">99%"); text_content: a
    # narrow segment hides its label by CSS
    assert segments.first.text_content() == shown["Ann <b>"]
    assert page.locator("#table .odds-legend li.me .odds-name").inner_text() == "Ann <b>"
    ui.check_axe(page, "decathlon table with odds")
    ui.shoot(page, "decathlon-odds")
    # the bar follows the game: after a few moves it shows the odds of the newest position
    ui.play(page, ui.decathlon, stop_after=4)
    ui.wait_until(
        page,
        "() => document.querySelector('#table .odds')?.dataset.seq === document.body.dataset.seq",
    )
    assert set(_odds_shown(page)) == {"Ann <b>", bot}
    ui.shoot(page, "decathlon-odds-later")


def test_odds_bar_says_0_and_100_only_of_the_impossible_and_the_certain(
    page: Any, server: Server
) -> None:
    """Chances that would round to 0% or 100% read "<1%" and ">99%", in the bar and the
    legend alike; 0 and 1 themselves read "0%" and "100%"."""
    page.goto(server.url + "/")
    cases = [
        ([0.998, 0.002], [">99%", "<1%"]),
        ([0.9951, 0.005], [">99%", "1%"]),
        ([0.994, 0.004999], ["99%", "<1%"]),
        ([1.0, 0.0], ["100%", "0%"]),
    ]
    for win, expected in cases:
        texts = page.evaluate(
            """async (win) => {
                const m = await import('/static/js/parts/odds.js');
                const bar = m.oddsBar({ odds: { win, exact: true }, names: ["Ann", "Bob"] });
                const all = (sel) => [...bar.querySelectorAll(sel)].map((e) => e.textContent);
                return { bar: all('.odds-pct'), legend: all('.odds-chance') };
            }""",
            win,
        )
        assert texts == {"bar": expected, "legend": expected}, (win, texts)


def test_the_browser_writes_chances_as_the_terminal_does(page: Any, server: Server) -> None:
    """The browser's formatChance (the odds bar's whole percentages, the hints' tenths) and
    core.i18n.format_chance write every chance alike, in each language: the edges, the
    halves and random chances."""
    rng = random.Random(7)
    chances = [0.0, 1.0, 0.004999, 0.005, 0.015, 0.125, 0.5, 0.994999, 0.995, 0.9951, 1e-12]
    chances += [0.0005, 0.00049, 0.9995, 0.99951, 0.0125, 0.6125]
    chances += [1 - 1e-12, *(rng.random() for _ in range(200)), *(k / 200 for k in range(201))]
    for lang in ("en", "de", "pl"):
        page.goto(f"{server.url}/?lang={lang}")
        page.wait_for_selector(f"html[lang={lang}] #create-form")
        written = page.evaluate(
            """async (chances) => {
                const odds = await import('/static/js/parts/odds.js');
                const i18n = await import('/static/js/i18n.js');
                return [chances.map(odds.percent), chances.map((p) => i18n.formatChance(p, 1))];
            }""",
            chances,
        )
        for places, shown in enumerate(written):  # the odds bar's whole percentages, the hints'
            expected = [format_chance(p, lang, places=places) for p in chances]
            wrong = [(p, w, e) for p, w, e in zip(chances, shown, expected, strict=True) if w != e]
            assert not wrong, (lang, places, wrong[:5])


def test_odds_bar_of_an_estimate_with_many_players(page: Any, server: Server) -> None:
    """A simulated Championship: "≈" and "±" on every chance, a narrow segment keeps its
    chance in the label, names stay text."""
    page.goto(server.url + "/")
    odds = {
        "win": [0.512, 0.301, 0.176, 0.031],
        "exact": False,
        "se": [0.0035, 0.0032, 0.0027, 0.0012],
        "label": "chance of the most honours (a tie counts for each)",
    }
    names = ["Ann", "<i>Bob</i>", "Cy", "Dee"]
    page.evaluate(
        """async ([odds, names]) => {
            const m = await import('/static/js/parts/odds.js');
            const box = document.createElement('div');
            box.id = 'odds-test';
            box.append(m.oddsBar({ odds, names, me: 0 }));
            document.querySelector('main').prepend(box);
        }""",
        [odds, names],
    )
    legend = page.locator("#odds-test .odds-legend")
    assert legend.get_attribute("aria-label") == (
        "Chance of the most honours (a tie counts for each)"
    )
    assert [li.text_content() for li in legend.locator("li").all()] == [
        "Ann ≈51% ±0.4%",
        "<i>Bob</i> ≈30% ±0.3%",
        "Cy ≈18% ±0.3%",
        "Dee ≈3% ±0.1%",
    ]
    assert page.locator("#odds-test i").count() == 0
    assert page.locator("#odds-test .odds-seg").count() == 4
    assert "standard error" in page.locator("#odds-test .odds-note").inner_text()
    ARTIFACT = "odds-bar-estimate"
    for label_, size in (("phone", ui.PHONE), ("desktop", ui.DESKTOP)):
        page.set_viewport_size(size)
        ui.ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.locator("#odds-test").screenshot(path=str(ui.ARTIFACTS / f"{ARTIFACT}-{label_}.png"))


def test_reload_continues_at_the_same_seat(page: Any, server: Server) -> None:
    ui.create_room(page, server.url, "wurfeltod", ["human", "bot:greedy"], name="Reloader")
    ui.start_if_host(page)
    ui.play(page, ui.wurfeltod, stop_after=3)  # a few actions, then reload
    page.wait_for_selector("body[data-my-turn=true]")
    seq = int(page.get_attribute("body", "data-seq"))
    page.reload()
    page.wait_for_selector("body[data-my-turn=true]")
    assert page.get_attribute("body", "data-seat") == "0"
    assert int(page.get_attribute("body", "data-seq")) >= seq
    assert page.locator(".seat.me .seat-name").inner_text() == "Reloader"
    assert page.locator(".conn[data-status=online]").count() == 1
    assert ui.wurfeltod(page, random.Random(3))  # and it still plays


# Records every WebSocket the page opens, so a test can drop one as a network failure would.
_KEEP_SOCKETS = """
(() => {
  const Real = window.WebSocket;
  window.__sockets = [];
  window.WebSocket = class extends Real {
    constructor(...args) {
      super(...args);
      window.__sockets.push(this);
    }
  };
})();
"""


def test_a_dropped_socket_reconnects_by_itself_at_the_same_seat(page: Any, server: Server) -> None:
    page.add_init_script(_KEEP_SOCKETS)
    ui.create_room(page, server.url, "wurfeltod", ["human", "bot:greedy"], name="Dropper")
    ui.start_if_host(page)
    ui.play(page, ui.wurfeltod, stop_after=3)  # mid-game, then the network drops
    page.wait_for_selector("body[data-my-turn=true]")
    page.wait_for_selector(".conn[data-status=online]")
    seq = page.get_attribute("body", "data-seq")
    table = page.inner_text("#table")
    opened = page.evaluate("() => window.__sockets.length")
    # no reload: the socket dies under the page (4000: an abnormal end, not a refusal)
    page.evaluate("() => window.__sockets.at(-1).close(4000, 'network drop')")
    page.wait_for_selector(".conn[data-status=reconnecting]")
    page.wait_for_selector(".conn[data-status=online]")
    assert page.evaluate("() => window.__sockets.length") == opened + 1  # a new socket, by itself
    page.wait_for_selector("body[data-my-turn=true]")
    assert page.get_attribute("body", "data-seat") == "0"
    assert page.get_attribute("body", "data-seq") == seq  # resumed from the snapshot
    assert page.inner_text("#table") == table  # the same view
    assert page.locator(".seat.me .seat-name").inner_text() == "Dropper"
    assert ui.wurfeltod(page, random.Random(5))  # and the game goes on
    ui.wait_until(page, "(seq) => Number(document.body.dataset.seq) > seq", int(seq or 0))


def test_a_typed_name_survives_a_room_update_before_claiming(browser: Any, server: Server) -> None:
    """Issue 20: a re-render (here another player's claim) replaced the claim form and lost
    the name typed into it, so the claim then asked for a name and nobody was seated."""
    ctx_a, ctx_b = ui.new_context(browser), ui.new_context(browser)
    a, b = ctx_a.new_page(), ctx_b.new_page()
    try:
        code = ui.create_room(a, server.url, "dice-duel", ["human"] * 3, name="Ann")
        b.goto(f"{server.url}/r/{code}")
        b.wait_for_selector("button[data-key=claim-2]")
        b.fill("#claim-name", "Larks")
        claim = urllib.request.Request(
            f"{server.url}/api/rooms/{code}/seats/2/claim",
            data=json.dumps({"name": "Cy", "contribution": "c2"}).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        urllib.request.urlopen(claim, timeout=ui.TIMEOUT_S).close()
        b.wait_for_selector("#seats :text('Cy')")  # the update reached b and re-rendered
        assert b.locator("button[data-key=claim-2]").count() == 0
        assert b.input_value("#claim-name") == "Larks"
        b.click("button[data-key=claim-1]")
        b.wait_for_selector("body[data-status=playing][data-seat='1']")
    finally:
        ctx_a.close()
        ctx_b.close()


def test_decades_two_teams_never_see_the_other_choice(browser: Any, server: Server) -> None:
    ctx_a = ui.new_context(browser, ui.PHONE)
    ctx_b = ui.new_context(browser, ui.DESKTOP)
    a, b = ctx_a.new_page(), ctx_b.new_page()
    try:
        code = ui.create_room(a, server.url, "decades", ["human", "human"], name="Owls")
        b.goto(f"{server.url}/r/{code}")
        b.fill("#claim-name", "Larks")
        b.click("button[data-key=claim-1]")
        for p in (a, b):
            p.wait_for_selector("body[data-status=playing]")
        # chat is text, never markup
        a.fill("#chat-input", "<i>hello</i> Larks")
        a.press("#chat-input", "Enter")
        b.wait_for_selector(".chat-list li:has-text('<i>hello</i> Larks')")
        assert b.locator(".chat-list i").count() == 0
        pages = {0: a, 1: b}
        rng = random.Random(5)
        steps = checked = 0
        shots = {3: "decades-answer", 40: "decades-later"}
        while not a.locator("body[data-status=finished]").count():
            progressed = False
            for team, p in pages.items():
                other = pages[1 - team]
                if p.locator("body[data-my-turn=true]").count() == 0:
                    continue
                seq = p.get_attribute("body", "data-seq")
                if int(other.get_attribute("body", "data-seq") or 0) > int(seq or 0):
                    continue  # p has not yet heard the other team's last move: look again
                answering = p.locator("#table button.cell:enabled").count() > 0
                # has the other team already locked in its year for this question?
                other.wait_for_selector(f"body[data-seq='{seq}']")
                other_chose = other.locator("#table button.cell:enabled").count() == 0
                if steps in shots:
                    ui.shoot(p, shots[steps])
                assert ui.decades(p, rng)
                steps += 1
                progressed = True
                p.wait_for_selector(f"body:not([data-seq='{seq}']), body[data-status=finished]")
                if answering and not other_chose:
                    new_seq = p.get_attribute("body", "data-seq")
                    other.wait_for_selector(f"body[data-seq='{new_seq}']")
                    _check_hidden(p, other, team)
                    checked += 1
                if steps == 2:
                    ui.check_axe(p, "decades table")
            if not progressed:
                a.wait_for_timeout(50)
            assert steps < 400
        assert checked >= 10
        for p in (a, b):
            p.wait_for_selector("#end:not([hidden]) .ranks li")
            p.wait_for_selector(".fair-check[data-checked=ok]")
        ui.shoot(a, "decades-end")
    finally:
        ctx_a.close()
        ctx_b.close()


def _check_hidden(me: Any, other: Any, team: int) -> None:
    """After ``team`` locked in a year: until the other team answers too, the other team's
    page shows no more of our answers than have been revealed."""
    pending = me.locator(f".board.team-{team} .mark.pending").first
    year, q = pending.get_attribute("data-year"), pending.get_attribute("data-q")
    mine = me.locator(f".board.team-{team} .mark[data-team='{team}']").count()
    theirs = other.locator(f".board.team-{team} .mark[data-team='{team}']").count()
    assert theirs == mine - 1, (mine, theirs)
    text = other.content()
    assert "mark pending" not in text  # they have not chosen, and they never see ours
    assert f'data-team="{team}" data-year="{year}" data-q="{q}"' not in text


def test_lobby_and_waiting_room_accessibility(page: Any, server: Server) -> None:
    deck_id = server.add_deck(Deck("<b>party</b>", default_deck().cards[:6]))
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    # the page carries a CSP without unsafe-inline scripts
    response = page.request.get(server.url + "/")
    csp = response.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    ui.check_axe(page, "lobby")
    for game in ("decathlon", "dice-duel", "wurfeltod", "decades"):
        page.click(f"button[data-game='{game}']")
        page.wait_for_selector(f"#game-detail a[href^='/rules?game={game}&lang=']")
    ui.shoot(page, "lobby")
    # a fixed seat count reads as one number ("2 teams", not "2 to 2 teams")
    assert page.locator("#game-detail .game-info p.muted").inner_text() == "2 teams"
    # the deck select: the shipped deck, then the decks in the page's language (the
    # library's English one), then the shipped deck in German and Polish; names as text
    options = page.locator("#opt-deck option")
    values = options.evaluate_all("os => os.map(o => o.value)")
    assert values == ["", deck_id, "shipped-de", "shipped-pl"]
    assert options.nth(1).text_content() == "<b>party</b> (English, 6 cards)"
    assert page.locator("#opt-deck b").count() == 0
    code = ui.create_room(
        page,
        server.url,
        "decades",
        ["human", "human"],
        name="Host",
        public=True,
        choices={"deck": deck_id},
    )
    room = page.request.get(f"{server.url}/api/rooms/{code}").json()
    assert room["options"]["deck"] == deck_id
    page.wait_for_selector("#waiting:not([hidden]) #start")
    ui.check_axe(page, "waiting room")
    ui.shoot(page, "room-waiting")
    page.goto(server.url + "/")
    page.wait_for_selector(f"#mine a[href='/r/{code}']")  # remembered in this browser
    page.wait_for_selector(f"#open a[href='/r/{code}']")  # and listed as public
    page.goto(f"{server.url}/rules?game=decathlon")
    page.wait_for_selector("main h2")


def test_hint_panel_renders_any_advice(page: Any, server: Server) -> None:
    page.goto(server.url + "/")
    advice = {
        "objectives": [
            {"name": "expected result", "unit": "points", "best": 1, "note": ""},
            {"name": "P(win)", "unit": "probability", "best": 0, "note": "against the leader"},
        ],
        "options": [
            {"action": {"type": "stop"}, "label": "stop <b>now</b>", "values": [12.0, 0.61]},
            {"action": {"type": "rethrow"}, "label": "rethrow", "values": [13.5, 0.4]},
        ],
        "note": "",
    }
    rows = page.evaluate(
        """async (advice) => {
            const m = await import('/static/js/parts/hint.js');
            document.querySelector('main').append(m.advicePanel(advice, () => {}));
            return document.querySelectorAll('.advice-table tbody tr').length;
        }""",
        advice,
    )
    assert rows == 2
    assert "rethrow" in page.locator(".advice-table tr.best th").inner_text()
    assert page.locator(".advice-table td.best-cell").count() == 2
    assert "61.0%" in page.locator(".advice-table").inner_text()
    assert page.locator(".advice-table b").count() == 0  # labels are text


def test_replay_steps_through_a_finished_game(page: Any, server: Server) -> None:
    made = urllib.request.Request(
        server.url + "/api/rooms",
        data=json.dumps(
            {"game": "dice-duel", "seats": ["bot:random"] * 2, "room": {"bot_pace": 0}}
        ).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(made, timeout=ui.TIMEOUT_S) as r:
        code = json.loads(r.read())["code"]
    ui.poll(
        page,
        lambda: _api(server, f"/api/rooms/{code}")["status"] == "finished",
        "the bots' game finished",
        every_ms=100,
    )
    page.goto(f"{server.url}/replay?room={code}")
    page.wait_for_selector("#stepper:not([hidden])")
    page.wait_for_selector("#table .dice-duel")
    assert "verified" in page.locator("#replay-info").inner_text()
    assert page.locator("#prev").is_disabled()
    first = page.locator("#table").inner_text()
    for _ in range(5):
        page.click("#next")
    assert page.locator("#position").inner_text().startswith("Step 5")
    assert page.locator("#table").inner_text() != first
    page.click("#prev")
    assert page.locator("#position").inner_text().startswith("Step 4")
    page.click("#last")
    assert page.locator("#next").is_disabled()
    assert "Game over" in page.locator("#table .status-line").inner_text()
    ui.shoot(page, "replay-end")
    page.click("#first")
    assert page.locator("#table").inner_text() == first


def test_replay_api_refuses_a_damaged_record(server: Server) -> None:
    bad = urllib.request.Request(
        server.url + "/api/replay",
        data=b'{"type": "header"}\nnot json',
        method="POST",
        headers={"Content-Type": "application/x-ndjson"},
    )
    try:
        urllib.request.urlopen(bad, timeout=ui.TIMEOUT_S)
        raise AssertionError("a damaged record was accepted")
    except urllib.error.HTTPError as exc:
        assert exc.code == 400
        assert json.loads(exc.read())["code"] == "bad_record"


def test_a_broken_room_says_it_cannot_continue(page: Any, server: Server) -> None:
    """A room written to the database that no server could rebuild (a solo game with two
    seats): its page says it cannot continue, and why."""
    import sqlalchemy as sa

    source = ui.create_room(page, server.url, "dice-duel", ["human", "human"])
    code = f"broken{random.randrange(10**9)}"
    engine = sa.create_engine(server.db_url)
    try:
        with engine.begin() as conn:
            meta = sa.MetaData()
            rooms = sa.Table("rooms", meta, autoload_with=conn)
            seats = sa.Table("seats", meta, autoload_with=conn)
            row = dict(conn.execute(sa.select(rooms).where(rooms.c.code == source)).one()._mapping)
            old_id = row.pop("id")
            row |= {"code": code, "status": "playing", "options": '{"mode": "solo"}'}
            new_id = conn.execute(rooms.insert().values(**row).returning(rooms.c.id)).scalar_one()
            for seat in conn.execute(sa.select(seats).where(seats.c.room_id == old_id)).all():
                values = dict(seat._mapping)
                values.pop("id")
                conn.execute(seats.insert().values(**values | {"room_id": new_id}))
    finally:
        engine.dispose()
    page.goto(f"{server.url}/r/{code}")
    page.wait_for_selector("body[data-status=broken]")
    end = page.locator("#end")
    end.wait_for()
    assert "This room cannot continue" in end.inner_text()
    assert "solo variant is for 1 player" in end.inner_text()
    ui.check_axe(page, "broken room")
