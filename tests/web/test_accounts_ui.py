"""The account page in Chromium (issue 43): a password account, a passkey account through
CDP's virtual authenticator, and the profile and leaderboard pages after a rated game,
each passing strict axe and the layout check at 320, 390 and 1366 px, photographed at
phone and desktop size (artifacts/web/account-*.png)."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import secrets
from concurrent.futures import ThreadPoolExecutor
from typing import Any
from urllib.parse import quote

import httpx
import pytest
import websockets

from web import webui as ui
from web.webui import Server

pytestmark = pytest.mark.browser
PASSWORD = "correct horse battery"
_names = itertools.count()


def _name(prefix: str) -> str:
    return f"{prefix}{next(_names)}{secrets.token_hex(2)}"


def _local(server: Server) -> str:
    """The server under the name "localhost": a passkey's relying party must be a domain,
    never an IP address."""
    return server.url.replace("127.0.0.1", "localhost")


def _signed_in(page: Any, name: str) -> None:
    page.get_by_role("heading", name=f"Signed in as {name}").wait_for()


def test_a_password_account(page: Any, server: Server) -> None:
    name = _name("Ann")
    page.goto(f"{server.url}/account")
    page.locator("#signup-name").fill(name)
    page.locator("#signup-password").fill(PASSWORD)
    ui.check_axe(page, "account signed out", strict=True)
    ui.check_layout(page, "account signed out")
    ui.shoot(page, "account-signin")
    page.get_by_role("button", name="Make the account").click()
    _signed_in(page, name)
    ui.check_axe(page, "account signed in", strict=True)
    ui.check_layout(page, "account signed in")
    ui.shoot(page, "account-signed-in")
    page.get_by_role("button", name="Sign out", exact=True).click()
    page.locator("#signin-name").wait_for()
    page.locator("#signin-name").fill(name.lower())  # names are one whatever their case
    page.locator("#signin-password").fill("not the password")
    page.get_by_role("button", name="Sign in", exact=True).click()
    page.get_by_role("alert").get_by_text("do not match an account").wait_for()
    page.locator("#signin-password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in", exact=True).click()
    _signed_in(page, name)


def test_a_passkey_account(context: Any, page: Any, server: Server) -> None:
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    found = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
            }
        },
    )
    name = _name("Key")
    page.goto(f"{_local(server)}/account")
    page.locator("#signup-name").fill(name)
    page.get_by_role("button", name="Make it with a passkey").click()
    _signed_in(page, name)
    keys = cdp.send("WebAuthn.getCredentials", {"authenticatorId": found["authenticatorId"]})
    assert len(keys["credentials"]) == 1 and keys["credentials"][0]["isResidentCredential"]
    page.get_by_role("button", name="Sign out", exact=True).click()
    page.get_by_role("button", name="Sign in with a passkey").click()
    _signed_in(page, name)
    # the account has no password: a password sign-in is refused as any wrong password
    with httpx.Client(base_url=server.url, headers={"Origin": server.url}) as c:
        r = c.post("/api/account/signin", json={"name": name, "password": PASSWORD})
    assert r.status_code == 401 and r.json()["code"] == "bad_credentials"


async def _play(url: str, code: str, tokens: list[str]) -> None:
    """Two seats act at random until the game ends (the documented protocol)."""
    ws_url = url.replace("http://", "ws://") + f"/ws/{code}"
    socks = [await websockets.connect(ws_url) for _ in tokens]
    states: list[dict[str, Any]] = [{}, {}]
    rng = random.Random(3)
    for ws, token in zip(socks, tokens, strict=True):
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
    ident = 0
    while not any(s.get("finished") for s in states):
        for i, ws in enumerate(socks):
            try:
                frame = json.loads(await asyncio.wait_for(ws.recv(), 0.3))
            except TimeoutError:
                continue
            if frame["type"] in ("snapshot", "events"):
                states[i] = {**states[i], **frame}
            if states[i].get("legal") and not states[i].get("finished"):
                ident += 1
                act = {
                    "type": "act",
                    "id": ident,
                    "action": rng.choice(states[i]["legal"]),
                    "expected_seq": states[i]["seq"],
                }
                states[i] = {**states[i], "legal": []}
                await ws.send(json.dumps(act))
    for ws in socks:
        await ws.close()


def test_profile_and_leaderboard(page: Any, server: Server) -> None:
    names = [_name("Rated"), _name("Rival")]
    clients = [httpx.Client(base_url=server.url, headers={"Origin": server.url}) for _ in names]
    for c, n in zip(clients, names, strict=True):
        assert (
            c.post("/api/account/signup", json={"name": n, "password": PASSWORD}).status_code == 201
        )
    made = (
        clients[0]
        .post(
            "/api/rooms",
            json={
                "game": "decathlon",
                "seats": ["human", "human"],
                "options": {"events": "100m"},
                "room": {"rated": True, "bot_pace": 0},
            },
        )
        .json()
    )
    tokens = [
        c.post(
            f"/api/rooms/{made['code']}/seats/{i}/claim",
            json={"name": n, "contribution": f"part {i}"},
        ).json()["token"]
        for i, (c, n) in enumerate(zip(clients, names, strict=True))
    ]
    with ThreadPoolExecutor(1) as pool:  # Playwright's loop runs in this thread
        pool.submit(asyncio.run, _play(server.url, made["code"], tokens)).result(timeout=120)
    # the rated result is written in the background as the game ends: wait for it
    ui.poll(
        page,
        lambda: clients[0].get(f"/api/players/{names[0]}").json()["pools"],
        "the rated result written",
    )
    for c in clients:
        c.close()
    page.goto(f"{server.url}/account?player={names[0]}")
    page.locator("svg.rating-plot").wait_for()
    ui.check_axe(page, "profile", strict=True)
    ui.check_layout(page, "profile")
    ui.shoot(page, "account-profile")
    page.goto(f"{server.url}/account?board=1&pool=" + 'decathlon {"events":["100m"]}')
    page.get_by_role("table").get_by_text(names[1]).wait_for()
    ui.check_axe(page, "leaderboard", strict=True)
    ui.check_layout(page, "leaderboard")
    ui.shoot(page, "account-leaderboard")


def _sign_up(page: Any, base: str, name: str) -> None:
    page.goto(f"{base}/account")
    page.locator("#signup-name").fill(name)
    page.locator("#signup-password").fill(PASSWORD)
    page.get_by_role("button", name="Make the account").click()
    _signed_in(page, name)


def _sign_in(page: Any, base: str, name: str) -> None:
    page.goto(f"{base}/account")
    page.locator("#signin-name").fill(name)
    page.locator("#signin-password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in", exact=True).click()
    _signed_in(page, name)


def test_a_seat_resumed_on_another_device(browser: Any, server: Server) -> None:
    """Context A signs up, creates a room with a bot, claims its seat and moves; context
    B (fresh storage) signs in to the same account, sees the room in the lobby's "Your
    rooms", resumes it and makes the next move on the same seat; A is told."""
    name = _name("Dev")
    a_ctx, b_ctx = ui.new_context(browser), ui.new_context(browser)
    try:
        a, b = a_ctx.new_page(), b_ctx.new_page()
        _sign_up(a, server.url, name)
        code = ui.create_room(
            a, server.url, "decathlon", ["human", "bot:greedy"], name=name, events=["100m"]
        )
        ui.start_if_host(a)
        ui.play(a, ui.decathlon, stop_after=1)  # one move, then our turn again
        seq = int(a.get_attribute("body", "data-seq") or "0")
        assert seq >= 1
        _sign_in(b, server.url, name)
        b.locator(f"li[data-code='{code}'] button.resume").wait_for()  # the account page too
        b.goto(server.url + "/")
        b.wait_for_selector("body[data-mine=ready]")
        row = b.locator(f"#mine li[data-code='{code}']")
        assert "seat 1" in row.inner_text().lower()
        ui.shoot(b, "lobby-resume")
        row.get_by_role("button", name="Resume here").click()
        b.wait_for_url(f"**/r/{code}")
        b.wait_for_selector("body[data-seat='0'][data-my-turn=true]")
        a.get_by_role("alert").get_by_text("no longer works").wait_for()  # A is told
        assert int(b.get_attribute("body", "data-seq") or "0") == seq
        ui.play(b, ui.decathlon, stop_after=1, seed=2)  # the next move, from B
        assert int(b.get_attribute("body", "data-seq") or "0") > seq
        a.wait_for_selector("body[data-seat='']")  # A watches now
    finally:
        a_ctx.close()
        b_ctx.close()


