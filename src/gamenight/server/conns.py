"""A room's sockets: each one's queue and rate limits, joining and leaving, and what is
sent to all of them (a step's frames, encoded once per seat)."""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections.abc import Sequence
from typing import Any, Protocol

import msgspec

from gamenight.core.errors import StorageUnavailableError
from gamenight.core.frames import Frame, Step
from gamenight.core.game import to_json
from gamenight.core.i18n import language
from gamenight.server import protocol as p
from gamenight.server.config import Config
from gamenight.server.faults import RoomError
from gamenight.server.lifecycle import Lifecycle
from gamenight.server.odds import OddsRoom, OddsState
from gamenight.server.timers import TimerRoom, TurnClock
from gamenight.server.tokens import token_hash
from gamenight.server.words import localized


class Bucket:
    """A token bucket: ``take()`` is False when the caller is over its rate."""

    def __init__(self, rate: float, burst: float, now: float | None = None) -> None:
        self.rate, self.burst = rate, burst
        self.level = burst
        self.stamp = time.monotonic() if now is None else now

    def refill(self, now: float) -> float:
        """The level at ``now``: refilled at ``rate`` a second since the last look."""
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.level

    def take(self) -> bool:
        if self.refill(time.monotonic()) < 1:
            return False
        self.level -= 1
        return True

    def retry_after(self) -> int:
        """The whole seconds until the next ``take()`` succeeds (at least 1): what a
        ``rate_limited`` error tells the client."""
        missing = max(0.0, 1 - self.refill(time.monotonic()))
        return max(1, math.ceil(missing / self.rate - 1e-9))


class Conn:
    """One socket of a room, seen from the room: its seat and its outgoing queue."""

    QUEUE_LIMIT = 500

    def __init__(self, seat: int | None, config: Config) -> None:
        self.seat = seat
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.messages = Bucket(config.msg_rate, config.msg_burst)
        self.chats = Bucket(config.chat_rate, config.chat_burst)
        self.strikes = 0
        self.closed = False
        self.token_hash: str | None = None  # the seat's token when it joined (presence.py)
        # The language its human text is in: the socket's task chose it (server/words.py).
        self.lang = language()

    def send(self, message: p.Message) -> None:
        if not self.closed:
            if isinstance(message, p.Snapshot | p.RoomUpdate) and message.room.notes:
                message = msgspec.structs.replace(message, room=localized(message.room, self.lang))
            self.send_frame(p.encode(message))

    def send_frame(self, frame: bytes) -> None:
        """Queue an encoded message (frames shared by several sockets are encoded once)."""
        if self.closed:
            return
        if self.queue.qsize() > self.QUEUE_LIMIT:  # a client that does not read: drop it
            self.close()
            return
        self.queue.put_nowait(frame)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)


class Conns(set[Conn]):
    """The sockets of one room."""

    # sockets between finding the room and their snapshot (their hello, its awaits): the
    # room counts as having a socket open, so that it is not let go of meanwhile
    joining = 0

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat and not c.closed for c in self)

    def any_open(self) -> bool:
        return self.joining > 0 or any(not c.closed for c in self)

    def spectators(self) -> int:
        """Open sockets without a seat: the people watching."""
        return sum(1 for c in self if c.seat is None and not c.closed)

    def broadcast(self, message: p.Message) -> None:
        """Every socket gets ``message``, encoded once per language its notes are read in."""
        frames: dict[str, bytes] = {}
        for conn in list(self):
            lang = conn.lang if isinstance(message, p.RoomUpdate) and message.room.notes else ""
            frame = frames.get(lang)
            if frame is None:
                shown = message
                if lang:
                    assert isinstance(message, p.RoomUpdate)
                    shown = p.RoomUpdate(room=localized(message.room, lang))
                frame = frames[lang] = p.encode(shown)
            conn.send_frame(frame)

    def send_step(
        self,
        step: Step,
        clock_left: float | None = None,
        by: str | None = None,
        undo: frozenset[int] = frozenset(),
    ) -> None:
        """Each socket gets its seat's frame of ``step``; sockets of one seat share it.
        ``clock_left``: the seconds on the turn clock of the decision it begins; ``by``: who
        made the move (``Events.by``); ``undo``: the seats that may take it back."""
        frames: dict[int | None, bytes] = {}
        for conn in list(self):
            frame = frames.get(conn.seat)
            if frame is None:
                frame = frames[conn.seat] = events_frame(
                    step.frame(conn.seat), clock_left, by, conn.seat in undo
                )
            conn.send_frame(frame)


def mover(by: str | None) -> p.Mover | None:
    """The log's ``by`` (human, bot, clock, takeover...) as ``Events.by`` says it.

    >>> mover("clock"), mover("takeover"), mover(None)
    ('clock', 'bot', None)
    """
    if by is None:
        return None
    if by == "human":
        return "human"
    if by == "clock":
        return "clock"
    return "bot"


