"""The Litestar app: HTTP API, the lobby page and the WebSocket.

HTTP (OpenAPI at ``/schema``, JSON at ``/schema/openapi.json``):

* ``GET /api/games`` — the games, their options and bots;
* ``POST /api/rooms`` — create a room; the answer holds the host token;
* ``GET /api/rooms`` — the lobby: open public rooms;
* ``GET /api/rooms/{code}`` — one room (the seed only once it is finished);
* ``POST /api/rooms/{code}/seats/{seat}/claim`` — a seat token for a display name;
* ``POST /api/rooms/{code}/start`` and ``.../seats/{seat}/release`` — host only
  (``Authorization: Bearer <host token>``);
* ``GET /api/rooms/{code}/record`` — the finished game's JSONL record;
* ``GET /api/protocol/schema`` — the WebSocket protocol's JSON Schema;
* ``GET /api/games/{game}/schema`` — a game's actions, views and events (JSON Schema).

Pages: ``/`` (lobby) and ``/r/{code}`` (invite link), plain HTML with a strict
Content-Security-Policy. The socket is ``/ws/{code}`` (``docs/protocol.md``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Annotated, Any

import msgspec
from litestar import Litestar, Request, Response, get, post, websocket
from litestar.connection import WebSocket
from litestar.exceptions import HTTPException, WebSocketDisconnect
from litestar.openapi.config import OpenAPIConfig
from litestar.params import FromPath, FromQuery, JSONBody

from gamenight import __version__, web
from gamenight.core import registry, schema
from gamenight.core.catalogue import CatalogueEntry
from gamenight.core.errors import GamenightError, StorageUnavailableError, first_line
from gamenight.core.i18n import _, set_language
from gamenight.core.languages import LanguageError, check_language
from gamenight.core.seeds import MAX_CONTRIBUTION_CHARS
from gamenight.server import protocol as p
from gamenight.server.config import Config, CreateRoom
from gamenight.server.faults import UNAVAILABLE, RoomError, refused, unavailable
from gamenight.server.guard import (
    Problem,
    ReconnectThrottle,
    check_request,
    connection_origin_allowed,
    error_responses,
    failures,
    handle_crash,
    handle_http,
    handle_refused,
)
from gamenight.server.lifecycle import OPEN, Lifecycle
from gamenight.server.options import catalogue_of, catalogue_url, entries
from gamenight.server.tokens import token_hash
from gamenight.server.words import language_of

if TYPE_CHECKING:  # the storage and the rooms come up after the app listens (see create_app)
    from gamenight.server.rooms import Conn, Hub, Room

log = logging.getLogger("gamenight.server")

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
PAGE_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",  # invite codes are in the URL
    "X-Frame-Options": "DENY",
}
HELLO_TIMEOUT = 15.0


# ----- HTTP bodies ----------------------------------------------------------------------------
class OptionInfo(msgspec.Struct, frozen=True):
    name: str
    kind: str
    help: str
    default: Any
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    # a choice option's choices that narrow the seat counts: choice -> [lowest, highest]
    seats: dict[str, tuple[int, int]] = {}
    catalogue: CatalogueOut | None = None  # the value names an entry of this catalogue


class CatalogueOut(msgspec.Struct, frozen=True):
    """A catalogue option: its entries are at ``url`` (GET: a list of CatalogueEntry);
    ``defaults`` are the values meaning the game's default (``default_label`` names it
    in a picker; ``default_language`` is its language, if it has one: a picker offers
    the entries in the player's language first); ``noun`` names an entry ("deck")."""

    url: str
    noun: str
    defaults: tuple[str, ...]
    default_label: str
    default_language: str | None = None


class BotOut(msgspec.Struct, frozen=True):
    name: str
    summary: str


class GameOut(msgspec.Struct, frozen=True):
    id: str
    name: str
    summary: str
    min_players: int
    max_players: int
    seat_noun: str
    options: tuple[OptionInfo, ...]
    bots: tuple[BotOut, ...]
    hints: bool
    odds: bool = False  # the room option "odds" (live win odds) is offered


class CreatedRoom(msgspec.Struct, frozen=True):
    code: str
    host_token: str
    invite: str
    commitment: str


class Claim(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A display name: 1 to 40 characters, no control or bidirectional-control characters
    (docs/protocol.md, "Text")."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=p.MAX_NAME_CHARS)]
    # the player's part of the dice seed (docs/fairness.md); without it the seat must
    # send a `contribute` message before the game begins, or the server makes one for it
    contribution: (
        Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_CONTRIBUTION_CHARS)] | None
    ) = None


