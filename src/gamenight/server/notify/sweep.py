"""What the outbox must hold, derived from the committed ``turns`` rows alone (a pure
function: :func:`events`), and the sweep that writes it (:func:`sweep`).

For each decision waiting (a ``turns`` row) and each subscription of its seat:

* ``turn`` — "your move", due when the decision began, but at most one per room and
  subscription per ``move_time`` (the room's speed): a later one waits for its period;
* ``remind`` — due when a quarter of the move's time is left (at most
  :data:`REMIND_BEFORE` before the deadline), never before its "your turn";
* ``late`` — made once the clock ran out, due from its deadline, to every subscribed
  seat of the room.

Each event's ``key`` names it (kind, subscription, room, seat, the decision's seq), so
the outbox makes it once however often the sweep runs, in however many processes.

>>> w = Waiting(1, "ABCD", "dice-duel", '{"pace": "turn-based", "move_time": 3600}', 0, 5,
...             1000.0, 4600.0, None, None, "Ada")
>>> sub = Sub(7, None, 1, 0, "email", "a@example.org", "", "en", 0.0)
>>> [(e.kind, e.due_at) for e in events([w], [(1, 0, sub)], {}, now=1000.0)]
[('turn', 1000.0), ('remind', 3700.0)]
>>> [e.kind for e in events([w], [(1, 0, sub)], {}, now=5000.0)]
['turn', 'remind', 'late']
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from gamenight.server.notify.store import Event, NotifyStore, Sub, Waiting

REMIND_BEFORE = 4 * 3600.0  # seconds: a reminder at most this long before a deadline


class _Pace(msgspec.Struct):
    pace: str = "live"
    move_time: int | None = None


def move_time(room_options: str) -> float | None:
    """The room's seconds per move (None: not a turn-based room).

    >>> move_time('{"pace": "turn-based", "move_time": 43200}'), move_time("{}")
    (43200.0, None)
    """
    try:
        pace = msgspec.json.decode(room_options, type=_Pace)
    except msgspec.DecodeError:
        return None
    if pace.pace != "turn-based" or pace.move_time is None:
        return None
    return float(pace.move_time)


def events(
    waiting: Sequence[Waiting],
    subs: Sequence[tuple[int, int, Sub]],
    last_turn: dict[tuple[int, int], float],
    now: float,
) -> list[Event]:
    """The events the outbox must hold for ``waiting`` (see the module); ``last_turn``:
    when the latest "your turn" message was sent, per (subscription, room)."""
    by_seat: dict[tuple[int, int], list[Sub]] = {}
    for room_id, seat, sub in subs:
        by_seat.setdefault((room_id, seat), []).append(sub)
    out: list[Event] = []
    for w in waiting:
        period = move_time(w.room_options)
        if period is None:
            continue
        payload = {
            "room": w.code,
            "game": w.game,
            "seat": w.seat,
            "name": w.name,
            "since": w.since,
            "deadline": w.deadline,
        }
        for sub in by_seat.get((w.room_id, w.seat), []):
            tail = f"{sub.id}:{w.room_id}:{w.seat}:{w.seq}"
            previous = last_turn.get((sub.id, w.room_id))
            due = w.since if previous is None else max(w.since, previous + period)
            out.append(
                Event(
                    f"turn:{tail}",
                    sub.id,
                    "turn",
                    w.room_id,
                    w.seat,
                    w.seq,
                    {**payload, "mine": True},
                    due,
                )
            )
            if w.deadline is not None:  # never before its "your turn" (one message then)
                before = min((w.deadline - w.since) / 4, REMIND_BEFORE)
                out.append(
                    Event(
                        f"remind:{tail}",
                        sub.id,
                        "remind",
                        w.room_id,
                        w.seat,
                        w.seq,
                        {**payload, "mine": True},
                        max(due, w.deadline - before),
                    )
                )
        if w.deadline is not None and (now >= w.deadline or w.late_at is not None):
            for (room_id, seat), subs_of_seat in by_seat.items():
                if room_id != w.room_id:
                    continue
                for sub in subs_of_seat:
                    out.append(
                        Event(
                            f"late:{sub.id}:{w.room_id}:{w.seat}:{w.seq}",
                            sub.id,
                            "late",
                            w.room_id,
                            w.seat,
                            w.seq,
                            {**payload, "mine": seat == w.seat},
                            # due since the deadline, not this process's "now": another
                            # process whose clock reads a little earlier claims it with
                            # the seat's reminder, in one message
                            w.deadline,
                        )
                    )
    return out


async def sweep(store: NotifyStore, now: float) -> int:
    """Write the outbox rows the ``turns`` rows call for; the number new."""
    waiting = await store.waiting(await store.subscribed_rooms())
    subs = await store.subs_for(sorted({w.room_id for w in waiting}))
    if not subs:
        return 0
    last = await store.last_turn_sent((sub.id, room_id) for room_id, _seat, sub in subs)
    wanted = events(waiting, subs, last, now)
    known = await store.known_keys([e.key for e in wanted])
    return await store.enqueue([e for e in wanted if e.key not in known], now)
