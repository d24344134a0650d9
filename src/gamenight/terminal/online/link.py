"""The room's WebSocket (docs/protocol.md, "The socket"), kept open across cuts.

:class:`Link` says ``hello`` with the seat token and the last ``seq`` processed, hands
the frames to the table one at a time, and, when the connection is cut (the server
restarted, the network went away), opens a new socket and says ``hello`` again with
that ``seq``: the snapshot then carries exactly what was missed. Between attempts it
waits as the protocol asks: ``retry_after`` when the server said so, else its own
back-off (0.5 s, doubling up to 8 s), never in a tight loop.

The synchronous client of ``websockets`` answers the server's pings on its own thread,
so a player may think at the prompt as long as they like.
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from websockets.exceptions import (
    ConnectionClosed,
    InvalidStatus,
    InvalidURI,
    WebSocketException,
)
from websockets.sync.client import ClientConnection, connect

from gamenight import __version__
from gamenight.core.i18n import _
from gamenight.terminal.online import OnlineError

PROTOCOL = 1
FIRST_DELAY_S, LAST_DELAY_S = 0.5, 8.0
OPEN_TIMEOUT_S = 10.0
HELLO_TIMEOUT_S = 30.0
MAX_FRAME_BYTES = 8 * 1024 * 1024  # a snapshot of a long game is large; never unbounded
# Refusals of a hello that waiting cures (the server's database, its plug-ins, its load)
AGAIN = frozenset({"rate_limited", "unavailable", "room_unavailable", "internal"})
# Close codes after which another hello cannot help: the token or the room is gone
FINAL_CLOSES = frozenset({4403, 4404})


class SeatRefused(OnlineError):
    """The room refused the hello itself (a freed or unknown token, no spectators):
    the kept seat is no longer this player's."""


def backoff(attempt: int) -> float:
    """The wait before reconnect attempt ``attempt`` (from 0) without ``retry_after``.

    >>> [backoff(n) for n in range(6)]
    [0.5, 1.0, 2.0, 4.0, 8.0, 8.0]
    """
    return float(min(FIRST_DELAY_S * 2 ** min(attempt, 10), LAST_DELAY_S))


