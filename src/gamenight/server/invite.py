"""Where an invite link points (``--public-url``, else the address the browser used).

Never a loopback address another player cannot open when there is better: a browser on
the server's own machine that opened ``http://127.0.0.1:8000`` of a server listening
beyond loopback is given this machine's address instead. A server listening on loopback
only has nothing better; its room page then says the link works on this computer only.

>>> from gamenight.server.config import Config
>>> base = Config(db_url="", public_url="https://games.example.org")
>>> invite_base(base, "http", "127.0.0.1:8000")
'https://games.example.org'
>>> invite_base(Config(db_url=""), "https", "games.lan:8443")
'https://games.lan:8443'
>>> invite_base(Config(db_url="", listen_host="192.168.1.5"), "http", "localhost:8000")
'http://192.168.1.5:8000'
>>> invite_base(Config(db_url=""), "http", "<script>")
''
"""

from __future__ import annotations

import contextlib
import ipaddress
import re
import socket

from gamenight.server.config import Config

_HOST = re.compile(r"^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$")


def invite_base(config: Config, scheme: str, host: str | None) -> str:
    """The origin an invite link starts with ('' when the request names none that can
    be trusted to be an address: the page then uses its own origin)."""
    if config.public_url:
        return config.public_url
    found = _HOST.match(host or "")
    if found is None:
        return ""
    secure = scheme in ("https", "wss")
    name, port = found.group(1), found.group(2) or ""
    if is_loopback(name) and not is_loopback(config.listen_host):
        everywhere = config.listen_host in ("0.0.0.0", "::", "")
        mine = machine_address() if everywhere else config.listen_host
        if mine:
            shown = f"[{mine}]" if ":" in mine else mine
            return f"{'https' if secure else 'http'}://{shown}{port}"
    return f"{'https' if secure else 'http'}://{name}{port}"


def is_loopback(host: str) -> bool:
    """True for an address (or ``localhost``) only this machine can reach.

    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("0.0.0.0")
    (True, True, False)
    """
    name = host.strip("[]").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def machine_address() -> str | None:
    """This machine's address on its network, as others would reach it (a guess: the
    address of the route out; nothing is sent)."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))  # TEST-NET-1: never answered; picks the route only
        address: str = s.getsockname()[0]
        if not ipaddress.ip_address(address).is_loopback:
            return address
    return None
