"""The server's HTTP API as docs/protocol.md ("Rooms over HTTP") describes it: rooms,
claims, the record. Every failure is one :class:`OnlineError` line: the server's own
refusal (``{"code", "message"}``, its message in the player's language, asked for with
``?lang=``), an unreachable server, or an answer that is no gamenight server's.

The standard library's HTTP client is enough for a handful of small JSON requests.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any

from gamenight.core.i18n import _
from gamenight.terminal.online import OnlineError

TIMEOUT_S = 15.0
MAX_ANSWER_BYTES = 4 * 1024 * 1024  # a record is at most this; a room's JSON far less


class Refusal(OnlineError):
    """The server refused a request: its HTTP ``status``, stable ``code`` and one-line
    ``message`` (in the language asked for)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(_("the server refused: {message}").format(message=message))
        self.status, self.code, self.message = status, code, message


@dataclass(frozen=True)
class Api:
    """Requests to the server at ``server`` (a base URL without a trailing slash)."""

    server: str
    lang: str = "en"

    def _url(self, path: str) -> str:
        sep = "&" if "?" in path else "?"
        return f"{self.server}{path}{sep}lang={urllib.parse.quote(self.lang)}"

    def request(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        """The JSON answer of ``method path`` (``body`` sent as JSON); raw text for
        the record (``application/x-ndjson``)."""
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = {"Accept": "application/json", "Accept-Language": self.lang}
        if data is not None:
            headers["Content-Type"] = "application/json"  # no Origin: not a browser
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self._url(path), data, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_S) as answer:
                raw = answer.read(MAX_ANSWER_BYTES + 1)
                kind = answer.headers.get_content_type()
        except urllib.error.HTTPError as exc:
            raise self._refusal(exc) from None
        except (TimeoutError, urllib.error.URLError, OSError, ValueError) as exc:
            reason = getattr(exc, "reason", None) or exc
            raise OnlineError(
                _("cannot reach the server at {server}: {reason}").format(
                    server=self.server, reason=_reason(reason)
                )
            ) from None
        if len(raw) > MAX_ANSWER_BYTES:
            raise self._not_ours()
        text = raw.decode("utf-8", errors="replace")
        if kind == "application/x-ndjson":
            return text
        try:
            return json.loads(text)
        except ValueError:
            raise self._not_ours() from None

    def _not_ours(self) -> OnlineError:
        return OnlineError(
            _("{server} answered, but not as a gamenight server").format(server=self.server)
        )

    def _refusal(self, exc: urllib.error.HTTPError) -> OnlineError:
        try:
            body = json.loads(exc.read(65536).decode("utf-8", errors="replace"))
            code, message = str(body["code"]), " ".join(str(body["message"]).split())
        except (ValueError, KeyError, TypeError, OSError):
            return self._not_ours()
        return Refusal(exc.code, code, message[:300])

    # ----- the calls a terminal player makes ----------------------------------------
    def games(self) -> list[dict[str, Any]]:
        answer: list[dict[str, Any]] = self.request("GET", "/api/games")
        return answer

    def room(self, code: str) -> dict[str, Any]:
        answer: dict[str, Any] = self.request("GET", f"/api/rooms/{code}")
        return answer

    def create(self, body: dict[str, Any]) -> dict[str, Any]:
        answer: dict[str, Any] = self.request("POST", "/api/rooms", body)
        return answer

    def claim(self, code: str, seat: int, name: str, contribution: str | None) -> dict[str, Any]:
        body: dict[str, Any] = {"name": name}
        if contribution is not None:
            body["contribution"] = contribution
        answer: dict[str, Any] = self.request("POST", f"/api/rooms/{code}/seats/{seat}/claim", body)
        return answer

    def record(self, code: str) -> str:
        answer = self.request("GET", f"/api/rooms/{code}/record")
        return answer if isinstance(answer, str) else json.dumps(answer)


def _reason(reason: object) -> str:
    """An OS error's reason in one short line (no errno noise where there is text)."""
    text = getattr(reason, "strerror", None) or str(reason)
    return " ".join(str(text).split())[:200]
