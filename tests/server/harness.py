"""Real components for the server tests: uvicorn on loopback, a throwaway PostgreSQL
cluster, and a WebSocket client that records every frame it receives."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import uvicorn
import websockets

from gamenight.server.app import create_app
from gamenight.server.protocol import PROTOCOL_VERSION
from gamenight.server.rooms import Config, Hub
from gamenight.server.testing import PgCluster, ProcessServer, free_port

__all__ = ["Client", "PgCluster", "ProcessServer", "ThreadServer", "claim", "create_room", "run"]


class ThreadServer:
    """The app under uvicorn in a thread of this process (fast; the hub is reachable)."""

    def __init__(self, db_url: str, **config: Any) -> None:
        self.port = free_port()
        settings = {"build_tables": False, "tick": 0.05, "msg_rate": 500.0, **config}
        self.app = create_app(Config(db_url=db_url, **settings))
        self.server = uvicorn.Server(
            uvicorn.Config(
                self.app,
                host="127.0.0.1",
                port=self.port,
                log_level="warning",
                ws_max_size=1 << 20,
                lifespan="on",
            )
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def hub(self) -> Hub:
        hub: Hub = self.app.state.hub
        return hub

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        # listening first; then the rooms, which come up in the background (create_app)
        while not self.server.started or not self.app.state.up.is_set():
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        if self.app.state.failed is not None:
            raise RuntimeError(f"the server's storage did not start: {self.app.state.failed}")
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


# ----- clients ------------------------------------------------------------------------------
def create_room(base: str, game: str, seats: list[str], **body: Any) -> dict[str, Any]:
    """Create a room; its bots act at once unless the test sets ``room.bot_pace`` (the
    server's default is a readable pace for people)."""
    body["room"] = {"bot_pace": 0, **(body.get("room") or {})}
    response = httpx.post(f"{base}/api/rooms", json={"game": game, "seats": seats, **body})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def claim(base: str, code: str, seat: int, name: str, contribution: str | None = "") -> str:
    """Claim a seat, with a contribution to the dice seed as a client should send it
    (``""``: one made of the name and the seat; None: none, so the room waits for it)."""
    body: dict[str, Any] = {"name": name}
    if contribution is not None:
        body["contribution"] = contribution or f"{name}-{seat}"
    response = httpx.post(f"{base}/api/rooms/{code}/seats/{seat}/claim", json=body)
    assert response.status_code == 200, response.text
    token: str = response.json()["token"]
    return token


class Client:
    """A protocol client that records every frame (text) it receives."""

    def __init__(self, base: str, code: str, token: str | None = None) -> None:
        self.ws_url = base.replace("http://", "ws://") + f"/ws/{code}"
        self.token = token
        self.raw: list[str] = []
        self.frames: list[dict[str, Any]] = []
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.ws: Any = None
        self.reader: asyncio.Task[None] | None = None
        self.state: dict[str, Any] = {}
        self.seat: int | None = None
        self.closed = asyncio.Event()

    async def connect(
        self, last_seq: int = -1, origin: str | None = None, protocol: int = PROTOCOL_VERSION
    ) -> dict[str, Any]:
        headers = {"Origin": origin} if origin else None
        self.ws = await websockets.connect(self.ws_url, additional_headers=headers)
        self.reader = asyncio.create_task(self._read())
        await self.send(
            {"type": "hello", "protocol": protocol, "token": self.token, "last_seq": last_seq}
        )
        return await self.expect("snapshot", "error")

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                text = raw if isinstance(raw, str) else raw.decode()
                self.raw.append(text)
                frame = json.loads(text)
                self.frames.append(frame)
                if frame["type"] == "snapshot":
                    self.seat = frame["seat"]
                    self.state = frame
                elif frame["type"] == "events":
                    self.state = {**self.state, **frame}  # every field is always sent
                await self.queue.put(frame)
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed.set()

    async def send(self, message: dict[str, Any] | str) -> None:
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def expect(self, *types: str, timeout: float = 10) -> dict[str, Any]:
        """The next frame of one of ``types`` (other frames are skipped)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            frame = await asyncio.wait_for(self.queue.get(), max(left, 0.01))
            if frame["type"] in types:
                return frame

    async def request(self, message: dict[str, Any], timeout: float = 10) -> dict[str, Any]:
        """Send a request with an id and return the answer carrying that id."""
        ident = random.randrange(1 << 30)
        await self.send({**message, "id": ident})
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            left = deadline - asyncio.get_running_loop().time()
            frame = await asyncio.wait_for(self.queue.get(), max(left, 0.01))
            if frame.get("id") == ident:
                if frame.get("code") == "rate_limited" and message["type"] != "chat":
                    await asyncio.sleep(0.25)  # a fast test client: slow down, send again
                    return await self.request(message, timeout)
                return frame

    async def act(self, action: Any, expected_seq: int | None = None) -> dict[str, Any]:
        seq = self.state["seq"] if expected_seq is None else expected_seq
        return await self.request({"type": "act", "action": action, "expected_seq": seq})

    async def play_randomly(self, rng: random.Random, max_actions: int = 5000) -> int:
        """Act with random legal actions whenever this seat may, until the game ends."""
        acted = 0
        while not self.state.get("finished") and acted < max_actions:
            if self.state.get("legal"):
                reply = await self.act(rng.choice(self.state["legal"]))
                if reply["type"] == "ack":
                    acted += 1
                else:
                    assert reply["code"] == "stale", reply
                continue
            try:
                await self.expect("events", "snapshot", timeout=20)
            except TimeoutError:
                raise AssertionError(f"seat {self.seat} waited too long: {self.state}") from None
        return acted

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            with contextlib.suppress(BaseException):
                await self.reader


async def odds_of(client: Client, seq: int) -> dict[str, Any]:
    """The odds message of ``seq`` (one before it may still come: seq 0 right after the
    snapshot); never one for a later seq first, never two for one seq."""
    while True:
        frame = await client.expect("odds")
        assert frame["seq"] <= seq, f"odds of seq {frame['seq']} before those of {seq}"
        if frame["seq"] == seq:
            same = [f for f in client.frames if f["type"] == "odds" and f["seq"] == seq]
            assert len(same) == 1, "one odds message per seq"
            return frame


def run(coro: Any) -> Any:
    return asyncio.run(coro)


@contextlib.contextmanager
def thread_server(db_url: str, **config: Any) -> Iterator[ThreadServer]:
    with ThreadServer(db_url, **config) as server:
        yield server
