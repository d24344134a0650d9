"""The WebSocket protocol: versioned messages as msgspec structs.

Every frame is one JSON object with a ``"type"`` field (the tag). A client
opens ``/ws/<room code>`` and sends :class:`Hello` first; the server answers
with a :class:`Snapshot` and from then on pushes :class:`Events`,
:class:`ChatOut`, :class:`RoomUpdate` (and :class:`OddsOut` in rooms with odds
on) and answers requests with :class:`Ack`, :class:`Error`, :class:`AdviceOut`
or :class:`Pong`. Requests may carry an ``id`` that the answer echoes.

``docs/protocol.md`` documents it; :func:`json_schema` is generated from these
types and published at ``/api/protocol/schema`` and in
``docs/protocol-schema.json``.

>>> decode_client(b'{"type":"ping","id":3}')
Ping(id=3)
>>> decode_client(b'{"type":"act","action":{"type":"stop"},"expected_seq":4}').expected_seq
4
>>> encode(Error(code="stale", message="old")).decode()
'{"type":"error","code":"stale","message":"old"}'
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

import msgspec

from gamenight.core import text
from gamenight.core.errors import GamenightError
from gamenight.core.odds import Odds

PROTOCOL_VERSION = 1
MAX_FRAME_BYTES = 16 * 1024
MAX_CHAT_CHARS = 300
MAX_NAME_CHARS = text.MAX_NAME_CHARS  # one limit in every front end
MAX_DEPTH = 32  # arrays and objects nested deeper than this are refused (frames and bodies)
MAX_ID = 2**53 - 1  # request ids: 0 to the largest integer a JavaScript number holds exactly
MAX_SEQ = 2**31 - 1  # seqs and protocol versions

RequestId = Annotated[int, msgspec.Meta(ge=0, le=MAX_ID)]
# a room's code as the server makes them (secrets.token_urlsafe): never anything else
RoomCode = Annotated[str, msgspec.Meta(pattern="^[A-Za-z0-9_-]{1,64}$")]
Seq = Annotated[int, msgspec.Meta(ge=0, le=MAX_SEQ)]

# Stable error codes (clients switch on these; messages are for people).
ErrorCode = Literal[
    "bad_message",  # not JSON, or not a valid message of this protocol
    "too_large",  # frame over MAX_FRAME_BYTES
    "unknown_type",  # a "type" this protocol does not have
    "protocol_version",  # Hello with another protocol version
    "hello_first",  # anything but Hello before the Hello
    "bad_token",  # unknown, foreign or revoked seat token
    "spectators_off",  # the room does not allow spectators
    "not_seated",  # a spectator tried to act, ask for a hint...
    "not_started",  # the room is still waiting for players
    "finished",  # the game is over
    "closed",  # the room was closed
    "stale",  # expected_seq is not the table's seq
    "illegal",  # malformed or illegal action (message says why)
    "hints_off",  # the room does not give hints
    "no_advice",  # the game cannot advise here
    "chat_invalid",  # empty or too long
    "bad_contribution",  # not a valid contribution, already made, or the game has begun
    "rate_limited",  # too many messages or hellos: wait retry_after seconds
    "unavailable",  # the database is down or full; nothing changed: retry after retry_after
    "room_unavailable",  # the room cannot be opened now (its game's plug-in is missing...)
    "internal",  # the server failed; nothing changed
    "not_finished",  # a rematch offered before the game is over
    "cannot_undo",  # nothing of this seat's to take back (dice thrown or something revealed since)
    "not_late",  # a "late" choice when no other seat is late, from the late seat or a room
    # that is not turn-based
]


# who made a move for its seat (Events.by)
Mover = Literal["human", "bot", "clock"]


class Message(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, tag_field="type"):
    """Base of every message."""


# ----- client -> server ---------------------------------------------------------------------
class ClientMessageBase(Message, frozen=True, forbid_unknown_fields=True):
    """Client messages refuse unknown fields: a request means exactly what it says."""


class Hello(ClientMessageBase, frozen=True, tag="hello"):
    """First message: protocol version, the seat token (none: watch as a spectator) and
    the last seq this client has seen (-1: nothing, send every event since the start)."""

    protocol: Annotated[int, msgspec.Meta(ge=0, le=MAX_SEQ)]
    token: str | None = None
    last_seq: Annotated[int, msgspec.Meta(ge=-1, le=MAX_SEQ)] = -1


class Act(ClientMessageBase, frozen=True, tag="act"):
    """One action (the game's action JSON) for the position ``expected_seq``."""

    action: Any
    expected_seq: Seq
    id: RequestId | None = None


class HintRequest(ClientMessageBase, frozen=True, tag="hint"):
    """Ask for the Advice of the own seat's position (rooms with hints on)."""

    id: RequestId | None = None


class ChatIn(ClientMessageBase, frozen=True, tag="chat"):
    """A chat line: plain text, at most MAX_CHAT_CHARS characters."""

    text: str
    id: RequestId | None = None


class Ping(ClientMessageBase, frozen=True, tag="ping"):
    id: RequestId | None = None


class Contribute(ClientMessageBase, frozen=True, tag="contribute"):
    """The seat's part of the dice seed (docs/fairness.md): once, while the room waits,
    unless the claim carried it. 1 to 200 characters, no control characters: checked
    by the room (``seeds.check_contribution``), so that a value out of bounds is a
    ``bad_contribution`` like any other refused value, not a ``bad_message``."""

    value: str
    id: RequestId | None = None


class RematchIn(ClientMessageBase, frozen=True, tag="rematch"):
    """Offer everyone at the table the rematch ``code`` (a room this client made with the
    same seats) once the game is over; answered by ``ack`` and sent to all as ``rematch``."""

    code: RoomCode
    id: RequestId | None = None


class UndoIn(ClientMessageBase, frozen=True, tag="undo"):
    """Take back this seat's last move (the game's undo rule: no dice thrown and nothing
    revealed since) for position ``expected_seq``; answered by ``ack`` (the new seq) or
    ``error`` ``cannot_undo``."""

    expected_seq: Seq
    id: RequestId | None = None


class LateIn(ClientMessageBase, frozen=True, tag="late"):
    """A turn-based room (issue 44): a seat whose clock ran out is late; another player
    chooses to let the clock keep running (``wait``: the late player may still move) or
    to let a bot make the late player's move now (``bot``)."""

    choice: Literal["wait", "bot"]
    id: RequestId | None = None


ClientMessage = Hello | Act | HintRequest | ChatIn | Ping | Contribute | RematchIn | UndoIn | LateIn


# ----- server -> client ---------------------------------------------------------------------
class SeatInfo(msgspec.Struct, frozen=True, kw_only=True):
    """One seat as everyone may see it."""

    seat: int
    kind: Literal["human", "bot"]
    bot: str = ""  # the bot's name (a bot seat)
    name: str = ""  # the display name (plain text), "" while unclaimed
    claimed: bool = False
    connected: bool = False
    takeover: bool = False  # a bot is playing this human's seat now
    stand_in: str = ""  # the bot playing in place of ``bot`` (or the takeover bot) for now
    contributed: bool = False  # the seat has added its part of the dice seed


class ContributionInfo(msgspec.Struct, frozen=True, kw_only=True):
    """One seat's part of the dice seed, shown once the game is over."""

    seat: int
    by: Literal["player", "server", "bot"]
    value: str | None


class LateChoice(msgspec.Struct, frozen=True, kw_only=True):
    """``by`` (a seat) chose ``choice`` for the late ``seat``: "wait" (the clock keeps
    running) or "bot" (a bot made the late seat's move; its actions are ``by: "clock"``).
    Clients say it in their own words (the web's catalogues: en/de/pl)."""

    seat: int
    by: int
    choice: Literal["wait", "bot"]
    at: float  # the server's clock when it was chosen


class SeatClock(msgspec.Struct, frozen=True, kw_only=True):
    """A seat's clock in a turn-based room: its bank, and if it is to act, since when,
    until when (epoch seconds) and whether it is late (its deadline has passed)."""

    seat: int
    bank: float  # seconds it may still run over move_time in all
    since: float | None = None  # null: not to act
    deadline: float | None = None
    late: bool = False


class TurnClock(msgspec.Struct, frozen=True, kw_only=True):
    """The clock of a turn-based room (RoomInfo.clock): ``now`` is the server's time
    when this was sent (a client counts from it, not from its own clock); ``choice``
    the other players' latest choice about a late seat, if any."""

    now: float
    move_time: int
    seats: tuple[SeatClock, ...]
    choice: LateChoice | None = None


class RoomInfo(msgspec.Struct, frozen=True, kw_only=True):
    """The room as everyone may see it. ``seed`` is null until the game is finished."""

    code: str
    game: str
    rules_version: str  # with seed, game and options it makes the commitment
    options: dict[str, Any]
    room_options: dict[str, Any]
    public: bool
    status: Literal["waiting", "playing", "finished", "closed", "broken"]
    seats: tuple[SeatInfo, ...]
    commitment: str
    # "players-v2" (and "players-v1", rooms from before server parts were derived): the
    # dice seed is derived from the seed and every seat's contribution;
    # "server": the seed is the dice seed (a room from before player entropy)
    entropy: str = "server"
    seed: str | None = None
    contributions: tuple[ContributionInfo, ...] | None = None  # once finished (players-v1)
    seq: int = 0
    results: Any = None
    notes: tuple[str, ...] = ()
    spectators: int = 0  # sockets open without a seat (people watching)
    pace: Literal["live", "turn-based"] = "live"  # RoomOptions.pace (issue 44)
    clock: TurnClock | None = None  # turn-based rooms being played: every seat's clock


class StampedEvent(msgspec.Struct, frozen=True):
    """An event and the seq of the action that caused it (0: the start)."""

    seq: int
    event: Any


class Snapshot(Message, frozen=True, tag="snapshot", omit_defaults=False):
    """The answer to Hello: who you are, the room, your view and what you missed."""

    protocol: int
    seat: int | None  # null: a spectator
    room: RoomInfo
    seq: int
    view: Any = None  # null while the room is waiting
    legal: tuple[Any, ...] = ()
    to_act: tuple[int, ...] = ()
    finished: bool = False
    results: Any = None
    events: tuple[StampedEvent, ...] = ()  # missed since Hello.last_seq, filtered for you
    chat: tuple[ChatOut, ...] = ()  # the latest chat lines
    odds: OddsOut | None = None  # rooms with odds on: the latest odds message sent
    # rooms with a turn clock: seconds left on the current decision's clock when this was
    # sent (null: no clock running)
    clock_left: float | None = None
    rematch: RematchOut | None = None  # the latest rematch offered at this table, if any
    undo: bool = False  # you may take back your last move now (as in Events)


class Events(Message, frozen=True, tag="events", omit_defaults=False):
    """What action ``seq`` caused, as this seat may see it, and the position after it."""

    seq: int
    events: tuple[Any, ...]
    view: Any
    legal: tuple[Any, ...] = ()
    to_act: tuple[int, ...] = ()
    finished: bool = False
    results: Any = None
    seat: int | None = None  # who acted
    action: Any = None  # what they did, in its public form (Game.public_action)
    # rooms with a turn clock: seconds on the new decision's clock (it starts with this
    # frame); null: no clock running (none set, or the game is over)
    clock_left: float | None = None
    # who made the move for ``seat`` (issue 40): "human" (its player), "bot" (its bot, or a
    # bot playing for a player away), "clock" (the turn clock ran out: a bot moved for the
    # player once); null when not known (a server before this field)
    by: Mover | None = None
    # you may take back your last move now (``undo``): it was yours, made by you (not a
    # bot or the clock), threw no dice and revealed nothing, and the decision is yours
    undo: bool = False


class Ack(Message, frozen=True, tag="ack"):
    """Your action is committed to the log as ``seq``."""

    seq: int
    id: int | None = None


class Error(Message, frozen=True, tag="error"):
    """A refused message; nothing changed. ``code`` is stable, ``message`` is for people."""

    code: ErrorCode
    message: str
    id: int | None = None
    # codes "unavailable" and "rate_limited": whole seconds to wait before sending again
    # (a refused hello: before the next hello)
    retry_after: int | None = None


class AdviceOut(Message, frozen=True, tag="advice"):
    """The game's Advice (gamenight.core.advice) for your position at ``seq``."""

    seq: int
    advice: Any
    id: int | None = None


class OddsOut(Message, frozen=True, tag="odds", omit_defaults=False):
    """Every seat's live chance to win after action ``seq`` (rooms with odds on), from the
    spectator view: the same for everyone. ``odds`` is null where the game has none to
    tell (the game is over)."""

    seq: int
    odds: Odds | None = None


class ChatOut(Message, frozen=True, tag="chat"):
    """A chat line as stored: plain text, never markup."""

    name: str
    text: str
    at: float
    seat: int | None = None
    id: int | None = None  # on the sender's copy: the id of its ChatIn


class RoomUpdate(Message, frozen=True, tag="room"):
    """The room changed: a seat was claimed, the game started or finished (the seed is
    revealed), a bot took a seat over, the room closed, or a note for everyone."""

    room: RoomInfo


class Pong(Message, frozen=True, tag="pong"):
    id: int | None = None


class Undone(Message, frozen=True, tag="undone", omit_defaults=False):
    """``seat`` took back their last move: the table is at ``seq`` again (one less than
    before), and this is your position there (as in :class:`Events`)."""

    seq: int
    seat: int
    view: Any
    legal: tuple[Any, ...] = ()
    to_act: tuple[int, ...] = ()
    finished: bool = False
    clock_left: float | None = None


class LateOut(Message, frozen=True, tag="late", omit_defaults=False):
    """To every socket of a turn-based room: a choice about a late seat was made (the
    room's clock, in the room frame that follows, says it too)."""

    choice: LateChoice
    id: RequestId | None = None  # the chooser's request, on their own copy


class RematchOut(Message, frozen=True, tag="rematch"):
    """``seat`` (named ``name``) offers everyone the rematch room ``code`` (made with the
    same seats: each player may take their own seat there)."""

    seat: int
    name: str
    code: str
    at: float


ServerMessage = (
    Snapshot
    | Events
    | Ack
    | Error
    | AdviceOut
    | OddsOut
    | ChatOut
    | RoomUpdate
    | Pong
    | Undone
    | RematchOut
    | LateOut
)

_client_decoder = msgspec.json.Decoder(ClientMessage)
_server_decoder = msgspec.json.Decoder(ServerMessage)
_encoder = msgspec.json.Encoder()


class ProtocolError(GamenightError):
    """A frame that is not a valid client message: ``code``, a one-line message and the
    frame's request ``id`` when one could be read from it."""

    def __init__(self, code: ErrorCode, message: str, id: int | None = None) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message
        self.id = id


class TooDeep(GamenightError, ValueError):
    """JSON nested deeper than :data:`MAX_DEPTH` (checked before it is parsed)."""


_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(rb"[\[\]{}]")


def check_depth(data: bytes, limit: int = MAX_DEPTH) -> None:
    """Refuse JSON whose arrays and objects nest deeper than ``limit``, without parsing it
    (the parsers recurse: a deep enough document overflows the stack). Every socket frame
    and every HTTP body passes here first.

    >>> check_depth(b'{"a": [[1], "]]]"]}')
    >>> check_depth(b"[" * 40 + b"]" * 40)
    Traceback (most recent call last):
    ...
    gamenight.server.protocol.TooDeep: JSON nested deeper than 32 levels
    """
    if data.count(b"[") + data.count(b"{") <= limit:
        return  # cannot be that deep: the common case costs two scans in C
    depth = 0
    for bracket in _BRACKETS.findall(_STRING.sub(b"", data)):
        if bracket in b"[{":
            depth += 1
            if depth > limit:
                raise TooDeep(f"JSON nested deeper than {limit} levels")
        else:
            depth -= 1


class _IdProbe(msgspec.Struct):
    id: Any = None


_probe = msgspec.json.Decoder(_IdProbe)
_ID_TEXT = re.compile(rb'"id"\s*:\s*(\d{1,16})\s*[,}]')


def request_id(data: bytes) -> int | None:
    """The request id of a frame that may be invalid, read leniently: the top-level
    ``"id"`` if the frame is a JSON object, else the first ``"id": <integer>`` in its
    text; None unless it is an integer from 0 to :data:`MAX_ID`.

    >>> request_id(b'{"type":"act","expected_seq":"0","id":500}')
    500
    >>> request_id(b'{"type":"act","id":7,"action":' + b"[" * 99)
    7
    >>> request_id(b'{"id":true}') is None and request_id(b'{"id":1e400}') is None
    True
    """
    value: Any = None
    try:
        check_depth(data)
        value = _probe.decode(data).id
    except (GamenightError, msgspec.DecodeError):  # ValidationError is a DecodeError
        found = _ID_TEXT.search(data)
        value = None if found is None else int(found.group(1))
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_ID:
        return value
    return None


def decode_client(frame: bytes | str) -> ClientMessage:
    """A client message, or :class:`ProtocolError` (too large, too deep, malformed,
    unknown type) carrying the frame's request id when it has a readable one."""
    data = frame.encode("utf-8") if isinstance(frame, str) else frame
    if len(data) > MAX_FRAME_BYTES:
        raise ProtocolError(
            "too_large", f"messages are limited to {MAX_FRAME_BYTES} bytes", request_id(data)
        )
    try:
        check_depth(data)
        return _client_decoder.decode(data)
    except TooDeep as exc:
        raise ProtocolError("bad_message", f"malformed message: {exc}", request_id(data)) from None
    except msgspec.ValidationError as exc:
        text = str(exc)
        if "Invalid value" in text and "`$.type`" in text:
            code: ErrorCode = "unknown_type"
            message = f"unknown message type: {text}"
        else:
            code, message = "bad_message", f"malformed message: {text}"
        raise ProtocolError(code, message, request_id(data)) from None
    except msgspec.DecodeError as exc:
        raise ProtocolError("bad_message", f"not JSON: {exc}", request_id(data)) from None
    except RecursionError:  # cannot happen below MAX_DEPTH; never a traceback if it does
        raise ProtocolError("bad_message", "malformed message: nested too deep") from None


def decode_server(frame: bytes | str) -> ServerMessage:
    """A server message (clients and tests)."""
    return _server_decoder.decode(frame)


def encode(message: Message) -> bytes:
    return _encoder.encode(message)


def raw(value: Any) -> msgspec.Raw:
    """``value`` (a struct, a tuple of them...) as JSON, ready to embed in a message.

    Equal on the wire to the builtins ``to_json`` gives, without building them:

    >>> # raw() JSON where the type says int, on purpose
    >>> encode(Pong(id=7)) == encode(Pong(id=raw(7)))  # type: ignore[arg-type]
    True
    """
    return msgspec.Raw(_encoder.encode(value))


def raw_items(values: tuple[Any, ...]) -> Any:
    """A tuple field (``legal``...) as one pre-encoded JSON array (see :func:`raw`)."""
    return raw(values)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of both directions, generated from the message types."""
    (client, server), components = msgspec.json.schema_components(
        [ClientMessage, ServerMessage], ref_template="#/$defs/{name}"
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"gamenight WebSocket protocol, version {PROTOCOL_VERSION}",
        "description": "See docs/protocol.md. Frames are JSON objects tagged by 'type'.",
        "$defs": components,
        "properties": {"client_to_server": client, "server_to_client": server},
        "x-protocol-version": PROTOCOL_VERSION,
        "x-max-frame-bytes": MAX_FRAME_BYTES,
        "x-max-depth": MAX_DEPTH,
    }
