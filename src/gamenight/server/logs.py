"""The server's log: one format for every logger (ours, uvicorn's, the access log),
text lines or one JSON object a line (``--log-format``), on stderr.

A client that breaks off a connection, sends a bad request or a bad WebSocket
handshake is the client's fault, not the server's: those records keep their one line
and lose their traceback (:class:`ClientFaults`).

>>> record = logging.LogRecord("gamenight.server", logging.INFO, "", 0, "room %s", ("AB",), None)
>>> json.loads(JsonFormatter().format(record))["message"]
'room AB'
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
# the loggers of the server's libraries, sent through the same handler
LIBRARY_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "websockets", "litestar")
# exceptions a client causes (a dropped connection, bad bytes): no traceback for them
CLIENT_FAULTS = (
    "ConnectionResetError",
    "ClientDisconnected",
    "BrokenPipeError",
    "ConnectionClosed",
    "ConnectionClosedError",
    "ConnectionClosedOK",
    "InvalidHandshake",
    "InvalidUpgrade",
    "InvalidHeader",
    "InvalidMessage",
    "InvalidHeaderValue",
    "InvalidOrigin",
    "InvalidStatus",
    "InvalidURI",
    "RemoteProtocolError",
    "LocalProtocolError",
    "ProtocolError",
    "PayloadTooBig",
    "HttpParserError",
    "HttpParserInvalidMethodError",
    "HttpParserUpgrade",
    "IncompleteReadError",
    "EOFError",
    "CancelledError",
)


def _client_fault(exc: BaseException | None) -> bool:
    seen = 0
    while exc is not None and seen < 5:
        if any(type(exc).__name__ == name for name in CLIENT_FAULTS) or any(
            k.__name__ in CLIENT_FAULTS for k in type(exc).__mro__
        ):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


class ClientFaults(logging.Filter):
    """Drops the traceback of a record about an exception a client caused (the line
    stays, with the exception's name and first line)."""

    def filter(self, record: logging.LogRecord) -> bool:
        info = record.exc_info
        if info and info[1] is not None and _client_fault(info[1]):
            exc = info[1]
            first = (str(exc).strip().splitlines() or [""])[0][:200]
            record.msg = f"{record.getMessage()} ({type(exc).__name__}: {first})"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        return True


# uvicorn's account of its own start and stop, and of each socket: the server prints its
# own start (serve.announcement); a socket's line belongs to the access log
_CHATTER = (
    "Started server process",
    "Waiting for application",
    "Application startup complete",
    "Application shutdown complete",
    "Uvicorn running on",
    "Shutting down",
    "Finished server process",
    "connection open",
    "connection closed",
)


class UvicornChatter(logging.Filter):
    """uvicorn.error's info lines: its start and stop are dropped below debug; a socket's
    ``"WebSocket /ws/..." [accepted]`` line is kept only with the access log on."""

    def __init__(self, access: bool) -> None:
        super().__init__()
        self.access = access

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.INFO:
            return True
        text = str(record.msg)
        if '"WebSocket %s"' in text:
            return self.access
        return not any(text.startswith(c) for c in _CHATTER)


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message (and the traceback, if any,
    as one string); an access record also gets client, method, path and status."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.name == "uvicorn.access" and isinstance(record.args, tuple):
            args = record.args
            if len(args) == 5:
                client, method, path, _version, status = args
                out.update(client=client, method=method, path=path, status=status)
        if record.exc_info:
            out["traceback"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


class _Text(logging.Formatter):
    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:
        """UTC, as the JSON records."""
        return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + "Z"


def configure(level: str = "info", fmt: str = "text", access: bool = True) -> None:
    """Send every record of the server and its libraries to one stderr handler in
    ``fmt`` at ``level``; uvicorn's access log only if ``access``."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else _Text(TEXT_FORMAT))
    handler.addFilter(ClientFaults())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    numeric = getattr(logging, level.upper())
    root.setLevel(numeric)
    for name in LIBRARY_LOGGERS:
        logger = logging.getLogger(name)
        for old in list(logger.handlers):
            logger.removeHandler(old)
        logger.propagate = True
        logger.setLevel(numeric)
    # websockets logs every refused handshake with its traceback at error: a client's
    # fault (ClientFaults keeps one line); its debug chatter only at debug
    logging.getLogger("websockets").setLevel(max(numeric, logging.INFO))
    uvicorn_error = logging.getLogger("uvicorn.error")
    for found in list(uvicorn_error.filters):
        uvicorn_error.removeFilter(found)
    if numeric > logging.DEBUG:
        uvicorn_error.addFilter(UvicornChatter(access))
    access_log = logging.getLogger("uvicorn.access")
    access_log.disabled = not access
    logging.getLogger("alembic").setLevel(max(numeric, logging.WARNING))
