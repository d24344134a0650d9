"""The three dice games' tables in the browser (issue 23): score sheets that add up,
phone-sized controls with 40-character names, the Pole Vault's dice chosen before the jump,
plural texts, one wording for an action in the hint and on the table, the dice animation
and its reduced-motion off switch, and strict axe on every table playing and finished."""

from __future__ import annotations

import json
import random
import re
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from web import webui as ui
from web.webui import Server

pytestmark = pytest.mark.browser

SHEET_ROWS_DD = ("chip-points", "gold", "silver", "stacks", "last-chip")


def _texts(page: Any, selector: str) -> list[str]:
    return [str(x) for x in page.locator(selector).all_inner_texts()]


def _scope_to_table(page: Any) -> None:
    """Hide the page chrome around the table (top bar, side panels, hint): what is left is
    this game's table, which check_layout then measures. The chrome is other work of
    issue 23 (the room page), checked by its own tests."""
    page.evaluate(
        """() => { for (const el of document.querySelectorAll('.top, #side, #hint, #seats, #end'))
             if (!el.hidden) { el.hidden = true; el.dataset.scoped = '1'; } }"""
    )


def _unscope(page: Any) -> None:
    page.evaluate(
        """() => { for (const el of document.querySelectorAll('[data-scoped]')) {
             el.hidden = false; delete el.dataset.scoped; } }"""
    )


def _table_layout(page: Any, where: str) -> None:
    _scope_to_table(page)
    try:
        ui.check_layout(page, where)
    finally:
        _unscope(page)


def _int(text: str) -> int:
    """A number as the sheets show it (a real minus sign)."""
    return int(text.strip().replace("−", "-"))


def _my_turn(page: Any) -> None:
    page.wait_for_selector("body[data-my-turn=true], body[data-status=finished]")


# ----- the worktree's files are the ones served -------------------------------------------
def test_the_server_serves_these_files(server: Server) -> None:
    with urllib.request.urlopen(server.url + "/static/js/i18n.js", timeout=ui.TIMEOUT_S) as r:
        assert "Intl.PluralRules" in r.read().decode()


# ----- plurals ------------------------------------------------------------------------------
def test_plural_messages_pick_the_form_by_count(page: Any, server: Server) -> None:
    page.goto(f"{server.url}/")
    page.wait_for_selector("#create")
    got = page.evaluate(
        """async () => {
          const i18n = await import('/static/js/i18n.js');
          await Promise.all(['dice-duel', 'wurfeltod', 'decathlon'].map(i18n.loadGameMessages));
          const out = {};
          for (const [key, n] of [['dd.rolls_left', 1], ['dd.rolls_left', 2], ['dd.rolls_left', 0],
              ['dd.roll', 1], ['dd.roll', 4], ['dec.freeze', 1], ['dec.freeze', 3],
              ['dec.rethrows', 1], ['dec.jumps', 1], ['dd.chips_left', 1]])
            out[`${key}/${n}`] = i18n.t(key, { count: n });
          out['free/1'] = i18n.t('lobby.free_seats', { n: 1 });  // a call that passes only n
          out['free/3'] = i18n.t('lobby.free_seats', { n: 3 });
          out['wt/1'] = i18n.t('wt.act.set_aside', { dice: '4', count: 1 });
          out['wt/2'] = i18n.t('wt.act.set_aside', { dice: '4 4', count: 2 });
          out['pts/1'] = i18n.t('dec.standing_points', { count: 1, pts: '1' });
          out['hon/1'] = i18n.t('dec.honours_n', { count: 1 });
          return out;
        }"""
    )
    assert got == {
        "dd.rolls_left/1": "1 roll left",
        "dd.rolls_left/2": "2 rolls left",
        "dd.rolls_left/0": "0 rolls left",
        "dd.roll/1": "Roll 1 die",
        "dd.roll/4": "Roll 4 dice",
        "dec.freeze/1": "Freeze 1 die",
        "dec.freeze/3": "Freeze 3 dice",
        "dec.rethrows/1": "1 rethrow left",
        "dec.jumps/1": "1 jump at this height",
        "dd.chips_left/1": "1 chip",
        "free/1": "1 free seat",
        "free/3": "3 free seats",
        "wt/1": "Set aside 4, roll the other die",
        "wt/2": "Set aside 4 4, roll the other 2 dice",
        "pts/1": "1 point",
        "hon/1": "1 honour",
    }


