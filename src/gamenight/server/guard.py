"""What stands between a request and the rooms: one error shape, the Origin check, the
body check, the reconnect throttle and a log that cannot be flooded.

* Every HTTP error is ``{"code", "message"}`` (:class:`Problem`), whatever raised it:
  a refused request (:class:`~gamenight.server.faults.RoomError`, also what the checks
  before a handler raise), the framework
  (validation 400, 404, 405, 413, 415) or a bug (500, logged with a request id that
  the answer names). :data:`HTTP_CODES` lists them; ``docs/protocol.md`` documents them.
* A state-changing request (every method but GET, HEAD, OPTIONS) whose ``Origin``
  is not this server is refused (403 ``bad_origin``); a body must be JSON
  (``application/json``, 415 otherwise) and pass the bounded check of
  :func:`gamenight.server.protocol.check_depth` (400 ``bad_request``). The socket
  handshake uses the same :func:`origin_allowed`.
* :class:`ReconnectThrottle`: hellos per seat token, or per client address
  (``proxy.client_address``) for hellos without a valid token.
* :class:`LogBudget`: every log line a client can cause, in the app (:class:`FailureLog`:
  unexpected exceptions, once each with their room and a request id) and in the layers
  beneath it (:func:`cap_lower_logs`), counts against one budget of 20 lines a minute;
  past that one line per minute says how many were left out.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import secrets
import socket
import time
from typing import Any
from urllib.parse import urlsplit

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException, InternalServerException, ValidationException
from litestar.openapi.datastructures import ResponseSpec

from gamenight.core.i18n import _, set_language
from gamenight.server import protocol as p
from gamenight.server.conns import Bucket
from gamenight.server.faults import RoomError, client_lines
from gamenight.server.words import language_of

log = logging.getLogger("gamenight.server")

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
JSON_TYPES = ("application/json",)

# Every HTTP error code and its status (docs/protocol.md, the OpenAPI document).
HTTP_CODES: dict[str, tuple[tuple[int, ...], str]] = {
    "bad_request": ((400,), "the body or a parameter is not valid (the message says which)"),
    "bad_game": ((400, 404), "there is no such game (400 creating a room, 404 in a path)"),
    "bad_seats": ((400,), "a seat is not 'human' or a bot of the game, or too many/few seats"),
    "bad_options": ((400,), "a game or room option is refused"),
    "bad_option_value": ((400,), "a catalogue option names no entry of its catalogue"),
    "bad_name": ((400,), "a display name breaks the text rules"),
    "bad_password": ((400,), "accounts: a password of the wrong length"),
    "bad_passkey": ((400,), "accounts: a passkey answer that is refused, or a ceremony expired"),
    "bad_credentials": ((401,), "accounts: that name and password do not match an account"),
    "not_signed_in": ((401,), "accounts: the request needs a signed-in session"),
    "rated_room": ((401,), "accounts: a rated room's seats are for signed-in players"),
    "no_player": ((404,), "accounts: no public player of that name"),
    "rate_limited": ((429,), "accounts: too many attempts; try again later"),
    "too_many": ((409,), "notifications: the account or seat has as many subscriptions as allowed"),
    "no_channel": ((409,), "notifications: this server does not send on that channel"),
    "bad_record": ((400,), "POST /api/replay: the record is damaged or does not replay"),
    "not_host": ((401, 403), "no host token (401) or not the host's (403)"),
    "bad_host": ((400,), "the Host header names no host this server answers to"),
    "bad_origin": ((403,), "a state-changing request from another site's page"),
    "not_found": ((404,), "no such path"),
    "no_room": ((404,), "there is no such room"),
    "no_seat": ((404,), "not a human seat of this room"),
    "method_not_allowed": ((405,), "the path does not take this method"),
    "seat_taken": ((409,), "the seat is taken or the game has begun"),
    "not_waiting": ((409,), "the game has already begun"),
    "not_finished": ((409,), "the record is offered when the game is over"),
    "too_large": ((413,), "the body is over the endpoint's limit"),
    "unsupported_media_type": ((415,), "a body that is not sent as application/json"),
    "internal": ((500,), "the server failed; the message names the request id in its log"),
    "unavailable": ((503,), "the server cannot serve this now; try again"),
}
_FRAMEWORK_CODES = {
    400: "bad_request",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    415: "unsupported_media_type",
    503: "unavailable",
}


class Problem(msgspec.Struct, frozen=True):
    """Every HTTP error: a stable ``code`` and a one-line ``message`` for people."""

    code: str
    message: str


def error_responses(method: str, *more: int) -> dict[int, ResponseSpec]:
    """The OpenAPI error answers of a route: every status it may give (``more`` too),
    with its codes."""
    statuses = {400, 404, 405, 500, 503, *more}
    if method not in SAFE_METHODS:
        statuses |= {401, 403, 409, 413, 415}
    out = {}
    for status in sorted(statuses):
        codes = ", ".join(f"`{c}`" for c, (got, _) in HTTP_CODES.items() if status in got)
        out[status] = ResponseSpec(
            Problem, description=f"Problem with code {codes}", generate_examples=False
        )
    return out


def one_line(text: str, limit: int = 300) -> str:
    """The first line of ``text``, at most ``limit`` characters."""
    first = text.strip().splitlines()[0] if text.strip() else ""
    return first if len(first) <= limit else first[: limit - 1] + "…"


# ----- Origin ---------------------------------------------------------------------------
def origin_allowed(
    origin: str | None, scheme: str, host: str | None, extra: tuple[str, ...]
) -> bool:
    """A browser's ``Origin`` must be this server (scheme, host and port: the scheme of
    the connection, ``ws`` counting as ``http``) or a configured origin; requests that send
    no Origin (not browsers) are let through: they cannot ride a user's session.

    >>> origin_allowed("http://a:8000", "http", "a:8000", ())
    True
    >>> origin_allowed("https://a:8000", "ws", "a:8000", ())
    False
    >>> origin_allowed("https://evil.example", "http", "a:8000", ())
    False
    >>> origin_allowed(None, "http", "a:8000", ())
    True
    """
    if origin is None:
        return True
    if origin in extra:
        return True
    own = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    parts = urlsplit(origin)
    return (
        parts.scheme == own
        and host is not None
        and parts.netloc.lower() == host.lower()
        and not parts.path
    )


def connection_origin_allowed(connection: Any, extra: tuple[str, ...]) -> bool:
    """:func:`origin_allowed` for a Litestar request or socket."""
    headers = connection.headers
    return origin_allowed(
        headers.get("origin"), connection.scope.get("scheme", "http"), headers.get("host"), extra
    )


# ----- Host -----------------------------------------------------------------------------
LOCAL_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


def split_host(host: str) -> tuple[str, str | None]:
    """A ``Host`` header as (name, port): the name without brackets, in lower case; the
    port as written after its colon (``""`` if the colon ends it; anything after an
    IPv6 address's bracket that is no ``:port`` is kept as the port, so that it is
    refused), None if it has none. The one reading of a Host header.

    >>> split_host("Example.org:8000"), split_host("[::1]:80"), split_host("::1")
    (('example.org', '8000'), ('::1', '80'), ('::1', None))
    >>> split_host("a:"), split_host("[::1]x")
    (('a', ''), ('::1', 'x'))
    """
    host = host.strip().lower()
    if host.startswith("["):
        name, _, rest = host[1:].partition("]")
        return name, (rest[1:] if rest.startswith(":") else rest or None)
    if host.count(":") == 1:
        name, _, port = host.partition(":")
        return name, port
    return host, None


def host_name(host: str) -> str:
    """The name of a ``Host`` header, without its port and brackets, in lower case.

    >>> host_name("Example.org:8000"), host_name("[::1]:80"), host_name("::1")
    ('example.org', '::1', '::1')
    """
    return split_host(host)[0]


def allowed_hosts(config: Any) -> frozenset[str]:
    """The host names this server answers to: ``localhost`` and the loopback addresses,
    the address it listens on, its public URL's host and the hosts of its extra origins
    (``--origin``, a reverse proxy's public name); listening on every address, this
    machine's name (and ``NAME.local``) too. An IP address is always answered (see
    :func:`host_allowed`)."""
    names = {host_name(urlsplit(o).netloc) for o in config.extra_origins}
    names |= {host_name(config.listen_host), host_name(urlsplit(config.public_url).netloc)}
    if config.listen_host in ("0.0.0.0", "::", ""):  # on the network: its own name too
        machine = socket.gethostname().lower()
        names |= {machine, f"{machine}.local"}
    return frozenset(LOCAL_NAMES | names - {""})


def host_allowed(host: str | None, allowed: frozenset[str]) -> bool:
    """A request's ``Host`` must be an IP address or one of ``allowed``: a page of
    another site whose name it points at this server (DNS rebinding) sends its own name,
    and is refused. No Host (HTTP/1.0) is let through: no browser sends that.

    >>> allowed = frozenset({"localhost", "games.example"})
    >>> [host_allowed(h, allowed) for h in ("games.example:443", "192.168.1.5:8000", "[fe80::1]")]
    [True, True, True]
    >>> host_allowed("evil.example:8000", allowed), host_allowed(None, allowed)
    (False, True)
    >>> host_allowed("games.example:123456", allowed), host_allowed("[::1]x", allowed)
    (False, False)
    """
    if host is None:
        return True
    name, port = split_host(host)
    if not _port_ok(port):  # a URL could not be made of it (a 500 deeper down)
        return False
    if name in allowed:
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


def _port_ok(port: str | None) -> bool:
    """A ``Host``'s port, if it has one, is a port number (0 to 65535, ASCII digits)."""
    if port is None:
        return True
    return port.isascii() and port.isdigit() and len(port) <= 5 and int(port) <= 65535


