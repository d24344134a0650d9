"""What a live room's collaborators see of it: :class:`LiveRoom`, the room as a
:class:`typing.Protocol`, with its seats (:class:`SeatState`) and what every room of the
process shares (:class:`Services`).

A :class:`~gamenight.server.room.Room` composes its collaborators: the seats
(:mod:`~gamenight.server.seating`), its course from waiting to its end
(:mod:`~gamenight.server.course`), the play (:mod:`~gamenight.server.play`), the chat
(:mod:`~gamenight.server.chat`), the catching up with other processes
(:mod:`~gamenight.server.roomsync`), beside the older pieces (bots, odds, timers,
sockets, presence). A collaborator names no other: what it needs of another is a
member of :class:`LiveRoom` that the room hands on, so their imports stay one way.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from gamenight.core.errors import GamenightError
from gamenight.core.game import AnyGame
from gamenight.core.options import Options
from gamenight.core.record import Contribution
from gamenight.core.table import Table
from gamenight.server.bots import BotPool
from gamenight.server.clock import Clock
from gamenight.server.config import Config
from gamenight.server.lifecycle import Lifecycle
from gamenight.server.presence import Room as PresenceRoom
from gamenight.server.timers import IdleClose, StartRetry
from gamenight.server.turnroom import TurnBased
from gamenight.server.undo import UndoRoom

if TYPE_CHECKING:  # the storage is imported when the rooms come up, not with the app
    from gamenight.server.storage.store import Store


@dataclass
class SeatState:
    seat: int
    kind: str  # human | bot
    bot: str
    name: str
    token_hash: str | None
    contribution: str | None = None  # the seat's part of the dice seed, secret until the end
    contributed_by: str | None = None  # "player" | "server"
    account_id: int | None = None  # the account that holds the seat (None: a guest's)

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
    # the wall clock of turn-based rooms (server/clock.py): a test fakes it
    clock: Clock = time.time

    def payload(self, code: str, kind: str) -> str:
        return f"{self.tag} {code} {kind}"


class LiveRoom(UndoRoom, PresenceRoom, Protocol):
    """A live room (``room.Room``) as its collaborators see it."""

    note: str
    mover: str | None  # the log's ``by`` of the step being committed (Events.by)
    updated: float  # wall clock of the last activity (idle close)
    seats: list[SeatState]
    remote: set[int]  # seats with a socket on another process (presence.py)
    table: Table | None  # set by Play.install

    @property
    def game(self) -> AnyGame: ...
    @property
    def options(self) -> Options: ...
    @property
    def public(self) -> bool: ...
    @property
    def commitment(self) -> str: ...
    @property
    def entropy(self) -> str: ...
    @property
    def host_token_hash(self) -> str: ...
    @property
    def services(self) -> Services: ...
    @property
    def idle(self) -> IdleClose: ...
    @property
    def start_retry(self) -> StartRetry: ...
    @property
    def seq(self) -> int: ...
    @property
    def turns(self) -> TurnBased: ...

    def become(self, to: Lifecycle) -> None: ...
    def undo_seats(self) -> frozenset[int]: ...
    def end(self, status: Lifecycle, note: str) -> None: ...
    def labels(self) -> list[str]: ...
    def seated(self) -> bool: ...
    def contributions(self) -> list[Contribution] | None: ...
    def new_table(self, values: Sequence[str | None] | None = None) -> Table: ...
    def install(self, table: Table) -> None: ...
    def go_live(self, table: Table) -> None: ...
    def arm_contribution_wait(self) -> None: ...
    async def seated_changed(self) -> None: ...
    async def changed(self) -> None: ...
    async def tell_others(self, kind: str) -> None: ...
    async def catch_up(self) -> None: ...
    async def catch_up_actions(self) -> None: ...


def held_weakly(room: LiveRoom) -> LiveRoom:
    """``room`` as a collaborator holds it: a weak proxy, so that the room and its
    collaborators make no reference cycle and a room let go is freed by reference
    counting alone (the server freezes survivors: heap.py; a cycle would stay)."""
    proxy: LiveRoom = weakref.proxy(room)
    return proxy
