"""The rules page, the favicon and the replay page (issue 23 items 12, 13, 15 and the
replay's autoplay and step links)."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from gamenight.cli.main import run
from gamenight.core import registry
from gamenight.web import STATIC
from gamenight.web.rules import player_markdown, rules_html
from web import webui as ui
from web.webui import Server

pytestmark = pytest.mark.browser

GAMES = ("decathlon", "dice-duel", "wurfeltod", "decades")
RULING_ID = re.compile(r"\b[DKTW]\d{1,2}\b")
# the terminal's and the developers' words, which the web rules leave out
CLI_WORDS = ("gamenight play", "gamenight decks", "boards.py", "cards.py", "Option names", "-o ")


def _api(server: Server, path: str) -> Any:
    with urllib.request.urlopen(server.url + path, timeout=ui.TIMEOUT_S) as r:
        return json.loads(r.read())


def finished_room(server: Server, game: str = "dice-duel") -> str:
    """A room two random bots have played to the end; its code."""
    made = urllib.request.Request(
        server.url + "/api/rooms",
        data=json.dumps({"game": game, "seats": ["bot:random", "bot:random"]}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(made, timeout=ui.TIMEOUT_S) as r:
        code = str(json.loads(r.read())["code"])
    deadline = time.monotonic() + ui.TIMEOUT_S
    while _api(server, f"/api/rooms/{code}")["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' game did not finish"
        time.sleep(0.1)  # polling the server, not waiting on the page
    return code


def upload(page: Any, name: str, content: bytes) -> None:
    """Choose ``content`` as the replay page's record file."""
    record = {"name": name, "mimeType": "application/x-ndjson", "buffer": content}
    page.set_input_files("#record-file", files=[record])


# ----- the rules, without a browser ---------------------------------------------------------
def test_rules_html_escapes_raw_html_and_keeps_only_safe_links() -> None:
    text = (
        "# Title\n\n<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n"
        "A [doc](../x.md), [site](https://example.org), [bad](javascript:alert(1)) "
        "and <b>bold</b> (K2).\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n"
    )
    out = rules_html(text)
    assert "<script" not in out and "<img" not in out and "<b>" not in out
    assert "&lt;script&gt;" in out and "&lt;b&gt;bold&lt;/b&gt;" in out
    assert 'href="https://example.org" rel="noopener noreferrer"' in out
    assert "../x.md" not in out and 'href="javascript' not in out
    assert "style=" not in out and 'class="align-right"' in out  # the CSP allows no style
    assert '<div class="table-wrap"><table>' in out
    assert "<h1" not in out and "Title" not in out  # the page's h1 is the game's name
    assert "(K2)" not in out


def test_the_web_rules_leave_out_the_terminal_parts_and_ruling_ids() -> None:
    for entry in registry.available():
        if entry.id not in GAMES:
            continue
        source = entry.rules_text()
        assert "<!-- cli -->" in source, entry.id
        text = re.sub(r"<[^>]+>", "", rules_html(source))
        assert not RULING_ID.findall(text), (entry.id, RULING_ID.findall(text))
        assert not [w for w in CLI_WORDS if w in text], entry.id
        assert "|---" not in text and "| " not in text, entry.id  # tables are tables
        assert "<!--" not in player_markdown(source)


def test_the_terminal_rules_still_show_everything(capsys: pytest.CaptureFixture[str]) -> None:
    """`gamenight rules` prints the CLI parts (and the markers never show)."""
    for game, words in {
        "dice-duel": ("gamenight play dice-duel", "K2", "Playing in the terminal"),
        "decades": ("gamenight decks import", "boards.py", "Red:Ann+Bob", "T5"),
        "decathlon": ("Option names for", "Playing at the terminal"),
        "wurfeltod": ("gamenight play wurfeltod", "Box keys"),
    }.items():
        try:
            run(["rules", game])
        except SystemExit as exc:
            assert not exc.code
        out = re.sub(r"\s+", " ", capsys.readouterr().out)
        assert "<!--" not in out and "cli -->" not in out, game
        for word in words:
            assert word in out, (game, word)


