"""The action log's group commit: appends queue while a batch is written and go in
together, each still acknowledged only after its batch's commit."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class AppendRequest:
    """One action for the log, ready to write: the room moves from ``seq - 1`` to ``seq``
    (compare-and-set) and the log gets its row, or nothing happens (the room moved on).

    >>> AppendRequest(1, 2, 0, '{"type":"roll"}', "human", 0.0).finishes
    False
    """

    room_id: int
    seq: int
    seat: int
    action: str  # JSON text
    by: str  # human | bot | takeover
    at: float
    results: str | None = None  # JSON of the results if this action ends the game
    notify: str | None = None  # "<tag> <code> act" for the others (NOTIFY; follow.payloads)
    # a turn-based room (issue 44): the human seats to act after this action, whose
    # ``turns`` rows the same transaction writes (storage/turns.py); None: a live room
    to_act: tuple[int, ...] | None = None
    move_time: float = 0.0  # the room's RoomOptions.move_time (turn-based)

    @property
    def finishes(self) -> bool:
        return self.results is not None


# What a writer says of each request of a batch: True (logged), False (the room's log
# had moved on: Behind) or the exception that failed this request alone.
Outcome = bool | Exception


class Writer(Protocol):
    """Writes a batch of appends in one transaction; one outcome per request, in order.
    Raises if the batch failed as a whole (then nothing of it is logged)."""

    writers: int  # batches it can write at once (its slots)

    async def write(self, batch: Sequence[AppendRequest], slot: int) -> list[Outcome]: ...

    async def close(self) -> None: ...


@dataclass(slots=True)
class _Pending:
    """An append waiting for its batch's commit."""

    request: AppendRequest
    done: asyncio.Future[bool]


class GroupCommit:
    """Group commit of the action log: appends queue up while a write is running and
    then go in together, one transaction for the batch (the :class:`Writer`'s).

    Each append still waits for the commit of its batch, so an acknowledged action
    is a committed one. The compare-and-set on each room's seq keeps every room's
    log gapless across processes; a room that moved on fails alone (False).
    """

    MAX_BATCH = 200  # bounds a statement (and PostgreSQL's 8000-byte NOTIFY payload)

    def __init__(self, writer: Writer) -> None:
        self.writer = writer
        self.pending: list[_Pending] = []
        self.idle = list(range(writer.writers))  # free writer slots
        self.flushers: set[asyncio.Task[None]] = set()

    async def append(self, request: AppendRequest) -> bool:
        """True once ``request`` is committed; False if its room's log had moved on."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[bool] = loop.create_future()
        self.pending.append(_Pending(request, done))
        if self.idle:
            task = loop.create_task(self._flush(self.idle.pop()))
            self.flushers.add(task)
            task.add_done_callback(self.flushers.discard)
        return await done

    async def _flush(self, slot: int) -> None:
        try:
            while self.pending:
                batch = self.pending[: self.MAX_BATCH]
                del self.pending[: self.MAX_BATCH]
                try:
                    outcome = await self.writer.write([p.request for p in batch], slot)
                except Exception as exc:  # the whole batch failed: nobody is acknowledged
                    outcome = [exc] * len(batch)
                for result, pending in zip(outcome, batch, strict=True):
                    if pending.done.done():
                        continue
                    if isinstance(result, Exception):
                        pending.done.set_exception(result)
                    else:
                        pending.done.set_result(result)
        finally:
            self.idle.append(slot)

    async def close(self) -> None:
        await self.writer.close()
