"""The lobby (issue 23 item 10, timers and takeover, your games): errors at their field,
only valid seat counts, players' words, option bounds, room clocks, finished games with
their replay and a rematch with the same people."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest

from web import webui as ui
from web.webui import Server

pytestmark = pytest.mark.browser

# the command line's words, which the lobby must not use
CLI_WORDS = ("comma-separated", "like A,B", "gamenight decks", "`", "2 to 2", "1 to 1 ")


def _api(server: Server, path: str) -> Any:
    with urllib.request.urlopen(server.url + path, timeout=ui.TIMEOUT_S) as r:
        return json.loads(r.read())


def open_lobby(page: Any, server: Server, game: str) -> None:
    page.goto(f"{server.url}/?game={game}")
    page.wait_for_selector(f"button[data-game='{game}'][aria-checked='true']")
    page.wait_for_selector("body[data-mine=ready]")


def field_of(page: Any, selector: str) -> Any:
    """The .field (or fieldset) around a control."""
    return page.locator(selector).locator("xpath=ancestor-or-self::*[contains(@class,'field')][1]")


def assert_error_at(page: Any, control: str, error_id: str, words: str) -> None:
    """The error is inside the control's field, names the problem, and describes the
    control (aria-describedby); an input or select is aria-invalid."""
    error = page.locator(f"#{error_id}")
    assert words in error.inner_text()
    assert field_of(page, control).locator(f"#{error_id}").count() == 1
    described = (page.get_attribute(control, "aria-describedby") or "").split()
    assert error_id in described
    if page.locator(control).evaluate("el => el.tagName") != "FIELDSET":
        assert page.get_attribute(control, "aria-invalid") == "true"


def test_errors_show_next_to_their_field_and_take_the_focus(page: Any, server: Server) -> None:
    open_lobby(page, server, "decades")
    assert page.get_attribute("#opt-track", "min") == "1"
    assert page.get_attribute("#opt-track", "max") == "1000"  # from /api/games
    page.fill("#opt-track", "99999999")
    page.fill("#my-name", "")
    page.click("#create")
    page.wait_for_selector("#opt-track[aria-invalid=true]")
    assert_error_at(page, "#opt-track", "opt-track-error", "from 1 to 1000")
    assert_error_at(page, "#my-name", "my-name-error", "Enter your name")
    # the first wrong field has the focus; nothing was created
    assert page.evaluate("() => document.activeElement.id") == "opt-track"
    assert "/r/" not in page.url
    # the error is near its field, not at the bottom of the page
    box = page.locator("#opt-track").bounding_box()
    err = page.locator("#opt-track-error").bounding_box()
    assert box and err and 0 <= err["y"] - (box["y"] + box["height"]) < 40
    ui.check_axe(page, "lobby with errors", strict=True)
    ui.check_layout(page, "lobby with errors")
    ui.shoot(page, "lobby-errors")
    # typing clears the field's error
    page.fill("#opt-track", "60")
    assert page.locator("#opt-track-error").count() == 0
    assert page.get_attribute("#opt-track", "aria-invalid") is None
    for bad in ("0", "2.5", ""):
        page.fill("#opt-track", bad)
        page.click("#create")
        page.wait_for_selector("#opt-track-error")
        assert "whole number from 1 to 1000" in page.locator("#opt-track-error").inner_text()
    page.fill("#opt-track", "60")
    page.fill("#my-name", "Ann")
    page.click("#create")
    page.wait_for_url("**/r/**")
    code = page.url.rsplit("/", 1)[-1]
    assert _api(server, f"/api/rooms/{code}")["options"]["track"] == 60


def test_a_multi_option_with_nothing_picked_says_so_at_the_option(
    page: Any, server: Server
) -> None:
    open_lobby(page, server, "decathlon")
    page.click("fieldset[data-name=events] button:has-text('None')")
    page.fill("#my-name", "Ann")
    page.click("#create")
    page.wait_for_selector("#opt-events-error")
    assert_error_at(page, "#opt-events", "opt-events-error", "Pick at least one")
    assert page.evaluate("() => document.activeElement.value") == "100m"  # its first box
    page.check("fieldset[data-name=events] input[value=discus]")
    assert page.locator("#opt-events-error").count() == 0


def test_a_server_refusal_shows_at_the_field_it_names(page: Any, server: Server) -> None:
    def refuse(route: Any) -> None:
        route.fulfill(
            status=400,
            json={"code": "bad_options", "message": "option 'sides' must be two of A and B"},
        )

    open_lobby(page, server, "decades")
    page.route("**/api/rooms", refuse)
    page.fill("#my-name", "Ann")
    page.click("#create")
    page.wait_for_selector("#opt-sides-error")
    assert_error_at(page, "#opt-sides", "opt-sides-error", "option 'sides' must be two")
    assert page.evaluate("() => document.activeElement.id") == "opt-sides-0"  # its first
    assert page.locator("#create").is_enabled()  # and one may try again


def test_a_per_seat_option_is_one_select_per_seat(page: Any, server: Server) -> None:
    """Issue 45: The Decades' ``sides`` is a ``per-seat`` option, which the lobby renders
    from its kind (one select per seat, labelled by seat), naming no game."""
    open_lobby(page, server, "decades")
    selects = page.locator("fieldset[data-name=sides] select")
    assert selects.count() == 2
    assert selects.evaluate_all("ss => ss.map(s => s.value)") == ["A", "B"]
    assert page.locator("fieldset[data-name=sides] label").first.inner_text().startswith("Seat 1")
    page.select_option("#opt-sides-0", "B")
    page.select_option("#opt-sides-1", "B")
    page.select_option("#seat-1", "bot:novice")
    page.fill("#my-name", "Ann")
    page.click("#create")
    page.wait_for_url("**/r/**")
    code = page.url.rsplit("/", 1)[-1]
    assert _api(server, f"/api/rooms/{code}")["options"]["sides"] == "B,B"


def test_only_valid_seat_counts_and_a_players_words(page: Any, server: Server) -> None:
    def counts() -> list[str]:
        values: list[str] = page.locator("#seat-count option").evaluate_all(
            "os => os.map(o => o.value)"
        )
        return values

    open_lobby(page, server, "dice-duel")
    assert page.locator("#opt-mode option:checked").inner_text() == "Against each other"
    assert counts() == ["2", "3", "4", "5", "6"]  # never 1 against each other
    assert page.locator(".players-line").inner_text() == "2 to 6 players"
    assert "2 to 6 players" in page.locator("#opt-mode-help").inner_text()
    page.select_option("#opt-mode", "solo")
    # one possible count: no select to open, the count as text
    assert page.locator("#seat-count").is_hidden()
    assert page.locator("#seat-count-value").inner_text() == "1 player"
    assert page.locator(".players-line").inner_text() == "1 player"
    assert page.locator(".seats-box select").count() == 1
    page.select_option("#opt-mode", "multi")
    assert page.locator("#seat-count").is_visible() and counts()[0] == "2"
    seen = page.locator("#game-detail").inner_text()
    for game in ("decathlon", "wurfeltod", "decades"):
        page.click(f"button[data-game='{game}']")
        page.wait_for_selector(f"#game-detail a[href^='/rules?game={game}&lang=']")
        seen += page.locator("#game-detail").inner_text()
    # The Decades: always two teams, said once, as text
    assert page.locator("#seat-count").is_hidden()
    assert page.locator("#seat-count-value").inner_text() == "2 teams"
    assert page.locator(".players-line").inner_text() == "2 teams"
    found = [w for w in CLI_WORDS if w in seen]
    assert not found, found
    assert not re.search(r"\([A-Z]\d+\)", seen)  # no ruling ids
    ui.check_axe(page, "lobby, The Decades", strict=True)
    ui.check_layout(page, "lobby, The Decades")


def test_turn_clock_and_takeover_are_room_options(page: Any, server: Server) -> None:
    open_lobby(page, server, "wurfeltod")
    clock = page.locator("#turn-clock option").evaluate_all("os => os.map(o => o.textContent)")
    assert clock[0] == "No limit" and "30 seconds" in clock and "1 minute" in clock
    leave = page.locator("#takeover option").evaluate_all("os => os.map(o => o.textContent)")
    assert leave[0] == "Wait for them" and "A bot plays after 2 minutes away" in leave
    assert "a bot" in page.locator("#turn-clock-help").inner_text()
    # off by default
    code = ui.create_room(page, server.url, "wurfeltod", ["human", "bot:greedy"])
    options = _api(server, f"/api/rooms/{code}")["room_options"]
    assert options.get("turn_clock") is None and options.get("takeover_after") is None
    open_lobby(page, server, "wurfeltod")
    page.select_option("#turn-clock", "60")
    page.select_option("#takeover", "120")
    page.fill("#my-name", "Ann")
    page.click("#create")
    page.wait_for_url("**/r/**")
    options = _api(server, f"/api/rooms/{page.url.rsplit('/', 1)[-1]}")["room_options"]
    assert options["turn_clock"] == 60 and options["takeover_after"] == 120


def test_your_games_with_result_replay_and_play_again(page: Any, server: Server) -> None:
    code = ui.create_room(
        page,
        server.url,
        "dice-duel",
        ["human", "bot:random"],
        name=ui.LONG_NAME,
    )
    ui.start_if_host(page)
    ui.play(page, ui.dice_duel)
    page.wait_for_selector("body[data-status=finished]")
    room = _api(server, f"/api/rooms/{code}")
    open_lobby(page, server, "dice-duel")
    row = page.locator(f"#done li[data-code='{code}']")
    row.wait_for()
    assert page.locator(f"#mine a[href='/r/{code}']").count() == 0  # not among the unfinished
    mine = room["results"]["scores"][0]
    won = 0 in room["results"]["winners"]
    result = row.locator(".game-result").inner_text()
    assert result == (f"You won with {mine}" if won else f"You came 2nd of 2 with {mine}")
    assert row.locator("time").count() == 1 and row.locator("time").inner_text()
    replay = row.locator("a", has_text="Watch the replay")
    assert replay.get_attribute("href") == f"/replay?room={code}"
    ui.check_axe(page, "lobby with your games", strict=True)
    ui.check_layout(page, "lobby with your games")
    ui.shoot(page, "lobby-your-games")
    # a refused rematch says so at its button
    again_button = row.locator("button", has_text="Play again with the same people")
    page.route(
        "**/api/rooms",
        lambda route: route.fulfill(status=503, json={"code": "unavailable", "message": "busy"}),
    )
    again_button.click()
    page.wait_for_selector(f"#done li[data-code='{code}'] .field-error:has-text('busy')")
    assert again_button.is_enabled()
    assert again_button.get_attribute("aria-describedby") == f"again-{code}-error"
    page.unroute("**/api/rooms")
    # play again with the same people: same game, seats, options; we sit where we sat
    again_button.click()
    page.wait_for_url(re.compile(r".*/r/(?!" + re.escape(code) + r")[\w-]+$"))
    again = _api(server, f"/api/rooms/{page.url.rsplit('/', 1)[-1]}")
    assert again["game"] == "dice-duel" and again["options"] == room["options"]
    assert again["room_options"] == room["room_options"]
    assert [(s["kind"], s["bot"]) for s in again["seats"]] == [
        (s["kind"], s["bot"]) for s in room["seats"]
    ]
    assert again["seats"][0]["name"] == ui.LONG_NAME
    page.wait_for_selector("body[data-seat='0']")
    # the replay link of the finished game opens it
    open_lobby(page, server, "dice-duel")
    page.locator(f"#done li[data-code='{code}'] a", has_text="Watch the replay").click()
    page.wait_for_selector("body[data-loaded=verified]")


def test_the_game_tiles_are_a_radio_group_for_the_keyboard(page: Any, server: Server) -> None:
    open_lobby(page, server, "decathlon")
    tabbable = page.locator("#games [role=radio][tabindex='0']")
    assert tabbable.count() == 1 and tabbable.get_attribute("data-game") == "decathlon"
    page.focus("#games [data-game=decathlon]")
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("button[data-game='dice-duel'][aria-checked='true']")
    assert page.evaluate("() => document.activeElement.dataset.game") == "dice-duel"
    assert page.locator("#game-detail h3").inner_text() == "Kniffel Dice Duel"
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector("button[data-game='decathlon'][aria-checked='true']")
    assert page.locator("#games [role=radio][tabindex='0']").count() == 1
