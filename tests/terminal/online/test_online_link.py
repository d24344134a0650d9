"""The room socket's reconnection rules (docs/protocol.md "Rules of the road"), against
small real servers on loopback: a handshake cut off is a cut (back-off, never a
traceback), ``retry_after`` is honoured, a refused token ends in one line."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from websockets.sync.server import ServerConnection, serve

from gamenight.terminal.online import OnlineError
from gamenight.terminal.online.link import Link


class Stop(Exception):
    """Raised by the test's sleep to end the reconnect loop."""


def sleeps(limit: int) -> tuple[list[float], Callable[[float], None]]:
    waited: list[float] = []

    def sleep(seconds: float) -> None:
        waited.append(seconds)
        if len(waited) >= limit:
            raise Stop

    return waited, sleep


def test_a_server_that_cuts_every_handshake_is_retried_with_back_off() -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]

    def cut() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            conn.close()  # mid-handshake, as a server that is stopping does

    threading.Thread(target=cut, daemon=True).start()
    waited, sleep = sleeps(4)
    said: list[str] = []
    link = Link(f"ws://127.0.0.1:{port}/ws/abc", "t" * 43, said.append, sleep)
    try:
        with pytest.raises(Stop):
            link.open()
    finally:
        listener.close()
    assert waited == [0.5, 1.0, 2.0, 4.0]
    assert len(said) == 4 and all(line.startswith("Connection lost (") for line in said)


@contextmanager
def room(handler: Callable[[ServerConnection], None]) -> Iterator[str]:
    with serve(handler, "127.0.0.1", 0) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        port = server.socket.getsockname()[1]
        try:
            yield f"ws://127.0.0.1:{port}/ws/abc"
        finally:
            server.shutdown()


def test_retry_after_is_honoured_and_the_hello_carries_the_last_seq() -> None:
    hellos: list[dict[str, object]] = []

    def handler(ws: ServerConnection) -> None:
        hellos.append(json.loads(ws.recv()))
        if len(hellos) == 1:
            ws.send(json.dumps({"type": "error", "code": "rate_limited", "message": "slow down",
                                "retry_after": 3, "id": None}))  # fmt: skip
            ws.close(1008)
            return
        ws.send(json.dumps({"type": "snapshot", "seq": 7, "view": None}))
        ws.recv()  # until the client goes

    waited, sleep = sleeps(10)
    with room(handler) as url:
        link = Link(url, "t" * 43, lambda line: None, sleep)
        link.last_seq = 6
        link.open()
        frame = link.receive(timeout=5)
        link.close()
    assert waited == [3.0]
    assert frame is not None and frame["type"] == "snapshot" and link.last_seq == 7
    assert [h["last_seq"] for h in hellos] == [6, 6] and hellos[0]["token"] == "t" * 43


def test_a_refused_token_ends_in_one_line() -> None:
    def handler(ws: ServerConnection) -> None:
        ws.recv()
        ws.send(json.dumps({"type": "error", "code": "bad_token", "message": "unknown token"}))
        ws.close(4403)

    with room(handler) as url:
        link = Link(url, "t" * 43, lambda line: None, sleeps(1)[1])
        with pytest.raises(OnlineError, match="the room refused this seat: unknown token"):
            link.open()
