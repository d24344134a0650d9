"""The Litestar app: HTTP API, the lobby page and the WebSocket.

HTTP (the OpenAPI document at ``/schema/openapi.json``; no API browser pages):

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
import time
from typing import TYPE_CHECKING, Annotated, Any

import msgspec
from litestar import Litestar, Request, Response, get, post, websocket
from litestar.config.compression import CompressionConfig
from litestar.connection import WebSocket
from litestar.exceptions import HTTPException, WebSocketDisconnect
from litestar.openapi.config import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin
from litestar.openapi.spec import OpenAPI, Schema
from litestar.openapi.spec import Parameter as OpenAPIParameter
from litestar.params import FromPath, FromQuery, JSONBody
from uvicorn.protocols.utils import ClientDisconnected

from gamenight import __version__, web
from gamenight.core import registry, schema
from gamenight.core.catalogue import CatalogueEntry
from gamenight.core.errors import GamenightError, StorageUnavailableError, first_line
from gamenight.core.i18n import _, set_language
from gamenight.core.languages import LANGUAGES, LanguageError, check_language
from gamenight.core.seeds import MAX_CONTRIBUTION_CHARS
from gamenight.server import metrics, yourturn
from gamenight.server import protocol as p
from gamenight.server.accounts import passkeys
from gamenight.server.accounts import routes as accounts
from gamenight.server.config import Config, CreateRoom, RoomOptions
from gamenight.server.faults import UNAVAILABLE, RoomError, refused, unavailable
from gamenight.server.guard import (
    Problem,
    ReconnectThrottle,
    allowed_hosts,
    before_send,
    cap_lower_logs,
    check_request,
    connection_origin_allowed,
    error_responses,
    failures,
    handle_crash,
    handle_http,
    handle_refused,
    host_allowed,
)
from gamenight.server.invite import invite_base
from gamenight.server.lifecycle import OPEN, Lifecycle
from gamenight.server.loading import RoomUnavailable
from gamenight.server.notify import routes as notify
from gamenight.server.options import catalogue_of, catalogue_url, entries
from gamenight.server.proxy import client_address
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
# gzip for the pages and the API's answers (brotli would need a dependency): the browser's
# files are gzipped once, ahead (gamenight.web.assets), so they are left out here
COMPRESSION = CompressionConfig(
    backend="gzip", minimum_size=512, gzip_compress_level=6, exclude=r"^/(v/[^/]+/)?static/"
)


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
    # "live" or "turn-based" (issue 44), and a turn-based room's seconds per move
    pace: str = "live"
    move_time: int | None = None


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
    # Litestar adds "; charset=utf-8" to a text media type itself
    return Response(text, media_type="text/markdown", headers={"Content-Language": shown})


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
        try:
            room = await hub.room(code)
        except RoomUnavailable:
            continue  # not listed while it cannot be opened
        if room is not None and room.status in OPEN:
            info = room.info()
            options = room.room_options
            invite = f"/r/{code}"
            row = (code, info.game, info.status, info.seats, invite)
            out.append(LobbyRoom(*row, options.pace, options.move_time))
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
    # signed in: the seat is the account's, written with its token (rated: signed in only)
    owner = await accounts.claimant(request, room.id, room.room_options.rated)
    if room.status is Lifecycle.PLAYING:  # a seat the host freed during play
        token = await room.claim_freed(seat, data.name, owner)
    else:
        token = await room.claim(seat, data.name, data.contribution, owner)
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
    if room.status in OPEN:  # another process may have finished it: catch up first
        await room.sync()
    movers = None
    if room.status is Lifecycle.FINISHED:  # who made each move: the log's "by"
        movers = [a.by for a in await room.services.store.actions_after(room.id, 0)]
    text = room.record(movers)
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


# ----- health and metrics (docs/deploy.md) -------------------------------------------------
@get("/healthz", include_in_schema=False, sync_to_thread=False)
def healthz() -> dict[str, str]:
    """The process is alive and answers (nothing else is looked at)."""
    return {"status": "ok"}


@get("/readyz", include_in_schema=False)
async def readyz(request: Request[Any, Any, Any]) -> Response[Any]:
    """The rooms are up and the database answers a trivial query."""
    hub: Hub | None = getattr(request.app.state, "hub", None)
    if hub is None:
        failed = getattr(request.app.state, "failed", None)
        why = "starting" if failed is None else f"the storage could not start: {failed}"
        return Response(Problem("unavailable", why), status_code=503)
    try:
        await hub.store.ping()
    except StorageUnavailableError as exc:
        return Response(Problem("unavailable", str(exc)), status_code=503)
    return Response({"status": "ready"})


@get("/metrics", include_in_schema=False, sync_to_thread=False)
def metrics_page() -> Response[bytes]:
    """Prometheus' text format (``--metrics off`` or ``--metrics-listen``: not here)."""
    return Response(metrics.scrape(), media_type=metrics.CONTENT_TYPE)


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
    if not host_allowed(socket.headers.get("host"), allowed_hosts(config)):
        await socket.close(code=4403, reason="host not allowed")
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
        room.conns.joining += 1  # no await since hub.room: not let go of before the hello
        try:
            joined = await _handshake(socket, hub, room)
        finally:
            room.conns.joining -= 1
        if joined is None:
            return
        conn, key = joined
        writer = asyncio.create_task(_writer(socket, conn))
        await _reader(socket, hub, room, conn, key)
    except (WebSocketDisconnect, TimeoutError, ClientDisconnected):
        pass  # gone (even while we answered), or no hello in time: nothing to log
    except RoomUnavailable as exc:  # not now (its plug-in is missing...): logged once
        with contextlib.suppress(Exception):
            await _send(socket, p.Error(code="room_unavailable", message=exc.message))
            await socket.close(code=1013)  # try again later
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


