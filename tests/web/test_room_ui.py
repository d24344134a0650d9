"""The room page's shell (/r/<code>), whatever the game (issue 23): long names, tap
targets, the turn signal (big "Your turn", the tab title, sound, notification), focus
after an action, spectators (label, count, no chat box they cannot use), a double tap on
"Sit at…", the device link, the host freeing seats, the turn clock, and strict axe.

Most tests play the toy plug-in (tests/plugins/toy) on its own small board: the shell
is the subject, not a game's table."""

from __future__ import annotations

import re
from typing import Any

import pytest

from web import webui as ui
from web.webui import Server

pytestmark = pytest.mark.browser

OTHER_LONG = "M" * 40  # a second 40-character name without spaces


def _api_room(server: Server, seats: list[str], room: dict[str, Any] | None = None) -> Any:
    """A toy room made over the API (room options the lobby may not offer)."""
    body = {"game": "toy", "seats": seats, "options": {"target": 50}, "room": room or {}}
    return ui.post_json(server.url, "/api/rooms", body)


def _be_host(page: Any, server: Server, code: str, host_token: str) -> None:
    """This browser is the host of ``code`` (as if it had created it in the lobby)."""
    page.goto(f"{server.url}/r/{code}")
    page.evaluate(
        """([code, token]) => {
          const all = JSON.parse(localStorage.getItem("gamenight.rooms.v1") || "{}");
          all[code] = { ...(all[code] || {}), hostToken: token, game: "toy" };
          localStorage.setItem("gamenight.rooms.v1", JSON.stringify(all));
        }""",
        [code, host_token],
    )
    page.reload()
    page.wait_for_selector("body[data-status]")


def _watch_console(*pages: Any) -> list[str]:
    """Console warnings and errors of ``pages`` (a missing message key warns)."""
    seen: list[str] = []

    def keep(message: Any) -> None:
        if message.type in ("warning", "error"):
            seen.append(message.text)

    for page in pages:
        page.on("console", keep)
    return seen


def _focus(page: Any) -> Any:
    """What has the keyboard focus: tag, data-key, whether it is in the table, enabled."""
    return page.evaluate(
        """() => { const a = document.activeElement;
          return { tag: a.tagName.toLowerCase(), key: a.dataset ? a.dataset.key || null : null,
                   inTable: !!a.closest("#table") && a.id !== "table",
                   enabled: !a.disabled, text: (a.textContent || "").trim() }; }"""
    )


# ----- long names, tap targets, strict axe ---------------------------------------------------
def test_long_names_never_push_the_page_sideways_and_axe_is_clean(
    browser: Any, server: Server
) -> None:
    host_ctx, guest_ctx = ui.new_context(browser), ui.new_context(browser)
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    warnings = _watch_console(host, guest)
    try:
        code = ui.create_room(
            host, server.url, "toy", ["human", "human", "bot:random"], name=ui.LONG_NAME
        )
        guest.goto(f"{server.url}/r/{code}")
        guest.wait_for_selector("button[data-key=claim-1]")
        ui.check_layout(guest, "waiting room, a spectator about to claim")
        ui.check_axe(guest, "waiting room (spectator)", strict=True)
        ui.claim_here(guest, 1, OTHER_LONG)
        # the game begins once every human seat is claimed
        for p in (host, guest):
            p.wait_for_selector("body[data-status=playing]")
            p.wait_for_selector("#table .generic")
        host.wait_for_selector(".seat-name:text-is('Bot random')")
        ui.check_layout(host, "toy table with two 40-character names")
        ui.check_axe(host, "toy table (playing)", strict=True)
        ui.shoot(host, "room-long-names")
        # both names are shown in full (wrapped), not cut off
        assert host.locator(f".seat-name:text-is('{ui.LONG_NAME}')").count() == 1
        assert host.locator(f".seat-name:text-is('{OTHER_LONG}')").count() == 1
        assert not [w for w in warnings if "missing message" in w], warnings
    finally:
        host_ctx.close()
        guest_ctx.close()


