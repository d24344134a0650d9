"""Rated rooms (issue 43): a finished room whose host chose "rated" and whose every seat
is an account (each a different one) or a bot with a fixed rating in its pool gives one
row of ``rated_results``; ratings are computed from those rows (:mod:`.ratings`).

The row is written when the game ends (:func:`on_finished`, in the background) and, for
a room whose process stopped before writing it, by :func:`sweep` when a server starts:
the row's key is the room, so nothing is written twice and nothing is lost.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

import msgspec
from sqlalchemy import func, select

from gamenight.core.errors import first_line
from gamenight.core.game import AnyGame, Results
from gamenight.server.accounts.ratings import Place
from gamenight.server.accounts.store import AccountStore
from gamenight.server.accounts.tables import RATED_RESULTS
from gamenight.server.storage.schema import ACTIONS, ROOMS, SEATS

if TYPE_CHECKING:
    from gamenight.core.registry import GameEntry
    from gamenight.core.table import Table
    from gamenight.server.config import RoomOptions


class Room(Protocol):
    """What a rated result needs of a room (server/room.py's Room)."""

    @property
    def id(self) -> int: ...
    @property
    def code(self) -> str: ...
    @property
    def options(self) -> Mapping[str, Any]: ...

    @property
    def room_options(self) -> RoomOptions: ...
    @property
    def table(self) -> Table | None: ...
    @property
    def entry(self) -> GameEntry: ...


log = logging.getLogger("gamenight.server")
_pending: set[asyncio.Task[None]] = set()


def pool_of(game: AnyGame, raw: Mapping[str, object]) -> str:
    """The rating pool of a room: its game, and the options it sets apart from the
    defaults (a Decathlon variant is a pool of its own)."""
    chosen = msgspec.to_builtins(game.parse_options(raw))
    usual = msgspec.to_builtins(game.parse_options({}))
    differ = {k: v for k, v in sorted(chosen.items()) if usual.get(k) != v}
    if not differ:
        return game.info.id
    return f"{game.info.id} {json.dumps(differ, sort_keys=True, separators=(',', ':'))}"


async def record(store: AccountStore, room_id: int, pool: str, results: Results) -> bool:
    """Write the room's result if it is rated: True if a row was written now. Its time is
    its last action's, from the log: the same whenever it is written."""
    async with store.engine.connect() as conn:
        finished_at = (
            await conn.execute(select(func.max(ACTIONS.c.at)).where(ACTIONS.c.room_id == room_id))
        ).scalar_one()
        seats = (
            await conn.execute(
                select(SEATS.c.seat, SEATS.c.kind, SEATS.c.bot, SEATS.c.account_id)
                .where(SEATS.c.room_id == room_id)
                .order_by(SEATS.c.seat)
            )
        ).all()
    bots = await store.bot_ratings(pool)
    who: list[str] = []
    for _seat, kind, bot, account in seats:
        if kind == "bot" and f"bot:{bot}" in bots:
            who.append(f"bot:{bot}")
        elif kind == "human" and account is not None:
            who.append(f"account:{account}")
        else:
            return False  # a guest, or a bot without a fixed rating: not rated
    humans = [w for w in who if w.startswith("account:")]
    if len(set(humans)) != len(humans) or len(who) != len(results.ranks):
        return False  # one account in two seats: no rating says who won
    if finished_at is None:
        return False
    places = [Place(w, int(rank)) for w, rank in zip(who, results.ranks, strict=True)]
    return await store.record_result(room_id, pool, finished_at, places)


def on_finished(room: Room, store: AccountStore) -> None:
    """The room's game just ended: record its result in the background if rated."""
    if not room.room_options.rated or room.table is None:
        return
    results = room.table.results()
    if results is None:
        return
    pool = pool_of(room.entry.game, room.options)
    task = asyncio.get_running_loop().create_task(
        _quietly(record(store, room.id, pool, results), room.code)
    )
    _pending.add(task)
    task.add_done_callback(_pending.discard)


async def _quietly(work: Awaitable[bool], code: str) -> None:
    try:
        await work
    except Exception as exc:  # the start's sweep writes it later
        log.warning("room %s: its rated result is not written yet: %s", code, first_line(exc))


async def sweep(store: AccountStore, load: Callable[[str], Awaitable[Room | None]]) -> int:
    """Write the result of every finished rated room that has none (its process stopped
    first); ``load`` opens a room by code. How many were written."""
    async with store.engine.connect() as conn:
        rows = (
            await conn.execute(
                select(ROOMS.c.code, ROOMS.c.room_options)
                .where(ROOMS.c.status == "finished")
                .where(~ROOMS.c.id.in_(select(RATED_RESULTS.c.room_id)))
            )
        ).all()
    written = 0
    for code, room_options in rows:
        if not json.loads(room_options).get("rated"):
            continue
        room = await load(code)
        if room is None or room.table is None or room.table.results() is None:
            continue
        results = room.table.results()
        assert results is not None
        pool = pool_of(room.entry.game, room.options)
        written += await record(store, room.id, pool, results)
    return written


async def sweep_quietly(store: AccountStore, load: Callable[[str], Awaitable[Room | None]]) -> None:
    """:func:`sweep`, its failure logged in one line (the next start tries again)."""
    try:
        written = await sweep(store, load)
    except Exception as exc:
        log.warning("rated results not swept: %s", first_line(exc))
        return
    if written:
        log.info("rated results written at the start: %d", written)
