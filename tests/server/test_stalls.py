"""Event-loop stall warnings are capped like every line a client can cause (issue 38):
a client that floods a small server makes its loop late again and again, and each
stall used to write a line."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from gamenight.server import metrics
from gamenight.server.stalls import STALL_LINES, StallLog, watch_loop


def _stall_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith("event loop")]


def test_a_blocked_loop_writes_at_most_the_budget(caplog: pytest.LogCaptureFixture) -> None:
    """The real watcher, on a loop blocked 25 times for 0.2 s (each far past the 0.05 s
    threshold): every stall is counted in /metrics, at most STALL_LINES are logged."""
    stalls = 25

    async def main() -> None:
        watcher = asyncio.create_task(watch_loop(0.05))
        await asyncio.sleep(0.05)
        for _ in range(stalls):
            time.sleep(0.2)  # the stall under test
            await asyncio.sleep(0.05)  # the watcher wakes, late, and notes it
        watcher.cancel()

    before = metrics.LOOP_STALLS._value.get()
    with caplog.at_level(logging.WARNING, logger="gamenight.server"):
        asyncio.run(main())
    assert metrics.LOOP_STALLS._value.get() - before >= stalls
    lines = _stall_lines(caplog)
    assert len(lines) == STALL_LINES, lines


def test_the_minute_ends_with_one_line_for_the_rest(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    lines = StallLog(budget=3, window=60.0, clock=lambda: now[0])
    with caplog.at_level(logging.WARNING, logger="gamenight.server"):
        for i in range(40):
            lines.late(0.06 + i / 1000, 0.01, 1000.0 + i)
        now[0] = 61.0
        lines.tick()
        lines.tick()  # once only
        lines.late(0.07, 0.0, 2000.0)  # a new minute: its own budget
    said = _stall_lines(caplog)
    assert len(said) == 3 + 1 + 1, said
    assert said[3].startswith("event loop late 37 more times in the last minute (the longest 99 ms")
    assert said[4].startswith("event loop 70 ms late")