async def _read_message(socket: WebSocket[Any, Any, Any]) -> p.ClientMessage:
    """The next client message, or :class:`~gamenight.server.protocol.ProtocolError`: a
    binary frame is refused (the protocol is JSON text), with its request id if it has
    a readable one, like any other frame that is not a message."""
    event: dict[str, Any] = dict(await socket.receive())
    if event["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(detail="disconnect event", code=event.get("code", 1000))
    text: str | None = event.get("text")
    if text is None:
        data: bytes = (event.get("bytes") or b"")[: p.MAX_FRAME_BYTES]
        message = "binary frames are not read: send each message as a JSON text frame"
        raise p.ProtocolError("bad_message", message, p.request_id(data))
    return p.decode_client(text)


async def _send(socket: WebSocket[Any, Any, Any], message: p.Message) -> None:
    await socket.send_text(p.encode(message).decode("utf-8"))


def _throttle_key(socket: WebSocket[Any, Any, Any], hello: p.Hello, room: Room) -> tuple[str, str]:
    """What a hello counts against: its seat token when the room knows it, else (a
    spectator, a made-up token) its client address, so that a seat is never held back
    by tokenless hellos from its address (a flood, a shared proxy)."""
    if hello.token is not None and room.seat_for_token(hello.token) is not None:
        return ("token", token_hash(hello.token))
    return ("address", client_address(socket))


async def _handshake(
    socket: WebSocket[Any, Any, Any], hub: Hub, room: Room
) -> tuple[Conn, tuple[str, str]] | None:
    throttle: ReconnectThrottle = socket.app.state.throttle
    for _attempt in range(5):
        try:
            message = await asyncio.wait_for(_read_message(socket), HELLO_TIMEOUT)
        except p.ProtocolError as exc:
            await _send(socket, p.Error(code=exc.code, message=exc.message, id=exc.id))
            continue
        except TimeoutError:  # no hello in time: a policy close, not a normal one
            await socket.close(code=1008, reason="no hello in time")
            return None
        if not isinstance(message, p.Hello):
            request = getattr(message, "id", None)
            await _send(
                socket, p.Error(code="hello_first", message=_("send hello first"), id=request)
            )
            continue
        key = _throttle_key(socket, message, room)
        wait = throttle.admit(key)
        if wait:
            metrics.THROTTLED.labels("hello").inc()
            refusal = f"reconnecting too often: wait {wait} s before the next hello"
            await _send(socket, p.Error(code="rate_limited", message=refusal, retry_after=wait))
            await socket.close(code=1008)
            return None
        try:
            return await room.join(message), key
        except RoomError as exc:
            # RoomError's code is one of the protocol's, as a str
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
    key: tuple[str, str],
) -> None:
    while not conn.closed:
        message: p.ClientMessage | None
        try:
            message = await _read_message(socket)
            request = getattr(message, "id", None)
        except p.ProtocolError as exc:
            message, request = None, exc.id
            refusal = p.Error(code=exc.code, message=exc.message, id=exc.id)
        if not conn.messages.take():
            metrics.THROTTLED.labels("message").inc()
            conn.strikes += 1
            wait = conn.messages.retry_after()
            slow = p.Error(
                code="rate_limited", message=_("too many messages"), id=request, retry_after=wait
            )
            conn.send(slow)
            if conn.strikes >= hub.config.abuse_limit:
                socket.app.state.throttle.penalise(key)  # no quick way back in
                conn.close()  # a persistent abuser
            continue
        if message is None:
            conn.send(refusal)
            continue
        reply: p.Message | None
        began = time.perf_counter()
        try:
            reply = await room.handle(conn, message)  # the room's handler for its type
            if isinstance(reply, p.Ack) and isinstance(message, p.Act):
                metrics.ACKED.inc()
                metrics.ACK_SECONDS.observe(time.perf_counter() - began)
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
    from gamenight.server.headschema import migrate
    from gamenight.server.rooms import Hub

    migrate(config.db_url)
    return Hub