def test_waiting_room_with_long_names_and_host_tools(browser: Any, server: Server) -> None:
    host_ctx, guest_ctx = ui.new_context(browser), ui.new_context(browser)
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    try:
        code = ui.create_room(host, server.url, "toy", ["human", "human", "human"], name="Host")
        guest.goto(f"{server.url}/r/{code}")
        ui.claim_here(guest, 1, OTHER_LONG)
        # the host sees a "Free seat" button at the guest's seat (not at their own)
        host.wait_for_selector("button[data-key=free-1]")
        assert host.locator("button[data-key=free-0]").count() == 0
        ui.check_layout(host, "waiting room of the host, with a long name")
        ui.check_axe(host, "waiting room (host)", strict=True)
        ui.shoot(host, "room-waiting-host")
        host.click("button[data-key=free-1]")
        # the guest's token stops working: it watches again and may claim anew
        guest.wait_for_selector("body[data-seat=''] button[data-key=claim-1]")
        host.wait_for_selector("button[data-key=free-1]", state="detached")
        assert host.locator("#error").is_hidden()
    finally:
        host_ctx.close()
        guest_ctx.close()


# ----- a double tap on "Sit at…" -------------------------------------------------------------
def test_a_double_tap_on_sit_claims_once_without_a_false_error(
    browser: Any, server: Server
) -> None:
    created = _api_room(server, ["human", "human"])
    ctx = ui.new_context(browser)
    page = ctx.new_page()
    claims: list[str] = []
    page.on("request", lambda r: claims.append(r.url) if r.url.endswith("/claim") else None)
    done: list[int] = []
    page.on("requestfinished", lambda r: done.append(1) if r.url.endswith("/claim") else None)
    try:
        page.goto(f"{server.url}/r/{created['code']}")
        page.wait_for_selector("button[data-key=claim-0]")
        page.fill("#claim-name", "Tapper")
        page.dblclick("button[data-key=claim-0]")
        page.wait_for_selector("body[data-seat='0']")
        ui.wait_until(page, "() => !document.querySelector('.claim-seat[aria-busy]')")
        assert len(done) == len(claims)  # every claim answered before the checks below
        assert len(claims) == 1, claims
        assert page.locator("#error").is_hidden()
        # a 409 for a seat we already hold (another tab of ours won) is no error either
        page.evaluate(
            """async (code) => {
              const { api } = await import("/static/js/api.js");
              try { await api.claim(code, 0, "Again"); } catch (e) { window.__status = e.status; }
            }""",
            created["code"],
        )
        assert page.evaluate("() => window.__status") == 409
    finally:
        ctx.close()


def test_a_double_tap_on_start_starts_once_without_a_false_error(
    browser: Any, server: Server
) -> None:
    """The host's Start, tapped twice: one start, and no "already begun" shown."""
    ctx = ui.new_context(browser)
    page = ctx.new_page()
    starts: list[str] = []
    page.on("request", lambda r: starts.append(r.url) if r.url.endswith("/start") else None)
    done: list[int] = []
    page.on("requestfinished", lambda r: done.append(1) if r.url.endswith("/start") else None)
    try:
        ui.create_room(page, server.url, "toy", ["human", "human"], name="Host")
        page.wait_for_selector("body[data-status=waiting] #start")
        page.dblclick("#start")
        page.wait_for_selector("body[data-status=playing]")
        # every start answered before the checks below
        ui.poll(page, lambda: len(done) == len(starts), "every start answered")
        page.wait_for_timeout(200)  # a false error would show in the next frame or two
        assert len(starts) == 1, starts
        assert page.locator("#error").is_hidden()
    finally:
        ctx.close()


