"""The event loop's stalls: a warning each time the loop wakes ``Config.stall_warning``
late or more, saying whether the loop's own thread was running meanwhile (work here
blocked it) or waiting for a CPU (other processes had the machine).

A client can cause stalls (a flood of requests on a small machine), so their lines are
capped like every line a client can cause (issue 38): at most :data:`STALL_LINES` a
minute; past that, one line at the end of the minute counts the stalls left out and
the longest of them. Every stall counts in ``gamenight_event_loop_stalls_total``
(``/metrics``). ``bench/server_load.py`` reads both kinds of line.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from gamenight.server import metrics

log = logging.getLogger("gamenight.server")

STALL_LINES = 10  # stall lines a minute at most


class StallLog:
    """The stall lines, within their budget (``clock``: monotonic seconds).

    >>> lines = StallLog(budget=2, clock=lambda: 0.0)
    >>> [lines.late(0.1, 0.0, 0.0) for _ in range(5)]
    [True, True, False, False, False]
    >>> lines.left_out
    3
    """

    def __init__(
        self,
        budget: int = STALL_LINES,
        window: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.budget, self.window, self.clock = budget, window, clock
        self.start = clock()
        self.written = 0
        self.left_out = 0
        self.longest = (0.0, 0.0)  # of those left out: (late, ran) seconds

    def late(self, late: float, ran: float, at: float) -> bool:
        """A stall of ``late`` seconds (the thread ran ``ran`` of them) at wall clock
        ``at``: its line if the budget allows (True), else counted for the summary."""
        metrics.LOOP_STALLS.inc()
        self.tick()
        if self.written < self.budget:
            self.written += 1
            log.warning(
                "event loop %.0f ms late (this thread ran %.0f ms) at %.2f",
                1e3 * late,
                1e3 * ran,
                at,
            )
            return True
        self.left_out += 1
        self.longest = max(self.longest, (late, ran))
        return False

    def tick(self) -> None:
        """At the end of a minute: the summary of the stalls left out, if any."""
        if self.clock() - self.start < self.window:
            return
        if self.left_out:
            late, ran = self.longest
            log.warning(
                "event loop late %d more times in the last minute "
                "(the longest %.0f ms, this thread ran %.0f ms) at %.2f",
                self.left_out,
                1e3 * late,
                1e3 * ran,
                time.time(),
            )
        self.start, self.written, self.left_out, self.longest = self.clock(), 0, 0, (0.0, 0.0)


async def watch_loop(threshold: float, period: float = 0.02) -> None:
    """Note each time the event loop wakes ``threshold`` late or more (:class:`StallLog`)."""
    lines = StallLog()
    while True:
        wall, cpu = time.perf_counter(), time.thread_time()
        await asyncio.sleep(period)
        late = time.perf_counter() - wall - period
        if late >= threshold:
            lines.late(late, time.thread_time() - cpu, time.time())
        else:
            lines.tick()
