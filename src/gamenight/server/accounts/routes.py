"""The accounts' HTTP API (docs/protocol.md, "Accounts"): sign-up, sign-in and sign-out
with a password, the signed-in account, its data (export, delete), public profiles and
leaderboards.

Security (issue 43):

* the session is a random token in a cookie (``HttpOnly``, ``SameSite=Lax``, ``Secure``
  where served over TLS), stored only as its hash and looked up on every request;
* every state-changing request passes the app's Origin and Content-Type checks
  (server/guard.py), so a request carrying the cookie from another site's page is refused;
* no user enumeration: a sign-in with an unknown name and one with a wrong password get
  the same answer after the same work (one Argon2 check each), and so does a sign-up
  with a taken name (unless its password is the account's: then it signs in);
* sign-in and sign-up attempts are throttled per account name and per client address,
  in the database (accounts/throttle.py): one token bucket for every server process.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import msgspec
from litestar import Request, Response, delete, get, post
from litestar.datastructures import Cookie
from litestar.params import FromPath, FromQuery, JSONBody

from gamenight.core.confusables import name_keys
from gamenight.core.i18n import _
from gamenight.core.text import MAX_NAME_CHARS, TextError, check_text
from gamenight.server.accounts import passwords
from gamenight.server.faults import RoomError
from gamenight.server.guard import error_responses
from gamenight.server.proxy import client_address
from gamenight.server.tokens import new_token, token_hash

if TYPE_CHECKING:  # the storage (SQLAlchemy), openskill and argon2 load with the rooms
    from gamenight.server.accounts.ratings import Rating
    from gamenight.server.accounts.store import Account, AccountStore

_T = TypeVar("_T")
COOKIE = "gamenight_session"
# Readable by the page, so a guest's page never asks GET /api/account only to be
# refused with 401; it holds no secret (the session is the HttpOnly COOKIE).
HINT = "gamenight_signed_in"
COOKIE_AGE = 365 * 24 * 3600  # seconds: a session lasts until signed out, or a year unused
# attempts per account name: 5 at once, then one every 30 s; per client: 20, then one a 3 s
LIMITS = {"account": (1 / 30, 5.0), "client": (1 / 3, 20.0)}


class Credentials(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    password: str


class SignOut(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Which sessions end: this one, every other one, or all."""

    which: Literal["this", "others", "all"] = "this"


class Settings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    public: bool


class SessionOut(msgspec.Struct, frozen=True):
    label: str
    created_at: float
    seen_at: float
    current: bool


class SeatOut(msgspec.Struct, frozen=True):
    room: str
    game: str
    seat: int
    status: str


class Me(msgspec.Struct, frozen=True):
    name: str
    public: bool
    password: bool
    sessions: list[SessionOut]
    rooms: list[SeatOut]


class SignedIn(msgspec.Struct, frozen=True):
    name: str


class Ended(msgspec.Struct, frozen=True):
    ended: int


class RatingOut(msgspec.Struct, frozen=True):
    mu: float
    sigma: float
    ordinal: float
    games: int


class PointOut(msgspec.Struct, frozen=True):
    room_id: int
    finished_at: float
    mu: float
    sigma: float


class PoolOut(msgspec.Struct, frozen=True):
    pool: str
    rating: RatingOut
    history: list[PointOut]
    places: dict[str, int]  # place ("1", "2"...) -> how many times


class Profile(msgspec.Struct, frozen=True):
    name: str
    pools: list[PoolOut]
    rooms: list[SeatOut]


class Row(msgspec.Struct, frozen=True):
    name: str
    bot: bool
    rating: RatingOut


class Leaderboard(msgspec.Struct, frozen=True):
    pool: str
    rows: list[Row]


class Accounts:
    """The accounts of one app: their storage and the sign-in throttle."""

    def __init__(self, store: AccountStore) -> None:
        # SQLAlchemy's import: made with the storage, never on the app's import path
        from gamenight.server.accounts.throttle import SharedThrottle

        self.store = store
        self.throttle = SharedThrottle(store.engine, LIMITS)

    async def signed_in(self, request: Request[Any, Any, Any]) -> Account | None:
        token = request.cookies.get(COOKIE)
        if not token or len(token) > 200:
            return None
        return await self.store.session(token_hash(token))


