"""Issue 40 at the table, in Chromium: undo with the terminal's rule (seen by everyone),
the turn clock's move said as the clock's, "your dice make it" only on your own turn, the
result moment (still under reduced motion, moving without), proper ordinals, and the
rematch offered to everyone at the table with a button to accept it."""

from __future__ import annotations

import random
from typing import Any

import pytest

from web import webui as ui
from web.webui import Server

pytestmark = pytest.mark.browser


def _made(server: Server, body: dict[str, Any]) -> str:
    return str(ui.post_json(server.url, "/api/rooms", body)["code"])


def _seq(page: Any) -> int:
    return int(page.get_attribute("body", "data-seq") or "-1")


# ----- undo -------------------------------------------------------------------------------------
def test_undo_takes_back_a_freeze_and_everyone_sees_it(browser: Any, server: Server) -> None:
    code = _made(
        server,
        {
            "game": "decathlon",
            "seats": ["human"],
            "options": {"events": "long-jump"},
            "room": {"bot_pace": 0},
        },
    )
    ctx, watch_ctx = ui.new_context(browser), ui.new_context(browser)
    page, watcher = ctx.new_page(), watch_ctx.new_page()
    try:
        ui.sit(page, server.url, code, 0, "Ann")
        watcher.goto(f"{server.url}/r/{code}")
        page.wait_for_selector("body[data-my-turn=true]")
        watcher.wait_for_selector("body[data-status=playing]")
        assert page.locator("#undo").count() == 0  # nothing to take back yet
        seq = _seq(page)
        dice = ui.enabled(page, "button.die")
        for i in range(dice.count()):  # freeze the first die the run-up allows
            dice.nth(i).click()
            if ui.enabled(page, "button[data-key=freeze]").count():
                break
            dice.nth(i).click()
        ui.enabled(page, "button[data-key=freeze]").click()
        page.wait_for_selector(f"body[data-seq='{seq + 1}'] #undo:enabled")
        watcher.wait_for_selector(f"body[data-seq='{seq + 1}']")
        assert watcher.locator("#undo").count() == 0  # only the mover may
        ui.check_layout(page, "the undo button in the bar")
        ui.shoot(page, "room-undo")
        page.click("#undo")
        page.wait_for_selector(f"body[data-seq='{seq}'][data-my-turn=true]")
        watcher.wait_for_selector(f"body[data-seq='{seq}']")
        assert page.locator(".log-list li.undo-note").inner_text() == "You took back your last move"
        assert (
            watcher.locator(".log-list li.undo-note").inner_text()
            == "Ann took back their last move"
        )
        assert page.locator("#undo").count() == 0  # one move back, not more
        assert page.locator("#error").is_hidden()
    finally:
        ctx.close()
        watch_ctx.close()


# ----- the turn clock ---------------------------------------------------------------------------
def test_the_clock_s_move_is_said_as_the_clock_s(page: Any, server: Server) -> None:
    code = _made(
        server,
        {
            "game": "toy",
            "seats": ["human", "bot:random"],
            "options": {"target": 50},
            "room": {"bot_pace": 0, "turn_clock": 2},
        },
    )
    ui.sit(page, server.url, code, 0, "Slow")
    # every decision of ours runs out: a bot makes it, and the table says so
    page.wait_for_selector(".log-list li.clock-note")
    note = page.locator(".log-list li.clock-note").first.inner_text()
    assert note == "Your time ran out: a bot made this move for you"


# ----- "your dice make it" ----------------------------------------------------------------------
def test_your_dice_make_it_only_on_your_own_turn(browser: Any, server: Server) -> None:
    code = _made(
        server,
        {"game": "dice-duel", "seats": ["human", "human"], "room": {"bot_pace": 0}},
    )
    contexts = [ui.new_context(browser) for _ in range(2)]
    pages = [c.new_page() for c in contexts]
    try:
        for seat, (page, name) in enumerate(zip(pages, ("Ann", "Bo"), strict=True)):
            ui.sit(page, server.url, code, seat, name)
        rng = random.Random(3)
        seen = 0
        for _step in range(200):
            ui.poll(
                pages[0],
                lambda: any(p.get_attribute("body", "data-my-turn") == "true" for p in pages),
                "someone to act",
            )
            mover = next(p for p in pages if p.get_attribute("body", "data-my-turn") == "true")
            other = pages[1] if mover is pages[0] else pages[0]
            other.wait_for_selector(f"body[data-seq='{_seq(mover)}']")
            if other.locator("#table .chips .chip.can").count():
                seen += 1  # the mover's dice make a chip: the other is not told "your dice"
                assert other.locator("#table .makes-tag").count() == 0
            if seen >= 2:
                break
            seq = _seq(mover)
            assert ui.dice_duel(mover, rng)
            mover.wait_for_selector(f"body:not([data-seq='{seq}'])")
        assert seen >= 2, "the dice never made a chip on the plate"
    finally:
        for c in contexts:
            c.close()