def test_a_second_tap_after_the_claim_is_answered_claims_nothing(
    browser: Any, server: Server
) -> None:
    """The slow double tap: the claim's answer has come, the seat's socket has not yet said
    we sit there, and the room the page knows still shows the seat open. The buttons wait
    until the socket speaks (they once came back, and a second tap claimed again)."""
    created = _api_room(server, ["human", "human"])
    ctx = ui.new_context(browser)
    page = ctx.new_page()
    claims: list[str] = []
    page.on("request", lambda r: claims.append(r.url) if r.url.endswith("/claim") else None)
    sockets: list[Any] = []
    held: list[str | bytes] = []
    release = {"now": False}

    def handler(ws: Any) -> None:
        server_ws = ws.connect_to_server()
        first = not sockets
        sockets.append(ws)

        def from_server(message: str | bytes) -> None:
            if first or release["now"]:
                ws.send(message)
            else:
                held.append(message)  # the seat's socket, held back

        server_ws.on_message(from_server)
        ws.on_message(server_ws.send)

    page.route_web_socket(re.compile(r".*/ws/.*"), handler)
    try:
        page.goto(f"{server.url}/r/{created['code']}")
        page.wait_for_selector("button[data-key=claim-0]")
        page.fill("#claim-name", "Tapper")
        with page.expect_response(lambda r: r.url.endswith("/claim")):
            page.click("button[data-key=claim-0]")
        # the page has opened the seat's socket: the claim is done
        ui.poll(page, lambda: len(sockets) == 2, "the seat's socket opened")
        buttons = page.locator("button.claim-seat")
        assert buttons.count() >= 1  # still the waiting room's claim box
        assert all(b.is_disabled() for b in buttons.all())
        page.evaluate("() => document.querySelectorAll('.claim-seat').forEach((b) => b.click())")
        release["now"] = True
        for message in held:
            sockets[1].send(message)
        page.wait_for_selector("body[data-seat='0']")
        ui.wait_until(page, "() => !document.querySelector('.claim-seat[aria-busy]')")
        assert len(claims) == 1, claims
        assert page.locator("#error").is_hidden()
    finally:
        ctx.close()


# ----- spectators -------------------------------------------------------------------------
def test_spectators_see_a_label_no_chat_box_and_players_see_the_count(
    browser: Any, server: Server
) -> None:
    player_ctx, watch_ctx = ui.new_context(browser), ui.new_context(browser, ui.DESKTOP)
    player, watcher = player_ctx.new_page(), watch_ctx.new_page()
    try:
        code = ui.create_room(player, server.url, "toy", ["human", "bot:random"], name="Ann")
        ui.start_if_host(player)
        player.wait_for_selector("#chat-form:not([hidden])")
        assert player.locator("#chat-note").is_hidden()
        watcher.goto(f"{server.url}/r/{code}")
        watcher.wait_for_selector("body[data-watching=true] #table .generic")
        # the spectator is told so, and gets a note instead of a chat box it cannot use
        assert watcher.locator(".watching-tag").inner_text() == "You are watching"
        assert watcher.locator("#chat-form").is_hidden()
        assert watcher.locator("#chat-note").is_visible()
        # the players see that someone watches
        player.wait_for_selector(".spectators[data-count='1']")
        assert "1 spectator" in player.locator(".spectators").inner_text()
        ui.check_axe(watcher, "toy table (spectator)", strict=True)
        ui.shoot(watcher, "room-spectator")
        watch_ctx.close()
        player.wait_for_selector(".spectators", state="detached")
        # a player's chat line that the server refuses is never lost silently
        player.fill("#chat-input", "x" * 300)
        # the field takes 300 characters, as the server counts (parts/text-field.js): one
        # more is put in past the field's own limit, as a client of its own could send it
        player.evaluate("() => { document.querySelector('#chat-input').value = 'y'.repeat(301); }")
        player.press("#chat-input", "Enter")
        player.wait_for_selector("#error:not([hidden])")
        assert player.input_value("#chat-input") == "y" * 301
    finally:
        player_ctx.close()


# ----- the turn signal ----------------------------------------------------------------------
_HIDDEN_TAB = """
Object.defineProperty(Document.prototype, "hidden", { get() { return !!window.__hidden; } });
"""


