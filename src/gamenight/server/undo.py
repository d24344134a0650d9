"""Undo at an online table (issue 40), with the terminal's rule: a player may take back
their own last move while it is still their decision, if the game calls the move
reversible (``Game.reversible``: no dice thrown, nothing revealed) — the core's one rule
(``Table.can_undo``), whatever the game.

The log keeps no trace of a move taken back: its row is cut in the same transaction that
moves the room's seq back (``Store.take_back``), so a restart or a record replays the game
as it stands. That is sound only because the move revealed nothing: nobody learnt from it
what the log would then forget. Everyone sees it happen: every socket gets ``undone``
(its seat's position after it), and the page writes a line in its log.

>>> from types import SimpleNamespace
>>> table = SimpleNamespace(seq=4, to_act=lambda: (1,), can_undo=lambda seat: seat == 1)
>>> undo_refusal(table, 1, 4) is None
True
>>> undo_refusal(table, 0, 4)
'cannot_undo'
>>> undo_refusal(table, 1, 3)
'stale'
"""

from __future__ import annotations

import time
from typing import Any, Protocol

from gamenight.core.errors import StorageUnavailableError
from gamenight.core.game import to_json
from gamenight.core.i18n import _
from gamenight.core.table import Table
from gamenight.server import protocol as p
from gamenight.server.conns import Conn, ConnRoom
from gamenight.server.faults import refused, unavailable


class UndoRoom(ConnRoom, Protocol):
    """A room as undo sees it (``room.Room``)."""

    updated: float
    last_by: str | None

    def refuse_play(self, request: int | None) -> p.Error | None: ...
    def turn_begins(self) -> None: ...
    def seat_token(self, seat: int) -> str | None: ...
    def payload(self, kind: str) -> str: ...


def undo_seats(table: Table | None, last_by: str | None) -> frozenset[int]:
    """The seats that may take back the last move now: its own player made it (not a
    bot, not the clock; ``last_by``), the rule allows it, and the decision is still theirs."""
    if table is None or last_by != "human" or table.finished:
        return frozenset()
    return frozenset(s for s in table.to_act() if table.can_undo(s))


def undo_refusal(table: Any, seat: int, expected_seq: int) -> str | None:
    """Why ``seat`` may not take back the last move at ``expected_seq`` (an error code),
    or None: the position moved on (``stale``), or the move is not theirs, threw dice,
    revealed something, or their decision is over (``cannot_undo``)."""
    if expected_seq != table.seq:
        return "stale"
    if not table.can_undo(seat) or seat not in table.to_act():
        return "cannot_undo"
    return None


async def on_undo(room: UndoRoom, conn: Conn, message: p.UndoIn) -> p.Message:
    """``undo``: ``ack`` with the seq after it, or an error (nothing changed)."""
    seat, request = conn.seat, message.id
    if seat is None:
        return p.Error(code="not_seated", message=_("spectators cannot act"), id=request)
    if conn.token_hash != room.seat_token(seat):
        return p.Error(code="bad_token", message=_("the host freed your seat"), id=request)
    refusal = room.refuse_play(request)
    if refusal is not None:
        return refusal
    async with room.lock:
        table = room.table
        if table is None or not room.status.accepts_actions:
            return p.Error(code="finished", message=_("the game is over"), id=request)
        why = undo_refusal(table, seat, message.expected_seq)
        if why == "stale":
            return p.Error(
                code="stale", message=_("the table has moved on; look again"), id=request
            )
        seq = table.seq
        try:
            taken = why is None and await room.services.store.take_back(
                room.id, seq, seat, notify=room.payload("room")
            )
        except StorageUnavailableError as exc:
            refused(f"an undo in room {room.code}", exc)
            return unavailable(exc, request)
        if not taken:
            return p.Error(
                code="cannot_undo",
                message=_("there is no move of yours to take back here"),
                id=request,
            )
        taken_back(room, table, seat)
    room.bots.kick(room)
    return p.Ack(seq=table.seq, id=request)


def follow(room: UndoRoom, table: Table, seq: int) -> None:
    """The log holds ``seq`` actions and the table more: another process took moves
    back (PostgreSQL); this table forgets them too."""
    while table.seq > seq:
        seat = table.moves()[-1][0]
        if not table.can_undo(seat):
            return  # not a take-back: the next catch-up finds out what it was
        taken_back(room, table, seat)


def taken_back(room: UndoRoom, table: Table, seat: int) -> None:
    """The table forgets ``seat``'s last move; every socket is told (``undone``), the
    turn clock and the odds start again from the position before it."""
    table.undo(seat)
    room.last_by = None  # the move before: not known here, so not taken back in turn
    room.updated = time.time()
    frames: dict[int | None, bytes] = {}
    clock = room.room_options.turn_clock
    for conn in list(room.conns):
        frame = frames.get(conn.seat)
        if frame is None:
            position = table.position(conn.seat)
            frame = frames[conn.seat] = p.encode(
                p.Undone(
                    seq=position.seq,
                    seat=seat,
                    view=to_json(position.view),
                    legal=tuple(to_json(a) for a in position.legal),
                    to_act=position.to_act,
                    finished=position.finished,
                    clock_left=None if clock is None else float(clock),
                )
            )
        conn.send_frame(frame)
    room.turn_begins()
    room.odds.want(room)