async def accounts_of(request: Request[Any, Any, Any]) -> Accounts:
    """The app's :class:`Accounts`, made on first use (after the storage is up)."""
    app = request.app
    found: Accounts | None = getattr(app.state, "accounts", None)
    if found is None:
        from gamenight.server.accounts.store import AccountStore

        hub = await app.state.services()
        found = app.state.accounts = Accounts(AccountStore(hub.store.engine))
    return found


def _refused() -> RoomError:
    return RoomError(401, "bad_credentials", _("that name and password do not match an account"))


async def _admit(accounts: Accounts, request: Request[Any, Any, Any], fold_key: str) -> None:
    for kind, value in (("client", client_address(request)), ("account", fold_key)):
        wait = await accounts.throttle.admit(kind, value)
        if wait:
            raise RoomError(
                429,
                "rate_limited",
                _("too many attempts: try again in {seconds} s").format(seconds=wait),
            )


def _session_response(
    request: Request[Any, Any, Any], account_id: int, token: str, status: int, name: str
) -> Response[SignedIn]:
    secure = request.scope.get("scheme") == "https"
    cookie = Cookie(
        key=COOKIE,
        value=token,
        max_age=COOKIE_AGE,
        path="/",
        httponly=True,
        samesite="lax",
        secure=secure,
    )
    hint = Cookie(key=HINT, value="1", max_age=COOKIE_AGE, path="/", samesite="lax", secure=secure)
    return Response(SignedIn(name), status_code=status, cookies=[cookie, hint])


def _forget(response: Response[Any]) -> None:
    """Drop the session cookie and its hint from the browser."""
    for key in (COOKIE, HINT):
        response.delete_cookie(key, path="/")


async def _start_session(
    request: Request[Any, Any, Any], accounts: Accounts, account: int, name: str, status: int
) -> Response[SignedIn]:
    token = new_token()
    label = request.headers.get("user-agent", "")[:120]
    await accounts.store.add_session(account, token_hash(token), label)
    return _session_response(request, account, token, status, name)


async def _argon2(work: Callable[..., _T], *args: Any) -> _T:
    """An Argon2 hash or check (tens of milliseconds of CPU), off the event loop."""
    return await asyncio.to_thread(work, *args)


def _checked(data: Credentials) -> str:
    try:
        name = check_text(data.name, what=_("a name"), limit=MAX_NAME_CHARS)
    except TextError as exc:
        raise RoomError(400, "bad_name", str(exc)) from None
    problem = passwords.problem(data.password)
    if problem is not None:
        raise RoomError(400, "bad_password", problem)
    return name


@post(
    "/api/account/signup",
    summary="Make an account",
    status_code=201,
    responses=error_responses("POST", 429),
)
async def sign_up(
    request: Request[Any, Any, Any], data: JSONBody[Credentials]
) -> Response[SignedIn]:
    name = _checked(data)
    keys = name_keys(name)
    accounts = await accounts_of(request)
    await _admit(accounts, request, keys[0])
    existing = await accounts.store.by_keys(keys)
    if existing is not None:  # one Argon2 check, as a sign-in: the same answer and work
        if await _argon2(passwords.check, data.password, existing.password_hash):
            return await _start_session(request, accounts, existing.id, existing.name, 200)
        raise _refused()
    stored = await _argon2(passwords.hash_password, data.password)
    try:
        account = await accounts.store.create(name, keys, stored)
    except accounts.store.NameTaken:  # made meanwhile by another request
        raise _refused() from None
    return await _start_session(request, accounts, account, name, 201)


@post(
    "/api/account/signin",
    summary="Sign in",
    status_code=200,
    responses=error_responses("POST", 429),
)
async def sign_in(
    request: Request[Any, Any, Any], data: JSONBody[Credentials]
) -> Response[SignedIn]:
    name = _checked(data)
    keys = name_keys(name)
    accounts = await accounts_of(request)
    await _admit(accounts, request, keys[0])
    existing = await accounts.store.by_keys(keys)
    stored = existing.password_hash if existing is not None else None
    matches = await _argon2(passwords.check, data.password, stored)  # always: the same work
    if existing is None or not matches:
        raise _refused()
    return await _start_session(request, accounts, existing.id, existing.name, 200)