def check_host(connection: Any) -> None:
    """:func:`host_allowed` for a request or socket, refused as 400 ``bad_host``."""
    config = connection.app.state.config
    if not host_allowed(connection.headers.get("host"), allowed_hosts(config)):
        raise RoomError(400, "bad_host", "this server does not answer to that host name")


# ----- paths ----------------------------------------------------------------------------
MAX_PATH_CHARS = 1024  # no path of this server is longer; a file name is at most 255 bytes


def path_refused(path: str) -> bool:
    """A path no file or route can have: a NUL or another control character, a name over
    255 bytes or a path over :data:`MAX_PATH_CHARS` (answered 404 before the file system
    sees it, which would fail on it).

    >>> path_refused("/static/js/net.js"), path_refused("/static/" + chr(0))
    (False, True)
    >>> path_refused("/static/" + "n" * 300)
    True
    """
    if len(path) > MAX_PATH_CHARS or any(ord(c) < 32 or ord(c) == 127 for c in path):
        return True
    return any(len(part.encode("utf-8", "surrogatepass")) > 255 for part in path.split("/"))


async def check_request(request: Request[Any, Any, Any]) -> None:
    """The app's ``before_request``: the Host and path of every request; Origin, media
    type and depth of state-changing requests.

    A handler that takes another media type says so in its ``opt["media_types"]``. First
    the request's language: its refusals' messages are in it (``?lang=``, else
    ``Accept-Language``; server/words.py).
    """
    set_language(language_of(request.query_params, request.headers.get("accept-language")))
    check_host(request)
    if path_refused(request.url.path):
        raise RoomError(404, "not_found", "there is nothing at this path")
    if request.method in SAFE_METHODS:
        return
    extra: tuple[str, ...] = request.app.state.config.extra_origins
    if not connection_origin_allowed(request, extra):
        raise RoomError(403, "bad_origin", _("requests from another site's page are refused"))
    try:
        body = await request.body()
    except InternalServerException:  # the client left mid-body: no answer reaches it
        raise ClientGone from None
    if not body:
        return
    allowed = request.route_handler.opt.get("media_types", JSON_TYPES)
    media = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if media not in allowed:
        raise RoomError(
            415,
            "unsupported_media_type",
            _("send the body as {allowed}").format(allowed=" or ".join(allowed)),
        )
    if media == "application/json":
        try:
            p.check_depth(body)
        except p.TooDeep as exc:
            raise RoomError(
                400, "bad_request", _("the body is refused: {exc}").format(exc=exc)
            ) from None


