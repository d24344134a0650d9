"""The server's heap and the cycle collector: keep full collections short.

A server process holds a long-lived heap: its imported modules (about 100,000
objects) and, per room, its Room pieces, its table, its sockets' protocol objects
and tasks (about 120 tracked objects a room). CPython 3.11's full collections scan
all of it; at a thousand rooms one pass takes 50 to 170 ms on this 2-core machine,
and the event loop waits (``bench/server_load.py`` counts the stalls).

So, every ``period`` seconds, young garbage is collected (the two young
generations: a few ms) and what survives is moved to the permanent generation
(``gc.freeze``, O(1)), which no pass scans. Frozen objects are still freed by
reference counting; only a cycle that becomes garbage after it was frozen is never
reclaimed, a small bounded cost: rooms, tables and sockets end without cycles in
the normal case. Tables no longer hold every position of their game (issue 22), so
far less is frozen than before; the stall it prevents is the sockets' and rooms'.
"""

from __future__ import annotations

import asyncio
import gc


def keep_young() -> None:
    """Collect the young generations, then move the survivors out of every pass."""
    gc.collect(1)
    gc.freeze()


async def keep_young_every(period: float) -> None:
    """:func:`keep_young` every ``period`` seconds, for as long as the server runs."""
    while True:
        await asyncio.sleep(period)
        keep_young()