# ----- Dice Duel ----------------------------------------------------------------------------
def _column_points(page: Any, row: str, player: int) -> int:
    cell = page.locator(f"#table .dd-sheet tr[data-row='{row}'] td[data-player='{player}'] .pts-n")
    return _int(cell.inner_text())


def _check_dd_sheet_adds_up(page: Any, players: int) -> list[int]:
    """Every column of the rendered sheet adds up: the combinations' points make the chip
    points, and chip points + gold + silver + full stacks + last chip make the total."""
    combos = page.locator("#table .dd-sheet tr[data-row^='combo-']")
    assert combos.count() == 7
    totals = []
    for p in range(players):
        cells = f"#table .dd-sheet tr[data-row^='combo-'] td[data-player='{p}'] .pts-n"
        combo_sum = sum(int(x) for x in _texts(page, cells))
        assert combo_sum == _column_points(page, "chip-points", p)
        parts = [_column_points(page, row, p) for row in SHEET_ROWS_DD]
        total = _column_points(page, "total", p)
        assert sum(parts) == total, (p, parts, total)
        totals.append(total)
    return totals


def test_dice_duel_table_sheet_texts_and_layout(page: Any, server: Server) -> None:
    ui.create_room(page, server.url, "dice-duel", ["human", "bot:turn-optimal"], name=ui.LONG_NAME)
    ui.start_if_host(page)
    page.wait_for_selector("#table .dice-duel")
    _my_turn(page)
    # the gold and silver bonus rows are on the sheet, with the other bonuses
    for row in SHEET_ROWS_DD:
        assert page.locator(f"#table .dd-sheet tr[data-row='{row}']").count() == 1
    assert "Gold" in page.locator("#table tr[data-row=gold] th").inner_text()
    assert "Silver" in page.locator("#table tr[data-row=silver] th").inner_text()
    # while the dice can be rolled the help says how to keep one
    if page.locator("#table button[data-key=roll]:enabled").count():
        assert "Press a die to keep it" in page.locator("#table").inner_text()
    ui.check_axe(page, "dice duel playing", strict=True)
    _table_layout(page, "dice duel playing")
    ui.shoot(page, "dd-ui-playing")

    def choose(pg: Any, rng: random.Random) -> bool:
        _check_dd_sheet_adds_up(pg, 2)
        assert "1 rolls" not in pg.locator("#table").inner_text()
        # Take buttons are phone-sized
        for box in pg.locator("#table button[data-key^=take-]").all():
            b = box.bounding_box()
            assert b and b["width"] >= 44 and b["height"] >= 44, b
        return ui.dice_duel(pg, rng)

    ui.play(page, choose, seed=7)
    page.wait_for_selector("#end:not([hidden]) .ranks li")
    totals = _check_dd_sheet_adds_up(page, 2)
    table = page.locator("#table").inner_text()
    assert "Press a die" not in table
    assert page.locator("#table button.die").count() == 0 or (
        page.locator("#table button.die:enabled").count() == 0
    )
    assert page.locator("#table .die.selected").count() == 0
    # the sheet's totals are the end screen's scores
    shown = sorted(int(x.replace(",", "")) for x in _texts(page, "#end .ranks .rank-score"))
    assert shown == sorted(totals)
    ui.check_axe(page, "dice duel finished", strict=True)
    _table_layout(page, "dice duel finished")
    ui.shoot(page, "dd-ui-finished")