# ----- every answer ---------------------------------------------------------------------
async def before_send(message: Any, scope: Any) -> None:
    """The app's ``before_send``: every HTTP answer (pages, files, JSON, errors) says
    ``X-Content-Type-Options: nosniff``, so no browser runs a body as another type."""
    if message["type"] == "http.response.start":
        headers = message.setdefault("headers", [])
        if not any(name.lower() == b"x-content-type-options" for name, _value in headers):
            headers.append((b"x-content-type-options", b"nosniff"))


# ----- errors ---------------------------------------------------------------------------
# The loggers of the layers beneath the app whose records a client can cause: uvicorn's
# HTTP and WebSocket protocols ("Invalid HTTP request", a traceback for a text frame that
# is not UTF-8), the WebSocket library and asyncio (a write to a socket the peer left).
# uvicorn's access log ("uvicorn.access", only at --log-level info) is not among them.
LOWER_LOGGERS = ("uvicorn.error", "websockets.server", "websockets.protocol", "asyncio")


# What those layers say about a client's own fault (a frame or a request that breaks the
# protocol): answered to the client (1007, 400), never logged.
CLIENT_FAULTS = (
    "Invalid UTF-8 sequence received from client",
    "Invalid HTTP request received",
    "Unsupported upgrade request",
)


