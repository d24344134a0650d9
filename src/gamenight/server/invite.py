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

import re

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
    from gamenight.server.serve import is_loopback, machine_address

    if is_loopback(name) and not is_loopback(config.listen_host):
        everywhere = config.listen_host in ("0.0.0.0", "::", "")
        mine = machine_address() if everywhere else config.listen_host
        if mine:
            shown = f"[{mine}]" if ":" in mine else mine
            return f"{'https' if secure else 'http'}://{shown}{port}"
    return f"{'https' if secure else 'http'}://{name}{port}"
