"""Seat and host tokens: made at random, stored only as their hash (docs/protocol.md).

A module of its own, without SQLAlchemy: the app checks tokens before the storage is
imported (issue 29's server start).

>>> len(new_token()) >= 43 and new_token() != new_token()
True
>>> token_hash("abc")[:12]
'ba7816bf8f01'
"""

from __future__ import annotations

import hashlib
import secrets


def token_hash(token: str) -> str:
    """sha256 hex of a token: the only form in which tokens are stored."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_token() -> str:
    """A fresh secret token: 256 random bits, URL-safe."""
    return secrets.token_urlsafe(32)
