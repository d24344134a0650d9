"""The rematch offered to everyone at the table (issue 40): once the game is over, a
seated player whose browser made the rematch room (the same game, seats and options)
sends its code; every socket of the room gets ``rematch`` and the page shows the offer
with a button to accept it (sit in the same seat there). The room keeps the latest offer
in memory, and a ``snapshot`` carries it, so a player who comes back sees it too.

The server checks only what the offer says: a room code of the server's alphabet
(``RoomCode``), and that the offer comes from a seat of a finished game; the page that
accepts reads the new room from the server as any other.
"""

from __future__ import annotations

import time
from typing import Protocol

from gamenight.core.i18n import _
from gamenight.server import protocol as p
from gamenight.server.conns import Conn, ConnRoom
from gamenight.server.lifecycle import Lifecycle


class RematchRoom(ConnRoom, Protocol):
    """A room as the rematch sees it (``room.Room``)."""

    rematch_offer: p.RematchOut | None

    def seat_token(self, seat: int) -> str | None: ...
    def seat_name(self, seat: int) -> str: ...


async def on_rematch(room: RematchRoom, conn: Conn, message: p.RematchIn) -> p.Message:
    """``rematch``: ``ack`` (the room's seq) and the offer sent to everyone, or an error."""
    seat, request = conn.seat, message.id
    if seat is None:
        return p.Error(
            code="not_seated", message=_("spectators cannot offer a rematch"), id=request
        )
    if conn.token_hash != room.seat_token(seat):
        return p.Error(code="bad_token", message=_("the host freed your seat"), id=request)
    if room.status is not Lifecycle.FINISHED or room.table is None:
        return p.Error(
            code="not_finished", message=_("a rematch is offered when the game is over"), id=request
        )
    if room.rematch_offer is not None and room.rematch_offer.code == message.code:
        return p.Ack(seq=room.table.seq, id=request)  # said already: not twice
    offer = p.RematchOut(seat=seat, name=room.seat_name(seat), code=message.code, at=time.time())
    room.rematch_offer = offer
    room.conns.broadcast(offer)
    return p.Ack(seq=room.table.seq, id=request)
