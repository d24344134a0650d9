"""Refusals and failures of a room's requests: one-line errors, logged once."""

from __future__ import annotations

import logging
import time

from gamenight.core.errors import GamenightError, StorageUnavailableError, first_line
from gamenight.server import protocol as p

UNAVAILABLE = "the database is unavailable; nothing changed, try again"
REFUSAL_LOG_EVERY = 10.0  # seconds: requests refused during an outage share a log line
log = logging.getLogger("gamenight.server")
_refusals = {"last": -1e9, "count": 0.0}


class LogBudget:
    """The one cap on log lines a client can cause, in every layer (the app's failures,
    and uvicorn's, the WebSocket library's and asyncio's records through
    :class:`gamenight.server.guard.ClientCaused`): at most ``budget`` lines a minute;
    past that the lines are dropped and one line a minute counts those left out.

    >>> budget = LogBudget(2)
    >>> [budget.allow() for _ in range(4)]
    [True, True, False, False]
    """

    def __init__(self, budget: int = 20, window: float = 60.0) -> None:
        self.budget, self.window = budget, window
        self.reset()

    def reset(self) -> None:
        self.start = time.monotonic()
        self.count = 0
        self.dropped = 0

    def allow(self) -> bool:
        """Whether one more client-caused line may be written now."""
        now = time.monotonic()
        if now - self.start > self.window:
            if self.dropped:
                log.error("%d more lines were not logged in the last minute", self.dropped)
            self.start, self.count, self.dropped = now, 0, 0
        self.count += 1
        if self.count <= self.budget:
            return True
        self.dropped += 1
        return False


client_lines = LogBudget()


class RoomError(GamenightError):
    """A refused request: ``status`` is the HTTP status, ``code`` a stable error code."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def failed(code: str, what: str, exc: Exception) -> RoomError:
    """An unexpected failure of room ``code``'s request: logged once with the code, and
    answered with a one-line ``internal`` error (never a silent 500, never a traceback)."""
    if isinstance(exc, GamenightError):
        if client_lines.allow():
            log.error("room %s %s: %s", code, what, first_line(exc))
        return RoomError(500, "internal", f"the game {what}: {first_line(exc)}")
    if client_lines.allow():
        log.exception("room %s %s", code, what)
    return RoomError(500, "internal", f"the game {what}; the server failed")


def log_fault(what: str, exc: BaseException, then: str = "") -> None:
    """Log a failure of ``what`` once: one line for a database outage (an outage must not
    flood the log), the traceback for anything else (a bug); ``then`` says what follows."""
    from gamenight.server.storage.outage import (  # the storage's, when it fails
        is_outage,
        outage_reason,
    )

    if is_outage(exc):
        log.warning("%s: %s%s", what, outage_reason(exc), then)
    else:
        log.error("%s failed%s", what, then, exc_info=exc)


def refused(what: str, exc: StorageUnavailableError) -> None:
    """Log a request refused because the database is unavailable: the first at once,
    then one line every ``REFUSAL_LOG_EVERY`` seconds with the count meanwhile (an
    outage with many clients retrying must not flood the log)."""
    _refusals["count"] += 1
    now = time.monotonic()
    if now - _refusals["last"] >= REFUSAL_LOG_EVERY:
        count = int(_refusals["count"])
        _refusals["last"], _refusals["count"] = now, 0
        log.warning("%s refused (%d since the last line): %s", what, count, exc)


def unavailable(exc: StorageUnavailableError, request: int | None) -> p.Error:
    """The answer to a request refused because the database is down (nothing changed)."""
    return p.Error(code="unavailable", message=UNAVAILABLE, id=request, retry_after=exc.retry_after)
