"""Following another process's actions from its notification (issue 38, item 7).

On PostgreSQL the process that logs an action tells the others in the same statement
(NOTIFY, ``db._PgWriter``), and the payload carries the action itself::

    <process tag> <room code> act <seq> <seat> <action JSON>

so that a process holding the room for the other seat's sockets does not read the log
and replay it: it applies the action to its own table (the rules are deterministic and
the dice are in the state, so this is the acting process's step) and its own sockets
get their frames from its one listener, as for an action played here. When a batch's
payloads would pass PostgreSQL's limit (8000 bytes) the later ones say only
``<tag> <code> act <seq>``, and the log is read.

One truth: the action goes through ``Table.submit`` with its seq checked, and only when
the table is exactly one action behind and no catch-up is running (the room's lock is
free). Anything else (a gap, since a notification may be lost; a payload without the
action; an action that does not decode) reads the log instead, which is the truth;
``Config.resync`` re-reads every room's seq too, so a room whose notification never
came catches up all the same.

>>> from types import SimpleNamespace as R
>>> payloads([R(notify="ab12 ROOM act", seq=3, seat=1, action='{"type":"roll"}')])
['ab12 ROOM act 3 1 {"type":"roll"}']
>>> payloads([R(notify=None, seq=3, seat=1, action="{}")])
['']
>>> payloads([R(notify="t c act", seq=1, seat=0, action='"' + "x" * 9000 + '"')])
['t c act 1']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import msgspec

from gamenight.core.table import Table
from gamenight.server import metrics
from gamenight.server.lifecycle import Lifecycle

# PostgreSQL refuses a NOTIFY payload of 8000 bytes or more; a batch's payloads are
# joined by "|" into one
NOTIFY_LIMIT = 7900
# "|" joins a batch's payloads; in JSON it can only be inside a string, where \u007c
# stands for it
_BAR = "\\u007c"


class _Append(Protocol):
    @property
    def notify(self) -> str | None: ...
    @property
    def seq(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def action(self) -> str: ...


def payloads(batch: Sequence[_Append]) -> list[str]:
    """The NOTIFY payload of each append of a batch ("" for none): every one says its
    seq, and as many as fit within :data:`NOTIFY_LIMIT` carry the seat and the action."""
    short = [f"{r.notify} {r.seq}" if r.notify else "" for r in batch]
    used = sum(len(s.encode()) + 1 for s in short if s)
    out = list(short)
    for i, r in enumerate(batch):
        if not r.notify:
            continue
        full = f"{short[i]} {r.seat} {r.action.replace('|', _BAR)}"
        grown = len(full.encode()) - len(short[i].encode())
        if used + grown <= NOTIFY_LIMIT:
            out[i] = full
            used += grown
    return out


class FollowingRoom(Protocol):
    """A room as following sees it (``room.Room``)."""

    @property
    def status(self) -> Lifecycle: ...
    @property
    def table(self) -> Table | None: ...
    @property
    def game(self) -> Any: ...
    def is_catching_up(self) -> bool: ...
    def after_followed(self) -> None: ...


def follow(room: FollowingRoom, detail: str) -> bool:
    """Apply the action another process logged, from ``detail`` (the payload after
    ``act``: ``<seq> [<seat> <action JSON>]``). True if the room has it now (applied
    here, or had it already); False if the log must be read."""
    seq_text, _, rest = detail.partition(" ")
    table = room.table
    if table is None or room.status is not Lifecycle.PLAYING or not seq_text.isdigit():
        return False
    seq = int(seq_text)
    if seq <= table.seq:
        return True  # read with the log already
    if seq != table.seq + 1 or not rest or room.is_catching_up():
        return False  # a gap (a notification lost), no action in it, or a read running
    seat_text, _, action = rest.partition(" ")
    try:
        decoded = room.game.decode_action(msgspec.json.decode(action))
        table.submit(int(seat_text), decoded, expected_seq=seq - 1)
    except Exception:  # the log is the truth: read it
        return False
    metrics.FOLLOWED_NOTIFIED.inc()
    room.after_followed()
    return True
