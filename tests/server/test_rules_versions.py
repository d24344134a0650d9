"""A room begun under an older version of its game's rules (Dice Duel before K4's
revision) rebuilds after an upgrade under the rules its commitment binds, instead of
the installed ones: its game goes on, and its record checks."""

from __future__ import annotations

import json
import random

import httpx
import sqlalchemy as sa
from harness import Client, ProcessServer, claim, create_room, run

from gamenight.core import registry, seeds
from gamenight.server.db import sync_url
from gamenight.server.room import committed_rules


def test_the_commitment_names_the_rules() -> None:
    game = registry.get("dice-duel").game
    options = game.parse_options({})
    for version in ("2", "1"):
        made = seeds.commitment(7, "dice-duel", version, options, entropy=seeds.PLAYERS)
        rules = committed_rules(game, made, 7, "dice-duel", options, seeds.PLAYERS)
        assert rules.info.rules_version == version
    other = seeds.commitment(8, "dice-duel", "1", options, entropy=seeds.PLAYERS)
    assert committed_rules(game, other, 7, "dice-duel", options, seeds.PLAYERS) is game


def test_a_room_begun_under_older_rules_goes_on_after_an_upgrade(db_url: str) -> None:
    server = ProcessServer(db_url).start()
    try:
        code = create_room(server.url, "dice-duel", ["human", "human"])["code"]
        tokens = [claim(server.url, code, seat, f"P{seat}") for seat in (0, 1)]
    finally:
        server.stop()
    engine = sa.create_engine(sync_url(db_url))
    try:  # the room as a server with rules version 1 made it: its commitment binds "1"
        rooms = sa.table(
            "rooms", sa.column("code"), sa.column("seed"), sa.column("options"),
            sa.column("entropy"), sa.column("commitment"),
        )  # fmt: skip
        with engine.begin() as conn:
            seed, options, entropy = conn.execute(
                sa.select(rooms.c.seed, rooms.c.options, rooms.c.entropy).where(
                    rooms.c.code == code
                )
            ).one()
            options = json.loads(options) if isinstance(options, str) else options
            old = seeds.commitment(int(seed), "dice-duel", "1", options, entropy=entropy)
            conn.execute(rooms.update().where(rooms.c.code == code).values(commitment=old))
    finally:
        engine.dispose()
    server = ProcessServer(db_url, port=server.port).start()
    try:
        info = httpx.get(f"{server.url}/api/rooms/{code}").json()
        assert info["status"] == "playing" and info["rules_version"] == "1", info

        async def play() -> None:
            clients = [Client(server.url, code, t) for t in tokens]
            for c in clients:
                assert (await c.connect())["type"] == "snapshot"
            mover = next(c for c in clients if c.state["legal"])
            reply = await mover.act(random.Random(1).choice(mover.state["legal"]))
            assert reply["type"] == "ack", reply
            for c in clients:
                await c.close()

        run(play())
    finally:
        server.stop()
