"""The pseudo-locale run: every page type and every game's table in ``qps``, a test-only
language made from English (each message lengthened ~40% with accents, in « »:
gamenight.core.i18n.pseudo, the terminal's too). The browser is handed its catalogues
(``js/messages/qps.js``, ``qps/<game>.js``) and vocabulary (``/api/vocabulary/qps/<game>``)
by routes of the test's own; nothing of it ships. On each page:

* no English is left: no visible text (nor aria-label, placeholder, title, the tab's
  title) is an English message of the catalogues or the vocabulary, whole or with its
  placeholders filled;
* nothing overflows (ui.check_layout at 320, 390 and 1366 px) and no text is cut off
  (no element with text of its own is wider or, when it clips, taller inside than out);
* no key is missing (no "missing message" warning).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from gamenight.core.vocabulary import vocabulary
from web import catalogues as cat
from web import webui as ui
from web.webui import Server

pytestmark = pytest.mark.browser

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

TEXTS_JS = """(skip) => {
  const out = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest("script, style, noscript, [hidden]")) continue;
    if (skip && el.closest(skip)) continue;
    if (!el.getClientRects().length) continue;
    const text = n.textContent.trim();
    if (text) out.push(text);
  }
  for (const el of document.querySelectorAll("[aria-label], [placeholder], [title]")) {
    if (el.closest("[hidden]")) continue;
    for (const name of ["aria-label", "placeholder", "title"]) {
      const v = el.getAttribute(name);
      if (v && v.trim()) out.push(v.trim());
    }
  }
  return out;
}"""

# A seat's label in a narrow column is clamped by design (a sheet's head: three lines; the
# Decades' team head: one line, ellipsis), whatever the language: test_sweep.py checks those
# with 40-character names. Everything else with text of its own must show all of it.
CUT_OFF_JS = """() => {
  const NAMES = ".sheet-name, .dc-name";
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    if (el.matches("select, option, input, textarea, script, style, svg, svg *")) continue;
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    if (el.closest("[hidden], .visually-hidden") || !el.getClientRects().length) continue;
    if (el.matches(NAMES)) continue;
    const style = getComputedStyle(el);
    if (style.clipPath === "inset(50%)") continue; // hidden but read (a narrow phone's Play word)
    const text = el.textContent.trim().slice(0, 40);
    const name = `${el.tagName.toLowerCase()}.${[...el.classList].join(".")} "${text}"`;
    if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1)
      out.push(`wider inside (${el.scrollWidth} > ${el.clientWidth}): ${name}`);
    const clips = style.overflowY !== "visible" && el.clientHeight > 0;
    if (clips && el.scrollHeight > el.clientHeight + 1)
      out.push(`cut off below (${el.scrollHeight} > ${el.clientHeight}): ${name}`);
    if (style.textOverflow === "ellipsis" && el.scrollWidth > el.clientWidth)
      out.push(`ellipsis: ${name}`);
  }
  return out.slice(0, 20);
}"""


def _matchers() -> tuple[set[str], list[re.Pattern[str]]]:
    """English texts as exact strings (no placeholders) and as patterns (placeholders
    filled with anything); only texts with at least two letters of their own count (a
    "{rank}." or a "1-1-1" reads the same in every language)."""
    exact: set[str] = set()
    patterns: list[re.Pattern[str]] = []
    for text in cat.english_texts():
        own = re.sub(r"\{\w+\}", "", text)
        if len(re.findall(r"[A-Za-z]", own)) < 2:
            continue
        if own == text:
            exact.add(text.strip())
        elif len(re.findall(r"[A-Za-z]", own)) >= 4:
            parts = re.split(r"\{\w+\}", text.strip())
            patterns.append(re.compile(".+?".join(re.escape(p) for p in parts), re.DOTALL))
    return exact, patterns


EXACT, PATTERNS = _matchers()


def english_left(page: Any, skip: str = "") -> list[str]:
    """The English texts on the page (outside the elements ``skip`` selects)."""
    left = []
    for text in page.evaluate(TEXTS_JS, skip):
        if text in EXACT or any(p.fullmatch(text) for p in PATTERNS):
            left.append(text)
    return sorted(set(left))


def check(page: Any, where: str, warnings: list[str]) -> None:
    """No English, no overflow, nothing cut off at any width; no missing key."""
    assert english_left(page) == [], f"{where}: English left"
    problems: list[str] = []
    before = page.viewport_size
    try:
        for label, size in ui.SIZES.items():
            page.set_viewport_size(size)
            ui.next_frame(page)
            problems += [f"{label}: {p}" for p in page.evaluate(CUT_OFF_JS)]
    finally:
        page.set_viewport_size(before)
    assert problems == [], f"{where}: " + "; ".join(problems)
    ui.check_layout(page, where)
    assert warnings == [], f"{where}: {warnings}"


def _serve(content_type: str, body: str) -> Any:
    def handler(route: Any) -> None:
        route.fulfill(status=200, content_type=content_type, body=body)

    return handler


def _routes(ctx: Any) -> None:
    """The pseudo-locale's catalogues and vocabulary, made from English on the fly."""
    js = "text/javascript; charset=utf-8"
    ctx.route("**/static/js/messages/qps.js", _serve(js, cat.pseudo_module(cat.shared("en"))))
    for game in cat.GAMES:
        module = cat.pseudo_module(cat.game("en", game))
        ctx.route(f"**/static/js/messages/qps/{game}.js", _serve(js, module))
        words = json.dumps(vocabulary(game, cat.PSEUDO), ensure_ascii=False)
        ctx.route(f"**/api/vocabulary/qps/{game}", _serve("application/json", words))