def test_dice_duel_six_players_long_names_fit_the_phone(page: Any, server: Server) -> None:
    ui.create_room(
        page, server.url, "dice-duel", ["human"] + ["bot:turn-optimal"] * 5, name=ui.LONG_NAME
    )
    ui.start_if_host(page)
    page.wait_for_selector("#table .dice-duel .dd-sheet")
    _my_turn(page)
    _table_layout(page, "dice duel, six players")
    # the long name wraps inside its column: the header is no wider than 9em
    width = page.evaluate(
        "() => document.querySelector('#table .dd-sheet thead th[data-player=\"0\"]')"
        ".getBoundingClientRect().width"
    )
    assert width < 200, width


# ----- Wurfeltod ----------------------------------------------------------------------------
def _fake_advice(legal: list[dict[str, Any]]) -> dict[str, Any]:
    """An Advice over the legal actions, labelled as the server labels them: the panel
    must name each option as the table does, whatever the server's words."""
    options = [
        {"action": a, "label": f"server words {i}", "values": [float(len(legal) - i)]}
        for i, a in enumerate(legal)
    ]
    return {"objectives": [{"name": "value", "unit": "points", "best": 0}], "options": options}


@pytest.fixture
def advised_page(page: Any) -> Iterator[Any]:
    """The page, with the room socket passed through and every `hint` request answered by
    :func:`_fake_advice` over the legal actions the server sent last (the test server has
    no Wurfeltod value table to advise from)."""
    last: dict[str, Any] = {"legal": [], "seq": -1}

    def handler(ws: Any) -> None:
        server_ws = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg.get("type") == "hint":
                answer = {"type": "advice", "id": msg.get("id"), "seq": last["seq"]}
                answer["advice"] = _fake_advice(last["legal"])
                ws.send(json.dumps(answer))
                return
            server_ws.send(message)

        def from_server(message: str | bytes) -> None:
            msg = json.loads(message)
            if msg.get("type") in ("snapshot", "events"):
                last["legal"], last["seq"] = msg.get("legal") or [], msg.get("seq")
            ws.send(message)

        ws.on_message(from_page)
        server_ws.on_message(from_server)

    page.route_web_socket(re.compile(r".*/ws/.*"), handler)
    yield page


def test_wurfeltod_hint_and_buttons_say_the_same(advised_page: Any, server: Server) -> None:
    page = advised_page
    ui.create_room(page, server.url, "wurfeltod", ["human", "bot:greedy"], name=ui.LONG_NAME)
    ui.start_if_host(page)
    page.wait_for_selector("#table .wurfeltod")
    _my_turn(page)
    ui.check_axe(page, "wurfeltod playing", strict=True)
    _table_layout(page, "wurfeltod playing")
    ui.shoot(page, "wt-ui-playing")
    # the ✗ and book buttons on the phone are 44 x 44 at least
    books = page.locator("#table button[data-key^=book-]")
    assert books.count() >= 10
    for button in [books.first, page.locator("#table button[data-key^=scratch-]").first]:
        box = button.bounding_box()
        assert box and box["width"] >= 44 and box["height"] >= 44, box
    page.click("#hint-button")
    page.wait_for_selector("#hint .advice-table .option-label")
    labels = _texts(page, "#hint .advice-table .option-label")
    assert not any(label.startswith("server words") for label in labels), labels
    compared = 0
    boxes = "#table button[data-key^=book-], #table button[data-key^=scratch-]"
    for button in page.locator(boxes).all():
        name = button.get_attribute("aria-label")
        assert name
        if "book" in (button.get_attribute("data-key") or ""):
            assert button.inner_text().strip() in name  # the visible text is in the name
        assert name in labels, (name, labels)
        compared += 1
    assert compared >= 10
    # a set-aside: pick a die, the button's text is the hint's option for that action
    page.locator("#table button.die:enabled").first.click()
    text = page.locator("#table button[data-key=set-aside]").inner_text()
    assert text.startswith("Set aside ") and text in labels, (text, labels)
    # the whole game, then the finished table
    ui.play(page, ui.wurfeltod, seed=3)
    page.wait_for_selector("#end:not([hidden]) .ranks li")
    total = page.locator("#table tr[data-row=total] td[data-player='0']").inner_text()
    points = page.locator("#table tr[data-row=points] td[data-player='0']").inner_text()
    penalty = page.locator("#table tr[data-row=wurfeltods] td[data-player='0'] [data-points]")
    assert _int(points) + int(penalty.get_attribute("data-points") or "0") == _int(total)
    ui.check_axe(page, "wurfeltod finished", strict=True)
    _table_layout(page, "wurfeltod finished")
    ui.shoot(page, "wt-ui-finished")


