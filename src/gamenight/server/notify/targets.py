"""Where the server may send a request on a user's behalf (webhooks, push services):
public addresses only, unless the operator allows private ones (``--notify-private``).

A URL is checked when it is subscribed (:func:`check_url`) and again at each delivery,
after resolving its host (:func:`resolve_public`): a name that pointed at a public
address when it was given may point at 127.0.0.1 now (DNS rebinding); the request then
goes to the address that was checked (:func:`post`), never resolved a second time.

>>> check_url("https://hooks.example.org/x", allow_private=False)
'https://hooks.example.org/x'
>>> check_url("http://127.0.0.1:9/x", allow_private=False)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
gamenight.server.notify.targets.PrivateTargetError: loopback and private-network ... refused
>>> check_url("ftp://a/x", allow_private=False)
Traceback (most recent call last):
...
gamenight.server.notify.targets.TargetError: the URL must start with https:// or http://
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
from urllib.parse import urlsplit

from gamenight.core.errors import GamenightError
from gamenight.core.i18n import _

MAX_URL = 2000
TIMEOUT = 10.0  # seconds for a connection and for each read


class TargetError(GamenightError):
    """A URL the server will not send to (one line)."""


class PrivateTargetError(TargetError):
    """A URL whose host is (or resolves to) loopback or a private network."""


def _private() -> PrivateTargetError:
    return PrivateTargetError(_("loopback and private-network addresses are refused"))


def public(address: str) -> bool:
    """An address on the public internet (not loopback, private, link-local, ...).

    >>> public("93.184.216.34"), public("10.1.2.3"), public("::1"), public("169.254.1.1")
    (True, False, False, False)
    """
    ip = ipaddress.ip_address(address)
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def check_url(url: str, *, allow_private: bool) -> str:
    """``url`` if the server may send to it (its literal address, if it is one, is
    public); a one-line :class:`TargetError` otherwise. Host names are checked when
    resolved (:func:`resolve_public`)."""
    if len(url) > MAX_URL:
        raise TargetError(_("the URL is too long"))
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http") or not parts.hostname:
        raise TargetError(_("the URL must start with https:// or http://"))
    if parts.username or parts.password:
        raise TargetError(_("the URL must not hold a user name or password"))
    try:
        parts.port  # noqa: B018 - raises for a bad port
    except ValueError:
        raise TargetError(_("the URL has a bad port")) from None
    host = parts.hostname
    try:
        ipaddress.ip_address(host)
    except ValueError:
        if not allow_private and (host == "localhost" or host.endswith(".localhost")):
            raise _private() from None
        return url
    if not allow_private and not public(host):
        raise _private()
    return url


def screen(url: str, *, allow_private: bool) -> None:
    """At subscription time: a host name that resolves now to a private address is
    refused; one that does not resolve is let through (the delivery checks it again)."""
    if allow_private:
        return
    parts = urlsplit(url)
    try:
        resolve_public(parts.hostname or "", parts.port or 443, allow_private=False)
    except PrivateTargetError:
        raise
    except TargetError:
        pass  # not resolvable now: checked at each delivery


def resolve_public(host: str, port: int, *, allow_private: bool) -> str:
    """The address to connect to for ``host``: its first address, every one of which must
    be public (unless ``allow_private``)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise TargetError(f"{host}: {exc}") from None
    addresses = [str(info[4][0]) for info in infos]
    if not addresses:
        raise TargetError(f"{host}: no address")
    if not allow_private and not all(public(a) for a in addresses):
        raise _private()
    return addresses[0]


class _Pinned(http.client.HTTPConnection):
    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedTLS(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self.address = address

    def connect(self) -> None:
        raw = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(raw, server_hostname=self.host)  # type: ignore[attr-defined]  # set by connect(), as http.client does


def post(url: str, body: bytes, headers: dict[str, str], *, allow_private: bool) -> int:
    """POST ``body`` to ``url`` at an address checked now; the answer's status."""
    check_url(url, allow_private=allow_private)
    parts = urlsplit(url)
    tls = parts.scheme == "https"
    host = parts.hostname or ""
    port = parts.port or (443 if tls else 80)
    address = resolve_public(host, port, allow_private=allow_private)
    kind = _PinnedTLS if tls else _Pinned
    conn = kind(host, port, address, TIMEOUT)
    try:
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        conn.request("POST", path, body=body, headers={"Content-Length": str(len(body)), **headers})
        response = conn.getresponse()
        response.read(64 * 1024)
        return response.status
    except OSError as exc:
        raise TargetError(f"{host}: {exc}") from None
    finally:
        conn.close()
