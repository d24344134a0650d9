"""A room's lifecycle: the one definition of its states, in memory and in the database.

>>> Lifecycle("playing").accepts_actions, Lifecycle.FINISHED.is_over
(True, True)
>>> sorted(str(s) for s in OPEN)
['playing', 'waiting']
"""

from __future__ import annotations

from enum import StrEnum


class Lifecycle(StrEnum):
    """waiting -> playing -> finished; closed by the host or idling; broken when it cannot
    be rebuilt. Stored in ``rooms.status`` as the value (``"playing"``...)."""

    WAITING = "waiting"  # seats being claimed
    PLAYING = "playing"
    FINISHED = "finished"
    CLOSED = "closed"  # closed before it finished (the host, idle rooms)
    BROKEN = "broken"  # cannot be rebuilt (its log no longer replays...): kept, not played

    @property
    def accepts_actions(self) -> bool:
        return self is Lifecycle.PLAYING

    @property
    def is_over(self) -> bool:
        """No more play: finished, closed or broken."""
        return self in (Lifecycle.FINISHED, Lifecycle.CLOSED, Lifecycle.BROKEN)


OPEN = frozenset({Lifecycle.WAITING, Lifecycle.PLAYING})  # rooms the lobby lists and checks
