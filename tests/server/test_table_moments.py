"""Issue 40 on the wire: an action re-sent after a lost socket is acknowledged once, never
applied twice; undo with the core's rule (a move that threw no dice and revealed nothing,
still the mover's decision), seen by everyone, its log row cut so that a restart replays
the game as it stands; the turn clock's move says it was the clock's; the rematch offered
to everyone at the table."""

from __future__ import annotations

import random
from typing import Any

import httpx
from harness import Client, ThreadServer, claim, create_room, run

from gamenight.core.record import parse_record, replay

LONG_JUMP = {"events": "long-jump"}


def _last(client: Client, kind: str) -> dict[str, Any]:
    """The latest frame of ``kind`` the client received (request() reads past them)."""
    return next(f for f in reversed(client.frames) if f["type"] == kind)


def _of(legal: list[Any], kind: str) -> list[Any]:
    return [a for a in legal if a["type"] == kind]


# ----- re-sent actions ------------------------------------------------------------------------
def test_a_resent_action_is_acknowledged_once_and_applied_once(server: ThreadServer) -> None:
    code = create_room(server.url, "toy", ["human", "human"], options={"target": 50})["code"]
    tokens = [claim(server.url, code, seat, f"P{seat}") for seat in (0, 1)]

    async def main() -> None:
        a, b = Client(server.url, code, tokens[0]), Client(server.url, code, tokens[1])
        await a.connect()
        await b.connect()
        mover = a if a.state["legal"] else b
        seq = mover.state["seq"]
        roll = _of(mover.state["legal"], "roll")[0]
        first = await mover.act(roll, expected_seq=seq)
        assert first == {**first, "type": "ack", "seq": seq + 1}
        # the same action for the same position again (its socket was lost): its ack
        again = Client(server.url, code, mover.token)
        await again.connect(last_seq=seq + 1)
        resent = await again.act(roll, expected_seq=seq)
        assert resent == {**resent, "type": "ack", "seq": seq + 1}
        info = httpx.get(f"{server.url}/api/rooms/{code}").json()
        assert info["seq"] == seq + 1  # applied once
        # another action for that old position is stale as ever
        other = await (b if mover is a else a).act(roll, expected_seq=seq)
        assert other["type"] == "error" and other["code"] in ("stale", "illegal")
        for client in (a, b, again):
            await client.close()

    run(main())


# ----- undo -----------------------------------------------------------------------------------
def _freeze_then_undo(server: ThreadServer, code: str, token: str) -> dict[str, Any]:
    async def main() -> dict[str, Any]:
        me, watcher = Client(server.url, code, token), Client(server.url, code)
        await me.connect()
        await watcher.connect()
        assert me.state["undo"] is False  # nothing of ours to take back yet
        seq = me.state["seq"]
        freeze = _of(me.state["legal"], "freeze")[0]
        assert (await me.act(freeze))["type"] == "ack"
        moved = me.state  # the events frame came before the ack (request() read past it)
        assert moved["seq"] == seq + 1 and moved["undo"] is True and moved["by"] == "human"
        seen = await watcher.expect("events")
        assert seen["undo"] is False  # only the mover may undo
        refused = await watcher.request({"type": "undo", "expected_seq": seq + 1})
        assert refused["code"] == "not_seated"
        stale = await me.request({"type": "undo", "expected_seq": seq})
        assert stale["code"] == "stale"
        answer = await me.request({"type": "undo", "expected_seq": seq + 1})
        assert answer == {**answer, "type": "ack", "seq": seq}
        mine, theirs = _last(me, "undone"), await watcher.expect("undone")
        assert mine["seq"] == theirs["seq"] == seq and mine["seat"] == theirs["seat"] == 0
        assert freeze in mine["legal"] and theirs["legal"] == []
        # nothing left to take back now; a rethrow throws dice: never taken back
        again = await me.request({"type": "undo", "expected_seq": seq})
        assert again["code"] == "cannot_undo"
        state = dict(mine)
        rethrow = _of(mine["legal"], "rethrow")
        if rethrow:
            assert (await me.act(rethrow[0], expected_seq=seq))["type"] == "ack"
            after = me.state
            assert after["undo"] is False
            no = await me.request({"type": "undo", "expected_seq": seq + 1})
            assert no["code"] == "cannot_undo"
            state = dict(after)
        await me.close()
        await watcher.close()
        return state

    result: dict[str, Any] = run(main())
    return result


def test_undo_takes_back_a_freeze_everyone_sees_it_and_a_restart_replays_the_rest(
    db_url: str,
) -> None:
    """On SQLite and PostgreSQL: the log row goes with the seq's compare-and-set."""
    with ThreadServer(db_url) as server:
        code = create_room(server.url, "decathlon", ["human"], options=LONG_JUMP)["code"]
        token = claim(server.url, code, 0, "Ann")
        before = _freeze_then_undo(server, code, token)
        seq = httpx.get(f"{server.url}/api/rooms/{code}").json()["seq"]
    with ThreadServer(db_url) as server:  # the same database: the room is rebuilt

        async def back() -> dict[str, Any]:
            me = Client(server.url, code, token)
            snap = await me.connect()
            rng = random.Random(4)
            await me.play_randomly(rng)
            await me.close()
            return snap

        snap = run(back())
        assert snap["seq"] == seq and snap["view"] == before["view"]
        record = httpx.get(f"{server.url}/api/rooms/{code}/record")
        assert record.status_code == 200
        report = replay(parse_record(record.text.splitlines()))
        assert report.actions == httpx.get(f"{server.url}/api/rooms/{code}").json()["seq"]


# ----- the turn clock -------------------------------------------------------------------------
def test_the_clock_s_move_says_so(server: ThreadServer) -> None:
    body = {"options": {"target": 50}, "room": {"turn_clock": 1}}
    code = create_room(server.url, "toy", ["human", "bot:random"], **body)["code"]
    token = claim(server.url, code, 0, "Slow")

    async def main() -> None:
        me = Client(server.url, code, token)
        await me.connect()
        while True:  # the bot's own moves say "bot"; ours, left to the clock, "clock"
            frame = await me.expect("events", timeout=30)
            if frame["seat"] == 0:
                assert frame["by"] == "clock", frame
                break
            assert frame["by"] == "bot", frame
        await me.close()

    run(main())


# ----- the rematch ----------------------------------------------------------------------------
def test_the_rematch_is_offered_to_everyone_at_the_table(server: ThreadServer) -> None:
    code = create_room(server.url, "toy", ["human", "bot:random"], options={"target": 2})["code"]
    token = claim(server.url, code, 0, "Ann")
    next_code = create_room(server.url, "toy", ["human", "bot:random"])["code"]

    async def main() -> None:
        me, watcher = Client(server.url, code, token), Client(server.url, code)
        await me.connect()
        early = await me.request({"type": "rematch", "code": next_code})
        assert early["code"] == "not_finished"
        await me.play_randomly(random.Random(1))
        await watcher.connect()
        bad = await me.request({"type": "rematch", "code": "../x"})
        assert bad["code"] == "bad_message"
        spectator = await watcher.request({"type": "rematch", "code": next_code})
        assert spectator["code"] == "not_seated"
        answer = await me.request({"type": "rematch", "code": next_code})
        assert answer["type"] == "ack"
        offer = await watcher.expect("rematch")
        assert (offer["seat"], offer["name"], offer["code"]) == (0, "Ann", next_code)
        # a socket that comes later gets it in its snapshot
        late = Client(server.url, code)
        snap = await late.connect()
        assert snap["rematch"]["code"] == next_code
        for client in (me, watcher, late):
            await client.close()

    run(main())