def _my_turn_move(page: Any, rng: random.Random) -> bool:
    """One move on ``page`` if it is its turn: whether it made one."""
    if not page.locator("body[data-my-turn=true]").count():
        return False
    seq = page.get_attribute("body", "data-seq")
    if not ui.decathlon(page, rng):  # the table is redrawing: again on the next pass
        return False
    page.wait_for_selector(f"body:not([data-seq='{seq}']), body[data-status=finished]")
    return True


def test_a_rated_game_between_two_accounts(browser: Any, server: Server) -> None:
    """Two accounts in two contexts: the host ticks "Rated" in the lobby (a guest's box is
    off); the room page tells a guest it is rated and sends them to sign in and back; the
    game is played to the end; both ratings are updated exactly once."""
    names = [f"<b>{_name('Host')}</b>", _name("Guest")]  # markup in a name stays text
    ctxs = [ui.new_context(browser) for _ in range(3)]
    try:
        host, rival, guest = (c.new_page() for c in ctxs)
        guest.goto(server.url + "/?game=decathlon")
        guest.wait_for_selector("body[data-mine=ready]")
        assert guest.locator("#rated").is_disabled()
        assert guest.locator("#account-link").inner_text() == "Sign in"
        _sign_up(host, server.url, names[0])
        host.goto(server.url + "/?game=decathlon")
        host.wait_for_selector("body[data-mine=ready]")
        assert names[0] in host.locator("#account-link").inner_text()  # as typed, not bold
        assert host.locator("#account-link b").count() == 0
        assert host.locator("#rated").is_enabled()
        host.locator("#rated").check()
        ui.check_axe(host, "lobby signed in, rated", strict=True)
        ui.check_layout(host, "lobby signed in, rated")
        ui.shoot(host, "lobby-rated")
        code = ui.create_room(
            host, server.url, "decathlon", ["human", "human"], name=names[0],
            events=["100m"], checks=("rated",),
        )  # fmt: skip
        # a guest is told before any claim, and offered the way to sign in and come back
        rival.goto(f"{server.url}/r/{code}")
        rival.locator("#rated-badge").wait_for()
        assert rival.locator("#rated-badge").inner_text() == "Rated"
        assert "only signed-in players" in rival.locator(".rated-note").inner_text()
        assert rival.locator("button.claim-seat").count() == 0
        ui.check_axe(rival, "rated room, guest", strict=True)
        ui.shoot(rival, "room-rated-guest")
        # the server refuses a guest's claim all the same (a client that ignores the page)
        refused = httpx.post(
            f"{server.url}/api/rooms/{code}/seats/1/claim",
            json={"name": "Guest"},
            headers={"Origin": server.url},
        )
        assert refused.status_code == 401 and refused.json()["code"] == "rated_room"
        rival.click("#rated-signin")
        rival.wait_for_url("**/account?back=*")
        rival.locator("#signup-name").fill(names[1])
        rival.locator("#signup-password").fill(PASSWORD)
        rival.get_by_role("button", name="Make the account").click()
        rival.wait_for_url(f"{server.url}/r/{code}")  # back in the room, signed in
        rival.fill("#claim-name", names[1])
        rival.click("button[data-key=claim-1]")
        ui.start_if_host(host)
        rng = random.Random(5)
        for _ in range(400):
            if host.locator("body[data-status=finished]").count():
                break
            if not (_my_turn_move(host, rng) or _my_turn_move(rival, rng)):
                host.wait_for_timeout(50)  # a polling interval: the other's move arrives
        host.wait_for_selector("body[data-status=finished]")
        pool = 'decathlon {"events":["100m"]}'
        with httpx.Client(base_url=server.url) as c:

            def board() -> list[dict[str, Any]]:
                rows: list[dict[str, Any]] = c.get(
                    "/api/leaderboard", params={"pool": pool}
                ).json()["rows"]
                return rows

            # written in the background as the game ends
            ui.poll(host, lambda: {r["name"] for r in board()} >= set(names), "both rated")
            rows = board()
            games = {r["name"]: r["rating"]["games"] for r in rows if not r["bot"]}
            assert games[names[0]] == games[names[1]] == 1
            for n in names:
                profile = c.get(f"/api/players/{quote(n, safe='')}").json()
                mine = [p for p in profile["pools"] if p["pool"] == pool]
                assert mine[0]["rating"]["games"] == 1 and len(mine[0]["history"]) == 1
    finally:
        for c in ctxs:
            c.close()


def test_the_way_back_after_signing_in_leads_only_to_a_room_here(page: Any, server: Server) -> None:
    """``/account?back=`` (the rated room's "Sign in to take a seat") returns only to a
    room path of this site: any other address is ignored, never an open redirect."""
    name = _name("Bea")
    page.goto(f"{server.url}/account?back={quote('//evil.example/r/x')}")
    page.locator("#signup-name").fill(name)
    page.locator("#signup-password").fill(PASSWORD)
    page.get_by_role("button", name="Make the account").click()
    _signed_in(page, name)  # stayed on the account page
    assert page.url.startswith(f"{server.url}/account")
