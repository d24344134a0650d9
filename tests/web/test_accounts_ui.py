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