# ----- the end: result moment, ordinals, rematch ------------------------------------------------
def _play_to_the_end(pages: list[Any]) -> None:
    rng = random.Random(5)
    while not all(p.locator("body[data-status=finished]").count() for p in pages):
        acting = [p for p in pages if p.get_attribute("body", "data-my-turn") == "true"]
        if not acting:
            pages[0].wait_for_timeout(30)  # a polling interval, not a wait for something
            continue
        seq = _seq(acting[0])
        assert ui.toy(acting[0], rng)
        acting[0].wait_for_selector(f"body:not([data-seq='{seq}']), body[data-status=finished]")


def test_the_result_moment_and_the_rematch_offered_to_everyone(
    browser: Any, server: Server
) -> None:
    code = _made(
        server,
        {"game": "toy", "seats": ["human", "human"], "options": {"target": 2}},
    )
    contexts = [ui.new_context(browser) for _ in range(2)]  # reduced motion
    ann, bo = (c.new_page() for c in contexts)
    try:
        ui.sit(ann, server.url, code, 0, "Ann")
        ui.sit(bo, server.url, code, 1, "Bo")
        _play_to_the_end([ann, bo])
        for page in (ann, bo):
            page.wait_for_selector("#end .result-moment.live")
        winner, loser = (ann, bo) if ann.locator(".result-moment.won").count() else (bo, ann)
        assert winner.locator(".moment-headline").inner_text() == "You won!"
        assert loser.locator(".moment-headline").inner_text() == "You came 2nd of 2"
        assert loser.locator(".rank").first.inner_text() == "1st"
        # reduced motion: it stands still
        moving = loser.evaluate(
            "() => getComputedStyle(document.querySelector('.result-moment')).animationName"
        )
        assert moving == "none"
        ui.check_layout(winner, "the result moment")
        ui.shoot(winner, "room-result-moment")
        # Ann offers the rematch: Bo sees it at the table (not as a chat line) and accepts
        ann.click("#again")
        ann.wait_for_url(lambda url: f"/r/{code}" not in url)
        ann.wait_for_selector("body[data-seat='0']")
        new_code = ann.url.rsplit("/", 1)[-1]
        offer = bo.locator(".rematch-offer")
        offer.wait_for()
        assert offer.inner_text().startswith("Ann offers a rematch")
        assert bo.locator("#chat-list li").count() == 0
        ui.check_layout(bo, "the rematch offer")
        ui.shoot(bo, "room-rematch-offer")
        bo.click("#accept-rematch")
        bo.wait_for_url(f"**/r/{new_code}")
        bo.wait_for_selector("body[data-seat='1']")
        ann.wait_for_selector("body[data-status=playing]")
    finally:
        for c in contexts:
            c.close()


def test_the_result_moment_moves_without_reduced_motion(browser: Any, server: Server) -> None:
    code = _made(
        server,
        {
            "game": "toy",
            "seats": ["human", "bot:random"],
            "options": {"target": 2},
            "room": {"bot_pace": 0},
        },
    )
    ctx = ui.new_context(browser, reduced_motion="no-preference")
    page = ctx.new_page()
    try:
        ui.sit(page, server.url, code, 0, "Ann")
        _play_to_the_end([page])
        page.wait_for_selector("#end .result-moment.live")
        moving = page.evaluate(
            "() => getComputedStyle(document.querySelector('.result-moment')).animationName"
        )
        assert moving == "moment-in"
        # a reload is no moment: the result stands, still
        page.reload()
        page.wait_for_selector("#end .result-moment")
        assert page.locator(".result-moment.live").count() == 0
    finally:
        ctx.close()


def test_ordinals_in_every_language(page: Any, server: Server) -> None:
    said = {}
    for lang in ("en", "de", "pl"):
        page.goto(f"{server.url}/?lang={lang}")
        page.wait_for_selector(f"html[lang={lang}]")
        said[lang] = page.evaluate(
            """async () => { const i18n = await import("/static/js/i18n.js");
              return [1, 2, 3, 4, 11, 22].map((n) => i18n.ordinal(n)); }"""
        )
    assert said["en"] == ["1st", "2nd", "3rd", "4th", "11th", "22nd"]
    assert said["de"] == ["1.", "2.", "3.", "4.", "11.", "22."]
    assert said["pl"] == ["1.", "2.", "3.", "4.", "11.", "22."]
    page.goto(f"{server.url}/")  # the next test's page starts in English
    page.evaluate("() => localStorage.removeItem('gamenight.lang')")
