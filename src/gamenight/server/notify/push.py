"""Web Push with VAPID (RFC 8030, 8291, 8292): the payload encrypted for the browser's
subscription (``pywebpush``, aes128gcm), the request signed with the server's VAPID key.

The key pair is made once, on first use, and kept in the database (``notify_keys``,
name ``vapid``: the private key as PEM), so every process of a cluster signs with the
same key and a restart keeps the browsers' subscriptions working. ``GET
/api/notify/vapid`` gives its public key (the browser's ``applicationServerKey``).
"""

from __future__ import annotations

import base64
import json
import time
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from gamenight.server.notify import targets

TTL = 24 * 3600  # seconds a push service keeps a message for a browser that is away
CONTACT = "mailto:operator@gamenight.invalid"  # the VAPID "sub" claim without --smtp-from


def new_private_pem() -> str:
    """A fresh P-256 key (VAPID), as PEM."""
    key = ec.generate_private_key(ec.SECP256R1())
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()


def public_key(private_pem: str) -> str:
    """The browser's ``applicationServerKey``: the public point, base64url, no padding."""
    key = serialization.load_pem_private_key(private_pem.encode(), password=None)
    assert isinstance(key, ec.EllipticCurvePrivateKey)
    raw = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class BadSubscription(ValueError):
    """A PushSubscription that is not one (one line)."""


def check_subscription(text: str, *, allow_private: bool) -> dict[str, Any]:
    """The browser's ``PushSubscription.toJSON()``: an endpoint URL and its keys."""
    try:
        data = json.loads(text)
        endpoint = data["endpoint"]
        keys = data["keys"]
        p256dh, auth = keys["p256dh"], keys["auth"]
    except (ValueError, KeyError, TypeError):
        raise BadSubscription(
            "not a push subscription: endpoint and keys.p256dh, keys.auth"
        ) from None
    if not all(isinstance(v, str) and 0 < len(v) < 300 for v in (p256dh, auth)):
        raise BadSubscription("not a push subscription: endpoint and keys.p256dh, keys.auth")
    if not isinstance(endpoint, str):
        raise BadSubscription("not a push subscription: endpoint and keys.p256dh, keys.auth")
    targets.check_url(endpoint, allow_private=allow_private)
    return {"endpoint": endpoint, "keys": {"p256dh": p256dh, "auth": auth}}


def send(
    subscription: dict[str, Any],
    data: dict[str, Any],
    private_pem: str,
    contact: str,
    topic: str,
    *,
    allow_private: bool,
) -> None:
    """Encrypt ``data`` for ``subscription`` and POST it to its push service (blocking)."""
    from py_vapid import Vapid02
    from pywebpush import WebPusher

    body = json.dumps(data, ensure_ascii=False).encode("utf-8")
    encoded = WebPusher(subscription).encode(body, content_encoding="aes128gcm")
    endpoint = subscription["endpoint"]
    parts = urlsplit(endpoint)
    vapid = Vapid02.from_pem(private_pem.encode())
    claims = {
        "aud": f"{parts.scheme}://{parts.netloc}",
        "exp": int(time.time()) + 12 * 3600,
        "sub": contact if contact.startswith(("mailto:", "https:")) else f"mailto:{contact}",
    }
    headers = {
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        "TTL": str(TTL),
        "Urgency": "normal",
        "Topic": topic,  # a push service replaces an undelivered message of the same topic
        **{k: v.decode() if isinstance(v, bytes) else v for k, v in vapid.sign(claims).items()},
    }
    status = targets.post(endpoint, encoded["body"], headers, allow_private=allow_private)
    if not 200 <= status < 300:
        raise targets.TargetError(f"the push service answered {status}")
