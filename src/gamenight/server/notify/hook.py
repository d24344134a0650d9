"""Webhooks: a JSON POST signed with HMAC-SHA256 (docs/notifications.md says how to check).

The headers ``Gamenight-Timestamp`` (Unix seconds) and ``Gamenight-Signature``
(``v1=`` and the hex HMAC-SHA256, keyed with the subscription's secret, of
``TIMESTAMP.BODY``); ``Gamenight-Delivery`` names the delivery (the same on a retry), so
a receiver can drop a repeat.

>>> import hashlib, hmac
>>> expected = hmac.new(b"k", b'1700000000.{"a":1}', hashlib.sha256).hexdigest()
>>> signature("k", 1700000000, b'{"a":1}') == "v1=" + expected
True
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from typing import Any

from gamenight.server.notify import targets


def new_secret() -> str:
    """A webhook's HMAC key: 256 random bits, hex."""
    return secrets.token_hex(32)


def signature(secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256)
    return "v1=" + mac.hexdigest()


def send(
    url: str, secret: str, data: dict[str, Any], delivery: str, now: float, *, allow_private: bool
) -> None:
    """POST ``data``; a :class:`~gamenight.server.notify.targets.TargetError` unless the
    receiver answers 2xx."""
    body = json.dumps(data, ensure_ascii=False, sort_keys=True).encode("utf-8")
    stamp = int(now)
    status = targets.post(
        url,
        body,
        {
            "Content-Type": "application/json",
            "User-Agent": "gamenight-webhook",
            "Gamenight-Timestamp": str(stamp),
            "Gamenight-Signature": signature(secret, stamp, body),
            "Gamenight-Delivery": delivery,
        },
        allow_private=allow_private,
    )
    if not 200 <= status < 300:
        raise targets.TargetError(f"the receiver answered {status}")