async def _bring_up(app: Litestar, config: Config) -> None:
    """The storage and the rooms, in the background (:func:`create_app`)."""
    hub: Hub | None = None
    try:
        hub_class = await asyncio.to_thread(_storage, config)
        from gamenight.server.storage.store import Store

        hub = hub_class(Store(config.db_url), config)
        await hub.start()
        app.state.hub = hub
        _start_notifier(app, config, hub)
        metrics.track(hub)
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


def _start_notifier(app: Litestar, config: Config, hub: Hub) -> None:
    """The notifications' sweep and delivery (server/notify), in the background."""
    from gamenight.server.notify.deliver import Channels, Notifier
    from gamenight.server.notify.mail import Smtp
    from gamenight.server.notify.store import NotifyStore

    smtp = (
        Smtp(
            config.smtp_host,
            config.smtp_port,
            config.smtp_user,
            config.smtp_password,
            config.smtp_from,
            config.smtp_ca,
        )
        if config.smtp_host
        else None
    )
    channels = Channels(config.public_url, smtp, config.notify_private)
    store = NotifyStore(hub.store.engine)
    # the rooms' clock (a test's shifted one too): notifications follow the turns' times;
    # read through the hub at each call, so a clock set on the running services counts
    notifier = app.state.notifier = Notifier(store, channels, clock=lambda: hub.services.clock())
    app.state.notify_task = asyncio.create_task(notifier.run(config.notify_every))


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


class App(Litestar):
    """The Litestar app, answering ``HEAD`` wherever it answers ``GET`` (the GET's
    status and headers, no body), and ``OPTIONS`` with every method of its path in
    ``Allow`` (Litestar's own lists those of one handler of the path only).

    Its OpenAPI document is built when first asked for (``/schema/openapi.json``), not
    at the start, where it took about a sixth of the time to the first answer (issue 46),
    and is then tightened (:func:`_tighten_document`)."""

    _tightened = False
    _document: dict[str, Any] | None = None

    @property
    def openapi_schema(self) -> OpenAPI:
        document = super().openapi_schema
        if not self._tightened:
            _tighten_document(document)
            self._tightened = True
        return document

    def openapi_document(self) -> dict[str, Any]:
        """The document as ``/schema/openapi.json`` serves it (made once)."""
        if self._document is None:
            self._document = self.openapi_schema.to_schema()
        return self._document

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope["method"] not in ("HEAD", "OPTIONS"):
            await super().__call__(scope, receive, send)
            return
        if scope["method"] == "OPTIONS":

            async def all_methods(message: Any) -> None:
                template = scope.get("path_template")
                if message["type"] == "http.response.start" and template is not None:
                    allow = ", ".join(sorted(self._methods(template)))
                    headers = [
                        (k, v) for k, v in message.get("headers", []) if k.lower() != b"allow"
                    ]
                    message = {**message, "headers": [*headers, (b"allow", allow.encode())]}
                await send(message)

            await super().__call__(scope, receive, all_methods)
            return

        async def headers_only(message: Any) -> None:
            if message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        as_get: Any = {**scope, "method": "GET"}
        await super().__call__(as_get, receive, headers_only)

    def _methods(self, template: str) -> set[str]:
        """The methods of the path ``template`` (with HEAD where there is GET)."""
        methods: set[str] = set()
        for route in self.routes:
            if template in (route.path, route.path_format):
                methods |= set(route.methods)
        return methods | ({"HEAD"} if "GET" in methods else set())