# ----- the rules page -----------------------------------------------------------------------
def test_the_rules_page_speaks_to_players(page: Any, server: Server) -> None:
    bad: list[str] = []
    page.on("response", lambda r: bad.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    names = {g["id"]: g["name"] for g in _api(server, "/api/games")}
    for game in GAMES:
        page.goto(f"{server.url}/rules?game={game}")
        page.wait_for_selector("main h1")
        assert page.locator("h1").count() == 1
        assert page.locator("main h1").inner_text() == names[game]
        ui.wait_until(page, "(name) => document.title.startsWith(name)", names[game])
        text = page.locator("main").inner_text()
        assert "|---" not in text and "| " not in text, game
        assert not [w for w in CLI_WORDS if w in text], game
        assert not RULING_ID.findall(text), (game, RULING_ID.findall(text))
        if game != "decathlon":  # its only table is the terminal's keys
            assert page.locator("main table").count() >= 1, game
            assert page.locator("main table thead th").count() >= 2, game
        # the contents lead to every section
        targets = page.locator(".rules-toc a").evaluate_all(
            "as => as.map(a => document.getElementById(a.hash.slice(1))?.tagName)"
        )
        assert len(targets) > 2 and set(targets) == {"H2"}, (game, targets)
        # the way back leads to this game in the lobby
        assert page.locator(".rules-back a").get_attribute("href") == f"/?game={game}"
        ui.check_axe(page, f"rules {game}", strict=True)
    ui.check_layout(page, "rules decades")
    ui.shoot(page, "rules-decades")
    assert not bad, bad  # the favicon too: nothing the page asked for was missing


def test_an_unknown_games_rules_page(page: Any, server: Server) -> None:
    response = page.goto(f"{server.url}/rules?game=chess")
    assert response is not None and response.status == 404
    assert page.locator("h1").inner_text() == "No rules for this game."
    ui.check_axe(page, "rules of no game", strict=True)


def test_the_favicon_is_served_and_linked_from_every_page(page: Any, server: Server) -> None:
    icon = page.request.get(server.url + "/favicon.ico")
    assert icon.status == 200 and icon.headers["content-type"].startswith("image/svg+xml")
    assert icon.body() == (STATIC / "img" / "icon.svg").read_bytes()
    for html in sorted(Path(STATIC).glob("*.html")):
        assert 'rel="icon"' in html.read_text(encoding="utf-8"), html.name


# ----- the replay page ----------------------------------------------------------------------
def test_a_rejected_upload_leaves_no_old_record_behind(page: Any, server: Server) -> None:
    code = finished_room(server)
    record = page.request.get(f"{server.url}/api/rooms/{code}/record").text()
    page.goto(f"{server.url}/replay")
    upload(page, "good.jsonl", record.encode())
    page.wait_for_selector("body[data-loaded=verified]")
    assert "verified" in page.locator("#replay-info").inner_text()
    damaged = record.splitlines()[0].encode() + b"\nnot json\n"
    upload(page, "bad.jsonl", damaged)
    page.wait_for_selector("#error:not([hidden])")
    assert "cannot be replayed" in page.locator("#error").inner_text()
    # the error stands alone: no table, no stepper, no "verified" from before
    assert page.locator("#stepper").is_hidden() and page.locator("#table").is_hidden()
    assert page.locator("#table *").count() == 0
    assert "verified" not in page.locator("body").inner_text()
    assert page.locator("#replay-title").inner_text() == "Replay"
    ui.check_axe(page, "replay after a rejected upload", strict=True)
    # a good one again replaces the error
    upload(page, "good.jsonl", record.encode())
    page.wait_for_selector("body[data-loaded=verified]")
    assert page.locator("#error").is_hidden()


def test_replay_autoplay_and_links_to_a_step(browser: Any, server: Server) -> None:
    """Autoplay works under reduced motion (the test contexts ask for it); the address
    follows the step, a link opens that step, and the copy control copies it."""
    code = finished_room(server)
    ctx = ui.new_context(browser, ui.PHONE)
    ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        assert page.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches")
        page.goto(f"{server.url}/replay?room={code}&step=5")
        page.wait_for_selector("body[data-step='5']")
        assert page.locator("#position").inner_text().startswith("Step 5 of")
        page.click("#next")
        page.wait_for_selector("body[data-step='6']")
        assert page.url.endswith(f"/replay?room={code}&step=6")
        page.click("#copy-step")
        page.wait_for_selector("#copied:has-text('step 6')")
        copied = page.evaluate("() => navigator.clipboard.readText()")
        assert copied == f"{server.url}/replay?room={code}&step=6"
        # a copied link opens that step
        other = ctx.new_page()
        other.goto(copied)
        other.wait_for_selector("body[data-step='6']")
        other.close()
        page.bring_to_front()  # a background tab's timers may be frozen
        # autoplay at the fastest speed: it steps by itself, pause stops it
        page.select_option("#speed", "400")
        page.click("#play")
        assert page.locator("#play").get_attribute("aria-pressed") == "true"
        ui.wait_until(page, "() => Number(document.body.dataset.step) >= 8")
        page.click("#play")
        page.wait_for_selector("body[data-playing=false]")
        assert page.locator("#play").inner_text() == "Play"
        stopped = int(page.get_attribute("body", "data-step") or "0")
        page.click("#next")
        page.wait_for_selector(f"body[data-step='{stopped + 1}']")
        # near the end it plays to the last step and stops there by itself
        last = int(page.get_attribute("#scrub", "max") or "0")
        page.click("#last")
        page.click("#prev")
        page.click("#play")
        page.wait_for_selector(f"body[data-step='{last}'][data-playing=false]")
        assert page.locator("#next").is_disabled()
        assert page.url.endswith(f"step={last}")
        # strict axe of the replay page with its table is in test_sweep.py: the table is
        # drawn by parts/sheet.js, whose empty corner header the dice helper fixes
        ui.check_axe(page, "replay")
        ui.check_layout(page, "replay")
    finally:
        ctx.close()
    assert not errors, errors


# ----- a guest's visit ----------------------------------------------------------------------
def test_a_guests_pages_ask_for_nothing_they_are_refused(page: Any, server: Server) -> None:
    """Every page a guest opens, without an account: no request answered 4xx or 5xx (a refused
    request is a red line in the browser's console). The pages once asked GET /api/account
    and got 401; they now ask only when the sign-in hint cookie says a session may exist."""
    refused: list[str] = []

    def note(response: Any) -> None:
        if response.status >= 400:
            refused.append(f"{response.status} {response.url}")

    page.on("response", note)
    code = finished_room(server)
    pages = ("/", "/account", "/account?board=1", "/rules?game=wurfeltod", f"/r/{code}", "/replay")
    for path in pages:
        page.goto(server.url + path)
        page.wait_for_load_state("networkidle")
    assert page.evaluate("() => document.cookie") == ""  # the guest holds no hint
    assert not refused, refused
