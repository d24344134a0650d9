"""A room's play: its table and the table's one listener, the actions of seats and bots
(``act``), hints (``hint``) and the finished game's record.

An action goes: validate (``Table.prepare``) -> append its log row and commit ->
``Table.commit`` -> the table's one listener (:meth:`Play.on_step`) sends every socket
its seat's frame and lets the bots observe -> ``Ack`` to the sender. A crash before the
commit loses an action nobody was told about; after it, a restart replays it. The
database serialises actions across processes (``Store.append_action``), the room's
lock within this one.
"""

from __future__ import annotations

import inspect
import io
import logging
import time
from collections.abc import Callable, Sequence
from typing import TypeGuard

import msgspec

from gamenight.core import seeds
from gamenight.core.advice import Advice
from gamenight.core.dice import DICE_SCHEME, SeededDice
from gamenight.core.errors import (
    IllegalActionError,
    StaleActionError,
    StorageUnavailableError,
)
from gamenight.core.frames import Step
from gamenight.core.game import to_json
from gamenight.core.i18n import _, said
from gamenight.core.record import RecordSeat, RecordWriter, write_moves
from gamenight.core.registry import Advisor
from gamenight.core.table import Table
from gamenight.server import presence
from gamenight.server import protocol as p
from gamenight.server.accounts import rated as accounts_rated
from gamenight.server.accounts.store import AccountStore
from gamenight.server.conns import Conn
from gamenight.server.faults import RoomError, client_lines, refused, unavailable
from gamenight.server.lifecycle import Lifecycle
from gamenight.server.live import LiveRoom, held_weakly
from gamenight.server.resend import applied_as
from gamenight.server.storage.rows import Behind

log = logging.getLogger("gamenight.server")

# An advisor whose result names a target by name takes the seats' names too.
NamedAdvisor = Callable[[msgspec.Struct, int, list[msgspec.Struct], list[str]], Advice | None]


