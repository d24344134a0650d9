"""kill -9 in the middle of games: every acknowledged action survives, the games go on."""

from __future__ import annotations

import asyncio
import contextlib
import random
from pathlib import Path
from typing import Any

import httpx
from harness import Client, ProcessServer, claim, create_room, run


async def _play_until_killed(client: Client, rng: random.Random, acked: list[int]) -> None:
    with contextlib.suppress(Exception):
        while not client.state.get("finished"):
            if client.state.get("legal"):
                reply = await client.act(rng.choice(client.state["legal"]))
                if reply["type"] == "ack":
                    acked.append(reply["seq"])
            else:
                await client.expect("events", "snapshot")


def test_kill_9_loses_no_acknowledged_action(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'server.sqlite3'}"
    server = ProcessServer(db).start()
    try:
        games: list[tuple[str, list[str]]] = []
        for game in ("dice-duel", "wurfeltod"):
            code = create_room(server.url, game, ["human", "human"])["code"]
            games.append((code, [claim(server.url, code, s, f"P{s}") for s in (0, 1)]))
        bot_room = create_room(
            server.url,
            "decathlon",
            ["bot:random", "bot:random"],
            options={"events": "100m,long-jump"},
        )["code"]
        acked: dict[str, list[int]] = {code: [] for code, _ in games}
        seen: dict[tuple[str, int], list[Any]] = {}

        async def before() -> None:
            clients = [Client(server.url, code, t) for code, tokens in games for t in tokens]
            for c in clients:
                await c.connect()
            rng = random.Random(7)
            tasks = [
                asyncio.create_task(_play_until_killed(c, rng, acked[c.ws_url.rsplit("/", 1)[1]]))
                for c in clients
            ]
            while min(len(v) for v in acked.values()) < 8:
                await asyncio.sleep(0.01)
            server.kill()  # in the middle of play, requests in flight
            await asyncio.wait(tasks, timeout=10)
            for c in clients:
                code = c.ws_url.rsplit("/", 1)[1]
                seen[(code, c.seat or 0)] = [
                    e for f in c.frames if f["type"] == "events" for e in f["events"]
                ]
                await c.close()

        run(before())
        server = ProcessServer(db, port=server.port).start()

        async def after() -> None:
            for code, tokens in games:
                clients = [Client(server.url, code, t) for t in tokens]
                for c in clients:
                    snap = await c.connect()
                    assert snap["seq"] >= max(acked[code]), "an acknowledged action was lost"
                    replayed = [e["event"] for e in snap["events"] if e["seq"] > 0]
                    before_kill = seen[(code, c.seat or 0)]
                    assert replayed[: len(before_kill)] == before_kill
                rng = random.Random(8)
                await asyncio.gather(*(c.play_randomly(rng) for c in clients))
                assert all(c.state["finished"] for c in clients)
                for c in clients:
                    await c.close()

        run(after())
        for _ in range(200):  # the bots' room was rebuilt and its bots went on
            if httpx.get(f"{server.url}/api/rooms/{bot_room}").json()["status"] == "finished":
                break
            import time

            time.sleep(0.05)
        assert httpx.get(f"{server.url}/api/rooms/{bot_room}").json()["status"] == "finished"
    finally:
        server.stop()
