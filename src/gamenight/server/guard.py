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
* :class:`ReconnectThrottle`: hellos per seat token and per client address.
* :class:`FailureLog`: unexpected exceptions are logged once each with their room and a
  request id, at most ``budget`` tracebacks a minute; past that one line per minute
  says how many were left out.
"""

from __future__ import annotations

import logging
import secrets
import time
from typing import Any
from urllib.parse import urlsplit

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi.datastructures import ResponseSpec

from gamenight.core.i18n import _, set_language
from gamenight.server import protocol as p
from gamenight.server.conns import Bucket
from gamenight.server.faults import RoomError
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
    "bad_record": ((400,), "POST /api/replay: the record is damaged or does not replay"),
    "not_host": ((401, 403), "no host token (401) or not the host's (403)"),
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


def error_responses(method: str) -> dict[int, ResponseSpec]:
    """The OpenAPI error answers of a route: every status it may give, with its codes."""
    statuses = {400, 404, 405, 500, 503}
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


async def check_request(request: Request[Any, Any, Any]) -> None:
    """The app's ``before_request``: Origin, media type and depth of state-changing requests.

    A handler that takes another media type says so in its ``opt["media_types"]``. First
    the request's language: its refusals' messages are in it (``?lang=``, else
    ``Accept-Language``; server/words.py).
    """
    set_language(language_of(request.query_params, request.headers.get("accept-language")))
    if request.method in SAFE_METHODS:
        return
    extra: tuple[str, ...] = request.app.state.config.extra_origins
    if not connection_origin_allowed(request, extra):
        raise RoomError(403, "bad_origin", _("requests from another site's page are refused"))
    body = await request.body()
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


# ----- errors ---------------------------------------------------------------------------
class FailureLog:
    """Unexpected exceptions, each logged once (one record, with its traceback) with where
    it happened and a request id; at most ``budget`` tracebacks a minute, then one line a
    minute counts those left out. Returns the request id to tell the client."""

    def __init__(self, budget: int = 20, window: float = 60.0) -> None:
        self.budget, self.window = budget, window
        self.start = time.monotonic()
        self.count = 0
        self.dropped = 0

    def __call__(self, exc: BaseException, where: str) -> str:
        ident = secrets.token_hex(4)
        now = time.monotonic()
        if now - self.start > self.window:
            if self.dropped:
                log.error("%d more failures were not logged in the last minute", self.dropped)
            self.start, self.count, self.dropped = now, 0, 0
        self.count += 1
        if self.count <= self.budget:
            log.error("request %s failed (%s): %s", ident, where, one_line(repr(exc)), exc_info=exc)
        else:
            self.dropped += 1
        return ident


failures = FailureLog()


def _where(request: Request[Any, Any, Any]) -> str:
    code = request.path_params.get("code") if request.scope.get("path_params") else None
    room = f"room {code}, " if code else ""
    return f"{room}{request.method} {request.url.path}"


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
    """A key's token bucket, and the wait it was last given (``until``, ``backoff``)."""

    def __init__(self, rate: float, burst: float, now: float) -> None:
        super().__init__(rate, burst, now)
        self.until = 0.0
        self.backoff = 0.0


class ReconnectThrottle:
    """Hellos that get a snapshot, per key (a seat token's hash, a client address): a
    token bucket of ``rate`` a second with bursts of ``burst``. A hello over budget, or
    while a key waits, is refused and doubles its wait (1 s, 2 s, … up to ``max_wait``);
    a socket closed for flooding (:meth:`penalise`) sets its token waiting (a
    spectator's address) for ``abuse_wait`` seconds and more.
    A key that keeps to its budget for ``max_wait`` seconds starts afresh."""

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
                self.keys = {k: b for k, b in self.keys.items() if b.until > cutoff}
            budget = self.keys[key] = _Budget(*self.limits[key[0]], now)
        return budget

    def _wait(self, budget: _Budget, now: float) -> float:
        budget.backoff = min(self.max_wait, max(1.0, budget.backoff * 2))
        budget.until = now + budget.backoff
        return budget.backoff

    def admit(self, keys: list[tuple[str, str]]) -> float:
        """0 if a hello for ``keys`` may have its snapshot, else the seconds to wait."""
        now = time.monotonic()
        budgets = [self._budget(key, now) for key in keys]
        for budget in budgets:
            budget.refill(now)
        waiting = [b for b in budgets if now < b.until or b.level < 1]
        if waiting:  # nothing is taken from any key's budget
            return max(self._wait(b, now) for b in waiting)
        for budget in budgets:
            budget.level -= 1
            if budget.backoff and now > budget.until + self.max_wait:
                budget.backoff = 0.0
        return 0.0

    def penalise(self, keys: list[tuple[str, str]]) -> None:
        """A socket closed for flooding: its token (a spectator's: its address) waits at
        least ``abuse_wait`` seconds, doubling from there on each refusal."""
        now = time.monotonic()
        tokens = [key for key in keys if key[0] == "token"]
        for key in tokens or keys:
            budget = self._budget(key, now)
            budget.backoff = min(self.max_wait, max(self.abuse_wait, budget.backoff * 2))
            budget.until = now + budget.backoff