class Play:
    """The table of ``room`` and what is played on it."""

    def __init__(self, room: LiveRoom) -> None:
        self.room = held_weakly(room)
        self._unlisten: Callable[[], None] | None = None

    # ----- the table ----------------------------------------------------------------------
    def dice_scheme(self) -> int:
        """The dice scheme the room's commitment binds: a room created before dice
        scheme 2 goes on (and replays) with the dice it began with."""
        room = self.room
        scheme = seeds.committed_scheme(
            room.commitment, room.seed, room.entry.id, room.game.info.rules_version,
            room.options, entropy=room.entropy,
        )  # fmt: skip
        return scheme if scheme is not None else DICE_SCHEME

    def new_table(self, values: Sequence[str | None] | None = None) -> Table:
        """The room's table at its start. A room with player entropy takes its dice seed
        from ``values`` (one part per seat, None for a bot), the seats' own by default."""
        room = self.room
        game = room.game
        options = game.parse_options(room.options)
        game.check_setup(len(room.seats), options)  # a bad setup says so before the dice
        if room.entropy == seeds.SERVER:
            seed = room.seed
        else:
            if values is None:
                values = [c.value for c in room.contributions() or ()]
            seed = seeds.dice_seed(room.seed, values)
        dice = SeededDice(seed=seed, scheme=self.dice_scheme())
        return Table.start(game, len(room.seats), options, dice)

    def install(self, table: Table) -> None:
        """``table`` is the room's: its one listener serves every socket and bot."""
        self.room.table = table
        self._unlisten = table.listen(self.on_step)
        self.turn_begins()

    def on_step(self, step: Step) -> None:
        """Every step (played here, caught up with, or replayed at a rebuild, when no
        socket is there yet): the bots observe the events their seat may see, every socket
        gets its seat's frame (``Step.frame``, the one redaction)."""
        room = self.room
        room.updated = time.time()
        room.bots.observe(step)
        clock = room.room_options.turn_clock
        left = None if step.finished or clock is None else float(clock)
        room.last_by = room.mover
        room.conns.send_step(step, left, room.mover, room.undo_seats())
        room.turns.stepped()  # a turn-based room reads its clock again, then shows it
        if step.finished:
            if room.status is Lifecycle.PLAYING:  # (a finished room replayed: it is)
                room.become(Lifecycle.FINISHED)
            room.away.seats.clear()
            room.timers.cancel_all()
            room.show()
            accounts_rated.on_finished(room, AccountStore(room.services.store.engine))
        else:
            self.turn_begins()
        room.odds.want(room)

    def turn_begins(self) -> None:
        """A new decision: an away seat to act is taken over; the turn clock runs."""
        self.room.away.check(self.room)
        self.room.clock.begin(self.room)

    def unlisten(self) -> None:
        """The table's listener is the room: no cycle left (the server freezes survivors:
        heap.py; a cycle would stay)."""
        if self._unlisten is not None:
            self._unlisten()
            self._unlisten = None

    # ----- actions ------------------------------------------------------------------------
    async def on_act(self, conn: Conn, message: p.Act) -> p.Message:
        """A seat's action: Ack after the commit, or Error (nothing changed)."""
        room = self.room
        seat = conn.seat
        if seat is None:
            return p.Error(code="not_seated", message=_("spectators cannot act"), id=message.id)
        if conn.token_hash != room.seats[seat].token_hash:  # freed since it joined
            presence.revoke(room, seat)
            return p.Error(code="bad_token", message=_("the host freed your seat"), id=message.id)
        refusal = refuse_play(room.status, message.id)
        if refusal is not None:
            return refusal
        try:
            action = room.game.decode_action(message.action)
        except IllegalActionError as exc:  # the rules' reason, in this socket's language
            return p.Error(code="illegal", message=said(exc), id=message.id)
        try:
            seq = await room.apply(seat, action, message.expected_seq, "human")
        except StaleActionError as exc:
            # a re-send of an action already applied (its socket was lost): its ack
            done = (
                None
                if room.table is None
                else applied_as(room.table, seat, action, message.expected_seq)
            )
            if done is not None:
                return p.Ack(seq=done, id=message.id)
            return p.Error(code="stale", message=said(exc), id=message.id)
        except IllegalActionError as exc:
            return p.Error(code="illegal", message=said(exc), id=message.id)
        except RoomError as exc:
            return p.Error(code=exc.code, message=exc.message, id=message.id)  # type: ignore[arg-type]  # a RoomError's code is one of p.Error's
        except StorageUnavailableError as exc:
            refused(f"an act in room {room.code}", exc)
            return unavailable(exc, message.id)
        return p.Ack(seq=seq, id=message.id)

    async def apply(
        self, seat: int, action: msgspec.Struct, expected_seq: int | None, by: str
    ) -> int:
        """Validate, log (committed), apply and broadcast one action; returns its seq."""
        room = self.room
        async with room.lock:
            for _attempt in range(5):
                table = room.table
                if table is None or not room.status.accepts_actions:
                    raise RoomError(409, "finished", _("the game is not being played"))
                step = table.prepare(seat, action, expected_seq)
                results = step.results()
                try:
                    await room.services.store.append_action(
                        room.id,
                        step.seq,
                        seat,
                        p.raw(action),
                        by,
                        finished_results=None if results is None else to_json(results),
                        notify=room.services.payload(room.code, "act"),
                        at=room.services.clock(),
                        to_act=room.turns.to_act(step),  # None in a live room: no turns rows
                        move_time=float(room.room_options.move_time or 0),
                    )
                except Behind:  # another process moved the room on (or closed it)
                    await room.catch_up_actions()
                    if table.seq == step.seq - 1:  # no action came: its status did
                        await room.catch_up()
                    continue
                room.mover = by  # the listener says who moved (Events.by)
                try:
                    table.commit(step)  # the listener tells every socket and bot
                finally:
                    room.mover = None
                break
            else:
                raise RoomError(503, "internal", _("the room is too busy; try again"))
        room.bots.kick(room)
        return step.seq

    async def on_hint(self, conn: Conn, message: p.HintRequest) -> p.Message:
        room = self.room
        if not room.room_options.hints:
            return p.Error(code="hints_off", message=_("this room gives no hints"), id=message.id)
        if conn.seat is None:
            return p.Error(code="not_seated", message=_("spectators get no hints"), id=message.id)
        refusal = refuse_play(room.status, message.id)
        if refusal is not None or room.table is None:
            return refusal or p.Error(code="not_started", message=_("not begun"), id=message.id)
        position = room.table.position(conn.seat)
        if not position.legal:
            return p.Error(code="no_advice", message=_("it is not your turn"), id=message.id)
        pool = room.services.bots
        advise = pool.advisor(room.entry)
        if advise is None:
            return p.Error(code="no_advice", message=_("this game gives no hints"), id=message.id)
        legal = list(position.legal)
        try:
            if takes_names(advise):  # the advice words whose result a target is by name
                advice = await pool.run(advise, position.view, conn.seat, legal, room.labels())
            else:
                advice = await pool.run(advise, position.view, conn.seat, legal)
        except Exception as exc:  # an advisor that cannot advise here (a missing table...)
            if client_lines.allow():  # a client may ask again and again
                log.info("advisor failed: %s", exc)
            return p.Error(code="no_advice", message=said(exc), id=message.id)
        if advice is None:
            return p.Error(
                code="no_advice", message=_("no advice for this decision"), id=message.id
            )
        return p.AdviceOut(seq=position.seq, advice=to_json(advice), id=message.id)

    # ----- the record ---------------------------------------------------------------------
    def record(self, movers: Sequence[str] | None = None) -> str:
        """The finished game as a JSONL record (``gamenight replay`` verifies it).
        ``movers``: the log's ``by`` of every action; a move a bot made for a player
        (the clock ran out, or the player was away) says so in its line's ``"by"``."""
        room = self.room
        table = room.table
        if room.status is Lifecycle.BROKEN:
            raise RoomError(409, "broken", _("this room cannot continue and has no record"))
        if room.status is not Lifecycle.FINISHED or table is None:
            raise RoomError(409, "not_finished", _("the record is offered when the game is over"))
        seats = [
            RecordSeat(label, f"bot:{s.bot}" if s.kind == "bot" else "human")
            for s, label in zip(room.seats, room.labels(), strict=True)
        ]
        game = room.game
        out = io.StringIO()
        write_moves(  # the game is over: the seed goes in the header
            RecordWriter(out),
            game,
            game.parse_options(room.options),
            room.seed,
            seats,
            table.moves(),
            seed_in_header=True,
            dice_scheme=self.dice_scheme(),
            contributions=room.contributions(),
            entropy=room.entropy,
            movers=None if movers is None else [_FOR_SOMEONE.get(by) for by in movers],
        )
        return out.getvalue()


# the log's ``by`` of a move a bot made for a human seat, as the record says it
_FOR_SOMEONE = {"clock": "clock", "takeover": "takeover"}


def refuse_play(status: Lifecycle, request: int | None) -> p.Error | None:
    """Why a room in ``status`` takes no action or hint now, or None (it is played)."""
    if status is Lifecycle.WAITING:
        return p.Error(code="not_started", message=_("the game has not begun"), id=request)
    if status is Lifecycle.FINISHED:
        return p.Error(code="finished", message=_("the game is over"), id=request)
    if status is Lifecycle.CLOSED:
        return p.Error(code="closed", message=_("the room is closed"), id=request)
    if status is Lifecycle.BROKEN:
        return p.Error(code="closed", message=_("this room cannot continue"), id=request)
    return None


def takes_names(fn: Advisor) -> TypeGuard[NamedAdvisor]:
    """Whether a game's ``advise`` takes the seats' names (a fourth argument ``names``)."""
    try:
        return "names" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