# ----- Decathlon ----------------------------------------------------------------------------
def _sprint_value(dice: list[int]) -> int:
    return sum(-6 if d == 6 else d for d in dice)


def test_decathlon_sprint_sums_count_sixes_minus_six(page: Any, server: Server) -> None:
    page.goto(f"{server.url}/")
    page.wait_for_selector("#create")
    texts = page.evaluate(
        """async () => {
          const m = await import('/static/js/games/decathlon.js');
          return [m.sumText([3, 5, 2, 6], true), m.sumText([6, 6], true), m.sumText([6], true),
                  m.sumText([6, 1], false)];
        }"""
    )
    assert texts == ["3 + 5 + 2 − 6 = 4", "−6 − 6 = −12", "= −6", "6 + 1 = 7"]
    ui.create_room(
        page, server.url, "decathlon", ["human", "bot:greedy"], name=ui.LONG_NAME,
        events=["100m", "400m"],
    )  # fmt: skip
    ui.start_if_host(page)
    page.wait_for_selector("#table .decathlon")
    sixes = 0
    checked = 0
    while page.locator("body[data-status=finished]").count() == 0:
        _my_turn(page)
        if page.locator("body[data-status=finished]").count():
            break
        seq = page.get_attribute("body", "data-seq")
        thrown = [int(x) for x in page.locator("#table .dice-row.big .die").evaluate_all(
            "els => els.map(e => e.dataset.value)")]  # fmt: skip
        frozen = [int(x) for x in page.locator("#table .dice-row.frozen .die").evaluate_all(
            "els => els.map(e => e.dataset.value)")]  # fmt: skip
        facts = page.locator("#table .facts").inner_text()
        so_far = _sprint_value(frozen)
        assert f"Frozen so far: {so_far}".replace("-", "−") in facts, facts
        if thrown:
            shown = page.locator("#table .dice-row.big .set-sum").inner_text()
            assert shown.endswith(f"= {_sprint_value(thrown)}".replace("-", "−")), shown
            assert (6 in thrown) == ("− 6" in shown or shown.startswith("−6") or shown == "= −6")
            with_set = f"With this throw: {so_far + _sprint_value(thrown)}".replace("-", "−")
            assert with_set in facts, facts
            sixes += thrown.count(6)
            checked += 1
            if 6 in thrown:  # a six is named on the die too
                label = page.locator("#table .dice-row.big .die[data-value='6']").first
                assert "counts −6" in (label.get_attribute("aria-label") or "")
        if page.locator("#table button[data-key=rethrow]:enabled").count() and not sixes:
            page.click("#table button[data-key=rethrow]")  # look for a six
        elif page.locator("#table button[data-key=freeze-set]:enabled").count():
            page.click("#table button[data-key=freeze-set]")
        else:
            assert ui.decathlon(page, random.Random(checked))
        page.wait_for_selector(f"body:not([data-seq='{seq}']), body[data-status=finished]")
    assert checked >= 2
    ui.check_axe(page, "decathlon finished", strict=True)
    _table_layout(page, "decathlon finished")


