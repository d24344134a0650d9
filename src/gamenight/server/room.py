"""A live room, an active object (Colyseus's Room as the model): it owns its table, its
lock, its sockets, its seats, its lifecycle (:class:`Lifecycle`), its timers and its
message handlers (:data:`HANDLERS`); :meth:`Room.dispose` ends all of them.

An action goes: validate (``Table.prepare``) -> append its log row and commit ->
``Table.commit`` -> the table's one listener (:meth:`Room._on_step`) sends every
socket its seat's frame and lets the bots observe -> ``Ack`` to the sender. A crash
before the commit loses an action nobody was told about; after it, a restart replays
it. The database serialises actions across processes (:meth:`Store.append_action`),
the room's lock within this one.

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
import inspect
import io
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import msgspec

from gamenight.core import registry, seeds
from gamenight.core.dice import DICE_SCHEME, SeededDice
from gamenight.core.errors import (
    GamenightError,
    IllegalActionError,
    StaleActionError,
    StorageUnavailableError,
    first_line,
)
from gamenight.core.frames import Step
from gamenight.core.game import AnyGame, to_json
from gamenight.core.i18n import _, said
from gamenight.core.record import Contribution, RecordSeat, RecordWriter, write_moves
from gamenight.core.table import Table
from gamenight.core.text import TextError, check_text
from gamenight.server import conns, presence
from gamenight.server import protocol as p
from gamenight.server.accounts import rated as accounts_rated
from gamenight.server.accounts.store import AccountStore
from gamenight.server.bots import BotPool, BotRoom, BotSeats
from gamenight.server.config import Config, RoomOptions
from gamenight.server.conns import Conn, ConnRoom, Conns
from gamenight.server.db import Behind, RoomRow, Store, new_token, token_hash
from gamenight.server.faults import RoomError, client_lines, failed, refused, unavailable
from gamenight.server.lifecycle import Lifecycle
from gamenight.server.odds import OddsRoom, OddsState
from gamenight.server.roomface import RoomFace
from gamenight.server.timers import (
    IdleClose,
    SeatTakeover,
    StartRetry,
    TimerRoom,
    Timers,
    TurnClock,
)

log = logging.getLogger("gamenight.server")


@dataclass
class SeatState:
    seat: int
    kind: str  # human | bot
    bot: str
    name: str
    token_hash: str | None
    contribution: str | None = None  # the seat's part of the dice seed, secret until the end
    contributed_by: str | None = None  # "player" | "server"

    def part(self) -> Contribution:
        """This seat's entry of the record's ``contributions``."""
        if self.kind == "bot":
            return Contribution(self.seat, "bot", None)
        if self.contribution is None or self.contributed_by is None:  # a damaged database
            raise GamenightError(f"seat {self.seat + 1} has no part of the dice seed")
        return Contribution(self.seat, self.contributed_by, self.contribution)


@dataclass
class Services:
    """What every room of this process shares."""

    store: Store
    config: Config
    bots: BotPool
    tag: str  # this process's tag in NOTIFY payloads

    def payload(self, code: str, kind: str) -> str:
        return f"{self.tag} {code} {kind}"


async def mark_broken(store: Store, room_id: int, code: str, status: str, exc: Exception) -> str:
    """Log why room ``code`` cannot go on (once) and mark it broken in the database;
    the note that says so."""
    if isinstance(exc, GamenightError):
        reason = first_line(exc)
        log.error("room %s cannot be rebuilt: %s", code, reason)
    else:
        reason = "the server could not rebuild it"
        log.exception("room %s cannot be rebuilt", code)
    note = f"This room cannot continue: {reason}."
    if status != Lifecycle.BROKEN:
        try:
            await store.set_status(room_id, Lifecycle.BROKEN, note)
        except Exception as failure:  # the database: the room stays broken in memory
            log.error("room %s: marking it broken failed: %s", code, first_line(failure))
    return note


def committed_rules(
    game: AnyGame,
    commitment: str,
    seed: int,
    game_id: str,
    options: dict[str, Any],
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
    options: dict[str, Any],
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
        self.options: dict[str, Any] = row.options
        # the rules the commitment binds: a room begun before a revision of its game
        # rebuilds and finishes under the rules it began with (Game.older_rules)
        self.game: AnyGame = committed_rules(
            self.entry.game, row.commitment, row.seed, row.game, row.options, row.entropy
        )
        self.room_options = msgspec.convert(row.room_options, RoomOptions)
        self.public = row.public
        self.status = status
        self.seed = row.seed
        self.commitment = row.commitment
        self.entropy = row.entropy
        self.host_token_hash = row.host_token_hash
        self.seats = [
            SeatState(s.seat, s.kind, s.bot, s.name, s.token_hash, s.contribution, s.contributed_by)
            for s in row.seats
        ]
        self.note = note
        self.updated = row.updated_at  # wall clock of the last activity (idle close)
        self.services = services
        self.table: Table | None = None
        self._unlisten: Callable[[], None] | None = None
        self.lock = asyncio.Lock()
        self.conns = Conns()
        self.remote: set[int] = set()  # seats with a socket on another process (presence.py)
        self.bots = BotSeats()
        self.odds = OddsState()
        self.away = SeatTakeover()
        self.chat_seen = 0
        self.timers = Timers()
        self.clock = TurnClock()
        self.idle = IdleClose()
        self.start_retry = StartRetry()

    # ----- reading ------------------------------------------------------------------------
    @property
    def seq(self) -> int:
        return 0 if self.table is None else self.table.seq

    @property
    def takeover(self) -> set[int]:
        """Human seats a bot plays now: taken over while away, or freed by the host
        during play (a human seat without a token) until someone claims it."""
        freed = self.freed()
        return self.away.seats | freed if freed else self.away.seats

    def freed(self) -> set[int]:
        """Human seats the host freed during play (no token): a bot plays them."""
        if self.status is not Lifecycle.PLAYING:
            return set()
        return {s.seat for s in self.seats if s.kind == "human" and s.token_hash is None}

    def info(self) -> p.RoomInfo:
        table = self.table
        results = table.results() if table is not None and table.finished else None
        bots = self.bots
        return p.RoomInfo(
            code=self.code,
            game=self.entry.id,
            rules_version=self.game.info.rules_version,
            options=self.options,
            room_options=msgspec.to_builtins(self.room_options),
            public=self.public,
            status=self.status.value,
            seats=tuple(
                p.SeatInfo(
                    seat=s.seat,
                    kind=s.kind,  # type: ignore[arg-type]
                    bot=s.bot,
                    name=s.name,
                    claimed=s.kind == "bot" or s.token_hash is not None,
                    connected=s.kind == "bot"
                    or self.conns.connected(s.seat)
                    or s.seat in self.remote,
                    takeover=s.seat in self.takeover,
                    stand_in=bots.stand_in(s.seat)
                    if s.kind == "bot" or s.seat in self.takeover
                    else "",
                    contributed=s.contribution is not None,
                )
                for s in self.seats
            ),
            commitment=self.commitment,
            entropy=self.entropy,
            seed=str(self.seed) if self.status is Lifecycle.FINISHED else None,
            contributions=None
            if self.status is not Lifecycle.FINISHED or self.entropy == seeds.SERVER
            else tuple(
                p.ContributionInfo(seat=c.seat, by=c.by, value=c.value)  # type: ignore[arg-type]
                for c in self.contributions() or ()
            ),
            seq=self.seq,
            results=None if results is None else to_json(results),
            notes=tuple(bots.notes + [n for n in (bots.build_note, self.note) if n]),
            spectators=self.conns.spectators(),
        )

    def labels(self) -> list[str]:
        """Every seat's label as the browser shows it: the name, "Bot greedy", "Seat 2"."""
        return [
            s.name or (f"Bot {s.bot}" if s.kind == "bot" else f"Seat {s.seat + 1}")
            for s in self.seats
        ]

    def show(self) -> None:
        """Every socket gets the room as it is now."""
        self.conns.broadcast(p.RoomUpdate(room=self.info()))

    def default_bot(self) -> str:
        if self.room_options.takeover_bot:
            return self.room_options.takeover_bot
        names = [n for n in self.entry.bot_infos if n != "random"]
        return names[0] if names else "random"

    def seat_for_token(self, token: str) -> int | None:
        hashed = token_hash(token)
        for s in self.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, hashed):
                return s.seat
        return None

    def dice_scheme(self) -> int:
        """The dice scheme the room's commitment binds: a room created before dice
        scheme 2 goes on (and replays) with the dice it began with."""
        game = self.game
        scheme = seeds.committed_scheme(
            self.commitment, self.seed, self.entry.id, game.info.rules_version, self.options,
            entropy=self.entropy,
        )  # fmt: skip
        return scheme if scheme is not None else DICE_SCHEME

    def contributions(self) -> list[Contribution] | None:
        """Every seat's part of the dice seed (a room with player entropy, begun), or None."""
        if self.entropy == seeds.SERVER:
            return None
        return [s.part() for s in self.seats]

    # ----- the table ----------------------------------------------------------------------
    def new_table(self, values: Sequence[str | None] | None = None) -> Table:
        """The room's table at its start. A room with player entropy takes its dice seed
        from ``values`` (one part per seat, None for a bot), the seats' own by default."""
        game = self.game
        options = game.parse_options(self.options)
        game.check_setup(len(self.seats), options)  # a bad setup says so before the dice
        if self.entropy == seeds.SERVER:
            seed = self.seed
        else:
            if values is None:
                values = [c.value for c in self.contributions() or ()]
            seed = seeds.dice_seed(self.seed, values)
        dice = SeededDice(seed=seed, scheme=self.dice_scheme())
        return Table.start(game, len(self.seats), options, dice)

    def install(self, table: Table) -> None:
        """``table`` is the room's: its one listener serves every socket and bot."""
        self.table = table
        self._unlisten = table.listen(self._on_step)
        self._turn_begins()

    def _on_step(self, step: Step) -> None:
        """Every step (played here, caught up with, or replayed at a rebuild, when no
        socket is there yet): the bots observe the events their seat may see, every socket
        gets its seat's frame (``Step.frame``, the one redaction)."""
        self.updated = time.time()
        self.bots.observe(step)
        clock = self.room_options.turn_clock
        self.conns.send_step(step, None if step.finished or clock is None else float(clock))
        if step.finished:
            self.status = Lifecycle.FINISHED
            self.away.seats.clear()
            self.timers.cancel_all()
            self.show()
            accounts_rated.on_finished(self, AccountStore(self.services.store.engine))
        else:
            self._turn_begins()
        self.odds.want(self)

    # ----- seats and the start ------------------------------------------------------------
    def seated(self) -> bool:
        """Every seat of a waiting room is claimed (or a bot)."""
        return self.status is Lifecycle.WAITING and all(
            s.kind == "bot" or s.token_hash for s in self.seats
        )

    def ready(self) -> bool:
        """Every seat is claimed (or a bot) and every claimed seat has added its part of
        the dice seed: the game begins."""
        return self.seated() and (
            self.entropy == seeds.SERVER
            or all(s.kind == "bot" or s.contribution is not None for s in self.seats)
        )

    async def _seated_changed(self) -> None:
        """A seat was claimed or contributed: begin if ready, else (every seat claimed,
        some still silent) the server contributes for them after ``contribute_wait``."""
        if self.ready():
            await self._begin_or_retry()
        elif self.seated():
            self.arm_contribution_wait()

    async def _begin_or_retry(self) -> None:
        """Begin; while the database is down the start is tried again later (what led
        here, a claim or a contribution, is committed and stands)."""
        try:
            await self.begin({})
        except StorageUnavailableError as exc:
            log.warning("room %s not begun yet: %s", self.code, exc)
            self.start_retry.failed(self)

    def arm_contribution_wait(self) -> None:
        """Every seat is claimed but some have not contributed: begin without them (the
        server contributes for them) after ``contribute_wait`` seconds."""
        if not self.seated():
            return

        def due() -> None:
            if self.seated():
                self.timers.spawn(self._begin_after_wait())

        self.timers.arm("contribute", self.services.config.contribute_wait, due)

    async def _begin_after_wait(self) -> None:
        try:
            await self._begin_or_retry()
        except GamenightError as exc:  # a timer has no one to answer: the log says it
            log.error("room %s could not begin: %s", self.code, first_line(exc))

    def check_host(self, host_token: str) -> None:
        if not secrets.compare_digest(token_hash(host_token), self.host_token_hash):
            raise RoomError(403, "not_host", _("only the host may do that"))

    async def claim(self, seat: int, name: str, contribution: str | None = None) -> str:
        """Claim human seat ``seat`` of a waiting room with a display name and, best, the
        player's contribution to the dice seed; the seat token."""
        try:
            clean = check_text(name, what="a name", limit=p.MAX_NAME_CHARS)
        except TextError as exc:
            raise RoomError(400, "bad_name", str(exc)) from None
        part = None if contribution is None else _checked_part(contribution)
        if self.entropy == seeds.SERVER:
            part = None  # a room from before player entropy: its dice are the seed's
        if not 0 <= seat < len(self.seats) or self.seats[seat].kind != "human":
            raise RoomError(
                404, "no_seat", _("seat {seat} is not a human seat of this room").format(seat=seat)
            )
        token = new_token()
        hashed = token_hash(token)
        if not await self.services.store.claim_seat(self.id, seat, clean, hashed, part):
            raise RoomError(409, "seat_taken", _("that seat is taken or the game has begun"))
        here = self.seats[seat]
        here.name, here.token_hash = clean, hashed
        here.contribution, here.contributed_by = part, None if part is None else "player"
        self.updated = time.time()
        await self._changed()
        await self._seated_changed()
        return token

    async def contribute(self, seat: int, contribution: str) -> None:
        """The player of ``seat`` adds their part of the dice seed (once, before the start)."""
        part = _checked_part(contribution)
        if self.entropy == seeds.SERVER:
            raise RoomError(409, "bad_contribution", _("this room's dice take no contributions"))
        here = self.seats[seat]
        if self.status is not Lifecycle.WAITING:
            raise RoomError(409, "bad_contribution", _("the game has begun: its dice are fixed"))
        if here.contribution is not None:
            raise RoomError(409, "bad_contribution", _("this seat has already contributed"))
        assert here.token_hash is not None  # the socket's token is this seat's
        if not await self.services.store.contribute(self.id, seat, here.token_hash, part):
            await self.catch_up_locked()
            raise RoomError(409, "bad_contribution", _("too late: this seat's part is fixed"))
        here.contribution, here.contributed_by = part, "player"
        self.updated = time.time()
        await self._changed()
        await self._seated_changed()

    async def on_contribute(self, conn: Conn, message: p.Contribute) -> p.Message:
        if conn.seat is None:
            return p.Error(
                code="not_seated", message=_("spectators do not contribute"), id=message.id
            )
        try:
            await self.contribute(conn.seat, message.value)
        except RoomError as exc:
            return p.Error(code="bad_contribution", message=exc.message, id=message.id)
        except StorageUnavailableError as exc:
            refused(f"a contribution in room {self.code}", exc)
            return unavailable(exc, message.id)
        return p.Ack(seq=self.seq, id=message.id)

    async def release(self, host_token: str, seat: int) -> None:
        """The host frees a claimed seat: before the game, or during play a seat whose
        player is away (:meth:`free_in_play`)."""
        self.check_host(host_token)
        if self.status is Lifecycle.PLAYING:
            await self.free_in_play(seat)
            return
        if not await self.services.store.release_seat(self.id, seat):
            raise RoomError(409, "not_waiting", _("seats can be freed only before the game begins"))
        self.seats[seat].name = ""
        self.seats[seat].token_hash = None
        self.seats[seat].contribution = self.seats[seat].contributed_by = None
        self.timers.cancel("contribute")
        presence.revoke(self, seat)  # its sockets here; the others' on their NOTIFY
        await self._changed()

    async def free_in_play(self, seat: int) -> None:
        """During play, the host frees human seat ``seat`` whose player is away: its token
        stops working, a bot plays it (``takeover``) until someone claims it
        (:meth:`claim_freed`)."""
        if not 0 <= seat < len(self.seats) or self.seats[seat].kind != "human":
            raise RoomError(
                404, "no_seat", _("seat {seat} is not a human seat of this room").format(seat=seat)
            )
        if self.conns.connected(seat) or await presence.connected_elsewhere(self, seat):
            raise RoomError(409, "seat_connected", _("the player of that seat is still here"))
        if not await self.services.store.free_seat_in_play(self.id, seat, presence.fresh()):
            if await presence.connected_elsewhere(self, seat):  # came in meanwhile
                raise RoomError(409, "seat_connected", _("the player of that seat is still here"))
            raise RoomError(
                409, "not_claimed", _("that seat is not claimed in a game being played")
            )
        self.seats[seat].name = ""
        self.seats[seat].token_hash = None
        self.updated = time.time()
        await self._changed()
        self.bots.kick(self)

    async def claim_freed(self, seat: int, name: str) -> str:
        """Claim a human seat the host freed during play; the seat token. The bot that
        played it stops."""
        try:
            clean = check_text(name, what="a name", limit=p.MAX_NAME_CHARS)
        except TextError as exc:
            raise RoomError(400, "bad_name", str(exc)) from None
        if not 0 <= seat < len(self.seats) or self.seats[seat].kind != "human":
            raise RoomError(
                404, "no_seat", _("seat {seat} is not a human seat of this room").format(seat=seat)
            )
        token = new_token()
        hashed = token_hash(token)
        if not await self.services.store.claim_freed_seat(self.id, seat, clean, hashed):
            raise RoomError(409, "seat_taken", _("that seat is taken"))
        self.seats[seat].name = clean
        self.seats[seat].token_hash = hashed
        self.updated = time.time()
        if seat not in self.away.seats:
            self.bots.forget(seat)
        # away from now until its socket joins (a takeover counts from the claim)
        self.away.away(self, seat, time.monotonic())
        await self._changed()
        return token

    async def start_game(self, host_token: str) -> None:
        """The host starts: empty human seats get bots."""
        self.check_host(host_token)
        if self.status is Lifecycle.BROKEN:
            raise RoomError(409, "broken", _("this room cannot continue"))
        if self.status is not Lifecycle.WAITING:
            raise RoomError(409, "not_waiting", _("the game has already begun"))
        default = self.default_bot()
        bots = {s.seat: default for s in self.seats if s.kind == "human" and not s.token_hash}
        await self.begin(bots)

    async def begin(self, bots: dict[int, str]) -> None:
        async with self.lock:
            if self.status is not Lifecycle.WAITING:
                return
            self.timers.cancel("contribute")
            # Claimed seats still silent get the server's part (committed with the start).
            fill = {
                # derived from the committed seed, never chosen now that the players'
                # parts are known (docs/fairness.md; players-v1 rooms take it too)
                s.seat: seeds.server_part(self.seed, s.seat)
                for s in self.seats
                if self.entropy != seeds.SERVER
                and s.kind == "human"
                and s.seat not in bots
                and s.contribution is None
            }
            planned = [(s.contribution, s.contributed_by) for s in self.seats]
            for seat in bots:
                planned[seat] = (None, None)
            for seat, value in fill.items():
                planned[seat] = (value, "server")
            # The table first: a start that fails commits nothing (never a room `playing`
            # without a table, which no restart could rebuild).
            table = self._table_with(planned)
            final = await self.services.store.start_room(self.id, bots, fill)
            if final is not None:
                if final != planned:  # a player's part came in through another process
                    table = self._table_with(final)
                for here, (part, by) in zip(self.seats, final, strict=True):
                    here.contribution, here.contributed_by = part, by
                self._started(bots, table)
                await self._tell_others("room")
            else:  # another process began it (the lock is held: not self.sync)
                await self.catch_up()
        self.bots.kick(self)

    def _table_with(self, parts: list[tuple[str | None, str | None]]) -> Table:
        """The table the room begins with when the seats hold ``parts`` ((value, by) per
        seat, a bot's None): built before the start is committed."""
        try:
            return self.new_table([value for value, _ in parts])
        except Exception as exc:
            raise failed(self.code, "could not start", exc) from None

    def _started(self, bots: dict[int, str], table: Table) -> None:
        """The room begins with ``table`` (its start is committed); every socket gets it."""
        for seat, bot in bots.items():
            self.seats[seat].kind = "bot"
            self.seats[seat].bot = bot
            self.seats[seat].token_hash = None
            self.seats[seat].contribution = self.seats[seat].contributed_by = None
        self._go_live(table)
        self._absent_seats()

    def _go_live(self, table: Table) -> None:
        """The room plays ``table`` from now (begun here or by another process): every
        socket gets its snapshot, and the odds are asked for."""
        self.status = Lifecycle.PLAYING
        self.install(table)
        for conn in list(self.conns):
            conn.send(conns.snapshot(self, conn.seat, -1))
        self.odds.want(self)

    def _absent_seats(self) -> None:
        """Human seats without a socket are away from now (a bot may take them over)."""
        now = time.monotonic()
        for s in self.seats:
            if s.kind == "human" and not self.conns.connected(s.seat) and s.seat not in self.remote:
                self.away.away(self, s.seat, now)

    async def close(self, note: str) -> None:
        if self.status.is_over:
            return
        await self.services.store.set_status(self.id, Lifecycle.CLOSED, note)  # the database first
        self.status = Lifecycle.CLOSED
        self.note = note
        self.timers.cancel_all()
        await self._tell_others("room")
        self.show()
        self.bots.cancel()

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
        """A message after the hello, by its type (:data:`HANDLERS`)."""
        if conn.closed:  # told to go (its seat was freed...): nothing more is answered
            return None
        handler = HANDLERS.get(type(message))
        if handler is None:
            return p.Error(code="bad_message", message=_("this socket has already said hello"))
        return await handler(self, conn, message)

    async def on_ping(self, conn: Conn, message: p.Ping) -> p.Message:
        return p.Pong(id=message.id)

    async def on_act(self, conn: Conn, message: p.Act) -> p.Message:
        """A seat's action: Ack after the commit, or Error (nothing changed)."""
        seat = conn.seat
        if seat is None:
            return p.Error(code="not_seated", message=_("spectators cannot act"), id=message.id)
        if conn.token_hash != self.seats[seat].token_hash:  # freed since it joined
            presence.revoke(self, seat)
            return p.Error(code="bad_token", message=_("the host freed your seat"), id=message.id)
        refusal = self._refuse_play(message.id)
        if refusal is not None:
            return refusal
        try:
            action = self.game.decode_action(message.action)
        except IllegalActionError as exc:  # the rules' reason, in this socket's language
            return p.Error(code="illegal", message=said(exc), id=message.id)
        try:
            seq = await self.apply(seat, action, message.expected_seq, "human")
        except StaleActionError as exc:
            return p.Error(code="stale", message=said(exc), id=message.id)
        except IllegalActionError as exc:
            return p.Error(code="illegal", message=said(exc), id=message.id)
        except RoomError as exc:
            return p.Error(code=exc.code, message=exc.message, id=message.id)  # type: ignore[arg-type]
        except StorageUnavailableError as exc:
            refused(f"an act in room {self.code}", exc)
            return unavailable(exc, message.id)
        return p.Ack(seq=seq, id=message.id)

    def _refuse_play(self, request: int | None) -> p.Error | None:
        status = self.status
        if status is Lifecycle.WAITING:
            return p.Error(code="not_started", message=_("the game has not begun"), id=request)
        if status is Lifecycle.FINISHED:
            return p.Error(code="finished", message=_("the game is over"), id=request)
        if status is Lifecycle.CLOSED:
            return p.Error(code="closed", message=_("the room is closed"), id=request)
        if status is Lifecycle.BROKEN:
            return p.Error(code="closed", message=_("this room cannot continue"), id=request)
        return None

    async def apply(self, seat: int, action: Any, expected_seq: int | None, by: str) -> int:
        """Validate, log (committed), apply and broadcast one action; returns its seq."""
        async with self.lock:
            for _attempt in range(5):
                table = self.table
                if table is None or not self.status.accepts_actions:
                    raise RoomError(409, "finished", _("the game is not being played"))
                step = table.prepare(seat, action, expected_seq)
                results = step.results()
                try:
                    await self.services.store.append_action(
                        self.id,
                        step.seq,
                        seat,
                        p.raw(action),
                        by,
                        finished_results=None if results is None else to_json(results),
                        notify=self.services.payload(self.code, "act"),
                    )
                except Behind:  # another process moved the room on (or closed it)
                    await self.catch_up_actions()
                    if table.seq == step.seq - 1:  # no action came: its status did
                        await self.catch_up()
                    continue
                table.commit(step)  # the listener tells every socket and bot
                break
            else:
                raise RoomError(503, "internal", _("the room is too busy; try again"))
        self.bots.kick(self)
        return step.seq

    async def on_hint(self, conn: Conn, message: p.HintRequest) -> p.Message:
        if not self.room_options.hints:
            return p.Error(code="hints_off", message=_("this room gives no hints"), id=message.id)
        if conn.seat is None:
            return p.Error(code="not_seated", message=_("spectators get no hints"), id=message.id)
        refusal = self._refuse_play(message.id)
        if refusal is not None or self.table is None:
            return refusal or p.Error(code="not_started", message=_("not begun"), id=message.id)
        position = self.table.position(conn.seat)
        if not position.legal:
            return p.Error(code="no_advice", message=_("it is not your turn"), id=message.id)
        pool = self.services.bots
        advise = pool.advisor(self.entry)
        if advise is None:
            return p.Error(code="no_advice", message=_("this game gives no hints"), id=message.id)
        args: tuple[Any, ...] = (position.view, conn.seat, list(position.legal))
        if _takes_names(advise):  # the advice words whose result a target is by name
            args += (self.labels(),)
        try:
            advice = await pool.run(advise, *args)
        except Exception as exc:  # an advisor that cannot advise here (a missing table...)
            if client_lines.allow():  # a client may ask again and again
                log.info("advisor failed: %s", exc)
            return p.Error(code="no_advice", message=first_line(exc), id=message.id)
        if advice is None:
            return p.Error(
                code="no_advice", message=_("no advice for this decision"), id=message.id
            )
        return p.AdviceOut(seq=position.seq, advice=to_json(advice), id=message.id)

    async def on_chat(self, conn: Conn, message: p.ChatIn) -> p.Message | None:
        if conn.seat is None:
            return p.Error(code="not_seated", message=_("spectators cannot chat"), id=message.id)
        try:
            text = check_text(message.text, what="a chat line", limit=p.MAX_CHAT_CHARS)
        except TextError as exc:
            return p.Error(code="chat_invalid", message=str(exc), id=message.id)
        if not conn.chats.take():
            wait = conn.chats.retry_after()
            return p.Error(
                code="rate_limited", message=_("slow down"), id=message.id, retry_after=wait
            )
        name = self.seats[conn.seat].name or f"seat {conn.seat + 1}"
        try:
            row = await self.services.store.add_chat(
                self.id, conn.seat, name, text, notify=self.services.payload(self.code, "chat")
            )
        except StorageUnavailableError as exc:
            refused(f"a chat line in room {self.code}", exc)
            return unavailable(exc, message.id)
        self.chat_seen = max(self.chat_seen, row.id)
        self.updated = time.time()
        for other in list(self.conns):  # the sender's copy carries its request id
            other.send(
                p.ChatOut(
                    name=row.name,
                    text=row.text,
                    at=row.at,
                    seat=row.seat,
                    id=message.id if other is conn else None,
                )
            )
        return None

    # ----- other processes ----------------------------------------------------------------
    async def sync(self, actions_only: bool = False) -> None:
        """Catch up with the database (another process acted, chatted or changed the
        room); ``actions_only``: it acted, so only the log is read."""
        async with self.lock:
            if actions_only:
                await self.catch_up_actions()
            else:
                await self.catch_up()
        if not actions_only:
            await presence.refresh(self)
        self.bots.kick(self)

    async def catch_up_locked(self) -> None:
        async with self.lock:
            await self.catch_up()

    async def catch_up(self) -> None:
        """Take the database's seats, start, actions and closing (the lock is held). The
        actions go through ``table.submit``: the listener sends their frames."""
        store = self.services.store
        row = await store.load_room(self.code)
        if row is None:
            return
        changed = False
        for s, r in zip(self.seats, row.seats, strict=True):
            mine = (s.kind, s.bot, s.name, s.token_hash, s.contribution, s.contributed_by)
            theirs = (r.kind, r.bot, r.name, r.token_hash, r.contribution, r.contributed_by)
            if mine != theirs:
                if s.token_hash != r.token_hash:  # freed (and maybe claimed) elsewhere
                    presence.revoke(self, s.seat)
                (s.kind, s.bot, s.name, s.token_hash, s.contribution, s.contributed_by) = theirs
                changed = True
        if self.status is Lifecycle.WAITING and row.status != Lifecycle.WAITING:
            try:
                table = self.new_table()
            except Exception as exc:
                self.note = await mark_broken(store, self.id, self.code, row.status, exc)
                self.status = Lifecycle.BROKEN
                self.show()
                return
            self._go_live(table)
        await self.catch_up_actions()
        if row.status == Lifecycle.CLOSED and self.status is not Lifecycle.CLOSED:
            self.status = Lifecycle.CLOSED
            self.note = row.note
            self.timers.cancel_all()
            changed = True
        if changed:
            self.show()

    async def catch_up_actions(self) -> None:
        """Take the actions the log holds beyond the table's (the lock is held)."""
        if self.table is None or self.status is not Lifecycle.PLAYING:
            return
        for action in await self.services.store.actions_after(self.id, self.table.seq):
            if self.status is not Lifecycle.PLAYING:
                break
            self.table.submit(action.seat, self.game.decode_action(action.action))

    async def chat_sync(self) -> None:
        """Chat lines another process added."""
        try:
            rows = await self.services.store.chat_after(self.id, self.chat_seen)
        except StorageUnavailableError as exc:
            log.warning("chat of room %s not read: %s", self.code, exc)
            return
        for row in rows:
            self.chat_seen = max(self.chat_seen, row.id)
            self.conns.broadcast(p.ChatOut(name=row.name, text=row.text, at=row.at, seat=row.seat))

    async def _changed(self) -> None:
        self.show()
        await self._tell_others("room")

    async def _tell_others(self, kind: str) -> None:
        """NOTIFY the other processes of a change already committed. If the database just
        went away, the change stands (the caller must not fail for it): the others find it
        when they re-read their rooms (``Hub.resync``)."""
        try:
            await self.services.store.notify(self.services.payload(self.code, kind))
        except StorageUnavailableError as exc:
            log.warning("room %s: others not told: %s", self.code, exc)

    # ----- the record ---------------------------------------------------------------------
    def record(self) -> str:
        """The finished game as a JSONL record (``gamenight replay`` verifies it)."""
        table = self.table
        if self.status is Lifecycle.BROKEN:
            raise RoomError(409, "broken", _("this room cannot continue and has no record"))
        if self.status is not Lifecycle.FINISHED or table is None:
            raise RoomError(409, "not_finished", _("the record is offered when the game is over"))
        seats = [
            RecordSeat(label, f"bot:{s.bot}" if s.kind == "bot" else "human")
            for s, label in zip(self.seats, self.labels(), strict=True)
        ]
        game = self.game
        out = io.StringIO()
        write_moves(  # the game is over: the seed goes in the header
            RecordWriter(out),
            game,
            game.parse_options(self.options),
            self.seed,
            seats,
            table.moves(),
            seed_in_header=True,
            dice_scheme=self.dice_scheme(),
            contributions=self.contributions(),
            entropy=self.entropy,
        )
        return out.getvalue()

    # ----- timers -------------------------------------------------------------------------
    def open(self) -> None:
        """The room is held by this process: its idle timer runs."""
        if not self.status.is_over:
            self.idle.arm(self)
        if self.seated():  # every seat claimed before a restart, some still silent
            self.arm_contribution_wait()

    def dispose(self) -> None:
        """The process stops: every timer, task and socket of the room ends."""
        self.timers.dispose()
        self.bots.cancel()
        self.odds.cancel()
        for conn in list(self.conns):
            conn.close()
        if self._unlisten is not None:  # the table's listener is the room: no cycle left
            self._unlisten()  # (the server freezes survivors: heap.py; a cycle would stay)
            self._unlisten = None

    def seen_update(self, updated: float) -> None:
        """Another process's activity in the room (``rooms.updated_at``)."""
        self.updated = max(self.updated, updated)

    def _turn_begins(self) -> None:
        """A new decision: an away seat to act is taken over; the turn clock runs."""
        self.away.check(self)
        self.clock.begin(self)


def _takes_names(fn: Callable[..., Any]) -> bool:
    """Whether a game's ``advise`` takes the seats' names (a fourth argument ``names``)."""
    try:
        return "names" in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


Handler = Callable[[Room, Conn, Any], Awaitable[p.Message | None]]
HANDLERS: dict[type, Handler] = {
    p.Act: Room.on_act,
    p.HintRequest: Room.on_hint,
    p.ChatIn: Room.on_chat,
    p.Ping: Room.on_ping,
    p.Contribute: Room.on_contribute,
}


def _checked_part(value: str) -> str:
    """A contribution as the room stores it (``seeds.check_contribution``), or 400."""
    try:
        return seeds.check_contribution(value)
    except ValueError as exc:
        raise RoomError(400, "bad_contribution", str(exc)) from None


if TYPE_CHECKING:  # mypy checks that a Room is what each of its pieces sees of it

    def _faces(room: Room) -> tuple[RoomFace, BotRoom, OddsRoom, TimerRoom, ConnRoom]:
        return room, room, room, room, room
