"""Who is connected, one truth across server processes (issue 38): on PostgreSQL each
process writes a ``presence`` row for every seat it holds a socket of (the first socket
of the seat joins, the last leaves: ``Store.set_present`` with a NOTIFY ``presence``),
refreshes its rows every ``Config.presence_beat`` seconds (``Store.beat``, which also
repairs any row a failure left wrong), and a row not refreshed for ``PRESENCE_TTL``
seconds (its process died) counts no more.

A room reads the other processes' rows (:func:`refresh`) when it is loaded, when a
socket joins, on a ``presence`` notification and at each resync; so on every process
``RoomInfo.seats[].connected`` is true for a seat connected anywhere, a seat connected
elsewhere is not away (no bot takes it over here), and the host cannot free, through
any process, a seat whose player is connected on another (``Store.free_seat_in_play``
checks the rows in its transaction). When a seat's token changes in the database
(freed, then claimed by a newcomer), the sockets this process holds for the old token
are told and closed (:func:`revoke`). On SQLite there is one process: its sockets are
the whole truth and nothing is written.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import time
from collections.abc import Sequence
from typing import Protocol

from gamenight.core.i18n import _, use_language
from gamenight.server import protocol as p
from gamenight.server.bots import BotServices
from gamenight.server.conns import Conns
from gamenight.server.lifecycle import Lifecycle
from gamenight.server.timers import TimerRoom


class _Services(BotServices, Protocol):
    @property
    def tag(self) -> str: ...
    def payload(self, code: str, kind: str) -> str: ...


class Room(TimerRoom, Protocol):
    """A room as its presence sees it (``room.Room``)."""

    remote: set[int]
    presence_read: int

    @property
    def services(self) -> _Services: ...
    @property
    def conns(self) -> Conns: ...
    def show(self) -> None: ...


log = logging.getLogger("gamenight.server")

PRESENCE_TTL = 15.0  # seconds without a refresh after which a process's rows count no more


def fresh() -> float:
    """The oldest ``seen_at`` that still counts (wall clock)."""
    return time.time() - PRESENCE_TTL


def shared(room: Room) -> bool:
    """Whether the room's presence is shared with other processes (PostgreSQL)."""
    return room.services.store.is_postgres


async def joined(room: Room, seat: int) -> None:
    """The first socket of ``seat`` on this process is about to register (before: a
    failure here leaves no socket behind; a row left by a failure after it is removed
    at the next beat)."""
    if shared(room) and not room.conns.connected(seat):
        services = room.services
        await services.store.set_present(
            room.id, seat, services.tag, True, notify=services.payload(room.code, "presence")
        )


async def left(room: Room, seat: int) -> None:
    """The last socket of ``seat`` on this process has gone."""
    if shared(room) and not room.conns.connected(seat):
        services = room.services
        with contextlib.suppress(Exception):  # the next beat repairs the row
            await services.store.set_present(
                room.id, seat, services.tag, False, notify=services.payload(room.code, "presence")
            )


async def connected_elsewhere(room: Room, seat: int) -> bool:
    """Whether another process holds a socket of ``seat`` now (read from the database)."""
    if not shared(room):
        return False
    await refresh(room)
    return seat in room.remote


async def refresh(room: Room) -> None:
    """Read which seats have a socket on another process: a seat that came there is no
    longer away here (a bot playing it stops); one that left every process is away
    from now (its takeover counts from here). Every socket is shown the change."""
    if not shared(room):
        return
    services = room.services
    read = next(_reads)
    take(room, await services.store.present_elsewhere(room.id, services.tag, fresh()), read)


async def refresh_all(rooms: Sequence[Room]) -> None:
    """:func:`refresh` of many rooms, read in one statement (the resync's)."""
    if not rooms or not shared(rooms[0]):
        return
    services = rooms[0].services
    read = next(_reads)
    found = await services.store.presence_elsewhere([r.id for r in rooms], services.tag, fresh())
    for room in rooms:
        take(room, found.get(room.id, set()), read)


# Reads of a room's presence may overlap (a resync's, a notification's): the one begun
# last is taken, never an older one that ends later (it would undo a seat just come)
# (kept on the room: its collaborators hold it through a weak proxy, which no weak
# mapping takes as a key)
_reads = itertools.count(1)


def take(room: Room, now_there: set[int], read: int) -> None:
    """The seats with a socket on another process are ``now_there``, says ``read``
    (:data:`_reads`); ignored if a read begun later was taken already."""
    if room.presence_read > read:
        return
    room.presence_read = read
    before = room.remote
    if now_there == before:
        return
    room.remote = now_there
    playing = room.status is Lifecycle.PLAYING
    for seat in now_there - before:
        room.away.back(room, seat)
    for seat in before - now_there:
        if playing and not room.conns.connected(seat) and room.seats[seat].kind == "human":
            room.away.away(room, seat, time.monotonic())
    room.show()


class Held(Protocol):
    """A seat's holder, in memory (``live.SeatState``) or in the database (``SeatRow``)."""

    @property
    def token_hash(self) -> str | None: ...
    @property
    def account_id(self) -> int | None: ...


def resumed(before: Held, now: Held) -> bool:
    """Whether a seat's new token is its own account's, taken up on another device (issue
    43), rather than the seat freed by the host (and maybe claimed again by someone else)
    before this process heard of it: only a resume keeps the seat's account.

    >>> from gamenight.server.live import SeatState
    >>> from gamenight.server.storage.rows import SeatRow
    >>> ann = SeatState(1, "human", "", "Ann", "old", account_id=7)
    >>> resumed(ann, SeatRow(1, "human", "", "Ann", "new", None, account_id=7))
    True
    >>> resumed(ann, SeatRow(1, "human", "", "Bo", "new", None, account_id=8))
    False
    >>> resumed(ann, SeatRow(1, "human", "", "Bo", "new", None))  # a guest took it
    False
    >>> resumed(ann, SeatRow(1, "human", "", "", None, None))  # freed
    False
    >>> guest = SeatState(1, "human", "", "Ann", "old")
    >>> resumed(guest, SeatRow(1, "human", "", "Bo", "new", None))
    False
    """
    return (
        before.token_hash is not None
        and now.token_hash is not None
        and before.account_id is not None
        and before.account_id == now.account_id
    )


def revoke(room: Room, seat: int, elsewhere: bool = False) -> None:
    """Seat ``seat``'s token changed in the database (the host freed it, someone else
    may hold it now; or, ``elsewhere``, its account took it up on another device): the
    sockets of the old token on this process are told and closed, and nothing they send
    is acknowledged any more."""
    for conn in list(room.conns):
        if conn.seat == seat:
            with use_language(conn.lang):  # that socket's language
                text = (
                    _("your seat is played on another device now")
                    if elsewhere
                    else _("the host freed your seat")
                )
                conn.send(p.Error(code="bad_token", message=text))
            conn.close()