def _wait_pole_vault_choice(page: Any, rng: random.Random) -> None:
    """Play on (through the UI) until we stand at the Pole Vault's bar."""
    for _ in range(200):
        page.wait_for_selector("body[data-my-turn=true]")
        if page.locator("#table button[data-key^=vault-n-]").count():
            return
        seq = page.get_attribute("body", "data-seq")
        assert ui.decathlon(page, rng)
        page.wait_for_selector(f"body:not([data-seq='{seq}']), body[data-status=finished]")
    raise AssertionError("never reached the Pole Vault")


def test_decathlon_pole_vault_dice_are_chosen_before_the_jump(page: Any, server: Server) -> None:
    ui.create_room(
        page, server.url, "decathlon", ["human", "bot:greedy"], name=ui.LONG_NAME,
        events=["pole-vault"],
    )  # fmt: skip
    ui.start_if_host(page)
    page.wait_for_selector("#table .decathlon")
    rng = random.Random(2)
    _wait_pole_vault_choice(page, rng)
    ui.check_axe(page, "pole vault at the bar", strict=True)
    _table_layout(page, "pole vault at the bar")
    ui.shoot(page, "dec-ui-pole-vault")
    seq = page.get_attribute("body", "data-seq")
    go = page.locator("#table button[data-key=vault-go]")
    assert go.is_disabled()  # nothing is sent before the dice are chosen
    assert page.locator("#table button[data-key=jump]").count() == 0
    page.click("#table button[data-key=vault-n-3]")
    assert page.get_attribute("#table button[data-key=vault-n-3]", "aria-pressed") == "true"
    assert go.inner_text() == "Jump with 3 dice"
    page.click("#table button[data-key=vault-n-1]")  # change of mind: one die
    assert go.inner_text() == "Jump with 1 die"
    assert page.get_attribute("#table button[data-key=vault-n-3]", "aria-pressed") == "false"
    # still uncommitted: the same position, and Skip is there to take instead
    assert page.get_attribute("body", "data-seq") == seq
    height = page.locator("#table .facts").inner_text()
    page.click("#table button[data-key=skip]")
    page.wait_for_selector(f"body:not([data-seq='{seq}'])")
    assert re.search(r"skips \d+", page.locator(".log-list").inner_text())
    # at the next bar: choose 5 dice and jump; the jump throws exactly 5 dice
    _wait_pole_vault_choice(page, rng)
    assert page.locator("#table .facts").inner_text() != height
    page.click("#table button[data-key=vault-n-5]")
    page.click("#table button[data-key=vault-go]")
    # the jump is committed and its five dice thrown, with no second question
    ui.wait_until(
        page,
        "(re) => [...document.querySelectorAll('.log-list li')]"
        ".some(li => new RegExp(re).test(li.textContent))",
        rf"^{ui.LONG_NAME} throws( \d){{5}}$",
    )
    lines = _texts(page, ".log-list li")
    assert f"{ui.LONG_NAME} jumps" in lines
    assert not any(re.fullmatch(rf"{ui.LONG_NAME} throws( \d){{1,4}}", x) for x in lines), lines
    ui.play(page, ui.decathlon, seed=4)
    page.wait_for_selector("#end:not([hidden]) .ranks li")
    _table_layout(page, "decathlon finished")
    ui.check_axe(page, "pole vault finished", strict=True)


def test_decathlon_table_layout_and_axe_while_playing(page: Any, server: Server) -> None:
    ui.create_room(
        page, server.url, "decathlon", ["human", "bot:greedy"], name=ui.LONG_NAME,
        events=["long-jump", "high-jump"], choices={"variant": "championship"},
    )  # fmt: skip
    ui.start_if_host(page)
    page.wait_for_selector("#table .decathlon")
    _my_turn(page)
    ui.check_axe(page, "decathlon playing", strict=True)
    _table_layout(page, "decathlon playing")
    # pick one die: the button says so in the singular
    page.locator("#table button.die:enabled").first.click()
    assert page.locator("#table button[data-key=freeze]").inner_text() == "Freeze 1 die"
    ui.shoot(page, "dec-ui-playing")