def events_frame(
    frame: Frame, clock_left: float | None = None, by: str | None = None, undo: bool = False
) -> bytes:
    """A step's :class:`~gamenight.core.frames.Frame` as its ``events`` message, encoded
    straight from the structs (``msgspec.Raw`` pieces, no round trip through dicts)."""
    position = frame.position
    return p.encode(
        p.Events(
            seq=frame.seq,
            events=tuple(p.raw(e) for e in frame.events),
            view=p.raw(position.view),
            legal=p.raw_items(position.legal),
            to_act=position.to_act,
            finished=position.finished,
            results=None if position.results is None else p.raw(position.results),
            seat=frame.seat,
            action=None if frame.action is None else p.raw(frame.action),
            clock_left=clock_left,
            by=mover(by),
            undo=undo,
        )
    )


class ConnRoom(TimerRoom, OddsRoom, Protocol):
    """A room as its sockets see it (``room.Room``): joining takes a seat back from the
    bot that took it over and sends the room's odds."""

    @property
    def conns(self) -> Conns: ...
    @property
    def odds(self) -> OddsState: ...
    @property
    def clock(self) -> TurnClock: ...
    @property
    def remote(self) -> set[int]: ...
    @property
    def rematch_offer(self) -> p.RematchOut | None: ...
    def undo_seats(self) -> frozenset[int]: ...
    async def present(self, seat: int) -> None: ...
    async def absent(self, seat: int) -> None: ...


def snapshot(
    room: ConnRoom, seat: int | None, last_seq: int, chat: Sequence[Any] = ()
) -> p.Snapshot:
    """What a socket of ``seat`` gets first: the room, its position now (``table.position``)
    and the events since ``last_seq`` it may see."""
    table = room.table
    lines = tuple(p.ChatOut(name=c.name, text=c.text, at=c.at, seat=c.seat) for c in chat)
    if table is None:  # seq -1: nothing is dealt yet (the deal's events will be seq 0's)
        return p.Snapshot(
            protocol=p.PROTOCOL_VERSION, seat=seat, room=room.info(), seq=-1, chat=lines
        )
    position = table.position(seat)
    since = last_seq if -1 <= last_seq <= table.seq else -1
    return p.Snapshot(
        protocol=p.PROTOCOL_VERSION,
        seat=seat,
        room=room.info(),
        seq=position.seq,
        view=to_json(position.view),
        legal=tuple(to_json(a) for a in position.legal),
        to_act=position.to_act,
        finished=position.finished,
        results=None if position.results is None else to_json(position.results),
        events=tuple(
            p.StampedEvent(s.seq, to_json(s.event)) for s in table.events_since(seat, since)
        ),
        chat=lines,
        odds=room.odds.latest,
        clock_left=room.clock.left(room),
        rematch=room.rematch_offer,
        undo=seat is not None and seat in room.undo_seats(),
    )


async def join(room: ConnRoom, hello: p.Hello) -> Conn:
    """Register a socket after its Hello; raises RoomError (code, message) if refused."""
    if hello.protocol != p.PROTOCOL_VERSION:
        raise RoomError(
            400,
            "protocol_version",
            f"this server speaks protocol {p.PROTOCOL_VERSION}, not {hello.protocol}",
        )
    store = room.services.store
    if store.is_postgres:
        # Another process may have moved the room on (a seat that comes over from a
        # process that died): the snapshot holds at least every action acknowledged.
        # With the database down the snapshot is what this process knows.
        with contextlib.suppress(StorageUnavailableError):
            await room.catch_up_locked()
    seat: int | None = None
    if hello.token is not None:
        seat = room.seat_for_token(hello.token)
        if seat is None:
            raise RoomError(403, "bad_token", "that seat token is not valid for this room")
    elif not room.room_options.spectators:
        raise RoomError(403, "spectators_off", "this room does not allow spectators")
    # Every await comes first: a failure there (the database is down) leaves no
    # registration behind, and nothing can be sent to the socket before its snapshot.
    if seat is not None and room.status is Lifecycle.PLAYING:
        await store.set_away(room.id, seat, None)
    if seat is not None:
        await room.present(seat)
    chat = await store.chat_after(room.id, 0, limit=50)
    # From here to the snapshot nothing awaits: an action committed meanwhile (a
    # bot's) is either in the snapshot or in an events frame queued after it.
    conn = Conn(seat, room.services.config)
    if hello.token is not None:
        conn.token_hash = token_hash(hello.token)
    room.conns.add(conn)
    if seat is not None:
        room.away.back(room, seat)
    room.chat_seen = max([room.chat_seen, *(c.id for c in chat)])
    conn.send(snapshot(room, seat, hello.last_seq, chat))
    room.show()
    room.odds.want(room)  # a room just loaded from the database has none yet
    return conn


async def leave(room: ConnRoom, conn: Conn) -> None:
    conn.close()
    room.conns.discard(conn)
    seat = conn.seat
    if seat is not None and not room.conns.connected(seat):
        await room.absent(seat)
        if seat not in room.remote:  # connected on another process: not away
            room.away.away(room, seat, time.monotonic())
            if room.status is Lifecycle.PLAYING:
                with contextlib.suppress(Exception):
                    await room.services.store.set_away(room.id, seat, time.time())
    room.show()