class Claimed(msgspec.Struct, frozen=True):
    seat: int
    token: str


class LobbyRoom(msgspec.Struct, frozen=True):
    code: str
    game: str
    status: str
    seats: tuple[p.SeatInfo, ...]
    invite: str


async def _hub(request: Request[Any, Any, Any] | WebSocket[Any, Any, Any]) -> Hub:
    """The rooms of this process, once they are up: a request that comes while the
    storage is still starting waits for it (see :func:`create_app`)."""
    return await _hub_of(request.app)


async def _hub_of(app: Litestar) -> Hub:
    hub: Hub | None = getattr(app.state, "hub", None)
    if hub is None:
        await asyncio.shield(app.state.up.wait())
        hub = getattr(app.state, "hub", None)
        if hub is None:  # the storage could not start: as a database outage
            raise StorageUnavailableError(UNAVAILABLE)
    return hub


async def _room(request: Request[Any, Any, Any], code: str) -> Room:
    room = await (await _hub(request)).room(code)
    if room is None:
        raise RoomError(404, "no_room", _("there is no such room"))
    return room


def _bearer(request: Request[Any, Any, Any]) -> str:
    value = request.headers.get("authorization", "")
    scheme, _sep, token = value.partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise RoomError(401, "not_host", _("send the host token as 'Authorization: Bearer …'"))
    return token.strip()


# ----- API ----------------------------------------------------------------------------------
@get("/api/games", responses=error_responses("GET"), summary="The games, their options and bots")
async def list_games() -> list[GameOut]:
    out = []
    for entry in registry.available():
        info = entry.game.info
        out.append(
            GameOut(
                id=entry.id,
                name=entry.name,
                summary=info.summary,
                min_players=info.min_players,
                max_players=info.max_players,
                seat_noun=info.seat_noun,
                options=tuple(
                    OptionInfo(
                        o.name,
                        o.kind,
                        o.help,
                        o.default,
                        o.choices,
                        o.minimum,
                        o.maximum,
                        dict(o.seats),
                        _catalogue_out(entry, o.name),
                    )
                    for o in info.options
                ),
                # the summaries are marked (N_) where the games define them: said in the
                # request's language, as the lobby and the seats show them
                bots=tuple(BotOut(b.name, _(b.summary)) for b in entry.bot_infos.values()),
                hints=info.advisor is not None,
                odds=info.odds is not None,
            )
        )
    return out


def _catalogue_out(entry: registry.GameEntry, option: str) -> CatalogueOut | None:
    info = catalogue_of(entry, option)
    if info is None:
        return None
    url = catalogue_url(entry.id, option)
    return CatalogueOut(url, info.noun, info.defaults, info.default_label, info.default_language)


@get(
    "/api/games/{game:str}/catalogues/{option:str}",
    responses=error_responses("GET"),
    summary="The entries a catalogue option of a game may name (its value is an entry's id)",
)
async def game_catalogue(game: FromPath[str], option: FromPath[str]) -> list[CatalogueEntry]:
    return await _catalogue_entries(game, option)


async def _catalogue_entries(game: str, option: str) -> list[CatalogueEntry]:
    try:
        entry = registry.get(game)
    except GamenightError as exc:
        raise RoomError(404, "bad_game", str(exc)) from None
    info = catalogue_of(entry, option)
    if info is None:
        raise RoomError(
            404,
            "not_found",
            _("{id} has no catalogue option '{option}'").format(id=entry.id, option=option),
        )
    return list(await asyncio.to_thread(entries, info))


@get(
    "/api/games/{game:str}/rules",
    responses=error_responses("GET"),
    summary="A game's full rules (Markdown), in `lang` (en, de, pl; English if missing)",
)
async def game_rules(game: FromPath[str], lang: FromQuery[str] = "en") -> Response[str]:
    try:
        wanted = check_language(lang)
    except LanguageError as exc:
        raise RoomError(400, "bad_request", str(exc)) from None
    try:
        shown, text = registry.get(game).rules_in(wanted)
    except GamenightError as exc:
        raise RoomError(404, "bad_game", str(exc)) from None
    return Response(
        text, media_type="text/markdown; charset=utf-8", headers={"Content-Language": shown}
    )