async def _me(request: Request[Any, Any, Any]) -> tuple[Accounts, Account]:
    accounts = await accounts_of(request)
    account = await accounts.signed_in(request)
    if account is None:
        raise RoomError(401, "not_signed_in", _("sign in first"))
    return accounts, account


@post(
    "/api/account/signout",
    summary="Sign out",
    status_code=200,
    responses=error_responses("POST", 429),
)
async def sign_out(request: Request[Any, Any, Any], data: JSONBody[SignOut]) -> Response[Ended]:
    accounts, account = await _me(request)
    token = request.cookies.get(COOKIE, "")
    ended = await accounts.store.end_sessions(account.id, data.which, token_hash(token))
    response = Response(Ended(ended))
    if data.which != "others":
        _forget(response)
    return response


@get("/api/account", summary="The signed-in account", responses=error_responses("GET", 401))
async def me(request: Request[Any, Any, Any]) -> Me:
    accounts, account = await _me(request)
    return await _me_out(request, accounts, account)


async def _me_out(request: Request[Any, Any, Any], accounts: Accounts, account: Account) -> Me:
    current = token_hash(request.cookies.get(COOKIE, ""))
    sessions = [
        SessionOut(label, created, seen, hashed == current)
        for hashed, label, created, seen in await accounts.store.sessions(account.id)
    ]
    rooms = [
        SeatOut(s.code, s.game, s.seat, s.status) for s in await accounts.store.seats(account.id)
    ]
    return Me(account.name, account.public, account.password_hash is not None, sessions, rooms)


@post(
    "/api/account/settings",
    summary="Change the account's settings",
    status_code=200,
    responses=error_responses("POST", 429),
)
async def settings(request: Request[Any, Any, Any], data: JSONBody[Settings]) -> Me:
    accounts, account = await _me(request)
    await accounts.store.set_public(account.id, data.public)
    fresh = await accounts.store.by_id(account.id)
    return await _me_out(request, accounts, fresh or account)


@get(
    "/api/account/export",
    summary="Everything stored of the account, as JSON",
    responses=error_responses("GET", 401),
)
async def export(request: Request[Any, Any, Any]) -> Response[bytes]:
    accounts, account = await _me(request)
    data = await accounts.store.export(account.id)
    return Response(
        json.dumps(data, indent=2, ensure_ascii=False).encode("utf-8"),
        media_type="application/json",
        headers={"Content-Disposition": 'attachment; filename="gamenight-account.json"'},
    )


@delete(
    "/api/account",
    summary="Delete the account",
    status_code=200,
    responses=error_responses("DELETE", 401),
)
async def delete_account(request: Request[Any, Any, Any]) -> Response[Ended]:
    accounts, account = await _me(request)
    await accounts.store.delete(account.id)
    response = Response(Ended(1))
    _forget(response)
    return response


def _rating_out(rating: Rating) -> RatingOut:
    return RatingOut(rating.mu, rating.sigma, rating.ordinal, rating.games)


@get(
    "/api/players/{name:path}",
    summary="A player's public profile",
    responses=error_responses("GET", 401),
)
async def profile(request: Request[Any, Any, Any], name: FromPath[PurePosixPath]) -> Profile:
    # the rest of the path as sent: a name may hold a "/" (decoded from %2F), or "//"
    # and "/./", which the path parameter would fold
    who = request.url.path.partition("/api/players/")[2] or str(name).removeprefix("/")
    accounts = await accounts_of(request)
    account = await accounts.store.by_keys(name_keys(who[:MAX_NAME_CHARS]))
    viewer = await accounts.signed_in(request)
    if account is None or not (account.public or (viewer and viewer.id == account.id)):
        raise RoomError(404, "no_player", _("there is no public player of that name"))
    from gamenight.server.accounts.ratings import fold

    who = f"account:{account.id}"
    pools: list[PoolOut] = []
    for pool in await accounts.store.pools():
        results = await accounts.store.results(pool)
        mine = [r for r in results if any(p.who == who for p in r.places)]
        if not mine:
            continue
        standing = fold(results, await accounts.store.bot_ratings(pool))
        places: dict[str, int] = {}
        for result in mine:
            place = next(p.place for p in result.places if p.who == who)
            places[str(place)] = places.get(str(place), 0) + 1
        history = [
            PointOut(pt.room_id, pt.finished_at, pt.mu, pt.sigma)
            for pt in standing.history.get(who, [])
        ]
        pools.append(PoolOut(pool, _rating_out(standing.ratings[who]), history, places))
    rooms = [
        SeatOut(s.code, s.game, s.seat, s.status)
        for s in await accounts.store.seats(account.id)
        if s.status == "finished"
    ][:20]
    return Profile(account.name, pools, rooms)