class _DocumentPlugin(JsonRenderPlugin):
    """``/schema/openapi.json``: the app's tightened document (:class:`App`)."""

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        # Litestar types request.app as Litestar; ours is always the App subclass
        app: App = request.app  # type: ignore[assignment]
        return self.render_json(request, app.openapi_document())


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
        cap_lower_logs()  # uvicorn's and the WebSocket layer's lines a client can cause
        app.state.config = config
        app.state.up = asyncio.Event()
        app.state.failed = None
        app.state.services = lambda: _hub_of(app)  # the pages' way to the rooms (web)
        # the room page's invite links (web): --public-url, else the browser's address
        app.state.invite_base = lambda request: invite_base(
            config, request.scope.get("scheme", "http"), request.headers.get("host")
        )
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
        notifying: asyncio.Task[None] | None = getattr(app.state, "notify_task", None)
        if notifying is not None:
            notifying.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await notifying
        hub: Hub | None = getattr(app.state, "hub", None)
        if hub is not None:
            await _close(hub)

    app = App(
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
            *accounts.ROUTES,  # optional accounts (server/accounts)
            *passkeys.ROUTES,
            *yourturn.ROUTES,  # the "your turn" list of turn-based rooms (issue 44)
            *notify.ROUTES,  # notifications (server/notify)
            *web.route_handlers(PAGE_HEADERS),  # the browser front end (gamenight.web)
            socket_handler,
            healthz,
            readyz,
            *([metrics_page] if config.metrics_route else []),
        ],
        on_startup=[startup],
        on_shutdown=[shutdown],
        before_request=check_request,
        before_send=[before_send],
        exception_handlers={
            RoomError: handle_refused,
            HTTPException: handle_http,
            Exception: handle_crash,
            StorageUnavailableError: _unavailable,
        },
        # the document only (/schema/openapi.json): no API browser pages, which would load
        # third-party scripts on the origin that keeps the seat tokens
        openapi_config=OpenAPIConfig(
            title="gamenight",
            version=__version__,
            path="/schema",
            description=__doc__,
            render_plugins=[_DocumentPlugin()],
        ),
        request_max_body_size=64 * 1024,
        compression_config=COMPRESSION,
        logging_config=None,  # the log's one format is the server's (server/logs.py)
    )
    return app


# request bodies refusing unknown fields
CLOSED_BODIES = (
    Claim,
    CreateRoom,
    RoomOptions,
    yourturn.HeldSeats,
    yourturn.HeldSeat,
    notify.Subscribe,
)


def _tighten_document(document: OpenAPI) -> None:
    """Say in the OpenAPI document what the server enforces and Litestar does not write:
    request bodies are closed objects (``additionalProperties: false``, they refuse
    unknown fields), and a ``lang`` parameter is one of the languages (a tag such as
    ``pl-PL`` is read as its language)."""
    schemas = document.components.schemas if document.components else {}
    for struct in CLOSED_BODIES:
        assert struct.__struct_config__.forbid_unknown_fields
        found = schemas.get(struct.__name__)
        if isinstance(found, Schema):
            found.additional_properties = False
    for item in (document.paths or {}).values():
        for operation in (item.get, item.post, item.put, item.patch, item.delete):
            for parameter in (operation.parameters or []) if operation else []:
                if (
                    isinstance(parameter, OpenAPIParameter)
                    and parameter.name == "lang"
                    and isinstance(parameter.schema, Schema)
                ):
                    parameter.schema.enum = list(LANGUAGES)