@get(
    "/api/games/{game:str}/schema",
    responses=error_responses("GET"),
    summary="JSON Schema of a game's actions, views and events (docs/schemas/<game>.json)",
)
async def game_schema(game: FromPath[str]) -> dict[str, Any]:
    try:
        entry = registry.get(game)
    except GamenightError as exc:
        raise RoomError(404, "bad_game", str(exc)) from None
    return schema.game_schema(entry.game)


@post("/api/rooms", summary="Create a room", status_code=201, responses=error_responses("POST"))
async def create_room(request: Request[Any, Any, Any], data: JSONBody[CreateRoom]) -> CreatedRoom:
    room, host_token = await (await _hub(request)).create(data)
    return CreatedRoom(room.code, host_token, f"/r/{room.code}", room.commitment)


@get("/api/rooms", responses=error_responses("GET"), summary="The lobby: open public rooms")
async def lobby(request: Request[Any, Any, Any]) -> list[LobbyRoom]:
    return await _lobby_rooms(await _hub(request))


async def _lobby_rooms(hub: Hub) -> list[LobbyRoom]:
    out = []
    for code, _game, _status, _created in await hub.store.public_rooms():
        room = await hub.room(code)
        if room is not None and room.status in OPEN:
            info = room.info()
            out.append(LobbyRoom(code, info.game, info.status, info.seats, f"/r/{code}"))
    return out


@get("/api/rooms/{code:str}", responses=error_responses("GET"), summary="One room")
async def room_info(request: Request[Any, Any, Any], code: FromPath[str]) -> p.RoomInfo:
    return (await _room(request, code)).info()


@post(
    "/api/rooms/{code:str}/seats/{seat:int}/claim",
    summary="Claim a seat",
    status_code=200,
    responses=error_responses("POST"),
)
async def claim_seat(
    request: Request[Any, Any, Any], code: FromPath[str], seat: FromPath[int], data: JSONBody[Claim]
) -> Claimed:
    room = await _room(request, code)
    if room.status is Lifecycle.PLAYING:  # a seat the host freed during play
        token = await room.claim_freed(seat, data.name)
    else:
        token = await room.claim(seat, data.name, data.contribution)
    return Claimed(seat, token)


@post(
    "/api/rooms/{code:str}/seats/{seat:int}/release",
    summary="Free a seat (host)",
    status_code=200,
    responses=error_responses("POST"),
)
async def release_seat(
    request: Request[Any, Any, Any], code: FromPath[str], seat: FromPath[int]
) -> p.RoomInfo:
    room = await _room(request, code)
    await room.release(_bearer(request), seat)
    return room.info()


@post(
    "/api/rooms/{code:str}/start",
    summary="Start with bots in empty seats (host)",
    status_code=200,
    responses=error_responses("POST"),
)
async def start_room(request: Request[Any, Any, Any], code: FromPath[str]) -> p.RoomInfo:
    room = await _room(request, code)
    await room.start_game(_bearer(request))
    return room.info()


@get(
    "/api/rooms/{code:str}/record",
    responses=error_responses("GET"),
    summary="The finished game's record (JSON Lines)",
    media_type="application/x-ndjson",
)
async def download_record(request: Request[Any, Any, Any], code: FromPath[str]) -> Response[str]:
    room = await _room(request, code)
    text = room.record()
    return Response(
        text,
        media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="{room.entry.id}-{code}.jsonl"'},
    )


@get(
    "/api/protocol/schema",
    responses=error_responses("GET"),
    summary="JSON Schema of the WebSocket protocol",
)
async def protocol_schema() -> dict[str, Any]:
    return p.json_schema()


