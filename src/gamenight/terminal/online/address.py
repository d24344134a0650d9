"""Where a room is: an invite link (``https://host/r/CODE``) or a bare room code with
the server's URL (``--server``, else ``GAMENIGHT_SERVER``).

>>> where("http://127.0.0.1:8000/r/AbC-_9xyz", None)
Where(server='http://127.0.0.1:8000', code='AbC-_9xyz')
>>> where("AbC-_9xyz", "https://games.example.org/")
Where(server='https://games.example.org', code='AbC-_9xyz')
>>> where("https://games.example.org/night/r/Q1?x=1#y", None).server
'https://games.example.org/night'
>>> socket_url(where("https://games.example.org/r/Q1", None), "de")
'wss://games.example.org/ws/Q1?lang=de'
>>> where("AbC", None)  # doctest: +ELLIPSIS
Traceback (most recent call last):
gamenight.terminal.online.OnlineError: a room code needs its server: give --server URL ...
"""

from __future__ import annotations

import re
import urllib.parse
from typing import NamedTuple

from gamenight.core.i18n import _
from gamenight.terminal.online import OnlineError

SERVER_VARIABLE = "GAMENIGHT_SERVER"
# Room codes are opaque: 16 characters of A-Z a-z 0-9 - _ today (docs/protocol.md);
# a client accepts any length up to 64 of that alphabet.
CODE = re.compile(r"[A-Za-z0-9_-]{1,64}")
MAX_TARGET = 2000  # a link longer than this is no invite


class Where(NamedTuple):
    """A server's base URL (no trailing slash) and a room code on it."""

    server: str
    code: str


def _shown(text: str) -> str:
    """``text`` for an error line: printable and short (never terminal controls)."""
    cut = text if len(text) <= 80 else text[:79] + "…"
    return "".join(c if c.isprintable() else "?" for c in cut)


def server_url(text: str) -> str:
    """``text`` as a server base URL (``http``/``https``, a host, maybe a port and a
    path prefix), without a trailing slash; else :class:`OnlineError`.

    >>> server_url("http://[::1]:8000")
    'http://[::1]:8000'
    >>> server_url("ftp://x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    gamenight.terminal.online.OnlineError: 'ftp://x' is not a server address: give http://HOST...
    """
    bad = OnlineError(
        _("{text!r} is not a server address: give http://HOST[:PORT] or https://HOST").format(
            text=_shown(text)
        )
    )
    if len(text) > MAX_TARGET or not text.isprintable() or any(c.isspace() for c in text):
        raise bad
    try:
        parts = urllib.parse.urlsplit(text)
        port = parts.port  # a port that is no number 0-65535 raises ValueError
    except ValueError:
        raise bad from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise bad
    if parts.username is not None or parts.password is not None or (port == 0):
        raise bad
    if not text.isascii():
        raise bad
    path = parts.path.rstrip("/")
    return f"{parts.scheme.lower()}://{parts.netloc}{path}"


def where(target: str, server: str | None) -> Where:
    """The room ``target`` names: an invite link (its server is in it) or a room code
    on ``server``. Raises :class:`OnlineError` with one line saying what is wrong."""
    target = target.strip()
    if "://" in target[:12]:
        base = server_url(target)
        head, sep, code = base.rpartition("/r/")
        if not sep or not CODE.fullmatch(code):
            raise OnlineError(
                _("{text!r} is not an invite link: it ends in /r/ and the room code").format(
                    text=_shown(target)
                )
            )
        return Where(head, code)
    if not CODE.fullmatch(target):
        raise OnlineError(
            _(
                "{text!r} is neither an invite link nor a room code (letters, digits, - and _)"
            ).format(text=_shown(target))
        )
    if not server:
        raise OnlineError(
            _("a room code needs its server: give --server URL (or set GAMENIGHT_SERVER)")
        )
    return Where(server_url(server.strip()), target)


def socket_url(room: Where, lang: str) -> str:
    """The room's WebSocket (``ws``/``wss`` on the same host), in language ``lang``."""
    scheme, rest = room.server.split("://", 1)
    ws = "wss" if scheme == "https" else "ws"
    return f"{ws}://{rest}/ws/{room.code}?lang={urllib.parse.quote(lang)}"
