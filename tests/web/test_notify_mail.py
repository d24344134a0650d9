"""A notification mail as its reader sees it (issue 44): one mail for moves in three rooms,
in German, rendered from its HTML part in Chromium and photographed
(artifacts/web/notify-mail-*.png, the HTML beside it); a seat name that looks like markup
stays text."""

from __future__ import annotations

import email
from email import policy
from typing import Any

import pytest

from gamenight.server.notify.mail import build
from gamenight.server.notify.message import compose
from gamenight.server.notify.store import Claimed
from web import webui as ui

pytestmark = pytest.mark.browser
NOW = 1_800_000_000.0


def _row(n: int, kind: str, game: str, room: str, name: str, mine: bool) -> Claimed:
    payload = {
        "room": room,
        "game": game,
        "seat": 0,
        "name": name,
        "since": NOW - 3600,
        "deadline": NOW + (n + 1) * 5 * 3600,
        "mine": mine,
    }
    return Claimed(n, kind, n, 0, 5, payload, 0)


def test_a_mail_for_three_rooms_renders_as_html(page: Any) -> None:
    rows = [
        _row(1, "turn", "dice-duel", "K7P2", "Ada", True),
        _row(2, "remind", "decathlon", "Z9Q4", "Ada", True),
        _row(3, "late", "wurfeltod", "M3X8", "<img src=x onerror=alert(1)>", False),
    ]
    message = compose(
        rows, "de", "https://games.example", "https://games.example/notify/unsubscribe?token=T", NOW
    )
    mail = email.message_from_bytes(
        bytes(build(message, "ada@example.org", "games@example.org", "<m@x>")),
        policy=policy.default,
    )
    part = mail.get_body(("html",))
    assert part is not None
    html = part.get_content()
    assert "<img src=x" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    ui.ARTIFACTS.mkdir(parents=True, exist_ok=True)
    (ui.ARTIFACTS / "notify-mail.html").write_text(html, encoding="utf-8")
    page.set_content(html)
    assert page.get_by_role("link").count() == 4  # three rooms and the unsubscribe link
    assert page.get_by_role("link", name="Abbestellen").get_attribute("href").endswith("token=T")
    assert page.locator("img").count() == 0
    ui.shoot(page, "notify-mail")