# ----- the socket ---------------------------------------------------------------------------
@websocket("/ws/{code:str}")
async def socket_handler(socket: WebSocket[Any, Any, Any], code: FromPath[str]) -> None:
    config: Config = socket.app.state.config
    # This socket's human text (errors, notes) is in its language: ?lang=, else the
    # handshake's Accept-Language (server/words.py); codes stay language-neutral.
    set_language(language_of(socket.query_params, socket.headers.get("accept-language")))
    if not connection_origin_allowed(socket, config.extra_origins):
        await socket.close(code=4403, reason="origin not allowed")
        return
    await socket.accept()
    conn: Conn | None = None
    writer: asyncio.Task[None] | None = None
    room: Room | None = None
    try:
        hub = await _hub(socket)
        room = await hub.room(code)
        if room is None:
            await _send(socket, p.Error(code="closed", message=_("there is no such room")))
            await socket.close(code=4404)
            return
        joined = await _handshake(socket, hub, room)
        if joined is None:
            return
        conn, keys = joined
        writer = asyncio.create_task(_writer(socket, conn))
        await _reader(socket, hub, room, conn, keys)
    except (WebSocketDisconnect, TimeoutError):
        pass  # gone, or no hello in time: nothing to log
    except StorageUnavailableError as exc:  # the database is down: not a bug
        refused(f"a socket of room {code[:32]}", exc)
        with contextlib.suppress(Exception):
            await _send(socket, unavailable(exc, None))
            await socket.close(code=1013)  # try again later
    except Exception as exc:  # a bug: logged once (bounded), the socket closed as failed
        ident = failures(exc, f"room {code}, socket")
        with contextlib.suppress(Exception):
            failed = f"the server failed (request {ident})"
            await _send(socket, p.Error(code="internal", message=failed))
            await socket.close(code=1011)
    finally:
        if conn is not None and room is not None:
            await room.leave(conn)
        if writer is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 2)
        with contextlib.suppress(Exception):
            await socket.close()


async def _send(socket: WebSocket[Any, Any, Any], message: p.Message) -> None:
    await socket.send_text(p.encode(message).decode("utf-8"))


def _throttle_keys(socket: WebSocket[Any, Any, Any], hello: p.Hello) -> list[tuple[str, str]]:
    client = socket.client
    keys = [("address", client.host if client is not None else "")]
    if hello.token is not None:
        keys.append(("token", token_hash(hello.token)))
    return keys


async def _handshake(
    socket: WebSocket[Any, Any, Any], hub: Hub, room: Room
) -> tuple[Conn, list[tuple[str, str]]] | None:
    throttle: ReconnectThrottle = socket.app.state.throttle
    for _attempt in range(5):
        raw = await asyncio.wait_for(socket.receive_data(mode="text"), HELLO_TIMEOUT)
        try:
            message = p.decode_client(raw)
        except p.ProtocolError as exc:
            await _send(socket, p.Error(code=exc.code, message=exc.message, id=exc.id))
            continue
        if not isinstance(message, p.Hello):
            request = getattr(message, "id", None)
            await _send(
                socket, p.Error(code="hello_first", message=_("send hello first"), id=request)
            )
            continue
        keys = _throttle_keys(socket, message)
        wait = throttle.admit(keys)
        if wait:
            refusal = f"reconnecting too often: wait {wait:.0f} s before the next hello"
            await _send(socket, p.Error(code="rate_limited", message=refusal))
            await socket.close(code=1008)
            return None
        try:
            return await room.join(message), keys
        except RoomError as exc:
            await _send(socket, p.Error(code=exc.code, message=exc.message))  # type: ignore[arg-type]
            await socket.close(code=4403)
            return None
        # Any other failure of join registered nothing: the socket handler answers it
        # (an outage `unavailable` and 1013, a bug `internal` and 1011, logged once).
    await socket.close(code=1008)
    return None


async def _writer(socket: WebSocket[Any, Any, Any], conn: Conn) -> None:
    while True:
        frame = await conn.queue.get()
        if frame is None:
            with contextlib.suppress(Exception):
                await socket.close(code=1008 if conn.strikes else 1000)
            return
        try:
            await socket.send_text(frame.decode("utf-8"))
        except Exception:
            conn.close()
            return


async def _reader(
    socket: WebSocket[Any, Any, Any],
    hub: Hub,
    room: Room,
    conn: Conn,
    keys: list[tuple[str, str]],
) -> None:
    while not conn.closed:
        raw = await socket.receive_data(mode="text")
        message: p.ClientMessage | None
        try:
            message = p.decode_client(raw)
            request = getattr(message, "id", None)
        except p.ProtocolError as exc:
            message, request = None, exc.id
            refusal = p.Error(code=exc.code, message=exc.message, id=exc.id)
        if not conn.messages.take():
            conn.strikes += 1
            conn.send(p.Error(code="rate_limited", message=_("too many messages"), id=request))
            if conn.strikes >= hub.config.abuse_limit:
                socket.app.state.throttle.penalise(keys)  # no quick way back in
                conn.close()  # a persistent abuser
            continue
        if message is None:
            conn.send(refusal)
            continue
        reply: p.Message | None
        try:
            reply = await room.handle(conn, message)  # the room's handler for its type
        except Exception as exc:
            ident = failures(exc, f"room {room.code}, {type(message).__name__}")
            failed = f"the server failed (request {ident}); nothing changed"
            reply = p.Error(code="internal", message=failed, id=request)
        if reply is not None:
            conn.send(reply)