class ClientCaused(logging.Filter):
    """A logger's records count against :data:`client_lines` (:func:`cap_lower_logs`);
    those of :data:`CLIENT_FAULTS` are dropped."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and record.msg.startswith(CLIENT_FAULTS):
            return False
        return client_lines.allow()


def cap_lower_logs() -> None:
    """Put :class:`ClientCaused` on :data:`LOWER_LOGGERS` (once: every app of this
    process shares the budget, as it shares the loggers)."""
    for name in LOWER_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, ClientCaused) for f in logger.filters):
            logger.addFilter(ClientCaused())


class FailureLog:
    """Unexpected exceptions, each logged once (one record, with its traceback) with where
    it happened and a request id, within :data:`client_lines` (a client may cause them).
    Returns the request id to tell the client."""

    def __call__(self, exc: BaseException, where: str) -> str:
        ident = secrets.token_hex(4)
        if client_lines.allow():
            log.error("request %s failed (%s): %s", ident, where, one_line(repr(exc)), exc_info=exc)
        return ident


failures = FailureLog()


def _where(request: Request[Any, Any, Any]) -> str:
    code = request.path_params.get("code") if request.scope.get("path_params") else None
    room = f"room {code}, " if code else ""
    return f"{room}{request.method} {request.scope.get('path', '?')}"  # not .url: it may not parse


class ClientGone(RoomError):
    """The client left before its request was read (a body shorter than its
    Content-Length, then a closed connection): answered for form's sake, never logged."""

    def __init__(self) -> None:
        super().__init__(400, "bad_request", "the request ended before its body")


def problem(status: int, code: str, message: str) -> Response[Problem]:
    return Response(Problem(code, one_line(message)), status_code=status)


def handle_refused(_request: Request[Any, Any, Any], exc: Any) -> Response[Problem]:
    return problem(exc.status, exc.code, exc.message)


