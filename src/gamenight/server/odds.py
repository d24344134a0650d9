"""A room's live win odds: computed once per seq from the spectator view, off the event
loop, at most one computation in flight and one every ``ODDS_GAP``; a result for a seq
the room has moved past is dropped."""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from gamenight.server import protocol as p
from gamenight.server.bots import BotRoom
from gamenight.server.roomface import Sockets

ODDS_GAP = 0.1  # seconds between a room's live odds: a burst of moves gets its last ones
log = logging.getLogger("gamenight.server")


class OddsRoom(BotRoom, Protocol):
    """A room as its odds see it (``room.Room``): they run in its bots' worker pool and
    go to its sockets."""

    @property
    def conns(self) -> Sockets: ...


class OddsState:
    """The latest odds a room sent and the one task that computes the next."""

    def __init__(self) -> None:
        self.latest: p.OddsOut | None = None
        self.seq = -1  # the seq the odds were last computed for
        self.at = -1e9  # when (event loop clock) they were last computed
        self.task: asyncio.Task[None] | None = None

    def want(self, room: OddsRoom) -> None:
        """Compute the odds of the room's position if it has odds on and they are not
        known yet (a running task picks the newest seq up when it ends)."""
        if not room.room_options.odds or room.table is None or self.seq == room.table.seq:
            return
        if self.task is not None and not self.task.done():
            return
        self.task = asyncio.create_task(self._run(room))

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()

    async def _run(self, room: OddsRoom) -> None:
        compute = room.services.bots.odds_function(room.entry)
        table = room.table
        if compute is None or table is None:
            return
        loop = asyncio.get_running_loop()
        game = room.entry.game
        while self.seq != table.seq:
            # At most one computation per room every ODDS_GAP: a bot's turn of quick moves
            # gets the odds of its first and its last position, not of every step (each
            # costs CPU the other rooms need; bench/server_load.py --rooms-of odds). A
            # move after a pause, as humans make them, gets its odds at once.
            wait = self.at + ODDS_GAP - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
                if self.seq == table.seq:
                    return
            self.at = loop.time()
            seq = self.seq = table.seq
            view = game.view(table.state, None)
            try:
                found = await room.services.bots.run(compute, view)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # no odds for this position; play goes on
                log.warning("odds of room %s at seq %d failed: %s", room.code, seq, exc)
                continue
            if table.seq != seq:
                continue  # stale: the next round computes the newest position
            self.latest = p.OddsOut(seq=seq, odds=found)
            room.conns.broadcast(self.latest)
