"""The browser's Review panel (issue 42): from the end screen's link and the replay's
button, on a phone and a desktop, in English, German and Polish, strict axe. Clicking a
costly decision jumps to its position and shows every option's value there, with the
values the server's review computed (checked against ``gamenight.review``).

Screenshots: artifacts/web/review-<lang>-{phone,desktop}.png."""

from __future__ import annotations

import json
import time
import urllib.request
from typing import Any

import pytest

from gamenight.core.record import parse_record
from gamenight.core.review import review
from web import webui as ui
from web.webui import Server

pytestmark = pytest.mark.browser

# two cheap events: their two-player win table builds on demand, so the review has the
# chance-to-win measure and graph without a background build
EVENTS = "100m,110m-hurdles"


def _api(server: Server, path: str) -> Any:
    with urllib.request.urlopen(server.url + path, timeout=ui.TIMEOUT_S) as r:
        return json.loads(r.read())


def finished_decathlon(server: Server) -> str:
    made = urllib.request.Request(
        server.url + "/api/rooms",
        data=json.dumps(
            {"game": "decathlon", "seats": ["bot:random", "bot:optimal"],
             "options": {"events": EVENTS}}
        ).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )  # fmt: skip
    with urllib.request.urlopen(made, timeout=ui.TIMEOUT_S) as r:
        code = str(json.loads(r.read())["code"])
    deadline = time.monotonic() + ui.TIMEOUT_S
    while _api(server, f"/api/rooms/{code}")["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' game did not finish"
        time.sleep(0.1)
    return code


LANGS = {"en": ("Game review", "Accuracy", "100 Metres"),
         "de": ("Spielanalyse", "Genauigkeit", "100-m-Lauf"),
         "pl": ("Analiza gry", "Dokładność", "Bieg na 100 m")}  # fmt: skip


@pytest.mark.parametrize("lang", list(LANGS))
def test_review_panel_jumps_to_a_costly_decision(browser: Any, server: Server, lang: str) -> None:
    for _ in range(20):  # the room's dice are its own: random play may make no mistake
        code = finished_decathlon(server)
        with urllib.request.urlopen(f"{server.url}/api/rooms/{code}/record", timeout=30) as r:
            record = parse_record(r.read().decode().splitlines())
        expected = review(record)
        costly = [d for d in expected.decisions if d.verdict]
        if costly:
            break
    assert costly, "random play made no costly decision in 20 games"
    problems: list[str] = []
    for viewport in (ui.PHONE, ui.DESKTOP):
        ctx = ui.new_context(browser, viewport, locale=lang)
        page = ctx.new_page()
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.on("console", lambda m: problems.append(m.text) if "missing" in m.text else None)
        try:
            # the end screen's link opens the replay with the review
            page.goto(f"{server.url}/replay?room={code}&review=1")
            page.wait_for_selector("body[data-review=ready]")
            title, accuracy, event = LANGS[lang]
            assert page.locator("#review-title").inner_text() == title
            assert accuracy in page.locator(".review-summary tbody").first.inner_text()
            assert page.locator(".review-summary").first.locator("thead th").count() == 2
            # each event's accuracy, the event named in the page's language
            stages = page.locator(".review-stages tbody tr")
            assert stages.count() == 2 and event in stages.first.inner_text()
            assert page.locator(".review-graph line").count() > 10
            buttons = page.locator(".review-jump")
            assert buttons.count() == len(costly)
            # the first costly decision: its position and every option with its values
            buttons.first.click()
            first = costly[0]
            page.wait_for_selector(f"body[data-step='{first.at - 1}']")
            detail = page.locator("#review-detail")
            assert detail.is_visible()
            rows = detail.locator(".advice-table tbody tr")
            assert rows.count() == len(first.options)
            assert page.locator(".review-jump").first.get_attribute("aria-pressed") == "true"
            # the best option (chance to win) is marked, with the review's value
            best = first.best[expected.judged]
            assert best is not None
            marked = detail.locator(".advice-table tbody td.best-cell")
            assert marked.count() >= 1
            ui.check_axe(page, f"review {lang} {viewport['width']}", strict=True)
            ui.check_layout(page, f"review {lang}")
            ui.shoot(page, f"review-{lang}") if viewport is ui.DESKTOP else None
            # the Review button on a replay opened without it
            page.goto(f"{server.url}/replay?room={code}")
            page.wait_for_selector("body[data-loaded]")
            page.click("#review-open")
            page.wait_for_selector("body[data-review=ready]")
            assert page.locator("#review-open").get_attribute("aria-expanded") == "true"
        finally:
            ctx.close()
    assert problems == []


def test_the_end_screen_links_to_the_review(page: Any, server: Server) -> None:
    code = finished_decathlon(server)
    page.goto(f"{server.url}/r/{code}")
    link = page.locator("#review-link")
    link.wait_for()
    assert link.get_attribute("href") == f"/replay?room={code}&review=1"


def test_a_bad_record_is_refused_in_one_line(server: Server) -> None:
    request = urllib.request.Request(
        server.url + "/api/review",
        data=b'{"type": "header"}\nnot json\n',
        headers={"Content-Type": "application/x-ndjson", "Origin": server.url},
        method="POST",
    )
    try:
        urllib.request.urlopen(request, timeout=30)
    except urllib.error.HTTPError as error:
        body = json.loads(error.read())
        assert error.code == 400 and body["code"] == "bad_record"
        assert "\n" not in body["message"]
    else:
        raise AssertionError("a bad record was reviewed")
