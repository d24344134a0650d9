"""How a server process runs (:class:`Config`), what a host sets for a room
(:class:`RoomOptions`) and asks for (:class:`CreateRoom`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

import msgspec

DEFAULT_BOT_PACE = 0.8  # seconds: one bot step at a time, readable
Seconds = Annotated[int, msgspec.Meta(ge=1, le=7 * 24 * 3600)]


class RoomOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What the host sets for the room (not the game's own options)."""

    hints: bool = False  # seats may ask for the game's Advice
    odds: bool = False  # everyone sees every seat's live chance to win (games with odds)
    spectators: bool = True  # anyone with the link may watch
    # seconds a bot waits before it acts: by default a readable pace, so that players see
    # bot turns step by step (issue 23); 0 lets bots act at once (tests, bench)
    bot_pace: Annotated[float, msgspec.Meta(ge=0, le=10)] = DEFAULT_BOT_PACE
    takeover_after: Seconds | None = None  # a bot plays a human's seat after this absence
    turn_clock: Seconds | None = None  # after this long on one decision, a bot acts once
    takeover_bot: Annotated[str, msgspec.Meta(max_length=40)] = ""  # "": the game's first bot
    idle_close: Seconds = 24 * 3600  # close the room after this long without activity
    # the result counts for the ratings (server/accounts/rated.py) if every seat is an
    # account or a bot with a fixed rating
    rated: bool = False
    # "live": everyone at the table now; "turn-based" (issue 44): a game over days, each
    # move within ``move_time`` seconds plus the seat's ``time_bank`` (BGA's game clock),
    # the room kept in the database between moves, not in a process's memory
    pace: Literal["live", "turn-based"] = "live"
    move_time: Seconds | None = None
    time_bank: Annotated[int, msgspec.Meta(ge=0, le=30 * 24 * 3600)] | None = None

    def __post_init__(self) -> None:
        if self.pace == "turn-based":
            if self.move_time is None:
                raise ValueError("a turn-based room needs move_time (seconds a move may take)")
            if self.turn_clock is not None or self.takeover_after is not None:
                raise ValueError(
                    "turn_clock and takeover_after are for live rooms: a turn-based room has "
                    "move_time and time_bank"
                )
        elif self.move_time is not None or self.time_bank is not None:
            raise ValueError("move_time and time_bank are for turn-based rooms (pace)")


@dataclass
class Config:
    """How this server process runs."""

    db_url: str
    bot_workers: int = 2
    build_tables: bool = True  # build a missing Wurfeltod value table in the background
    tick: float = 0.25  # seconds before a start that failed (database down) is retried
    idle_check: float = 30.0  # seconds between looks for idle rooms not loaded here
    msg_rate: float = 20.0  # messages per second a socket may send on average
    msg_burst: float = 40.0
    chat_rate: float = 0.5  # chat lines per second
    chat_burst: float = 5.0
    abuse_limit: int = 50  # refused-for-rate messages before the socket is closed
    # hellos answered with a snapshot (guard.ReconnectThrottle): per seat token and per
    # client address, (rate a second, burst); over it, waits that double up to 60 s
    reconnect_rate: float = 1.0
    reconnect_burst: float = 10.0
    address_rate: float = 50.0
    address_burst: float = 500.0
    extra_origins: tuple[str, ...] = ()
    public_url: str = ""  # the address players open (invite links); "": the browser's
    metrics_route: bool = True  # GET /metrics on the app (off, or served elsewhere)
    # the server's own listening address (serve): an invite opened from loopback names
    # this machine's address instead when it listens beyond loopback (web's invite base)
    listen_host: str = "127.0.0.1"
    resync: float = 5.0  # seconds between re-reads of the seq of every room held (PostgreSQL)
    presence_beat: float = 5.0  # seconds between refreshes of this process's presence rows
    # seconds a room over (finished, closed, broken) with no socket stays in memory; a
    # later request loads it again from the database (rooms.py, Hub.evict)
    evict_after: float = 30.0
    stall_warning: float = 0.05  # log when the event loop wakes this late (seconds)
    # seconds a room with every seat claimed waits for a seat's contribution to the dice
    # seed before the server makes it (docs/fairness.md); a claim may carry it at once
    contribute_wait: float = 15.0
    # seconds between sweeps for the turn-based rooms' clocks that ran out (issue 44;
    # one process of a cluster marks each late seat: storage/turns.py)
    turn_sweep: float = 5.0
    gc_freeze: float = 1.0  # seconds between moves of survivors out of GC (heap.py; 0: never)
    # notifications (server/notify, docs/notifications.md): the SMTP server ("": no
    # e-mail), private-network webhook and push targets (off: refused), the sweep's period
    smtp_host: str = ""
    smtp_port: int = 587
    smtp_user: str = ""
    smtp_password: str = ""
    smtp_from: str = ""
    smtp_ca: str = ""  # a PEM file of CAs to trust for the SMTP server ("": the system's)
    notify_private: bool = False
    notify_every: float = 5.0  # seconds between sweeps of the notifications' outbox


class CreateRoom(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The body of ``POST /api/rooms``."""

    game: Annotated[str, msgspec.Meta(max_length=40)]
    seats: Annotated[list[Annotated[str, msgspec.Meta(max_length=50)]], msgspec.Meta(max_length=8)]
    options: dict[str, Any] = {}
    public: bool = False
    room: RoomOptions = RoomOptions()
