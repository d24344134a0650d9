"""Finished rooms leave memory (issue 38, item 6): a room over, with no socket, is let go
``evict_after`` seconds after its last activity and loaded again when asked for."""

from __future__ import annotations

import gc
import time
import weakref

import httpx
from harness import Client, ThreadServer, create_room, run


def _until(check: object, what: str) -> None:
    assert callable(check)
    for _ in range(400):
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"never: {what}")


def test_a_finished_room_leaves_memory_and_comes_back_when_asked(sqlite_url: str) -> None:
    with ThreadServer(sqlite_url, evict_after=0.5) as server:
        code = create_room(server.url, "dice-duel", ["bot:random", "bot:random"])["code"]
        url = f"{server.url}/api/rooms/{code}"
        _until(lambda: httpx.get(url).json()["status"] == "finished", "the bots finish")
        _until(lambda: code not in server.hub.rooms, "the finished room is let go")
        record = httpx.get(f"{url}/record")
        assert record.status_code == 200 and record.text.count("\n") > 2
        assert httpx.get(url).json()["status"] == "finished"

        async def watch() -> None:  # a spectator holds it: it stays while they look
            watcher = Client(server.url, code)
            snapshot = await watcher.connect()
            assert snapshot["finished"] is True
            time.sleep(1.5)
            assert code in server.hub.rooms
            await watcher.close()

        run(watch())
        _until(lambda: code not in server.hub.rooms, "let go once the spectator left")


def test_a_live_room_is_never_let_go(sqlite_url: str) -> None:
    with ThreadServer(sqlite_url, evict_after=0.5) as server:
        code = create_room(server.url, "dice-duel", ["human", "human"])["code"]
        time.sleep(1.5)
        assert code in server.hub.rooms
        assert server.hub.evict(time.time() + 3600) == []


def test_a_room_let_go_is_freed_without_the_cycle_collector(sqlite_url: str) -> None:
    """The server freezes what survives (server/heap.py): a room let go must be freed
    by reference counting alone, or it would stay for good. Checked with the collector
    off, after a spectator came and went."""
    with ThreadServer(sqlite_url, evict_after=2.0) as server:
        code = create_room(server.url, "decathlon", ["bot:random", "bot:random"])["code"]
        url = f"{server.url}/api/rooms/{code}"
        _until(lambda: httpx.get(url).json()["status"] == "finished", "the bots finish")
        room = weakref.ref(server.hub.rooms[code])
        table = weakref.ref(server.hub.rooms[code].table)

        async def look() -> None:
            watcher = Client(server.url, code)
            assert (await watcher.connect())["finished"] is True
            await watcher.close()

        run(look())
        gc.collect()
        gc.disable()
        try:
            _until(lambda: code not in server.hub.rooms, "the finished room is let go")
            _until(lambda: room() is None and table() is None, "freed by reference counting")
        finally:
            gc.enable()
