"""A live room, an active object (Colyseus's Room as the model): it owns its table, its
lock, its sockets, its seats, its lifecycle (:class:`Lifecycle`), its timers and its
message handlers (:meth:`Room.handle`); :meth:`Room.dispose` ends all of them.

The room composes collaborators, one concern each, that see it as a
:class:`~gamenight.server.live.LiveRoom`: its seats (:class:`Seating`), its course from
waiting to its end (:class:`Course`), the play on its table (:class:`Play`), its chat
(:class:`Chat`) and its catching up with other processes (:class:`Sync`), beside the
bots, odds, timers, sockets and presence. Every status change is :meth:`Room.become`,
the one guarded move (:func:`gamenight.server.lifecycle.transition`).

Player entropy (issue 24, ``docs/fairness.md``): the room commits to its seed when it is
created; each seated player's client then adds a contribution (in the claim or a
``contribute`` message). The game begins when every seat is claimed and every claimed
seat has contributed, or when the host starts it; a seat silent for ``contribute_wait``
once all are claimed gets the server's contribution (the record says so). The dice
seed is :func:`gamenight.core.seeds.dice_seed` of the seed and every seat's part.

Timers are the room's own (``loop.call_later``): a bot takes over a seat away for
``takeover_after``, the turn clock makes a bot act once after ``turn_clock``, an idle
room closes after ``idle_close``, a start that failed (database down) is retried
(:mod:`gamenight.server.timers`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING

import msgspec

from gamenight.core import registry, seeds
from gamenight.core.game import AnyGame
from gamenight.core.i18n import _
from gamenight.core.options import Options
from gamenight.core.record import Contribution
from gamenight.core.table import Table
from gamenight.server import conns, presence, rematch, undo
from gamenight.server import protocol as p
from gamenight.server.bots import BotRoom, BotSeats
from gamenight.server.chat import Chat
from gamenight.server.config import RoomOptions
from gamenight.server.conns import Conn, ConnRoom, Conns
from gamenight.server.course import Course
from gamenight.server.lifecycle import Lifecycle, transition
from gamenight.server.live import LiveRoom, SeatState, Services
from gamenight.server.odds import OddsRoom, OddsState
from gamenight.server.play import Play, refuse_play
from gamenight.server.roomface import RoomFace
from gamenight.server.roominfo import room_info
from gamenight.server.roomsync import Sync
from gamenight.server.seating import Seating
from gamenight.server.storage.rows import RoomRow
from gamenight.server.timers import (
    IdleClose,
    SeatTakeover,
    StartRetry,
    TimerRoom,
    Timers,
    TurnClock,
)
from gamenight.server.turnroom import TurnBased

__all__ = ["Room", "SeatState", "Services", "bound_rules", "committed_rules"]


def committed_rules(
    game: AnyGame,
    commitment: str,
    seed: int,
    game_id: str,
    options: Options,
    entropy: str,
) -> AnyGame:
    """The game whose rules ``commitment`` binds: the installed rules, or an older
    version the game still keeps (:meth:`Game.older_rules`), so that a room begun
    before a revision (Dice Duel's K4) rebuilds after an upgrade instead of breaking.
    Rules versions are counted down from the installed one; none matching: the
    installed rules (the replay then says what is wrong)."""
    return bound_rules(game, commitment, seed, game_id, options, entropy) or game


def bound_rules(
    game: AnyGame,
    commitment: str,
    seed: int,
    game_id: str,
    options: Options,
    entropy: str,
) -> AnyGame | None:
    """:func:`committed_rules`, or None when no installed rules version matches the
    commitment (a room begun under rules this server does not have: unavailable,
    ``server/loading.py``, not broken)."""
    version = game.info.rules_version
    candidates = [version]
    if version.isdigit():
        candidates += [str(n) for n in range(int(version) - 1, 0, -1)]
    for candidate in candidates:
        rules = game if candidate == version else game.older_rules(candidate)
        if rules is None:
            continue
        made = seeds.committed_scheme(
            commitment, seed, game_id, candidate, options, entropy=entropy
        )
        if made is not None:
            return rules
    return None


class Room:
    """One room of this process (see the module docstring)."""

    def __init__(self, row: RoomRow, services: Services, status: Lifecycle, note: str) -> None:
        self.id = row.id
        self.code = row.code
        self.entry: registry.GameEntry = registry.get(row.game)
        self.options: Options = row.options
        # the rules the commitment binds: a room begun before a revision of its game
        # rebuilds and finishes under the rules it began with (Game.older_rules)
        self.game: AnyGame = committed_rules(
            self.entry.game, row.commitment, row.seed, row.game, row.options, row.entropy
        )
        self.room_options = msgspec.convert(row.room_options, RoomOptions)
        self.public = row.public
        self._status = status  # changed only by become (the one guarded move)
        self.seed = row.seed
        self.commitment = row.commitment
        self.entropy = row.entropy
        self.host_token_hash = row.host_token_hash
        self.seats = [
            SeatState(
                s.seat,
                s.kind,
                s.bot,
                s.name,
                s.token_hash,
                s.contribution,
                s.contributed_by,
                s.account_id,
            )
            for s in row.seats
        ]
        self.note = note
        self.updated = row.updated_at  # wall clock of the last activity (idle close)
        self.services = services
        self.table: Table | None = None
        self.lock = asyncio.Lock()
        self.conns = Conns()
        self.remote: set[int] = set()  # seats with a socket on another process (presence.py)
        self.presence_read = 0  # the latest presence read taken (presence.take)
        self.bots = BotSeats()
        self.odds = OddsState()
        self.away = SeatTakeover()
        self.chat_seen = 0
        self.timers = Timers()
        self.clock = TurnClock()
        self.idle = IdleClose()
        self.start_retry = StartRetry()
        self.mover: str | None = None  # the log's ``by`` of the step being committed
        self.rematch_offer: p.RematchOut | None = None  # the latest rematch offered here
        self.last_by: str | None = None  # who made the table's last move (None: not known)
        # the collaborators, one concern each (they see this room as a LiveRoom)
        self.seating = Seating(self)
        self.course = Course(self)
        self.play = Play(self)
        self.chat = Chat(self)
        self.others = Sync(self)
        self.turns = TurnBased(self)  # a turn-based room's clock (issue 44)

    # ----- the lifecycle --------------------------------------------------------------------
    @property
    def status(self) -> Lifecycle:
        return self._status

    def become(self, to: Lifecycle) -> None:
        """The room moves to ``to``: the one place a status changes, guarded by
        :data:`~gamenight.server.lifecycle.TRANSITIONS` (IllegalTransitionError)."""
        self._status = transition(self._status, to)

    # ----- reading ------------------------------------------------------------------------
    @property
    def seq(self) -> int:
        return 0 if self.table is None else self.table.seq

    @property
    def takeover(self) -> set[int]:
        """Human seats a bot plays now: taken over while away, or freed by the host
        during play (a human seat without a token) until someone claims it."""
        freed = self.seating.freed()
        return self.away.seats | freed if freed else self.away.seats

    def info(self) -> p.RoomInfo:
        return room_info(self)

    def show(self) -> None:
        """Every socket gets the room as it is now."""
        self.conns.broadcast(p.RoomUpdate(room=self.info()))

    def default_bot(self) -> str:
        if self.room_options.takeover_bot:
            return self.room_options.takeover_bot
        names = [n for n in self.entry.bot_infos if n != "random"]
        return names[0] if names else "random"

    def labels(self) -> list[str]:
        return self.seating.labels()

    def seat_for_token(self, token: str) -> int | None:
        return self.seating.seat_for_token(token)

    def contributions(self) -> list[Contribution] | None:
        return self.seating.contributions()

    def seated(self) -> bool:
        return self.seating.seated()

    def ready(self) -> bool:
        return self.seating.ready()

    def dice_scheme(self) -> int:
        return self.play.dice_scheme()

    def record(self, movers: Sequence[str] | None = None) -> str:
        return self.play.record(movers)

    # ----- seats and the course ---------------------------------------------------------------
    async def claim(
        self,
        seat: int,
        name: str,
        contribution: str | None = None,
        account_id: int | None = None,
    ) -> str:
        return await self.seating.claim(seat, name, contribution, account_id)

    async def contribute(self, seat: int, contribution: str) -> None:
        await self.seating.contribute(seat, contribution)

    async def release(self, host_token: str, seat: int) -> None:
        await self.seating.release(host_token, seat)

    async def claim_freed(self, seat: int, name: str, account_id: int | None = None) -> str:
        return await self.seating.claim_freed(seat, name, account_id)

    async def resume(self, seat: int, account_id: int) -> str | None:
        return await self.seating.resume(seat, account_id)

    async def start_game(self, host_token: str) -> None:
        self.seating.check_host(host_token)
        await self.course.start_game()

    async def seated_changed(self) -> None:
        await self.course.seated_changed()

    def arm_contribution_wait(self) -> None:
        self.course.arm_contribution_wait()

    async def begin(self, bots: dict[int, str]) -> None:
        await self.course.begin(bots)

    def go_live(self, table: Table) -> None:
        self.course.go_live(table)

    async def close(self, note: str) -> None:
        await self.course.close(note)

    def end(self, status: Lifecycle, note: str) -> None:
        self.course.end(status, note)

    # ----- the table and play -------------------------------------------------------------
    def new_table(self, values: Sequence[str | None] | None = None) -> Table:
        return self.play.new_table(values)

    def install(self, table: Table) -> None:
        self.play.install(table)

    async def apply(
        self, seat: int, action: msgspec.Struct, expected_seq: int | None, by: str
    ) -> int:
        return await self.play.apply(seat, action, expected_seq, by)

    # ----- sockets ------------------------------------------------------------------------
    async def join(self, hello: p.Hello) -> Conn:
        return await conns.join(self, hello)

    async def leave(self, conn: Conn) -> None:
        await conns.leave(self, conn)

    async def present(self, seat: int) -> None:
        await presence.joined(self, seat)

    async def absent(self, seat: int) -> None:
        await presence.left(self, seat)

    async def handle(self, conn: Conn, message: p.ClientMessage) -> p.Message | None:
        """A message after the hello, by its type: each goes to its collaborator."""
        if conn.closed:  # told to go (its seat was freed...): nothing more is answered
            return None
        match message:
            case p.Act():
                return await self.play.on_act(conn, message)
            case p.HintRequest():
                return await self.play.on_hint(conn, message)
            case p.ChatIn():
                return await self.chat.on_chat(conn, message)
            case p.Ping():
                return p.Pong(id=message.id)
            case p.Contribute():
                return await self.seating.on_contribute(conn, message)
            case p.UndoIn():
                return await undo.on_undo(self, conn, message)
            case p.RematchIn():
                return await rematch.on_rematch(self, conn, message)
            case p.LateIn():
                return await self.turns.on_late(conn, message)
        return p.Error(code="bad_message", message=_("this socket has already said hello"))

    # ----- what undo.py and rematch.py see of the room (issue 40) -------------------------
    def refuse_play(self, request: int | None) -> p.Error | None:
        return refuse_play(self.status, request)

    def turn_begins(self) -> None:
        self.play.turn_begins()
        if self.turns.on:  # a move taken back: the turns rows follow the table
            self.timers.spawn(self.turns.undone())

    def undo_seats(self) -> frozenset[int]:
        return undo.undo_seats(self.table, self.last_by)

    def seat_token(self, seat: int) -> str | None:
        return self.seats[seat].token_hash

    def seat_name(self, seat: int) -> str:
        return self.labels()[seat]

    def payload(self, kind: str) -> str:
        return self.services.payload(self.code, kind)

    # ----- other processes ----------------------------------------------------------------
    async def sync(self, actions_only: bool = False) -> None:
        await self.others.sync(actions_only)
        if self.turns.on:  # another process moved or swept the clock
            await self.turns.refresh()

    async def catch_up_locked(self) -> None:
        async with self.lock:
            await self.others.catch_up()

    async def catch_up(self) -> None:
        await self.others.catch_up()

    async def catch_up_actions(self) -> None:
        await self.others.catch_up_actions()

    def is_catching_up(self) -> bool:
        """Whether an action or a catch-up holds the room now (follow.py waits for it)."""
        return self.lock.locked()

    def after_followed(self) -> None:
        """Another process's action was applied here from its notification (follow.py)."""
        self.bots.kick(self)

    async def chat_sync(self) -> None:
        await self.chat.sync()

    async def changed(self) -> None:
        await self.others.changed()

    async def tell_others(self, kind: str) -> None:
        await self.others.tell_others(kind)

    # ----- timers -------------------------------------------------------------------------
    def open(self) -> None:
        """The room is held by this process: its idle timer runs."""
        if not self.status.is_over and not self.turn_based_play():
            self.idle.arm(self)
        if self.seated():  # every seat claimed before a restart, some still silent
            self.arm_contribution_wait()

    def turn_based_play(self) -> bool:
        """A turn-based room being played: no idle close, no timer (its clock is the
        database's, the hub's sweep runs it) and let go of with no socket open."""
        return self.turns.on and self.status is Lifecycle.PLAYING

    def dispose(self) -> None:
        """The process stops: every timer, task and socket of the room ends."""
        self.timers.dispose()
        self.bots.cancel()
        self.odds.cancel()
        for conn in list(self.conns):
            conn.close()
        self.play.unlisten()

    def seen_update(self, updated: float) -> None:
        """Another process's activity in the room (``rooms.updated_at``)."""
        self.updated = max(self.updated, updated)


if TYPE_CHECKING:  # mypy checks that a Room is what each of its pieces sees of it

    def _faces(
        room: Room,
    ) -> tuple[RoomFace, BotRoom, OddsRoom, TimerRoom, ConnRoom, LiveRoom]:
        return room, room, room, room, room, room