@pytest.fixture
def qps(browser: Any) -> Iterator[tuple[Any, Any, list[str]]]:
    """A page in the pseudo-locale (remembered as the switcher would), with the warnings
    of missing keys it logs and no JavaScript error."""
    ctx = ui.new_context(browser, ui.PHONE)
    ctx.add_init_script("try { localStorage.setItem('gamenight.lang', 'qps'); } catch (e) {}")
    _routes(ctx)
    page = ctx.new_page()
    warnings: list[str] = []
    errors: list[str] = []
    page.on("console", lambda m: warnings.append(m.text) if "missing message" in m.text else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield ctx, page, warnings
    ctx.close()
    assert errors == []


def test_pseudo_lobby_rules_and_replay(qps: tuple[Any, Any, list[str]], server: Server) -> None:
    _, page, warnings = qps
    for game in cat.GAMES:
        page.goto(f"{server.url}/?game={game}")
        page.wait_for_selector(f"button[data-game='{game}'][aria-checked='true']")
        page.wait_for_selector("html[data-switcher=ready]")
        assert page.evaluate("() => document.documentElement.lang") == "qps"
        page.fill("#my-name", ui.LONG_NAME)
        check(page, f"lobby {game}", warnings)
    page.goto(f"{server.url}/replay")
    page.wait_for_selector("html[data-switcher=ready]")
    check(page, "replay", warnings)
    page.goto(f"{server.url}/rules?game=decathlon")
    page.wait_for_selector("main h1")
    # the rules' own text is in the rules' language (rules_in: English where untranslated);
    # the words around it and the game's name in the heading are the page's
    page.wait_for_selector("html[data-switcher=ready]")
    assert english_left(page, ".rules-text") == []


def test_pseudo_waiting_room(qps: tuple[Any, Any, list[str]], server: Server) -> None:
    _, page, warnings = qps
    ui.create_room(page, server.url, "wurfeltod", ["human", "human"], name=ui.LONG_NAME)
    page.wait_for_selector("#waiting:not([hidden]) #start")
    check(page, "waiting room", warnings)


@pytest.mark.parametrize("game", cat.GAMES)
def test_pseudo_table(qps: tuple[Any, Any, list[str]], server: Server, game: str) -> None:
    """Each game's table at the start and after a few moves (the log has lines then, the
    dice are thrown), with the live odds and the hint panel open where the game has them:
    their words come from the server in the game's English (odds labels, the advisor's
    columns and notes) and must be said again in the page's language."""
    _, page, warnings = qps
    page.goto(f"{server.url}/?game={game}")
    page.wait_for_selector(f"button[data-game='{game}'][aria-checked='true']")
    odds = ("odds",) if page.locator("#odds").count() else ()
    ui.create_room(page, server.url, game, ["human", BOTS[game]], name="Ann", checks=odds)
    ui.start_if_host(page)
    page.wait_for_selector("body[data-my-turn=true]")
    check(page, f"{game} start", warnings)
    ui.play(page, CHOOSERS[game], stop_after=3)
    page.wait_for_selector("body[data-my-turn=true], body[data-status=finished]")
    if page.locator("#hint-button:enabled").count():
        page.click("#hint-button")
        page.wait_for_selector("#hint[data-state=shown], #hint[data-state=error]")
    ui.shoot(page, f"qps-{game}")
    check(page, f"{game} playing", warnings)


def test_pseudo_end_and_replay(qps: tuple[Any, Any, list[str]], server: Server) -> None:
    """A one-event Decathlon played to its end: the end screen, then its replay."""
    _, page, warnings = qps
    code = ui.create_room(page, server.url, "decathlon", ["human"], events=["100m"])
    ui.start_if_host(page)
    ui.play(page, ui.decathlon)
    page.wait_for_selector("#end:not([hidden]) .fair-check[data-checked=ok]")
    check(page, "end", warnings)
    page.goto(f"{server.url}/replay?room={code}")
    page.wait_for_selector("body[data-loaded=verified]")
    check(page, "replay of a game", warnings)