class Link:
    """One seat's (or a spectator's, ``token`` None) connection to a room."""

    def __init__(
        self,
        url: str,
        token: str | None,
        say: Callable[[str], None],
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.url, self.token, self.say, self.sleep = url, token, say, sleep
        self.last_seq = -1  # the seq of the last snapshot or events processed
        self.backlog: deque[dict[str, Any]] = deque()
        self.ws: ClientConnection | None = None
        self.retry_after: float | None = None
        self.next_id = 1
        self.reconnects = 0  # how often a cut connection was opened again

    # ----- opening -------------------------------------------------------------------
    def open(self) -> None:
        """Connect and say hello; waits and tries again while the server cannot answer.
        Raises :class:`OnlineError` when waiting cannot help (the seat's token was
        freed, the room is gone, the address is no gamenight room)."""
        attempt = 0
        while True:
            reason = self._try_open()
            if reason is None:
                return
            wait = self.retry_after if self.retry_after is not None else backoff(attempt)
            self.retry_after = None
            attempt += 1
            self.say(
                _(
                    "Connection lost ({reason}); trying again in {seconds} s (Ctrl-C leaves)."
                ).format(reason=reason, seconds=f"{wait:g}")
            )
            self.sleep(wait)

    def _try_open(self) -> str | None:
        """One attempt: None once the hello is answered by a snapshot, else why not."""
        self.close()
        try:
            # held open across calls, closed by close(): entered by hand (websockets 17
            # warns about a connection used without its context otherwise)
            ws = connect(
                self.url,
                open_timeout=OPEN_TIMEOUT_S,
                max_size=MAX_FRAME_BYTES,
                user_agent_header=f"gamenight-terminal/{__version__}",
                compression=None,
            ).__enter__()
        except InvalidURI:
            raise OnlineError(_("{url} is not a room's address").format(url=self.url)) from None
        except InvalidStatus as exc:
            status = exc.response.status_code
            if 400 <= status < 500 and status != 429:
                raise OnlineError(
                    _("the server refused the room's connection (HTTP {status})").format(
                        status=status
                    )
                ) from None
            return f"HTTP {status}"
        except (OSError, TimeoutError, WebSocketException) as exc:
            # any other failure to open (refused, cut in the handshake by a server that
            # is stopping or starting, a proxy's error page) is a cut: try again later
            return " ".join(
                (getattr(exc, "strerror", None) or str(exc) or type(exc).__name__).split()
            )[:120]
        hello = {
            "type": "hello",
            "protocol": PROTOCOL,
            "token": self.token,
            "last_seq": self.last_seq,
        }
        try:
            ws.send(json.dumps(hello))
            first = self._decode(ws.recv(timeout=HELLO_TIMEOUT_S))
        except (ConnectionClosed, OSError, TimeoutError) as exc:
            ws.close()
            return " ".join(str(exc).split())[:120] or type(exc).__name__
        if first.get("type") == "error":
            ws.close()
            code = str(first.get("code", ""))
            self._note_retry(first)
            if code in AGAIN:
                return str(first.get("message") or code)
            raise SeatRefused(
                _("the room refused this seat: {message}").format(
                    message=" ".join(str(first.get("message") or code).split())[:300]
                )
            )
        self.ws = ws
        self.backlog.append(first)
        return None

    @staticmethod
    def _decode(raw: str | bytes) -> dict[str, Any]:
        try:
            frame = json.loads(raw)
        except ValueError:
            frame = None
        if not isinstance(frame, dict):
            raise OnlineError(_("the server sent a frame that is not a protocol message"))
        return frame

    def _note_retry(self, frame: dict[str, Any]) -> None:
        after = frame.get("retry_after")
        if isinstance(after, int | float) and not isinstance(after, bool) and 0 <= after <= 3600:
            self.retry_after = float(after)

    # ----- frames --------------------------------------------------------------------
    def receive(self, timeout: float | None = None) -> dict[str, Any] | None:
        """The next frame (None when ``timeout`` seconds pass without one). A cut
        connection is opened again on the way; the snapshot that follows is returned."""
        if self.backlog:
            return self._seen(self.backlog.popleft())
        while True:
            if self.ws is None:
                self.reconnect()
                return self._seen(self.backlog.popleft())
            try:
                raw = self.ws.recv(timeout=timeout)
            except TimeoutError:
                return None
            except (ConnectionClosed, OSError) as exc:
                self._closed(exc)
                continue
            return self._seen(self._decode(raw))

    def pending(self) -> bool:
        """Whether a frame is waiting already (so the table is not up to date)."""
        if self.backlog:
            return True
        if self.ws is None:
            return False
        try:
            raw = self.ws.recv(timeout=0)
        except TimeoutError:
            return False
        except (ConnectionClosed, OSError) as exc:
            self._closed(exc)
            return False
        self.backlog.append(self._decode(raw))
        return True

    def _closed(self, exc: BaseException) -> None:
        """The connection ended: a final close is the player's to hear; else reconnect."""
        code = getattr(getattr(exc, "rcvd", None), "code", None)
        self.ws = None
        if code in FINAL_CLOSES:
            raise OnlineError(
                _("the server closed the room's connection: {reason}").format(
                    reason=getattr(getattr(exc, "rcvd", None), "reason", "") or code
                )
            )

    def reconnect(self) -> None:
        """Open a new socket with hello(``last_seq``) after a cut."""
        self.reconnects += 1
        self.open()

    def _seen(self, frame: dict[str, Any]) -> dict[str, Any]:
        kind = frame.get("type")
        if kind in ("snapshot", "events") and isinstance(frame.get("seq"), int):
            self.last_seq = frame["seq"]
        if kind == "error":
            self._note_retry(frame)
        return frame

    def send(self, frame: dict[str, Any]) -> int:
        """Send ``frame`` with a fresh ``id`` (returned). A frame lost to a cut is not
        sent again: the table decides anew from the snapshot that follows."""
        ident = self.next_id
        self.next_id += 1
        frame = {**frame, "id": ident}
        if self.ws is None:
            self.reconnect()
        assert self.ws is not None
        try:
            self.ws.send(json.dumps(frame))
        except (ConnectionClosed, OSError) as exc:
            self._closed(exc)
        return ident

    def request(self, frame: dict[str, Any], answers: frozenset[str]) -> dict[str, Any] | None:
        """Send ``frame`` and wait for its answer (one of ``answers``, or an ``error``
        with its id); other frames wait in the backlog for the table. None if the
        connection was cut meanwhile."""
        ident = self.send(frame)
        held: list[dict[str, Any]] = []
        try:
            while self.ws is not None:
                try:
                    raw = self.ws.recv(timeout=HELLO_TIMEOUT_S)
                except TimeoutError:
                    return None
                except (ConnectionClosed, OSError) as exc:
                    self._closed(exc)
                    return None
                got = self._decode(raw)
                if got.get("id") == ident and got.get("type") in answers | {"error"}:
                    return got
                held.append(got)
            return None
        finally:
            self.backlog.extend(held)

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()
            self.ws = None
