"""The "your turn" list over HTTP (issue 44; docs/protocol.md, "Your turn"): every
turn-based room where one of the asker's seats is to act, across games, with how long
the decision has waited and its clock.

* ``GET /api/account/turns`` — the signed-in account's seats (on every device);
* ``POST /api/turns`` — a guest's: the body holds the seat tokens this client keeps
  (``{"seats": [{"code", "seat", "token"}]}``, at most :data:`MAX_SEATS`). Only a seat
  whose token matches is answered: a wrong token, seat or code is left out exactly as a
  seat not to act, so the answer says nothing of seats the asker does not hold.

Both read the database only (the ``turns`` rows): no room is loaded. The order is the
nearest deadline first (no clock last), then the longest waiting
(:func:`~gamenight.server.storage.yourturn.order_key`): what must be played soonest
comes first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

import msgspec
from litestar import Request, get, post
from litestar.params import JSONBody

from gamenight.core.i18n import _
from gamenight.server.accounts.routes import accounts_of
from gamenight.server.faults import RoomError
from gamenight.server.guard import error_responses
from gamenight.server.tokens import token_hash

if TYPE_CHECKING:  # the storage (SQLAlchemy) loads with the rooms
    from gamenight.server.storage.yourturn import Waiting

MAX_SEATS = 200  # seats one guest request may name (a browser keeps fewer)


class HeldSeat(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A seat this client holds: its room's code, the seat and its token."""

    code: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    seat: Annotated[int, msgspec.Meta(ge=0, le=63)]
    token: Annotated[str, msgspec.Meta(min_length=1, max_length=100)]


class HeldSeats(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The body of ``POST /api/turns``."""

    seats: Annotated[list[HeldSeat], msgspec.Meta(max_length=MAX_SEATS)]


class OtherSeat(msgspec.Struct, frozen=True):
    """Another seat of the room: a person's display name, or a bot's name."""

    seat: int
    kind: str  # human | bot
    bot: str
    name: str


class TurnOut(msgspec.Struct, frozen=True):
    """A decision waiting for one of the asker's seats."""

    room: str  # the room's code
    game: str
    seat: int
    since: float  # when the decision began (seconds since the epoch, server clock)
    waiting: float  # seconds it has waited (``now - since``)
    deadline: float | None  # when its clock runs out; null: no clock
    left: float | None  # seconds left on that clock (``deadline - now``; below 0: late)
    late: bool  # the server found the clock run out
    others: list[OtherSeat]
    invite: str  # the room's path: ``/r/<code>``


class Turns(msgspec.Struct, frozen=True):
    """The "your turn" list: the server's clock now, and the decisions in order."""

    now: float
    turns: list[TurnOut]


async def _engine_and_clock(request: Request[Any, Any, Any]) -> tuple[Any, Callable[[], float]]:
    hub = await request.app.state.services()
    return hub.store.engine, hub.services.clock  # the turn-based rooms' one clock


def _out(found: list[Waiting], now: float) -> Turns:
    return Turns(
        now=now,
        turns=[
            TurnOut(
                room=w.code,
                game=w.game,
                seat=w.seat,
                since=w.since,
                waiting=max(0.0, now - w.since),
                deadline=w.deadline,
                left=None if w.deadline is None else w.deadline - now,
                late=w.late or (w.deadline is not None and w.deadline <= now),
                others=[OtherSeat(p.seat, p.kind, p.bot, p.name) for p in w.others],
                invite=f"/r/{w.code}",
            )
            for w in found
        ],
    )


@get(
    "/api/account/turns",
    summary="The turn-based rooms where one of the account's seats is to act",
    responses=error_responses("GET", 401),
)
async def account_turns(request: Request[Any, Any, Any]) -> Turns:
    accounts = await accounts_of(request)
    account = await accounts.signed_in(request)
    if account is None:
        raise RoomError(401, "not_signed_in", _("sign in first"))
    from gamenight.server.storage.yourturn import waiting_for_account

    engine, clock = await _engine_and_clock(request)
    found = await waiting_for_account(engine, account.id)
    return _out(found, clock())


@post(
    "/api/turns",
    summary="The turn-based rooms where one of the given seats (by its token) is to act",
    status_code=200,
    responses=error_responses("POST"),
)
async def guest_turns(request: Request[Any, Any, Any], data: JSONBody[HeldSeats]) -> Turns:
    from gamenight.server.storage.yourturn import waiting_for_tokens

    engine, clock = await _engine_and_clock(request)
    held = [(s.code, s.seat, token_hash(s.token)) for s in data.seats]
    found = await waiting_for_tokens(engine, held)
    return _out(found, clock())


ROUTES = [account_turns, guest_turns]
