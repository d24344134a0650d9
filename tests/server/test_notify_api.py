"""The notifications' HTTP API against a real server: a guest seat (its token as bearer)
and an account subscribe, list and remove; the checks of every state-changing request
(Origin, Content-Type); targets on private networks refused unless the operator allows
them; the unsubscribe link works without signing in."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest
from harness import ThreadServer, claim, create_room
from notify_kit import Browser, unb64

from gamenight.server.notify.push import public_key


@pytest.fixture
def srv(sqlite_url: str) -> Iterator[ThreadServer]:
    with ThreadServer(sqlite_url, public_url="https://games.example") as running:
        yield running


def _client(srv: ThreadServer, **kw: object) -> httpx.Client:
    return httpx.Client(base_url=srv.url, headers={"Origin": srv.url}, timeout=30, **kw)  # type: ignore[arg-type]


def _guest(srv: ThreadServer) -> tuple[dict[str, str], dict[str, str]]:
    room = create_room(srv.url, "dice-duel", ["human", "human"])
    token = claim(srv.url, room["code"], 0, "Ada")
    return {"room": room["code"], "seat": "0"}, {"Authorization": f"Bearer {token}"}


def test_a_guest_seat_subscribes_lists_and_removes(srv: ThreadServer) -> None:
    params, auth = _guest(srv)
    with _client(srv) as c:
        made = c.post(
            "/api/notify/subscriptions",
            params=params,
            headers=auth,
            json={"channel": "webhook", "target": "https://hooks.example.org/x"},
        )
        assert made.status_code == 201, made.text
        body = made.json()
        assert len(body["secret"]) == 64  # shown this once
        assert body["unsubscribe"].startswith("https://games.example/notify/unsubscribe?token=")
        listed = c.get("/api/notify/subscriptions", params=params, headers=auth).json()
        assert [(s["channel"], s["target"]) for s in listed] == [
            ("webhook", "https://hooks.example.org/x")
        ]
        assert "secret" not in listed[0]
        wrong = {"Authorization": "Bearer nope"}
        assert c.get("/api/notify/subscriptions", params=params, headers=wrong).status_code == 404
        gone = c.delete(
            f"/api/notify/subscriptions/{body['subscription']['id']}", params=params, headers=auth
        )
        assert gone.status_code == 200
        assert c.get("/api/notify/subscriptions", params=params, headers=auth).json() == []


def test_an_account_subscribes_a_browser_with_the_servers_vapid_key(srv: ThreadServer) -> None:
    with _client(srv) as c:
        assert (
            c.post("/api/account/signup", json={"name": "Ann", "password": "a" * 12}).status_code
            == 201
        )
        key = c.get("/api/notify/vapid").json()["public_key"]
        assert len(unb64(key)) == 65 and unb64(key)[0] == 4  # an uncompressed P-256 point
        assert c.get("/api/notify/vapid").json()["public_key"] == key  # kept
        browser = Browser("https://push.example.net/send/abc")
        made = c.post(
            "/api/notify/subscriptions",
            json={"channel": "push", "target": json.dumps(browser.subscription), "lang": "pl"},
        )
        assert made.status_code == 201, made.text
        assert made.json()["subscription"]["target"] == "push.example.net"  # not the endpoint
        assert made.json()["secret"] is None
        assert [s["lang"] for s in c.get("/api/notify/subscriptions").json()] == ["pl"]
    store_key = srv.app.state.notifier._vapid
    assert public_key(store_key) == key


def test_no_subscription_without_a_seat_or_a_session(srv: ThreadServer) -> None:
    with _client(srv) as c:
        r = c.post("/api/notify/subscriptions", json={"channel": "email", "target": "a@b.org"})
        assert r.status_code == 401 and r.json()["code"] == "not_signed_in"


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"channel": "webhook", "target": "http://127.0.0.1:9/x"}, "bad_request"),
        ({"channel": "webhook", "target": "http://10.0.0.5/x"}, "bad_request"),
        ({"channel": "webhook", "target": "http://[::1]/x"}, "bad_request"),
        ({"channel": "webhook", "target": "http://localhost/x"}, "bad_request"),
        ({"channel": "webhook", "target": "file:///etc/passwd"}, "bad_request"),
        (
            {
                "channel": "push",
                "target": json.dumps(
                    {"endpoint": "http://169.254.169.254/", "keys": {"p256dh": "x", "auth": "y"}}
                ),
            },
            "bad_request",
        ),
        ({"channel": "push", "target": "[]"}, "bad_request"),
        ({"channel": "email", "target": "not an address"}, "bad_request"),
        ({"channel": "email", "target": "a@b.org"}, "no_channel"),  # this server has no SMTP
        ({"channel": "sms", "target": "1"}, "bad_request"),
    ],
)
def test_refused_targets_get_one_line(srv: ThreadServer, body: dict[str, str], code: str) -> None:
    params, auth = _guest(srv)
    with _client(srv) as c:
        r = c.post("/api/notify/subscriptions", params=params, headers=auth, json=body)
    assert r.json()["code"] == code, r.text
    assert "\n" not in r.json()["message"]


def test_state_changes_check_origin_and_content_type(srv: ThreadServer) -> None:
    params, auth = _guest(srv)
    body = json.dumps({"channel": "webhook", "target": "https://hooks.example.org/x"})
    with httpx.Client(base_url=srv.url, timeout=30) as c:
        evil = c.post(
            "/api/notify/subscriptions",
            params=params,
            content=body,
            headers={**auth, "Origin": "https://evil.example", "Content-Type": "application/json"},
        )
        assert evil.status_code == 403 and evil.json()["code"] == "bad_origin"
        form = c.post(
            "/api/notify/subscriptions",
            params=params,
            content=body,
            headers={**auth, "Origin": srv.url, "Content-Type": "text/plain"},
        )
        assert form.status_code == 415


def test_the_unsubscribe_link_works_without_signing_in(srv: ThreadServer) -> None:
    params, auth = _guest(srv)
    with _client(srv) as c:
        made = c.post(
            "/api/notify/subscriptions",
            params=params,
            headers=auth,
            json={"channel": "webhook", "target": "https://hooks.example.org/x"},
        ).json()
    token = made["unsubscribe"].partition("token=")[2]
    with httpx.Client(base_url=srv.url, timeout=30) as anonymous:
        page = anonymous.get("/notify/unsubscribe", params={"token": token})
        assert page.status_code == 200 and "<form" in page.text  # a GET changes nothing
        assert "form-action 'self'" in page.headers["content-security-policy"]
        with _client(srv) as c:
            assert len(c.get("/api/notify/subscriptions", params=params, headers=auth).json()) == 1
        # the one-click form of RFC 8058, as a mail provider posts it (no Origin)
        done = anonymous.post(
            "/api/notify/unsubscribe",
            params={"token": token},
            content="List-Unsubscribe=One-Click",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
        )
        assert done.status_code == 200 and "no more notifications" in done.text
        again = anonymous.post(
            "/api/notify/unsubscribe",
            params={"token": token},
            json={},
            headers={"Accept": "application/json"},
        )
        assert again.json() == {"unsubscribed": False}
    with _client(srv) as c:
        assert c.get("/api/notify/subscriptions", params=params, headers=auth).json() == []


def test_a_host_name_resolving_to_loopback_is_refused(
    srv: ThreadServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    import socket

    real = socket.getaddrinfo

    def resolve(host: str, *args: object, **kw: object) -> object:
        if host == "rebind.example.org":
            return real("127.0.0.1", *args, **kw)  # type: ignore[arg-type]
        return real(host, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    params, auth = _guest(srv)
    with _client(srv) as c:
        r = c.post(
            "/api/notify/subscriptions",
            params=params,
            headers=auth,
            json={"channel": "webhook", "target": "https://rebind.example.org/x"},
        )
    assert r.status_code == 400 and "private" in r.json()["message"]
