"""Plug-in boards and the generic table in Chromium (issue 40, 8 and 9).

The toy plug-in (tests/plugins/toy) ships its own board and message files in its package's
``web/`` folder; the room finds them through the entry point (installed.js), loads only
that game's board, and asks for no file it lacks (no 404). The generic table, for a game
without a board, is checked with a view and legal moves made up for it: nested lists by
seat name, and every one of 143 moves reachable by paging or searching.
"""

from __future__ import annotations

import json
import re
from typing import Any

from web import webui as ui
from web.webui import Server

BUILT_IN_BOARDS = re.compile(r"/js/games/(decathlon|dice-duel|wurfeltod|decades)\.js$")


class Traffic:
    """Every response a page got, and its console's errors."""

    def __init__(self, page: Any) -> None:
        self.responses: list[tuple[int, str]] = []
        self.console: list[str] = []
        page.on("response", lambda r: self.responses.append((r.status, r.url)))
        page.on("console", lambda m: self.console.append(m.text) if m.type == "error" else None)

    def failed(self) -> list[tuple[int, str]]:
        return [(status, url) for status, url in self.responses if status >= 400]

    def boards(self) -> list[str]:
        return [url for _, url in self.responses if BUILT_IN_BOARDS.search(url)]

    def urls(self, part: str) -> list[str]:
        return [url for _, url in self.responses if part in url]


def test_the_toy_plugin_plays_on_its_own_board(page: Any, server: Server) -> None:
    traffic = Traffic(page)
    ui.create_room(page, server.url, "toy", ["human", "bot:random"], name="Ann")
    ui.start_if_host(page)
    page.wait_for_selector("#table .toy-board")
    board = page.locator("#table .toy-board")
    # its own words (web/messages/en.js) and the seats by name
    assert "First to 10 points" in board.inner_text()
    names = page.locator("#table .toy-name").all_inner_texts()
    assert names[0] == "Ann" and len(names) == 2, names
    ui.shoot(page, "toy-board")
    steps = ui.play(page, ui.toy, max_steps=200)
    assert steps > 0
    log = page.locator("#log, .log").first.inner_text()
    assert re.search(r"Ann (rolls a [1-6]|banks \d+ points?)", log), log
    # the board and the messages came from the plug-in's package, nothing else was missing
    assert traffic.urls("/static/games/toy/board.js") and traffic.urls("/games/toy/messages/en.js")
    assert traffic.failed() == [], traffic.failed()
    assert not [c for c in traffic.console if "404" in c or "Failed" in c], traffic.console
    assert traffic.boards() == []  # no built-in game's board on a toy table


def test_the_toy_board_speaks_german(browser: Any, server: Server) -> None:
    ctx = ui.new_context(browser, ui.PHONE)
    ctx.add_init_script("try { localStorage.setItem('gamenight.lang', 'de'); } catch (e) {}")
    page = ctx.new_page()
    try:
        traffic = Traffic(page)
        ui.create_room(page, server.url, "toy", ["human", "bot:random"], name="Anna")
        ui.start_if_host(page)
        page.wait_for_selector("html[lang=de] #table .toy-board")
        assert page.locator("#table .toy-title").inner_text() == "Wer zuerst 10 Punkte hat"
        assert page.locator("#table button", has_text="Würfeln").count() == 1
        for lang in ("de", "en"):  # English: the fallback of every key
            assert traffic.urls(f"/games/toy/messages/{lang}.js"), lang
        assert traffic.failed() == [], traffic.failed()
    finally:
        ctx.close()


def test_a_built_in_table_loads_only_its_own_board(page: Any, server: Server) -> None:
    traffic = Traffic(page)
    ui.create_room(page, server.url, "dice-duel", ["human", "bot:random"], name="Ann")
    ui.start_if_host(page)
    page.wait_for_selector("#table .panel")
    boards = traffic.boards()
    assert [b.rsplit("/", 1)[-1] for b in boards] == ["dice-duel.js"], boards
    assert all("/v/" in b for b in boards), boards  # the versioned, cached copy
    assert traffic.failed() == [], traffic.failed()


