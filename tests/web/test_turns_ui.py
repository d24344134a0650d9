"""Turn-based rooms in the lobby (issue 44): the create form's "Live" / "Turn-based"
choice with its speed and time bank, the "your turn" list first in the lobby (a guest's
from this browser's seats, an account's on every device), and the open public tables
with the turn-based ones apart. The ``turns`` rows (one per seat to act, the contract
the turn-based rooms' clock writes) are written into the server's database directly."""

from __future__ import annotations

import itertools
import json
import secrets
import sqlite3
import time
import urllib.request
from typing import Any

import pytest

from web import webui as ui
from web.webui import Server

pytestmark = pytest.mark.browser

HOUR = 3600
PASSWORD = "correct horse battery"
_names = itertools.count()


def _api(server: Server, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        server.url + path, data, {"Content-Type": "application/json"}, method=method
    )
    with urllib.request.urlopen(request, timeout=ui.TIMEOUT_S) as answer:
        return json.loads(answer.read())


def _to_act(server: Server, code: str, seat: int, waited: float, left: float) -> None:
    """The ``turns`` row of a seat to act, as a move of a turn-based room writes it."""
    now = time.time()
    with sqlite3.connect(server.folder / "web.sqlite3") as conn:
        (room_id,) = conn.execute("SELECT id FROM rooms WHERE code = ?", (code,)).fetchone()
        # the room's start wrote its own rows for the seats to act: this one replaces them
        conn.execute("DELETE FROM turns WHERE room_id = ?", (room_id,))
        conn.execute(
            "INSERT INTO turns (room_id, seat, seq, since, deadline) VALUES (?, ?, 1, ?, ?)",
            (room_id, seat, now - waited, now + left),
        )


def _create_turn_based(page: Any, server: Server, *, speed: str = "86400") -> str:
    """Create a turn-based decathlon room for two people in the lobby, as its host (seat
    1); a second player claims seat 2 over HTTP, and the game begins. Its code."""
    page.goto(f"{server.url}/?game=decathlon")
    page.wait_for_selector("button[data-game='decathlon'][aria-checked='true']")
    page.check("#pace-turn-based")
    page.select_option("#move-time", speed)
    page.select_option("#seat-1", "human")
    page.fill("#my-name", "Ann")
    page.click("#create")
    page.wait_for_url("**/r/**")
    code = str(page.url.rsplit("/", 1)[-1])
    _api(server, "POST", f"/api/rooms/{code}/seats/1/claim", {"name": "Bob", "contribution": "b"})
    page.wait_for_selector("body[data-status=playing]")
    return code


def _lobby(page: Any, server: Server) -> None:
    page.goto(f"{server.url}/")
    page.wait_for_selector("body[data-turns=ready]")


def test_the_create_form_offers_turn_based_rooms(page: Any, server: Server) -> None:
    page.goto(f"{server.url}/?game=decathlon")
    page.wait_for_selector("button[data-game='decathlon'][aria-checked='true']")
    # live by default: the turn clock and takeover, no speed
    assert page.locator("#turn-clock").is_visible() and page.locator("#takeover").is_visible()
    assert not page.locator("#move-time").is_visible()
    page.check("#pace-turn-based")
    assert page.locator("#move-time").is_visible() and page.locator("#time-bank").is_visible()
    assert (
        not page.locator("#turn-clock").is_visible() and not page.locator("#takeover").is_visible()
    )
    assert page.locator("#move-time").input_value() == str(24 * HOUR)
    speeds = page.locator("#move-time option").all_inner_texts()
    assert speeds == ["12 hours per move", "24 hours per move", "3 days per move"]
    assert page.locator("#time-bank option").all_inner_texts() == ["None", "1 day", "3 days"]
    ui.check_axe(page, "lobby, turn-based chosen", strict=True)
    ui.check_layout(page, "lobby, turn-based chosen")
    ui.shoot(page, "lobby-turn-based-form")
    page.select_option("#move-time", str(72 * HOUR))
    page.select_option("#time-bank", str(24 * HOUR))
    page.select_option("#seat-1", "human")
    page.fill("#my-name", "Ann")
    page.click("#create")
    page.wait_for_url("**/r/**")
    code = page.url.rsplit("/", 1)[-1]
    options = _api(server, "GET", f"/api/rooms/{code}")["room_options"]
    assert options["pace"] == "turn-based"
    assert options["move_time"] == 72 * HOUR and options["time_bank"] == 24 * HOUR
    assert options["turn_clock"] is None and options["takeover_after"] is None
    # back to live: the live room's controls again, and a live room is made
    page.goto(f"{server.url}/?game=decathlon")
    page.check("#pace-turn-based")
    page.check("#pace-live")
    assert page.locator("#turn-clock").is_visible() and not page.locator("#move-time").is_visible()