def test_turn_signal_title_banner_sound_and_notification(browser: Any, server: Server) -> None:
    ctx = ui.new_context(browser, ui.DESKTOP, permissions=["notifications"])
    ctx.grant_permissions(["notifications"], origin=server.url)
    ctx.add_init_script(_HIDDEN_TAB)
    page = ctx.new_page()
    try:
        # to 50 points: the game outlasts the few turns this test plays
        ui.create_room(
            page, server.url, "toy", ["human", "bot:random"], name="Ann", fills={"target": "50"}
        )
        ui.start_if_host(page)
        page.wait_for_selector("body[data-my-turn=true]")
        assert page.title().startswith("● Your turn")
        big = page.locator(".turn-banner.mine")
        assert big.inner_text() == "Your turn"
        assert float(big.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 26
        # the sound is off until turned on; the choice is remembered
        sound = page.locator("button[data-key=signal-sound]")
        assert sound.get_attribute("aria-pressed") == "false"
        sound.click()
        page.wait_for_selector("button[data-key=signal-sound][aria-pressed=true]")
        assert page.evaluate("() => window.__gamenightTones") == 1  # a sample on turning it on
        page.click("button[data-key=signal-notify]")
        page.wait_for_selector("button[data-key=signal-notify][aria-pressed=true]")
        # hold: the bot plays, then our turn comes again, with the tone and (the tab is
        # hidden) a notification
        page.evaluate("() => { window.__hidden = true; }")
        while not page.evaluate("() => window.__gamenightNotes"):
            page.wait_for_selector("body[data-my-turn=true], body[data-status=finished]")
            assert not page.locator("body[data-status=finished]").count(), "game over too soon"
            seq = page.get_attribute("body", "data-seq")
            hold = ui.enabled(page, "button").filter(has_text="hold")
            roll = ui.enabled(page, "button").filter(has_text="roll")
            (hold if hold.count() else roll).first.click()
            page.wait_for_selector(f"body:not([data-seq='{seq}'])")
            page.wait_for_selector("body[data-my-turn=true], body[data-status=finished]")
        assert page.title().startswith("● Your turn")
        assert page.evaluate("() => window.__gamenightTones") >= 2  # the tone on our turn
        page.reload()
        page.wait_for_selector("button[data-key=signal-sound][aria-pressed=true]")
    finally:
        ctx.close()


def test_title_shows_the_game_when_it_is_not_our_turn(page: Any, server: Server) -> None:
    created = _api_room(server, ["human", "human"])
    page.goto(f"{server.url}/r/{created['code']}")
    page.wait_for_selector("body[data-status=waiting]")
    assert page.title() == "Toy Pig · gamenight"
    assert not page.title().startswith("●")


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_the_turn_banner_pulses_only_without_reduced_motion(
    browser: Any, server: Server, motion: str
) -> None:
    ctx = ui.new_context(browser, ui.PHONE, reduced_motion=motion)
    page = ctx.new_page()
    try:
        page.goto(f"{server.url}/r/{_api_room(server, ['human'])['code']}")
        page.wait_for_selector("body[data-status]")
        name = page.evaluate(
            """() => { const p = document.createElement("p");
              p.className = "turn-banner mine fresh"; document.body.append(p);
              const n = getComputedStyle(p).animationName; p.remove(); return n; }"""
        )
        assert name == ("none" if motion == "reduce" else "turn-pulse")
    finally:
        ctx.close()


# ----- keyboard focus after an action ----------------------------------------------------------
def _keyboard_moves(page: Any, wanted: Any, moves: int) -> None:
    """Play ``moves`` actions with the keyboard only: Tab to a control ``wanted(focus)``
    accepts, Enter; after each action the focus must be on a control of the table."""
    # from the top of the page: the skip link goes to the table, Tab to its first control
    page.keyboard.press("Tab")
    assert _focus(page)["text"] == "Skip to content"
    page.keyboard.press("Enter")
    for _ in range(moves):
        page.wait_for_selector("body[data-my-turn=true]")
        for _ in range(40):
            focus = _focus(page)
            if focus["inTable"] and focus["enabled"] and wanted(focus):
                break
            page.keyboard.press("Tab")
        else:
            raise AssertionError(f"no wanted control reached with Tab: {_focus(page)}")
        seq = page.get_attribute("body", "data-seq")
        page.keyboard.press("Enter")
        page.wait_for_selector(f"body:not([data-seq='{seq}'])")
        page.wait_for_selector("body[data-my-turn=true], body[data-status=finished]")
        if page.locator("body[data-status=finished]").count():
            return
        # the render that made it our turn again put the focus back (same task)
        focus = _focus(page)
        assert focus["tag"] != "body" and focus["inTable"] and focus["enabled"], focus


def test_focus_stays_on_the_table_after_each_action_toy(page: Any, server: Server) -> None:
    ui.create_room(page, server.url, "toy", ["human", "bot:random"], fills={"target": "50"})
    ui.start_if_host(page)
    page.wait_for_selector("#table .generic")
    _keyboard_moves(page, lambda f: f["tag"] == "button", 6)
    # after a roll the same control has the focus again
    page.wait_for_selector("body[data-my-turn=true]")
    roll = page.locator("#table button:enabled", has_text="roll").first
    roll.focus()
    key = roll.get_attribute("data-key")
    seq = page.get_attribute("body", "data-seq")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"body:not([data-seq='{seq}'])")
    page.wait_for_selector("body[data-my-turn=true], body[data-status=finished]")
    if not page.locator("body[data-status=finished]").count():
        assert _focus(page)["key"] == key


