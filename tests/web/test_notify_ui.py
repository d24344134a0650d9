"""Subscribing to push in Chromium (issue 44): the room page of a turn-based room offers
it to a seated player; the page registers the service worker, calls
``pushManager.subscribe`` with the server's VAPID key, and the subscription reaches the
server. No real push service is reachable from a test, so ``pushManager.subscribe`` is
stubbed in the page: it records what it was called with and answers a subscription of a
key pair made here. Photographed at phone and desktop size (artifacts/web/notify-*.png)."""

from __future__ import annotations

import base64
import json
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from web import webui as ui
from web.webui import Server

pytestmark = pytest.mark.browser
ENDPOINT = "https://push.example.net/send/abc"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _room(server: Server, pace: dict[str, Any]) -> tuple[str, str]:
    made = httpx.post(
        f"{server.url}/api/rooms",
        json={"game": "dice-duel", "seats": ["human", "human"], "room": {"bot_pace": 0, **pace}},
    )
    assert made.status_code == 201, made.text
    code = made.json()["code"]
    claimed = httpx.post(
        f"{server.url}/api/rooms/{code}/seats/0/claim", json={"name": "Ada", "contribution": "x"}
    )
    assert claimed.status_code == 200, claimed.text
    return code, claimed.json()["token"]


def _seated(context: Any, code: str, token: str) -> None:
    """The browser remembers its seat (as after claiming it on the page)."""
    seat = {code: {"seat": 0, "token": token, "game": "dice-duel", "name": "Ada"}}
    context.add_init_script(
        f"localStorage.setItem('gamenight.rooms.v1', {json.dumps(json.dumps(seat))});"
    )


def _stub_push(context: Any, p256dh: str, auth: str) -> None:
    subscription = {"endpoint": ENDPOINT, "keys": {"p256dh": p256dh, "auth": auth}}
    context.add_init_script(
        "if (self.PushManager) PushManager.prototype.subscribe = async function (options) {"
        "  window.pushCalls = (window.pushCalls || []).concat([{"
        "    userVisibleOnly: options.userVisibleOnly,"
        "    key: Array.from(new Uint8Array(options.applicationServerKey))}]);"
        f"  const json = {json.dumps(subscription)};"
        "  return { endpoint: json.endpoint, toJSON: () => json };"
        "};"
    )


def test_a_seated_player_subscribes_this_device(context: Any, page: Any, server: Server) -> None:
    code, token = _room(server, {"pace": "turn-based", "move_time": 43200})
    browser_key = ec.generate_private_key(ec.SECP256R1()).public_key()
    p256dh = _b64(
        browser_key.public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
    )
    _seated(context, code, token)
    _stub_push(context, p256dh, _b64(b"0123456789abcdef"))
    context.grant_permissions(["notifications"], origin=server.url)
    page.goto(f"{server.url}/r/{code}")
    page.get_by_role("heading", name="Notifications").wait_for()
    ui.check_axe(page, "room notifications", strict=True)
    ui.check_layout(page, "room notifications")
    page.get_by_role("button", name="Notify me on this device").click()
    page.get_by_text("This device will be notified.").wait_for()
    ui.shoot(page, "notify-room")

    calls = page.evaluate("() => window.pushCalls")
    vapid = httpx.get(f"{server.url}/api/notify/vapid").json()["public_key"]
    assert calls == [{"userVisibleOnly": True, "key": list(base64.urlsafe_b64decode(vapid + "="))}]
    assert page.evaluate("navigator.serviceWorker.getRegistration().then(r => !!r)")
    listed = httpx.get(
        f"{server.url}/api/notify/subscriptions",
        params={"room": code, "seat": "0"},
        headers={"Authorization": f"Bearer {token}"},
    ).json()
    assert [(s["channel"], s["target"]) for s in listed] == [("push", "push.example.net")]


def test_a_live_room_offers_no_notifications(context: Any, page: Any, server: Server) -> None:
    code, token = _room(server, {})
    _seated(context, code, token)
    page.goto(f"{server.url}/r/{code}")
    page.wait_for_selector("body[data-status]")
    ui.next_frame(page)
    assert page.locator("#notify").is_hidden()


def test_the_service_worker_is_served_at_the_root(server: Server) -> None:
    answer = httpx.get(f"{server.url}/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert "showNotification" in answer.text