# ----- the generic table -------------------------------------------------------------------
GENERIC = """async ([view, legal, names]) => {
  const root = new URL("./", document.querySelector("script[type=module]").src);
  const { default: generic } = await import(new URL("games/generic.js", root).href);
  window.__acted = [];
  const ctx = { view, legal, names, local: {}, seat: 0, act: (a) => window.__acted.push(a),
                rerender: () => {} };
  const table = document.querySelector("#table") || document.querySelector("main");
  table.hidden = false;
  table.replaceChildren(generic.render(ctx));
  return true;
}"""

VIEW = {
    "dice": [[1, 4, 5], [3, 5, 5]],
    "scores": [12, 30],
    "turn": 1,
    "board": {"rows": [[1, 2], [3, 4]], "owner": None, "open": True},
}
MOVES = [{"type": "place", "cell": i, "player": i % 2} for i in range(143)]


def _generic(page: Any, server: Server, legal: list[Any]) -> Any:
    page.goto(f"{server.url}/replay")
    page.wait_for_selector("html[data-switcher=ready]")
    page.evaluate(GENERIC, [VIEW, legal, ["Ann", "Bob"]])
    return page.locator(".generic")


def test_generic_table_shows_nested_views_by_seat_name(page: Any, server: Server) -> None:
    table = _generic(page, server, MOVES[:2])
    fields = table.locator(".view-fields")
    dice = fields.locator("dt:text-is('dice') + dd")
    assert dice.locator(".generic-seats li").all_inner_texts() == [
        "Ann: [1, 4, 5]",
        "Bob: [3, 5, 5]",
    ]
    assert fields.locator("dt:text-is('scores') + dd").inner_text().split("\n") == [
        "Ann: 12",
        "Bob: 30",
    ]
    assert fields.locator("dt:text-is('turn') + dd").inner_text() == "Bob"
    rows = fields.locator("dt:text-is('board') + dd .generic-record dt:text-is('rows') + dd li")
    assert rows.all_inner_texts() == ["[1, 2]", "[3, 4]"]
    assert fields.locator("dt:text-is('open') + dd").inner_text() == "yes"
    # few moves: all of them, counted, no search
    assert table.locator(".generic-count").inner_text() == "2 legal moves"
    assert table.locator("#generic-find").count() == 0
    assert table.locator(".actions button").all_inner_texts() == [
        "place cell=0 player=Ann",
        "place cell=1 player=Bob",
    ]


def test_generic_table_reaches_every_one_of_many_moves(page: Any, server: Server) -> None:
    table = _generic(page, server, MOVES)
    count = table.locator(".generic-count")
    assert count.inner_text() == "Moves 1–20 of 143 (legal: 143)"
    assert table.locator(".actions button").count() == 20
    ui.shoot(page, "generic-many-moves")
    seen: list[str] = []
    for _ in range(10):
        seen += table.locator(".actions button").all_inner_texts()
        if table.locator(".generic-next").is_disabled():
            break
        table.locator(".generic-next").click()
    assert count.inner_text() == "Moves 141–143 of 143 (legal: 143)"
    assert len(seen) == 143 and len(set(seen)) == 143  # every move, each once
    table.locator(".actions button", has_text="place cell=142 player=Ann").click()
    assert page.evaluate("() => window.__acted") == [MOVES[142]]
    # searching: by any part of the label
    table.locator("#generic-find").fill("cell=7")
    assert count.inner_text() == "Moves 1–11 of 11 (legal: 143)"  # 7, 70-79
    table.locator("#generic-find").fill("cell=77 ")
    assert count.inner_text() == "Moves 1–1 of 1 (legal: 143)"
    table.locator(".actions button").click()
    assert page.evaluate("() => window.__acted")[-1] == MOVES[77]
    table.locator("#generic-find").fill("nothing like it")
    assert count.inner_text() == "No move matches “nothing like it”."
    assert json.dumps(MOVES[0])  # the moves were made up for this test, not a game's


def test_generic_table_in_polish(page: Any, server: Server) -> None:
    page.goto(f"{server.url}/replay?lang=pl")
    page.wait_for_selector("html[lang=pl][data-switcher=ready]")
    page.evaluate(GENERIC, [VIEW, MOVES[:5], ["Ann", "Bob"]])
    assert page.locator(".generic-count").inner_text() == "5 dozwolonych ruchów"
    assert page.locator("dt:text-is('open') + dd").inner_text() == "tak"