@get("/api/leaderboards", summary="The rating pools", responses=error_responses("GET", 401))
async def leaderboards(request: Request[Any, Any, Any]) -> list[str]:
    """Every pool with a rated result, every game's own pool and every pool its game
    ships a fit of the bots for (its bots stand there before anyone has played)."""
    from gamenight.core import registry
    from gamenight.server.accounts.ladder import shipped

    played = await (await accounts_of(request)).store.pools()
    fitted = {pool for entry in registry.available() for pool in shipped(entry.package)}
    return sorted(set(played) | fitted | {entry.id for entry in registry.available()})


@get("/api/leaderboard", summary="A pool's leaderboard", responses=error_responses("GET", 401))
async def leaderboard(request: Request[Any, Any, Any], pool: FromQuery[str]) -> Leaderboard:
    from gamenight.server.accounts.ratings import fold

    accounts = await accounts_of(request)
    bots = await accounts.store.bot_ratings(pool)
    standing = fold(await accounts.store.results(pool), bots)
    rows: list[Row] = []
    for who, rating in standing.ratings.items():
        account = await accounts.store.by_id(int(who.partition(":")[2]))
        if account is not None and account.public:
            rows.append(Row(account.name, False, _rating_out(rating)))
    rows += [Row(who.partition(":")[2], True, _rating_out(r)) for who, r in bots.items()]
    rows.sort(key=lambda r: (-r.rating.ordinal, r.name))
    return Leaderboard(pool, rows)


class Resumed(msgspec.Struct, frozen=True):
    """A fresh seat token for a seat the account holds (the old one stops working)."""

    room: str
    seat: int
    token: str


@post(
    "/api/account/rooms/{code:str}/seats/{seat:int}/resume",
    summary="Take up a seat the account holds on this device: a fresh seat token",
    status_code=200,
    responses=error_responses("POST"),
)
async def resume(
    request: Request[Any, Any, Any], code: FromPath[str], seat: FromPath[int]
) -> Resumed:
    """Only the session gives a seat back: the seat must be the account's (claimed while
    signed in) in a room not over. Any other case, a room that does not exist included,
    gets the same 404, so a session learns nothing of seats that are not its own."""
    _accounts, account = await _me(request)
    hub = await request.app.state.services()
    room = await hub.room(code[:40])
    token = None if room is None else await room.resume(seat, account.id)
    if token is None:
        raise RoomError(404, "no_seat", _("your account holds no such seat in a game not over"))
    return Resumed(code, seat, token)


async def claimant(request: Request[Any, Any, Any], room_id: int, rated: bool) -> int | None:
    """Before a seat is claimed: the account that will hold it (the signed-in one; None, a
    guest). A rated room's seats are for signed-in players, one seat each (a guest's seat,
    or one account in two, would leave its result unrated)."""
    accounts = await accounts_of(request)
    account = await accounts.signed_in(request)
    if not rated:
        return None if account is None else account.id
    if account is None:
        raise RoomError(
            401, "rated_room", _("a rated room's seats are for signed-in players: sign in first")
        )
    if await accounts.store.holds_seat(room_id, account.id):
        raise RoomError(409, "seat_taken", _("your account already holds a seat in this room"))
    return account.id


ROUTES = [
    sign_up,
    sign_in,
    sign_out,
    me,
    settings,
    export,
    delete_account,
    profile,
    leaderboards,
    leaderboard,
    resume,
]