def test_a_guest_sees_its_turns_first_and_open_tables_by_pace(page: Any, server: Server) -> None:
    code = _create_turn_based(page, server)
    late = _create_turn_based(page, server, speed=str(12 * HOUR))
    theirs = _create_turn_based(page, server)
    _to_act(server, code, 0, waited=3 * HOUR + 60, left=21 * HOUR - 60)
    _to_act(server, late, 0, waited=13 * HOUR, left=-HOUR)
    _to_act(server, theirs, 1, waited=HOUR, left=HOUR)  # Bob's move, not this browser's
    public = {"game": "dice-duel", "seats": ["human", "human"], "public": True}
    slow = _api(
        server,
        "POST",
        "/api/rooms",
        {**public, "room": {"pace": "turn-based", "move_time": 12 * HOUR}},
    )
    quick = _api(server, "POST", "/api/rooms", {**public, "room": {}})
    _lobby(page, server)
    panel = page.locator("#turns-panel")
    assert panel.is_visible()
    # first in the page, before the new-room form
    assert page.evaluate(
        "() => document.querySelector('#turns-panel').compareDocumentPosition("
        "document.querySelector('.lobby-new')) & Node.DOCUMENT_POSITION_FOLLOWING"
    )
    rows = panel.locator("li.turn-row")
    assert [rows.nth(i).get_attribute("data-code") for i in range(rows.count())] == [late, code]
    late_row, row = rows.nth(0), rows.nth(1)
    assert "time is up" in late_row.inner_text() and "late" in (
        late_row.get_attribute("class") or ""
    )
    text = row.inner_text()
    assert "against Bob" in text and "waiting 3 h" in text and "21 h left" in text
    assert row.locator("a").get_attribute("href") == f"/r/{code}"
    # the open public tables: the turn-based ones apart, with their speed
    page.wait_for_selector(f"#open-turns li[data-code='{slow['code']}']")
    assert (
        "12 hours per move"
        in page.locator(f"#open-turns li[data-code='{slow['code']}']").inner_text()
    )
    assert page.locator(f"#open-live li[data-code='{quick['code']}']").count() == 1
    ui.check_axe(page, "lobby with the your-turn list", strict=True)
    ui.check_layout(page, "lobby with the your-turn list")
    ui.shoot(page, "lobby-your-turn")
    row.locator("a").click()
    page.wait_for_url(f"**/r/{code}")
    page.wait_for_selector("body[data-status=playing]")
    # in German and Polish
    for lang, words in (
        ("de", ("wartet seit 3 Std.", "noch 21 Std.")),
        ("pl", ("czeka 3 godz.", "zostało 21 godz.")),
    ):
        page.goto(f"{server.url}/?lang={lang}")
        page.wait_for_selector("body[data-turns=ready]")
        shown = page.locator(f"#turns li[data-code='{code}']").inner_text()
        assert all(w in shown for w in words), (lang, shown)


def test_an_account_sees_its_turns_on_another_device(browser: Any, server: Server) -> None:
    name = f"Turner{next(_names)}{secrets.token_hex(2)}"
    first, second = ui.new_context(browser), ui.new_context(browser)
    try:
        a = first.new_page()
        a.goto(f"{server.url}/account")
        a.locator("#signup-name").fill(name)
        a.locator("#signup-password").fill(PASSWORD)
        a.get_by_role("button", name="Make the account").click()
        a.get_by_role("heading", name=f"Signed in as {name}").wait_for()
        code = _create_turn_based(a, server)
        _to_act(server, code, 0, waited=2 * HOUR, left=22 * HOUR)
        b = second.new_page()  # another device: no seat token of that room here
        b.goto(f"{server.url}/account")
        b.locator("#signin-name").fill(name)
        b.locator("#signin-password").fill(PASSWORD)
        b.get_by_role("button", name="Sign in", exact=True).click()
        b.get_by_role("heading", name=f"Signed in as {name}").wait_for()
        _lobby(b, server)
        row = b.locator(f"#turns li[data-code='{code}']")
        assert "waiting 2 h" in row.inner_text() and "22 h left" in row.inner_text()
        ui.check_axe(b, "lobby, an account's turns", strict=True)
        ui.shoot(b, "lobby-your-turn-account")
        row.get_by_role("button").click()  # takes the seat up on this device
        b.wait_for_url(f"**/r/{code}")
        b.wait_for_selector("body[data-status=playing]")
        assert (
            b.evaluate(
                "(code) => JSON.parse(localStorage.getItem('gamenight.rooms.v1'))[code].seat", code
            )
            == 0
        )
    finally:
        first.close()
        second.close()