def test_focus_stays_on_the_table_after_each_action_dice_duel(page: Any, server: Server) -> None:
    ui.create_room(page, server.url, "dice-duel", ["human", "bot:random"])
    ui.start_if_host(page)
    page.wait_for_selector("#table .dice-duel")

    def wanted(focus: Any) -> bool:
        key = focus["key"] or ""
        return key == "roll" or key.startswith("take-") or key == "stop"

    _keyboard_moves(page, wanted, 6)


# ----- your seat on another device -------------------------------------------------------------
def test_continue_on_another_device(browser: Any, server: Server) -> None:
    phone_ctx = ui.new_context(browser)
    laptop_ctx = ui.new_context(browser, ui.DESKTOP)
    phone, laptop = phone_ctx.new_page(), laptop_ctx.new_page()
    try:
        code = ui.create_room(phone, server.url, "toy", ["human", "bot:random"], name="Ann")
        ui.start_if_host(phone)
        phone.click("#device summary")
        warning = phone.locator(".device-warning").inner_text()
        assert "Whoever holds this link holds your seat" in warning
        link = phone.input_value("#device-url")
        assert link.startswith(f"{server.url}/r/{code}#seat=0&token=")
        ui.check_layout(phone, "the device link open")
        ui.shoot(phone, "room-device-link")
        laptop.goto(link)
        laptop.wait_for_selector("body[data-seat='0'][data-status=playing]")
        # the token left the address bar, and this browser keeps the seat
        assert laptop.evaluate("() => location.hash") == ""
        assert laptop.url == f"{server.url}/r/{code}"
        stored = laptop.evaluate("(c) => JSON.parse(localStorage['gamenight.rooms.v1'])[c]", code)
        assert stored["seat"] == 0 and f"&token={stored['token']}" in link
        # the player's part of the dice comes along: this device checks it at the end too
        mine = phone.evaluate("(c) => JSON.parse(localStorage['gamenight.rooms.v1'])[c]", code)
        assert stored["contribution"] == mine["contribution"]
        laptop.reload()
        laptop.wait_for_selector("body[data-seat='0']")
        assert laptop.locator(".seat.me .seat-name").inner_text() == "Ann"
    finally:
        phone_ctx.close()
        laptop_ctx.close()


