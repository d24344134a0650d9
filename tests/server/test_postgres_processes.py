"""Two server processes on one PostgreSQL serve the same room: one client on each."""

from __future__ import annotations

import asyncio
import random

import httpx
from harness import Client, PgCluster, ProcessServer, claim, create_room, run


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