def handle_http(request: Request[Any, Any, Any], exc: HTTPException) -> Response[Problem]:
    status = exc.status_code
    if status >= 500 and "client disconnected" in str(exc.detail):
        # the client went away mid-request (Litestar says 500): its doing, one line
        log.info("%s: the client disconnected before its request ended", _where(request))
        return problem(400, "bad_request", "the request ended before its body")
    if status >= 500:
        return handle_crash(request, exc)
    code = _FRAMEWORK_CODES.get(status, "bad_request" if status < 500 else "internal")
    message = str(exc.detail)
    if isinstance(exc, ValidationException) and isinstance(exc.extra, list) and exc.extra:
        first = exc.extra[0]
        if isinstance(first, dict):
            key = first.get("key")
            what = first.get("message", "")
            message = f"{what} (in {first.get('source', 'body')} {key})" if key else str(what)
    if status == 404 and message == "Not Found":
        message = "there is nothing at this path"
    headers = dict(exc.headers or {})
    return Response(Problem(code, one_line(message)), status_code=status, headers=headers or None)


def handle_crash(request: Request[Any, Any, Any], exc: Exception) -> Response[Problem]:
    ident = failures(exc, _where(request))
    return problem(500, "internal", f"the server failed (request {ident})")


# ----- reconnects -------------------------------------------------------------------------
class _Budget(Bucket):
    """A key's token bucket, and the penalty it was last given (``until``, ``backoff``)."""

    def __init__(self, rate: float, burst: float, now: float) -> None:
        super().__init__(rate, burst, now)
        self.until = 0.0
        self.backoff = 0.0


def whole_seconds(wait: float) -> int:
    """A wait as the whole seconds a client is told (``retry_after``): never less.

    >>> whole_seconds(0.01), whole_seconds(2.0), whole_seconds(2.5)
    (1, 2, 3)
    """
    return max(1, math.ceil(wait - 1e-9))


class ReconnectThrottle:
    """Hellos that get a snapshot, per key: a token bucket of ``rate`` a second with
    bursts of ``burst``. A hello with a valid seat token counts against its token only;
    one without (a spectator, or a token this room does not know) against its client
    address. A hello over budget is refused with the seconds until the key's next hello
    fits (``retry_after``) and takes nothing: a refused hello never extends its own
    wait, and a client that waits as told gets in. A socket closed for flooding
    (:meth:`penalise`) sets its key waiting ``abuse_wait`` seconds, doubling on each
    penalty up to ``max_wait``; a key that stays out of trouble for ``max_wait`` seconds
    after its wait starts afresh."""

    def __init__(
        self,
        limits: dict[str, tuple[float, float]],
        max_wait: float = 60.0,
        abuse_wait: float = 10.0,
    ) -> None:
        self.limits = limits  # kind -> (rate, burst)
        self.max_wait = max_wait
        self.abuse_wait = abuse_wait
        self.keys: dict[tuple[str, str], _Budget] = {}

    def _budget(self, key: tuple[str, str], now: float) -> _Budget:
        budget = self.keys.get(key)
        if budget is None:
            if len(self.keys) > 100_000:  # forget the quiet ones
                cutoff = now - self.max_wait
                self.keys = {k: b for k, b in self.keys.items() if max(b.until, b.stamp) > cutoff}
            budget = self.keys[key] = _Budget(*self.limits[key[0]], now)
        return budget

    def admit(self, key: tuple[str, str]) -> int:
        """0 if a hello counted against ``key`` may have its snapshot, else the whole
        seconds to wait before the next one (nothing is taken from the budget)."""
        now = time.monotonic()
        budget = self._budget(key, now)
        level = budget.refill(now)
        if now < budget.until:  # a penalty: it runs its course, a refusal adds nothing
            return whole_seconds(budget.until - now)
        if level < 1:
            return whole_seconds((1 - level) / budget.rate)
        budget.level -= 1
        if budget.backoff and now > budget.until + self.max_wait:
            budget.backoff = 0.0
        return 0

    def penalise(self, key: tuple[str, str]) -> None:
        """A socket closed for flooding: its key (its seat token's, else its address)
        waits at least ``abuse_wait`` seconds, doubling on each penalty."""
        now = time.monotonic()
        budget = self._budget(key, now)
        budget.backoff = min(self.max_wait, max(self.abuse_wait, budget.backoff * 2))
        budget.until = now + budget.backoff
