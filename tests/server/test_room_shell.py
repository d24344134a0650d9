"""What the room page's shell needs of the server (issue 23): the spectator count in
RoomInfo, the turn clock's time left in snapshot and events, the readable default bot
pace, and the host freeing a seat during play (a bot plays it until someone claims it)."""

from __future__ import annotations

import time

import httpx
from harness import Client, ThreadServer, claim, create_room, run

from gamenight.server.config import DEFAULT_BOT_PACE, RoomOptions


def test_default_bot_pace_is_readable() -> None:
    assert RoomOptions().bot_pace == DEFAULT_BOT_PACE >= 0.5


def test_room_info_counts_spectators(server: ThreadServer) -> None:
    code = create_room(server.url, "dice-duel", ["human", "human"])["code"]
    token = claim(server.url, code, 0, "Ann")

    async def main() -> None:
        player = Client(server.url, code, token)
        snap = await player.connect()
        assert snap["room"]["spectators"] == 0
        watchers = [Client(server.url, code) for _ in range(2)]
        for w in watchers:
            await w.connect()
        while True:  # the player's room updates count them in
            room = (await player.expect("room"))["room"]
            if room["spectators"] == 2:
                break
        await watchers[0].close()
        while (await player.expect("room"))["room"]["spectators"] != 1:
            pass
        await watchers[1].close()
        await player.close()

    run(main())
    assert httpx.get(f"{server.url}/api/rooms/{code}").json()["spectators"] == 0


def test_turn_clock_time_left_is_sent(server: ThreadServer) -> None:
    code = create_room(server.url, "dice-duel", ["human", "human"], room={"turn_clock": 60})["code"]
    tokens = [claim(server.url, code, s, f"P{s}") for s in (0, 1)]
    plain = create_room(server.url, "dice-duel", ["human", "human"])["code"]
    plain_token = claim(server.url, plain, 0, "Q")

    async def main() -> None:
        a = Client(server.url, code, tokens[0])
        snap = await a.connect()
        assert 50 < snap["clock_left"] <= 60
        seat = snap["to_act"][0]
        mover = a if seat == 0 else Client(server.url, code, tokens[1])
        if mover is not a:
            await mover.connect()
        assert (await mover.act(mover.state["legal"][0]))["type"] == "ack"
        while not [f for f in a.frames if f["type"] == "events"]:
            await a.expect("events")
        events = next(f for f in a.frames if f["type"] == "events")
        assert events["clock_left"] == 60  # a new decision: the clock starts again
        b = Client(server.url, plain, plain_token)
        assert (await b.connect())["clock_left"] is None
        for c in {a, mover, b}:
            await c.close()

    run(main())


def test_host_frees_an_away_seat_during_play_and_another_claims_it(
    server: ThreadServer,
) -> None:
    created = create_room(server.url, "dice-duel", ["human", "human"], room={"bot_pace": 0.05})
    code, host = created["code"], created["host_token"]
    stays = claim(server.url, code, 0, "Stays")
    leaves = claim(server.url, code, 1, "Leaves")  # the game begins: every seat is taken
    auth = {"Authorization": f"Bearer {host}"}
    hub = server.hub

    async def main() -> None:
        gone = Client(server.url, code, leaves)
        await gone.connect()
        # a connected player's seat is not freed
        refused = httpx.post(f"{server.url}/api/rooms/{code}/seats/1/release", headers=auth)
        assert refused.status_code == 409 and refused.json()["code"] == "seat_connected"
        await gone.close()
        a = Client(server.url, code, stays)
        await a.connect()
        deadline = time.monotonic() + 10
        while hub.rooms[code].conns.connected(1) and time.monotonic() < deadline:
            time.sleep(0.02)
        not_host = httpx.post(
            f"{server.url}/api/rooms/{code}/seats/1/release",
            headers={"Authorization": "Bearer nope"},
        )
        assert not_host.status_code == 403
        freed = httpx.post(f"{server.url}/api/rooms/{code}/seats/1/release", headers=auth)
        assert freed.status_code == 200, freed.text
        seat = freed.json()["seats"][1]
        assert seat["claimed"] is False and seat["takeover"] is True and seat["name"] == ""
        # the old token no longer works
        again = Client(server.url, code, leaves)
        assert (await again.connect())["code"] == "bad_token"
        await again.close()
        # the bot plays seat 1 meanwhile: the game goes on through seat 1's turns
        start = hub.rooms[code].seq

        def bot_played() -> bool:
            return any(
                f["type"] == "events" and f["seat"] == 1 and f["seq"] > start for f in a.frames
            )

        while not bot_played():
            assert not a.state.get("finished"), "the game ended before the bot played seat 1"
            if a.state.get("legal"):
                await a.act(a.state["legal"][0])
            else:
                await a.expect("events", timeout=20)
        # someone else claims it mid-game and plays on with the new token
        response = httpx.post(
            f"{server.url}/api/rooms/{code}/seats/1/claim", json={"name": "Newcomer"}
        )
        assert response.status_code == 200, response.text
        twice = httpx.post(f"{server.url}/api/rooms/{code}/seats/1/claim", json={"name": "Late"})
        assert twice.status_code == 409
        newcomer = Client(server.url, code, response.json()["token"])
        snap = await newcomer.connect()
        assert snap["seat"] == 1
        info = snap["room"]["seats"][1]
        assert info["name"] == "Newcomer" and info["claimed"] and not info["takeover"]
        assert 1 not in hub.rooms[code].takeover
        for c in (a, newcomer):
            await c.close()

    run(main())


def test_freeing_needs_a_claimed_human_seat(server: ThreadServer) -> None:
    created = create_room(server.url, "dice-duel", ["human", "bot:random"])
    code, host = created["code"], created["host_token"]
    claim(server.url, code, 0, "Solo")  # begins the game
    auth = {"Authorization": f"Bearer {host}"}
    bot = httpx.post(f"{server.url}/api/rooms/{code}/seats/1/release", headers=auth)
    assert bot.status_code == 404 and bot.json()["code"] == "no_seat"


def test_hints_name_seats_as_the_browser_does(server: ThreadServer) -> None:
    """The Decathlon's advice says whose result a target is: by the seat's label ("Ann",
    "Bot random"), never "seat 3" (issue 23 item 14)."""
    from gamenight.core import registry
    from gamenight.server.play import takes_names as _takes_names

    code = create_room(server.url, "decathlon", ["human", "human", "bot:random"])["code"]
    claim(server.url, code, 0, "Ann")
    assert server.hub.rooms[code].labels() == ["Ann", "Seat 2", "Bot random"]
    advise = registry.get("decathlon").advisor
    assert advise is not None and _takes_names(advise)
    assert not _takes_names(lambda view, seat, legal: None)
