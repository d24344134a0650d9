"""The one wall clock of turn-based rooms (issue 44): every read of the time a turn's
clock depends on (a move's time, a deadline, the sweep's "now") is ``Services.clock()``,
so that a test plays a game over a simulated week without sleeping.

:func:`wall_clock` is the real time, shifted by the number of seconds in the file that
``GAMENIGHT_TEST_CLOCK`` names if that variable is set: a test moves the clock of real
server processes on by writing that file (never set it in production).

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "clock")
>>> _ = open(path, "w").write("86400")
>>> abs(shifted(path)() - time.time() - 86400) < 5
True
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

Clock = Callable[[], float]  # epoch seconds
TEST_CLOCK = "GAMENIGHT_TEST_CLOCK"


def shifted(path: str) -> Clock:
    """The real time plus the seconds written in ``path`` (0 while it holds none)."""

    def now() -> float:
        try:
            with open(path, encoding="ascii") as f:
                offset = float(f.read().strip() or 0)
        except (OSError, ValueError):
            offset = 0.0
        return time.time() + offset

    return now


def wall_clock() -> Clock:
    """This process's clock: the real time, or a test's shifted one (``TEST_CLOCK``)."""
    path = os.environ.get(TEST_CLOCK)
    return shifted(path) if path else time.time
