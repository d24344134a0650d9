"""What every socket and the HTTP API are told of a room: its :class:`RoomInfo`. The
seed and the players' parts of the dice seed only once the game is over."""

from __future__ import annotations

import msgspec

from gamenight.core import seeds
from gamenight.core.game import to_json
from gamenight.server import protocol as p
from gamenight.server.lifecycle import Lifecycle
from gamenight.server.live import LiveRoom, SeatState


def room_info(room: LiveRoom) -> p.RoomInfo:
    """The room as it is now, as everyone may know it."""
    table = room.table
    results = table.results() if table is not None and table.finished else None
    bots = room.bots
    takeover = room.takeover
    finished = room.status is Lifecycle.FINISHED
    return p.RoomInfo(
        code=room.code,
        game=room.entry.id,
        rules_version=room.game.info.rules_version,
        options=room.options,
        room_options=msgspec.to_builtins(room.room_options),
        public=room.public,
        status=room.status.value,
        seats=tuple(_seat_info(room, s, takeover) for s in room.seats),
        commitment=room.commitment,
        entropy=room.entropy,
        seed=str(room.seed) if finished else None,
        contributions=None
        if not finished or room.entropy == seeds.SERVER
        else tuple(
            p.ContributionInfo(seat=c.seat, by=c.by, value=c.value)  # type: ignore[arg-type]  # by is "player" | "server" | "bot"
            for c in room.contributions() or ()
        ),
        seq=room.seq,
        results=None if results is None else to_json(results),
        notes=tuple(bots.notes + [n for n in (bots.build_note, room.note) if n]),
        spectators=room.conns.spectators(),
        pace=room.room_options.pace,
        clock=room.turns.info(),
    )


def _seat_info(room: LiveRoom, s: SeatState, takeover: set[int]) -> p.SeatInfo:
    """One seat as everyone may know it (its token and its part of the seed: whether)."""
    played_by_bot = s.kind == "bot" or s.seat in takeover
    return p.SeatInfo(
        seat=s.seat,
        kind=s.kind,  # type: ignore[arg-type]  # SeatState.kind is "human" | "bot"
        bot=s.bot,
        name=s.name,
        claimed=s.kind == "bot" or s.token_hash is not None,
        connected=s.kind == "bot" or room.conns.connected(s.seat) or s.seat in room.remote,
        takeover=s.seat in takeover,
        stand_in=room.bots.stand_in(s.seat) if played_by_bot else "",
        contributed=s.contribution is not None,
    )
