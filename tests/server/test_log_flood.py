"""No client can flood the server's log (issue 38, item 3): a fuzzer sends malformed
WebSocket frames and HTTP requests of every kind, hand-made on raw sockets so that no
client library tidies them up, to a real ``python -m gamenight.server`` process, and
checks that its log (stderr, as an operator sees it) grows by a bounded amount.

Every layer is covered: uvicorn's HTTP parser (garbage, a body shorter than its
Content-Length then abandoned, an oversize head), its WebSocket protocol (text frames
that are not UTF-8, reserved opcodes and bits, unmasked and oversize frames, broken
fragments and close frames), the app (odd static paths, binary frames). Bounded time:
a fixed number of connections of each kind, each with a short read timeout.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import re
import struct
from collections.abc import Awaitable, Callable, Iterator

import httpx
import pytest
from harness import ProcessServer, claim, create_room

ROUNDS = 25  # connections of each kind
BUDGET_LINES = 21  # guard.client_lines: 20 a minute, and the line counting the rest
RECORD = re.compile(r"^(DEBUG|INFO|WARNING|ERROR|CRITICAL)\b", re.MULTILINE)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ProcessServer]:
    db = tmp_path_factory.mktemp("log-flood") / "server.sqlite3"
    server = ProcessServer(f"sqlite:///{db}").start()
    try:
        yield server
    finally:
        server.stop()


# ----- raw WebSocket frames -----------------------------------------------------------------
def frame(
    opcode: int,
    payload: bytes,
    *,
    fin: bool = True,
    rsv: int = 0,
    mask: bool = True,
    length: int | None = None,
) -> bytes:
    """One client frame as the wire has it; ``length`` overrides the declared length."""
    size = len(payload) if length is None else length
    head = bytes([(0x80 if fin else 0) | (rsv << 4) | opcode])
    bit = 0x80 if mask else 0
    if size < 126:
        head += bytes([bit | size])
    elif size < 1 << 16:
        head += bytes([bit | 126]) + struct.pack("!H", size)
    else:
        head += bytes([bit | 127]) + struct.pack("!Q", size)
    if not mask:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


async def _drain(reader: asyncio.StreamReader, seconds: float = 0.5) -> bytes:
    out = b""
    with contextlib.suppress(TimeoutError, ConnectionError):
        while chunk := await asyncio.wait_for(reader.read(65536), seconds):
            out += chunk
    return out


async def websocket(port: int, code: str, frames: list[bytes]) -> bytes:
    """Open ``/ws/<code>`` by hand, send ``frames`` as they are, return what came back."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            f"GET /ws/{code} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
        assert head.startswith(b"HTTP/1.1 101"), head
        for raw in frames:
            writer.write(raw)
            with contextlib.suppress(ConnectionError):
                await writer.drain()
        return await _drain(reader)
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()