# ----- the host frees a seat during play ---------------------------------------------------------
def test_host_frees_an_away_seat_during_play_and_a_spectator_takes_it(
    browser: Any, server: Server
) -> None:
    host_ctx, guest_ctx, new_ctx = (ui.new_context(browser) for _ in range(3))
    host, guest, newcomer = host_ctx.new_page(), guest_ctx.new_page(), new_ctx.new_page()
    try:
        code = ui.create_room(host, server.url, "toy", ["human", "human"], name="Host")
        guest.goto(f"{server.url}/r/{code}")
        ui.claim_here(guest, 1, "Leaves")
        host.wait_for_selector("body[data-status=playing]")
        # a connected player's seat offers no "Free seat"
        host.wait_for_selector(".seat:has-text('Leaves')")
        assert host.locator("button[data-key=free-1]").count() == 0
        guest_ctx.close()  # the guest leaves
        host.click("button[data-key=free-1]")
        host.wait_for_selector(".seat:has-text('Open seat 2')")
        assert host.locator("#error").is_hidden()
        # a bot plays the free seat meanwhile; a spectator may take it
        newcomer.goto(f"{server.url}/r/{code}")
        newcomer.wait_for_selector(".bar-claim button[data-key=claim-1]")
        ui.check_layout(newcomer, "a free seat offered during play")
        ui.shoot(newcomer, "room-free-seat-in-play")
        ui.shoot(host, "room-host-freed-seat")
        newcomer.fill("#claim-name", "Newcomer")
        newcomer.click("button[data-key=claim-1]")
        newcomer.wait_for_selector("body[data-seat='1'][data-status=playing]")
        host.wait_for_selector(".seat-name:text-is('Newcomer')")
    finally:
        host_ctx.close()
        new_ctx.close()


# ----- the turn clock -----------------------------------------------------------------------
def test_the_turn_clock_shows_the_time_left(browser: Any, server: Server) -> None:
    created = _api_room(server, ["human", "bot:random"], {"turn_clock": 120, "bot_pace": 0})
    ctx = ui.new_context(browser)
    page = ctx.new_page()
    try:
        page.goto(f"{server.url}/r/{created['code']}")
        ui.claim_here(page, 0, "Clocked")
        page.wait_for_selector("body[data-my-turn=true] .turn-clock")
        left = int(page.get_attribute(".turn-clock", "data-left") or "0")
        assert 100 < left <= 120
        assert "left" in page.locator(".turn-clock").inner_text()
        ui.check_layout(page, "the turn clock in the bar")
        ui.shoot(page, "room-turn-clock")
        # it counts down in place
        ui.wait_until(
            page, "(l) => Number(document.querySelector('.turn-clock').dataset.left) < l", left
        )
    finally:
        ctx.close()


# ----- text -----------------------------------------------------------------------------------
def test_announcements_join_without_doubled_punctuation(page: Any, server: Server) -> None:
    page.goto(f"{server.url}/r/{_api_room(server, ['human'])['code']}")
    page.wait_for_selector("body[data-status]")
    joined = page.evaluate(
        """async () => { const { sentences } = await import("/static/js/parts/common.js");
          return [sentences(["Keep this die?", "Your turn"]),
                  sentences(["Ann rolled 5", "Your turn"])]; }"""
    )
    assert joined == ["Keep this die? Your turn", "Ann rolled 5. Your turn"]


def test_end_screen_says_game_over_once_and_names_bots_alike(page: Any, server: Server) -> None:
    ui.create_room(page, server.url, "toy", ["human", "bot:random"], name=ui.LONG_NAME)
    ui.start_if_host(page)
    ui.play(page, ui.toy)
    page.wait_for_selector("#end:not([hidden]) .ranks li")
    text = page.inner_text("body")
    assert text.count("Game over") <= 1
    assert page.locator(".rank-name:text-is('Bot random')").count() == 1
    assert page.locator(".seat-name:text-is('Bot random')").count() == 1
    ui.check_layout(page, "end screen with a 40-character name")
    ui.check_axe(page, "end screen", strict=True)
    ui.shoot(page, "room-end")
