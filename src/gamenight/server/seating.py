"""A room's seats: claims and their names, the players' parts of the dice seed, the
host freeing a seat (before the game, or during play a seat whose player is away) and
a freed seat claimed again. Each change is the database's first (``Store``), then the
room's, then every socket's (``LiveRoom.changed``).
"""

from __future__ import annotations

import secrets
import time

from gamenight.core import seeds
from gamenight.core.errors import StorageUnavailableError
from gamenight.core.i18n import _
from gamenight.core.record import Contribution
from gamenight.core.text import TextError, check_text
from gamenight.server import presence
from gamenight.server import protocol as p
from gamenight.server.conns import Conn
from gamenight.server.faults import RoomError, refused, unavailable
from gamenight.server.lifecycle import Lifecycle
from gamenight.server.live import LiveRoom, SeatState, held_weakly
from gamenight.server.tokens import new_token, token_hash


class Seating:
    """The seats of ``room`` (``room.seats``) and every change to them."""

    def __init__(self, room: LiveRoom) -> None:
        self.room = held_weakly(room)

    # ----- reading ------------------------------------------------------------------------
    def freed(self) -> set[int]:
        """Human seats the host freed during play (no token): a bot plays them."""
        room = self.room
        if room.status is not Lifecycle.PLAYING:
            return set()
        return {s.seat for s in room.seats if s.kind == "human" and s.token_hash is None}

    def labels(self) -> list[str]:
        """Every seat's label as the browser shows it: the name, "Bot greedy", "Seat 2"."""
        return [
            s.name or (f"Bot {s.bot}" if s.kind == "bot" else f"Seat {s.seat + 1}")
            for s in self.room.seats
        ]

    def seat_for_token(self, token: str) -> int | None:
        hashed = token_hash(token)
        for s in self.room.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, hashed):
                return s.seat
        return None

    def contributions(self) -> list[Contribution] | None:
        """Every seat's part of the dice seed (a room with player entropy, begun), or None."""
        if self.room.entropy == seeds.SERVER:
            return None
        return [s.part() for s in self.room.seats]

    def seated(self) -> bool:
        """Every seat of a waiting room is claimed (or a bot)."""
        room = self.room
        return room.status is Lifecycle.WAITING and all(
            s.kind == "bot" or s.token_hash for s in room.seats
        )

    def ready(self) -> bool:
        """Every seat is claimed (or a bot) and every claimed seat has added its part of
        the dice seed: the game begins."""
        return self.seated() and (
            self.room.entropy == seeds.SERVER
            or all(s.kind == "bot" or s.contribution is not None for s in self.room.seats)
        )

    def check_host(self, host_token: str) -> None:
        if not secrets.compare_digest(token_hash(host_token), self.room.host_token_hash):
            raise RoomError(403, "not_host", _("only the host may do that"))

    def human_seat(self, seat: int) -> SeatState:
        """Human seat ``seat`` of the room, or 404."""
        seats = self.room.seats
        if not 0 <= seat < len(seats) or seats[seat].kind != "human":
            raise RoomError(
                404, "no_seat", _("seat {seat} is not a human seat of this room").format(seat=seat)
            )
        return seats[seat]

    # ----- changes ------------------------------------------------------------------------
    async def claim(
        self,
        seat: int,
        name: str,
        contribution: str | None = None,
        account_id: int | None = None,
    ) -> str:
        """Claim human seat ``seat`` of a waiting room with a display name and, best, the
        player's contribution to the dice seed, for account ``account_id`` (None: a
        guest); the seat token."""
        room = self.room
        clean = _checked_name(name)
        part = None if contribution is None else _checked_part(contribution)
        if room.entropy == seeds.SERVER:
            part = None  # a room from before player entropy: its dice are the seed's
        here = self.human_seat(seat)
        token = new_token()
        hashed = token_hash(token)
        store = room.services.store
        if not await store.claim_seat(room.id, seat, clean, hashed, part, account_id):
            raise RoomError(409, "seat_taken", _("that seat is taken or the game has begun"))
        here.name, here.token_hash, here.account_id = clean, hashed, account_id
        here.contribution, here.contributed_by = part, None if part is None else "player"
        room.updated = time.time()
        await room.changed()
        await room.seated_changed()
        return token

    async def contribute(self, seat: int, contribution: str) -> None:
        """The player of ``seat`` adds their part of the dice seed (once, before the start)."""
        room = self.room
        part = _checked_part(contribution)
        if room.entropy == seeds.SERVER:
            raise RoomError(409, "bad_contribution", _("this room's dice take no contributions"))
        here = room.seats[seat]
        if room.status is not Lifecycle.WAITING:
            raise RoomError(409, "bad_contribution", _("the game has begun: its dice are fixed"))
        if here.contribution is not None:
            raise RoomError(409, "bad_contribution", _("this seat has already contributed"))
        assert here.token_hash is not None  # the socket's token is this seat's
        if not await room.services.store.contribute(room.id, seat, here.token_hash, part):
            await room.catch_up_locked()
            raise RoomError(409, "bad_contribution", _("too late: this seat's part is fixed"))
        here.contribution, here.contributed_by = part, "player"
        room.updated = time.time()
        await room.changed()
        await room.seated_changed()

    async def on_contribute(self, conn: Conn, message: p.Contribute) -> p.Message:
        room = self.room
        if conn.seat is None:
            return p.Error(
                code="not_seated", message=_("spectators do not contribute"), id=message.id
            )
        try:
            await self.contribute(conn.seat, message.value)
        except RoomError as exc:
            return p.Error(code="bad_contribution", message=exc.message, id=message.id)
        except StorageUnavailableError as exc:
            refused(f"a contribution in room {room.code}", exc)
            return unavailable(exc, message.id)
        return p.Ack(seq=room.seq, id=message.id)

    async def release(self, host_token: str, seat: int) -> None:
        """The host frees a claimed seat: before the game, or during play a seat whose
        player is away (:meth:`free_in_play`)."""
        room = self.room
        self.check_host(host_token)
        if room.status is Lifecycle.PLAYING:
            await self.free_in_play(seat)
            return
        if not await room.services.store.release_seat(room.id, seat):
            raise RoomError(409, "not_waiting", _("seats can be freed only before the game begins"))
        here = room.seats[seat]
        here.name = ""
        here.token_hash = here.account_id = None
        here.contribution = here.contributed_by = None
        room.timers.cancel("contribute")
        presence.revoke(room, seat)  # its sockets here; the others' on their NOTIFY
        await room.changed()

    async def free_in_play(self, seat: int) -> None:
        """During play, the host frees human seat ``seat`` whose player is away: its token
        stops working, a bot plays it (``takeover``) until someone claims it
        (:meth:`claim_freed`)."""
        room = self.room
        here = self.human_seat(seat)
        if room.conns.connected(seat) or await presence.connected_elsewhere(room, seat):
            raise RoomError(409, "seat_connected", _("the player of that seat is still here"))
        if not await room.services.store.free_seat_in_play(room.id, seat, presence.fresh()):
            if await presence.connected_elsewhere(room, seat):  # came in meanwhile
                raise RoomError(409, "seat_connected", _("the player of that seat is still here"))
            raise RoomError(
                409, "not_claimed", _("that seat is not claimed in a game being played")
            )
        here.name = ""
        here.token_hash = here.account_id = None
        room.updated = time.time()
        await room.changed()
        room.bots.kick(room)

    async def resume(self, seat: int, account_id: int) -> str | None:
        """A fresh token for seat ``seat`` of an open room, which account ``account_id``
        holds (issue 43: a seat comes back on another device); the old token stops
        working and its sockets are closed. None if the account holds no such seat."""
        room = self.room
        seats = room.seats
        if room.status not in (Lifecycle.WAITING, Lifecycle.PLAYING):
            return None
        if not 0 <= seat < len(seats) or seats[seat].kind != "human":
            return None
        token = new_token()
        hashed = token_hash(token)
        store = room.services.store
        if not await store.resume_seat(room.id, seat, room.status, account_id, hashed):
            return None
        seats[seat].token_hash = hashed
        presence.revoke(room, seat, elsewhere=True)  # here; the others' when told
        room.updated = time.time()
        await room.changed()
        return token

    async def claim_freed(self, seat: int, name: str, account_id: int | None = None) -> str:
        """Claim a human seat the host freed during play, for account ``account_id``
        (None: a guest); the seat token. The bot that played it stops."""
        room = self.room
        clean = _checked_name(name)
        here = self.human_seat(seat)
        token = new_token()
        hashed = token_hash(token)
        store = room.services.store
        if not await store.claim_freed_seat(room.id, seat, clean, hashed, account_id):
            raise RoomError(409, "seat_taken", _("that seat is taken"))
        here.name, here.token_hash, here.account_id = clean, hashed, account_id
        room.updated = time.time()
        if seat not in room.away.seats:
            room.bots.forget(seat)
        # away from now until its socket joins (a takeover counts from the claim)
        room.away.away(room, seat, time.monotonic())
        await room.changed()
        return token


def _checked_name(name: str) -> str:
    """A player's display name as the room stores it (``check_text``), or 400."""
    try:
        return check_text(name, what="a name", limit=p.MAX_NAME_CHARS)
    except TextError as exc:
        raise RoomError(400, "bad_name", str(exc)) from None


def _checked_part(value: str) -> str:
    """A contribution as the room stores it (``seeds.check_contribution``), or 400."""
    try:
        return seeds.check_contribution(value)
    except ValueError as exc:
        raise RoomError(400, "bad_contribution", str(exc)) from None