# ----- the app --------------------------------------------------------------------------------
def _storage(config: Config) -> type[Hub]:
    """Import the rooms and the storage (SQLAlchemy) and bring the schema to its head: the
    slow part of a start, run in a thread while the app already answers."""
    from gamenight.server.db import migrate
    from gamenight.server.rooms import Hub

    migrate(config.db_url)
    return Hub


async def _bring_up(app: Litestar, config: Config) -> None:
    """The storage and the rooms, in the background (:func:`create_app`)."""
    hub: Hub | None = None
    try:
        hub_class = await asyncio.to_thread(_storage, config)
        from gamenight.server.db import Store

        hub = hub_class(Store(config.db_url), config)
        await hub.start()
        app.state.hub = hub
    except asyncio.CancelledError:
        if hub is not None:  # stopped while restoring: what started is stopped too
            await _close(hub)
        raise
    except Exception as exc:
        app.state.failed = first_line(exc)
        # one line: a damaged database or a refused connection is the operator's input;
        # the traceback only at debug level
        log.debug("the start's traceback", exc_info=exc)
        if hub is not None:
            with contextlib.suppress(Exception):
                await _close(hub)
        on_failure = getattr(app.state, "on_failure", None)
        if on_failure is not None:
            on_failure()  # its owner says why (serve: one line, status 3)
        else:
            log.error("the storage and the rooms could not start: %s", app.state.failed)
    finally:
        app.state.up.set()


async def _close(hub: Hub) -> None:
    """Stop the rooms' tasks and bots, then the storage."""
    await hub.stop()
    await hub.store.close()


def _unavailable(
    request: Request[Any, Any, Any], exc: StorageUnavailableError
) -> Response[Problem]:
    refused(f"{request.method} {request.url.path[:80]}", exc)
    return Response(
        Problem("unavailable", UNAVAILABLE),
        status_code=503,
        headers={"Retry-After": str(exc.retry_after)},
    )


def create_app(config: Config) -> Litestar:
    """The ASGI app for ``config``.

    It answers as soon as it listens: the storage (SQLAlchemy, the migration check) and
    the rooms (rebuilt from their logs) come up in the background, and every request
    that needs them waits until they are up; the pages and static files do not (issue
    29's start). If they cannot come up, the requests that need them are refused as in
    a database outage (503, ``unavailable``) and ``app.state.failed`` says why; the
    callable ``app.state.on_failure``, if set, is then called (``serve`` stops the
    process with status 3)."""

    async def startup(app: Litestar) -> None:
        app.state.config = config
        app.state.up = asyncio.Event()
        app.state.failed = None
        app.state.services = lambda: _hub_of(app)  # the pages' way to the rooms (web)
        app.state.throttle = ReconnectThrottle(
            {
                "token": (config.reconnect_rate, config.reconnect_burst),
                "address": (config.address_rate, config.address_burst),
            }
        )
        app.state.bring_up = asyncio.create_task(_bring_up(app, config))

    async def shutdown(app: Litestar) -> None:
        task: asyncio.Task[None] | None = getattr(app.state, "bring_up", None)
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        hub: Hub | None = getattr(app.state, "hub", None)
        if hub is not None:
            await _close(hub)

    return Litestar(
        route_handlers=[
            list_games,
            game_catalogue,
            game_rules,
            game_schema,
            create_room,
            lobby,
            room_info,
            claim_seat,
            release_seat,
            start_room,
            download_record,
            protocol_schema,
            *web.route_handlers(PAGE_HEADERS),  # the browser front end (gamenight.web)
            socket_handler,
        ],
        on_startup=[startup],
        on_shutdown=[shutdown],
        before_request=check_request,
        exception_handlers={
            RoomError: handle_refused,
            HTTPException: handle_http,
            Exception: handle_crash,
            StorageUnavailableError: _unavailable,
        },
        openapi_config=OpenAPIConfig(
            title="gamenight", version=__version__, path="/schema", description=__doc__
        ),
        request_max_body_size=64 * 1024,
    )
