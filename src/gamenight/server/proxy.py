"""Behind a reverse proxy: the client's address and scheme (``--trusted-proxy``).

The one rule: ``X-Forwarded-For``, ``X-Forwarded-Proto`` and ``Forwarded`` are believed
only when the connection comes from a trusted proxy; otherwise they are ignored, and the
client is the peer of the connection. :class:`ForwardedMiddleware` applies it to every
HTTP request and socket (the ASGI scope's ``client`` and ``scheme``, in place, so that
uvicorn's access log sees the same); :func:`client_address` is what the throttles and the
logs use.

>>> trusted = networks(("127.0.0.1/32",))
>>> forwarded_client("127.0.0.1", ["203.0.113.7, 127.0.0.1"], None, trusted)
'203.0.113.7'
>>> forwarded_client("198.51.100.9", ["203.0.113.7"], None, trusted)
'198.51.100.9'
>>> forwarded_client("127.0.0.1", [], 'for="[2001:db8::1]:4711";proto=https', trusted)
'2001:db8::1'
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Any, Any, Any], Awaitable[None]]


def networks(cidrs: Iterable[str]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(c, strict=False) for c in cidrs)


def _trusted(address: str, trusted: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in net for net in trusted)


def _forwarded_for(value: str) -> list[str]:
    """The ``for=`` addresses of a ``Forwarded`` header (RFC 7239), in order."""
    found = []
    for element in value.split(","):
        for pair in element.split(";"):
            key, _, raw = pair.strip().partition("=")
            if key.strip().lower() != "for":
                continue
            node = raw.strip().strip('"')
            if node.startswith("["):  # [v6]:port
                node = node[1 : node.find("]")] if "]" in node else node[1:]
            elif node.count(":") == 1:  # v4:port
                node = node.partition(":")[0]
            found.append(node)
    return found


def _forwarded_proto(value: str) -> str | None:
    last = None
    for element in value.split(","):
        for pair in element.split(";"):
            key, _, raw = pair.strip().partition("=")
            if key.strip().lower() == "proto":
                last = raw.strip().strip('"').lower()
    return last


def forwarded_client(
    peer: str, xff: list[str], forwarded: str | None, trusted: tuple[Network, ...]
) -> str:
    """The client's address: ``peer`` unless it is a trusted proxy; then the nearest
    address in the forwarding chain that is not itself a trusted proxy (a client cannot
    push its own fake address past the proxies, who append what they saw)."""
    if not trusted or not _trusted(peer, trusted):
        return peer
    chain = _forwarded_for(forwarded) if forwarded else []
    if not chain:
        chain = [a.strip() for line in xff for a in line.split(",") if a.strip()]
    client = peer
    for address in reversed(chain):
        try:
            ipaddress.ip_address(address)
        except ValueError:
            break  # "unknown", an obfuscated name: the last good one stands
        client = address
        if not _trusted(address, trusted):
            break
    return client


def _header(scope: Scope, name: bytes) -> list[str]:
    return [v.decode("latin-1") for k, v in scope.get("headers", ()) if k.lower() == name]


class ForwardedMiddleware:
    """Sets the scope's ``client`` and ``scheme`` from the forwarding headers when the
    peer is a trusted proxy (``trusted``); else leaves them as the connection made them."""

    def __init__(self, app: ASGIApp, trusted: Iterable[str]) -> None:
        self.app = app
        self.trusted = networks(trusted)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if self.trusted and scope["type"] in ("http", "websocket"):
            self.apply(scope)
        await self.app(scope, receive, send)

    def apply(self, scope: Scope) -> None:
        client = scope.get("client")
        peer = client[0] if client else ""
        if not _trusted(peer, self.trusted):
            return
        forwarded = ", ".join(_header(scope, b"forwarded")) or None
        address = forwarded_client(
            peer, _header(scope, b"x-forwarded-for"), forwarded, self.trusted
        )
        if address != peer:
            scope["client"] = (address, 0)
        proto = _forwarded_proto(forwarded) if forwarded else None
        if proto is None:
            protos = _header(scope, b"x-forwarded-proto")
            proto = protos[-1].split(",")[-1].strip().lower() if protos else None
        if proto in ("http", "https"):
            secure = proto == "https"
            if scope["type"] == "websocket":
                scope["scheme"] = "wss" if secure else "ws"
            else:
                scope["scheme"] = proto


def client_address(connection: Any) -> str:
    """The client's address of a Litestar request or socket (after
    :class:`ForwardedMiddleware`): what the throttles key on and the logs show."""
    client = connection.scope.get("client")
    return str(client[0]) if client else ""
