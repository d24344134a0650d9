"""Rooms that cannot be loaded *now* (issue 38): the environment, never the room's log.

A room whose game's plug-in is not installed, whose rules version the installed game
no longer keeps, or whose load met a database failure is **unavailable**: requests are
answered ``room_unavailable`` (503) with the reason, nothing is written to the database
(it is never marked ``broken``), and the load is tried again ``RETRY`` seconds later, so
the room comes back by itself once the cause is gone (the plug-in reinstalled, the
database back). ``broken`` stays for a log that fails to replay under installed rules.

>>> memo = Unavailable()
>>> memo.mark("abc", "its game 'toy' is not installed on this server").code
'room_unavailable'
>>> try:
...     memo.check("abc")
... except RoomUnavailable as exc:
...     print(exc.status, exc.reason)
503 its game 'toy' is not installed on this server
>>> memo.clear("abc"); memo.check("abc")
"""

from __future__ import annotations

import logging
import time

from gamenight.core import registry
from gamenight.core.errors import GamenightError
from gamenight.server.faults import RoomError

log = logging.getLogger("gamenight.server")

RETRY = 10.0  # seconds before a room found unavailable is loaded again


class RoomUnavailable(RoomError):
    """The room exists and its log is intact, but it cannot be opened now."""

    def __init__(self, reason: str) -> None:
        super().__init__(
            503, "room_unavailable", f"this room cannot be opened now: {reason}; try again later"
        )
        self.reason = reason


def missing_game(game: str) -> str | None:
    """Why a room of ``game`` cannot be opened on this server (its plug-in is not
    installed), or None."""
    try:
        registry.get(game)
    except GamenightError:
        return f"its game '{game}' is not installed on this server"
    return None


RULES_MISSING = "the rules version it began with is not installed on this server"


class Unavailable:
    """The rooms of this process found unavailable, and until when that is believed."""

    def __init__(self) -> None:
        self._rooms: dict[str, tuple[float, RoomUnavailable]] = {}

    def check(self, code: str) -> None:
        """Raise the room's :class:`RoomUnavailable` while it is believed; afterwards the
        caller loads the room again."""
        found = self._rooms.get(code)
        if found is not None and time.monotonic() < found[0]:
            raise found[1]

    def mark(self, code: str, reason: str) -> RoomUnavailable:
        """Room ``code`` cannot be opened for ``reason``: logged when the reason is new
        (a room retried every ``RETRY`` seconds does not flood the log)."""
        previous = self._rooms.get(code)
        error = RoomUnavailable(reason)
        if previous is None or previous[1].reason != reason:
            log.warning("room %s is unavailable: %s", code, reason)
        self._rooms[code] = (time.monotonic() + RETRY, error)
        return error

    def clear(self, code: str) -> None:
        self._rooms.pop(code, None)

    def __contains__(self, code: str) -> bool:
        """Whether ``code`` is believed unavailable now."""
        found = self._rooms.get(code)
        return found is not None and time.monotonic() < found[0]
