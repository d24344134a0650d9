"""Turn-based rooms on two real server processes on one PostgreSQL (issue 44): the clock
of a late seat is acted on by exactly one process, the room goes on across a restart,
and a bot chosen by the other player moves for the late seat (``by: "clock"``). The
processes' clock is faked through ``GAMENIGHT_TEST_CLOCK`` (server/clock.py)."""

from __future__ import annotations

import asyncio
import os
import random
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg
from harness import Client, PgCluster, ProcessServer, claim, create_room, run

from gamenight.server.storage.store import Store
from gamenight.server.storage.turns import Due

DAY = 24 * 3600
TURN_BASED = {"pace": "turn-based", "move_time": DAY, "time_bank": DAY // 2}
LATE_LINE = "is late (its clock ran out)"


def _info(base: str, code: str) -> dict[str, Any]:
    answer = httpx.get(f"{base}/api/rooms/{code}")
    assert answer.status_code == 200, answer.text
    info: dict[str, Any] = answer.json()
    return info


def _late(base: str, code: str, seat: int) -> bool:
    clock = _info(base, code)["clock"]
    return bool(clock and any(c["seat"] == seat and c["late"] for c in clock["seats"]))


async def _until(check: Any, what: str) -> None:
    for _ in range(600):
        if await asyncio.to_thread(check):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never: {what}")


async def _turn(client: Client, rng: random.Random) -> None:
    while client.seat in client.state.get("to_act", ()):
        reply = await client.act(rng.choice(client.state["legal"]))
        assert reply["type"] == "ack", reply


def test_two_processes_a_late_seat_once_a_restart_and_a_bot_for_it(
    pg: PgCluster, tmp_path: Path
) -> None:
    url = pg.new_database()
    shift = tmp_path / "clock"
    shift.write_text("0")
    env = {**os.environ, "GAMENIGHT_TEST_CLOCK": str(shift)}
    flags = ("--turn-sweep", "0.1", "--evict-after", "0.5")
    a = ProcessServer(url, env=env, args=flags).start()
    b = ProcessServer(url, env=env, args=flags).start()
    rng = random.Random(7)
    try:
        code = create_room(a.url, "dice-duel", ["human", "human"], room=TURN_BASED)["code"]
        tokens = [claim(a.url, code, 0, "On A"), claim(b.url, code, 1, "On B")]

        async def a_move_on_each() -> int:
            first = _info(a.url, code)["clock"]
            mover = next(c["seat"] for c in first["seats"] if c["since"] is not None)
            player = Client((a, b)[mover].url, code, tokens[mover])
            await player.connect()
            await _turn(player, rng)  # day 0, on the mover's process
            await player.close()
            return 1 - int(mover)

        waiting = run(a_move_on_each())
        shift.write_text(str(DAY // 2))  # half a day later: a restart of B
        b.stop()
        b = ProcessServer(url, env=env, args=flags).start()
        assert not _late(a.url, code, waiting) and not _late(b.url, code, waiting)
        # the clock runs out: the move's day, the half-day bank, and a minute
        shift.write_text(str(DAY // 2 + DAY + DAY // 2 + 60))
        run(_until(lambda: _late(a.url, code, waiting), "A shows the seat late"))
        run(_until(lambda: _late(b.url, code, waiting), "B shows the seat late"))
        time.sleep(1)  # several more sweeps of both processes
        told = (a.log_text() + b.log_text()).count(LATE_LINE)
        assert told == 1, "exactly one process acted on the late seat"

        async def bot_for_the_late_seat() -> None:
            other = 1 - waiting
            chooser = Client((a, b)[1 - other].url, code, tokens[other])  # the far process
            await chooser.connect()
            watcher = Client((a, b)[other].url, code)  # on the other process
            await watcher.connect()
            await chooser.send({"type": "late", "choice": "wait"})
            heard = await watcher.expect("late")  # told across processes
            assert (heard["choice"]["choice"], heard["choice"]["by"]) == ("wait", other)
            await chooser.expect("late")
            await watcher.close()
            await chooser.send({"type": "late", "choice": "bot"})
            said = await chooser.expect("late")
            assert said["choice"] == {**said["choice"], "seat": waiting, "by": other}
            await _until(lambda: not _late(a.url, code, waiting), "the bot moved for it")
            await chooser.close()

        run(bot_for_the_late_seat())
        with psycopg.connect(url) as conn:
            rows = conn.execute(
                'SELECT a.seat, a."by" FROM actions a JOIN rooms r ON r.id = a.room_id '
                "WHERE r.code = %s ORDER BY a.seq",
                (code,),
            ).fetchall()
        assert {seat for seat, by in rows if by == "clock"} == {waiting}
    finally:
        a.stop()
        b.stop()


def test_two_stores_sweeping_at_once_claim_each_due_row_once(pg: PgCluster) -> None:
    """The claim is one conditional UPDATE: two processes' sweeps racing over 40 due rows
    take each exactly once between them."""
    url = pg.new_database()

    async def main() -> tuple[list[Due], list[Due]]:
        from gamenight.server.storage.schema import migrate

        await asyncio.to_thread(migrate, url)
        one, two = Store(url), Store(url)
        now = time.time()
        for i in range(40):
            room_id = await one.create_room(
                code=f"due{i}", game="dice-duel", options={}, room_options={}, public=False,
                seed=1, commitment="c", entropy="server", host_token_hash="h",
                seats=[("human", ""), ("human", "")],
            )  # fmt: skip
            await one.begin_turns(room_id, (0,), (0, 1), now - 100, 10.0, 0.0)
        mine: list[Due] = []
        theirs: list[Due] = []

        async def sweep(store: Store, tag: str, into: list[Due]) -> None:
            for _ in range(20):
                into += await store.claim_due(time.time(), tag, 60.0)

        await asyncio.gather(sweep(one, "one", mine), sweep(two, "two", theirs))
        await one.close()
        await two.close()
        return mine, theirs

    mine, theirs = run(main())
    claimed = [(d.room_id, d.seat) for d in mine + theirs]
    assert len(claimed) == 40 and len(set(claimed)) == 40
