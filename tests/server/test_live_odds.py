"""Live win odds in rooms with the room option ``odds`` (over real sockets)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import msgspec
import pytest
from harness import Client, ThreadServer, claim, create_room, odds_of, run

from gamenight.games.decathlon.odds import odds
from gamenight.games.decathlon.view import DecathlonView
from gamenight.server.protocol import OddsOut, decode_server


def _direct(view_json: Any) -> tuple[float, ...]:
    """The points odds of a view as the client got it, computed here, not by the server."""
    return odds(msgspec.convert(view_json, DecathlonView))


def test_every_socket_gets_the_odds_of_every_seq(server: ThreadServer) -> None:
    code = create_room(
        server.url,
        "decathlon",
        ["human", "human"],
        options={"events": "100m,long"},
        room={"odds": True},
    )["code"]
    tokens = [claim(server.url, code, s, name) for s, name in ((0, "Ann"), (1, "Bob"))]
    rng = random.Random(4)

    async def main() -> None:
        seats = [Client(server.url, code, token) for token in tokens]
        watcher = Client(server.url, code)
        everyone = [*seats, watcher]
        for c in everyone:
            await c.connect()
        # seq 0: in the snapshot if it was ready, else the odds message right after it
        first = watcher.state["odds"] or await watcher.expect("odds")
        assert first["seq"] == watcher.state["seq"] == 0
        assert first["odds"]["win"] == pytest.approx(_direct(watcher.state["view"]), abs=1e-12)
        moved = 0
        for _ in range(14):
            actor = next(c for c in seats if c.state["legal"])
            ack = await actor.act(rng.choice(actor.state["legal"]))
            assert ack["type"] == "ack"
            seq = ack["seq"]
            for c in everyone:
                frame = await odds_of(c, seq)
                event = next(f for f in c.frames if f["type"] == "events" and f["seq"] == seq)
                got = frame["odds"]
                assert got["exact"] is True and got["se"] is None and got["label"]
                assert sum(got["win"]) == pytest.approx(1.0, abs=1e-9)
                assert got["win"] == pytest.approx(_direct(event["view"]), abs=1e-12)
                assert isinstance(decode_server(c.raw[c.frames.index(frame)]), OddsOut)
            moved += got["win"] != pytest.approx(first["odds"]["win"])
        assert moved, "the odds follow the dice"
        # a late joiner draws the bar at once: the latest odds are in its snapshot
        late = Client(server.url, code)
        snapshot = await late.connect()
        assert snapshot["odds"]["seq"] == snapshot["seq"] == seq
        assert snapshot["odds"]["odds"]["win"] == got["win"]
        for c in [*everyone, late]:
            await c.close()

    run(main())


def test_the_odds_messages_are_sent_once_the_game_is_over_as_null(server: ThreadServer) -> None:
    """Bots play a one-event game to the end: the last odds message says there are none."""
    code = create_room(
        server.url,
        "decathlon",
        ["bot:greedy", "bot:greedy"],
        options={"events": "100m"},
        room={"odds": True, "bot_pace": 0.05},
    )["code"]

    async def main() -> None:
        watcher = Client(server.url, code)
        await watcher.connect()
        while not watcher.state.get("finished"):
            await watcher.expect("events", timeout=30)
        last = watcher.state["seq"]
        while True:
            frame = await watcher.expect("odds", timeout=30)
            if frame["seq"] == last:
                break
        assert frame["odds"] is None
        await watcher.close()

    run(main())


def test_rooms_without_odds_send_none(server: ThreadServer) -> None:
    code = create_room(server.url, "decathlon", ["human", "bot:greedy"])["code"]
    token = claim(server.url, code, 0, "Ann")

    async def main() -> None:
        c = Client(server.url, code, token)
        snapshot = await c.connect()
        assert snapshot["odds"] is None
        while not c.state["legal"]:
            await c.expect("events")
        assert (await c.act(c.state["legal"][0]))["type"] == "ack"
        await asyncio.sleep(0.5)  # odds would be on their way by now
        await c.close()
        assert not [f for f in c.frames if f["type"] == "odds"]

    run(main())


@pytest.mark.parametrize("game", ["wurfeltod", "dice-duel", "decades"])
def test_the_odds_option_is_refused_for_a_game_without_odds(
    server: ThreadServer, game: str
) -> None:
    response = httpx.post(
        f"{server.url}/api/rooms",
        json={"game": game, "seats": ["human", "human"], "room": {"odds": True}},
    )
    assert response.status_code == 400, response.text
    problem = response.json()
    assert problem["code"] == "bad_options"
    assert "odds" in problem["message"] and "\n" not in problem["message"]
    assert problem["message"].endswith("has no live win odds (room option 'odds')")
    bad = httpx.post(
        f"{server.url}/api/rooms",
        json={"game": "decathlon", "seats": ["human", "human"], "room": {"odds": "yes"}},
    )
    assert bad.status_code == 400 and "Traceback" not in bad.text
    assert httpx.get(f"{server.url}/api/rooms").json() == []