# ----- motion -------------------------------------------------------------------------------
WATCH_DICE = """() => {
  window.__dice = [];
  const seen = (el) => window.__dice.push({
    rolling: el.classList.contains('rolling'), fresh: el.classList.contains('fresh'),
    name: getComputedStyle(el).animationName, duration: getComputedStyle(el).animationDuration });
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (!(n instanceof Element)) continue;
      for (const el of n.matches('.die') ? [n] : n.querySelectorAll('.die')) seen(el);
    }
  }).observe(document.getElementById('table'), { childList: true, subtree: true });
}"""


def _roll_once_and_watch(page: Any) -> list[dict[str, Any]]:
    page.wait_for_selector("#table .dice-duel")
    _my_turn(page)
    page.evaluate(WATCH_DICE)
    seq = page.get_attribute("body", "data-seq")
    page.locator("#table button.die:enabled").first.click()  # keep one, roll four
    page.click("#table button[data-key=roll]")
    page.wait_for_selector(f"body:not([data-seq='{seq}'])")
    ui.next_frame(page)
    return list(page.evaluate("() => window.__dice"))


def test_dice_roll_with_motion(browser: Any, server: Server) -> None:
    ctx = ui.new_context(browser, ui.PHONE, reduced_motion="no-preference")
    try:
        page = ctx.new_page()
        ui.create_room(page, server.url, "dice-duel", ["human"], choices={"mode": "solo"})
        ui.start_if_host(page)
        seen = _roll_once_and_watch(page)
        rolling = [d for d in seen if d["rolling"]]
        assert rolling and all(d["name"] == "die-roll" for d in rolling), seen
        assert all(d["duration"] != "0s" for d in rolling), seen
        # the kept die did not roll and is not marked as just thrown; the four others are
        assert page.locator("#table .die.fresh").count() == 4
        assert "just thrown" in (
            page.locator("#table .die.fresh").first.get_attribute("aria-label") or ""
        )
    finally:
        ctx.close()


def test_reduced_motion_turns_the_dice_animation_off(page: Any, server: Server) -> None:
    # the default test context asks for reduced motion
    ui.create_room(page, server.url, "dice-duel", ["human"], choices={"mode": "solo"})
    ui.start_if_host(page)
    seen = _roll_once_and_watch(page)
    assert seen and not any(d["rolling"] for d in seen), seen
    assert all(d["name"] == "none" for d in seen), seen
    # the mark of the dice just thrown stays: it is not motion
    assert page.locator("#table .die.fresh").count() == 4
    # and the stylesheet stops the animation even if a die had the class
    name = page.evaluate(
        """() => { const d = document.querySelector('#table .die'); d.classList.add('rolling');
                   return getComputedStyle(d).animationName; }"""
    )
    assert name == "none"


def test_dice_duel_offers_a_visible_take_no_chip_button(page: Any, server: Server) -> None:
    """K4 revised: when the dice earn a chip, a labelled button declines it."""
    ui.create_room(page, server.url, "dice-duel", ["human"], choices={"mode": "solo"})
    ui.start_if_host(page)
    page.wait_for_selector("#table .dice-duel")
    for _ in range(60):
        ui.next_frame(page)
        if ui.enabled(page, "button[data-key^=take-]").count():
            button = ui.enabled(page, "button[data-key=stop]")
            assert button.count() == 1 and button.inner_text() == "Take no chip"
            assert "even one your dice make" in (button.get_attribute("title") or "")
            ui.shoot(page, "dd-take-no-chip")
            button.click()
            ui.wait_until(page, "() => document.body.innerText.includes('takes no chip')")
            return
        for sel in ("button[data-key=roll]", "button[data-key=stop]"):
            if ui.enabled(page, sel).count():
                assert ui.enabled(page, sel).first.inner_text() != "Take no chip"
                ui.enabled(page, sel).first.click()
                break
    raise AssertionError("the dice earned no chip in 60 actions")
