"""Two server processes on one PostgreSQL serve the same room: one client on each."""

from __future__ import annotations

import asyncio
import random

import httpx
import pytest
from harness import Client, PgCluster, ProcessServer, claim, create_room, odds_of, run


def test_two_processes_play_one_game(pg: PgCluster) -> None:
    url = pg.new_database()
    a = ProcessServer(url).start()
    b = ProcessServer(url).start()
    try:
        games: list[tuple[str, dict[str, str]]] = [("dice-duel", {}), ("decades", {})]
        for game, options in games:
            code = create_room(a.url, game, ["human", "human"], options=options)["code"]
            tokens = [claim(a.url, code, 0, "On A"), claim(b.url, code, 1, "On B")]

            async def main(code: str, tokens: list[str]) -> None:
                on_a, on_b = Client(a.url, code, tokens[0]), Client(b.url, code, tokens[1])
                await on_a.connect()
                await on_b.connect()
                await on_a.request({"type": "chat", "text": "hello from A"})
                assert (await on_b.expect("chat"))["text"] == "hello from A"
                rng = random.Random(5)
                await asyncio.gather(on_a.play_randomly(rng), on_b.play_randomly(rng))
                assert on_a.state["finished"] and on_b.state["finished"]
                assert on_a.state["seq"] == on_b.state["seq"]
                assert on_a.state["results"] == on_b.state["results"]
                await on_a.close()
                await on_b.close()

            run(main(code, tokens))
            for server in (a, b):
                info = httpx.get(f"{server.url}/api/rooms/{code}").json()
                assert info["status"] == "finished"
            record = httpx.get(f"{b.url}/api/rooms/{code}/record")
            assert record.status_code == 200
    finally:
        a.stop()
        b.stop()


def test_two_processes_send_the_same_live_odds(pg: PgCluster) -> None:
    """A Decathlon room with odds on, a seat on each process: after every action both
    processes send the odds of that seq, computed on their own, and they agree."""
    url = pg.new_database()
    a = ProcessServer(url).start()
    b = ProcessServer(url).start()
    try:
        room = {"odds": True}
        options = {"events": "100m,long"}
        code = create_room(a.url, "decathlon", ["human", "human"], options=options, room=room)
        tokens = [claim(a.url, code["code"], 0, "On A"), claim(b.url, code["code"], 1, "On B")]

        async def main() -> None:
            on_a = Client(a.url, code["code"], tokens[0])
            on_b = Client(b.url, code["code"], tokens[1])
            watcher_b = Client(b.url, code["code"])  # a spectator of the other process
            everyone = [on_a, on_b, watcher_b]
            for c in everyone:
                await c.connect()
            rng = random.Random(7)
            moved = 0
            first: list[float] | None = None
            for _ in range(12):
                actor = next(c for c in (on_a, on_b) if c.state["legal"])
                ack = await actor.act(rng.choice(actor.state["legal"]))
                assert ack["type"] == "ack"
                frames = [await odds_of(c, ack["seq"]) for c in everyone]
                wins = [f["odds"]["win"] for f in frames]
                assert wins[0] == wins[1] == wins[2]
                assert sum(wins[0]) == pytest.approx(1.0, abs=1e-9)
                first = first or wins[0]
                moved += wins[0] != first
            assert moved, "the odds follow the dice on both processes"
            for c in everyone:
                await c.close()

        run(main())
    finally:
        a.stop()
        b.stop()
