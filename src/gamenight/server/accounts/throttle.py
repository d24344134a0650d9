"""Sign-in throttles in the database (issue 43): one token bucket per key (an account
name, a client address), shared by every server process, so two processes are not twice
the budget. Each attempt is one atomic UPDATE (or the first one INSERT), never a read
then a write, so concurrent attempts, in one process or several, each take their token.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from sqlalchemy import case, delete, insert, literal, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from gamenight.server.accounts.tables import THROTTLE
from gamenight.server.guard import whole_seconds
from gamenight.server.tokens import token_hash

FORGET_AFTER = 3600.0  # seconds: a bucket untouched this long is full again, or near it


class SharedThrottle:
    """``admit(kind, value)``: 0 if an attempt counted against ``value`` may go ahead
    (and takes its token), else the whole seconds until the next one fits; a refused
    attempt takes nothing, so a client that waits as told gets in."""

    def __init__(
        self,
        engine: AsyncEngine,
        limits: Mapping[str, tuple[float, float]],
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.engine = engine
        self.limits = dict(limits)  # kind -> (rate a second, burst)
        self.clock = clock

    async def admit(self, kind: str, value: str) -> int:
        rate, burst = self.limits[kind]
        key = f"{kind}:{token_hash(value)}"
        for _ in range(2):  # a first attempt may race another process's first: then update
            now = self.clock()
            level = THROTTLE.c.level + (literal(now) - THROTTLE.c.stamp) * rate
            refilled = case((level > burst, literal(burst)), else_=level)
            async with self.engine.begin() as conn:
                took = await conn.execute(
                    update(THROTTLE)
                    .where(THROTTLE.c.key == key, refilled >= 1)
                    .values(level=refilled - 1, stamp=now)
                )
                if took.rowcount == 1:
                    return 0
                row = (
                    await conn.execute(
                        select(THROTTLE.c.level, THROTTLE.c.stamp).where(THROTTLE.c.key == key)
                    )
                ).first()
                if row is not None:
                    have = min(burst, row.level + (now - row.stamp) * rate)
                    return whole_seconds((1 - have) / rate)
            try:
                async with self.engine.begin() as conn:
                    await conn.execute(
                        delete(THROTTLE).where(THROTTLE.c.stamp < now - FORGET_AFTER)
                    )
                    await conn.execute(insert(THROTTLE).values(key=key, level=burst - 1, stamp=now))
                return 0
            except IntegrityError:
                continue
        return whole_seconds(1 / rate)  # two races lost in a row: as if just refused