async def http(port: int, raw: bytes) -> bytes:
    """Send ``raw`` on a fresh connection, then close it after reading what comes back."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(raw)
        with contextlib.suppress(ConnectionError):
            await writer.drain()
        return await _drain(reader, 0.3)
    finally:
        writer.close()
        with contextlib.suppress(Exception):
            await writer.wait_closed()


HELLO = b'{"type":"hello","protocol":1}'


def ws_cases() -> list[list[bytes]]:
    """Frame sequences, each on its own socket (most close the socket at once)."""
    big = b"x" * 70_000
    return [
        [frame(0x1, b"\xff\xfe\xfd not utf-8")],  # text that is not UTF-8, before hello
        [frame(0x1, HELLO), frame(0x1, b'{"type":"ping","id":5,"x":"\xc3\x28"}')],  # after it
        [frame(0x1, b"\xed\xa0\x80")],  # a lone surrogate
        [frame(0x3, b"{}")],  # reserved opcodes
        [frame(0xB, b"")],
        [frame(0x1, b"{}", rsv=0b100)],  # a reserved bit without an extension
        [frame(0x1, b'{"type":"ping"}', mask=False)],  # a client frame must be masked
        [frame(0x2, b'{"type":"ping","id":9}')],  # binary
        [frame(0x2, b"\x00\x01\x02\xff")],
        [frame(0x1, b"", length=2 << 20)],  # declared over the 1 MiB limit, never sent
        [frame(0x1, big[:10_000], length=len(big))],  # a frame cut short
        [frame(0x0, b"continuation without a start")],
        [frame(0x1, b'{"type":', fin=False), frame(0x1, b'"ping"}')],  # a new frame mid-message
        [frame(0x9, b"p" * 200)],  # a control frame over 125 bytes
        [frame(0x9, b"ping", fin=False)],  # a fragmented control frame
        [frame(0x8, struct.pack("!H", 999))],  # a close code that does not exist
        [frame(0x8, struct.pack("!H", 1000) + b"\xff\xfe")],  # a close reason not UTF-8
        [frame(0x8, b"\x03")],  # a close payload of one byte
        [frame(0x1, b"{}")[:1]],  # half a frame header, then gone
        [frame(0x1, HELLO), frame(0x1, b"[" * 5000), frame(0x1, b"\x00"), frame(0x1, b"")],
    ]


def http_cases(port: int) -> list[bytes]:
    host = f"Host: 127.0.0.1:{port}\r\n".encode()
    return [
        b"\x00\x01\x02 GARBAGE\r\n\r\n",
        b"GET / HTTP/9.9\r\n" + host + b"\r\n",
        b"GET / HTTP/1.1\r\n\r\n",  # no Host
        b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\n" + host + b"\r\n",  # an oversize head
        b"GET / HTTP/1.1\r\n" + host + b"X-Bad\x00Header: 1\r\n\r\n",
        b"POST /api/rooms HTTP/1.1\r\n"
        + host
        + b'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"game":',
        b"POST /api/rooms HTTP/1.1\r\n" + host + b"Content-Length: abc\r\n\r\n",
        b"POST /api/rooms HTTP/1.1\r\n"
        + host
        + b"Transfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nzz\r\n{}\r\n",
        b"FOO / HTTP/1.1\r\n" + host + b"\r\n",
        b"GET /static/%00 HTTP/1.1\r\n" + host + b"\r\n",
        b"GET /static/js/%00.js HTTP/1.1\r\n" + host + b"\r\n",
        b"GET /static/" + b"n" * 4000 + b" HTTP/1.1\r\n" + host + b"\r\n",
        b"GET /static/" + b"n/" * 2000 + b" HTTP/1.1\r\n" + host + b"\r\n",
        b"GET /static/..%2f..%2f..%2fetc%2fpasswd HTTP/1.1\r\n" + host + b"\r\n",
        b"GET /static/%ff%fe HTTP/1.1\r\n" + host + b"\r\n",
        b"GET /r/%00 HTTP/1.1\r\n" + host + b"\r\n",
        b"GET /api/rooms/%00%ff HTTP/1.1\r\n" + host + b"\r\n",
        b"GET /ws/ABCD HTTP/1.1\r\n"
        + host
        + b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 99\r\n\r\n",
        b"GET /ws/ABCD HTTP/1.1\r\n" + host + b"Upgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
        b"HEAD /api/games HTTP/1.1\r\n" + host + b"\r\n",
        b"OPTIONS * HTTP/1.1\r\n" + host + b"\r\n",
    ]


# The event-loop stall watcher's lines measure the machine (a loaded test machine is
# late whatever the clients do; bench/server_load.py counts them): not counted here.
STALL = re.compile(r"^(\S+ )?WARNING gamenight\.server: event loop \d+ ms late.*\n?", re.MULTILINE)


def _records(text: str) -> int:
    return len(RECORD.findall(text))


def test_no_client_floods_the_log(served: ProcessServer) -> None:
    code = create_room(served.url, "wurfeltod", ["human", "human"])["code"]
    claim(served.url, code, 0, "Ann")
    port = served.port

    async def flood() -> None:
        jobs: list[Callable[[], Awaitable[bytes]]] = []
        for _ in range(ROUNDS):
            jobs += [lambda f=f: websocket(port, code, f) for f in ws_cases()]  # type: ignore[misc]
            jobs += [lambda r=r: http(port, r) for r in http_cases(port)]  # type: ignore[misc]
        for start in range(0, len(jobs), 20):  # 20 connections at a time
            await asyncio.gather(*(job() for job in jobs[start : start + 20]))

    before = served.log_text()
    asyncio.run(flood())
    grown = STALL.sub("", served.log_text()[len(before) :])
    records = _records(grown)
    cases = ROUNDS * (len(ws_cases()) + len(http_cases(port)))
    assert records <= BUDGET_LINES, (
        f"{records} log records for {cases} connections:\n{grown[:3000]}"
    )
    assert len(grown) <= BUDGET_LINES * 4096, grown[:3000]
    # and the server still serves
    assert httpx.get(f"{served.url}/api/rooms/{code}").status_code == 200


def test_a_text_frame_that_is_not_utf8_writes_nothing(sqlite_url: str) -> None:
    """protocol.md: nothing a client sends is logged. A frame the WebSocket layer refuses
    (1007) is the client's fault, not a failure: no line at all, however many (its own
    server: the budget of the other test's is spent)."""
    served = ProcessServer(sqlite_url).start()
    try:
        _no_line_for_bad_utf8(served)
    finally:
        served.stop()


def _no_line_for_bad_utf8(served: ProcessServer) -> None:
    code = create_room(served.url, "wurfeltod", ["human"])["code"]

    async def main() -> None:
        for _batch in range(5):
            await asyncio.gather(
                *(websocket(served.port, code, [frame(0x1, b"\xff")]) for _ in range(20))
            )

    before = served.log_text()
    asyncio.run(main())
    grown = served.log_text()[len(before) :]
    assert "UTF-8" not in grown and "Traceback" not in grown, grown[:2000]
