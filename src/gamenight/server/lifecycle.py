"""A room's lifecycle: the one definition of its states, in memory and in the database,
and of the moves between them (:data:`TRANSITIONS`, taken only through :func:`transition`).

>>> Lifecycle("playing").accepts_actions, Lifecycle.FINISHED.is_over
(True, True)
>>> sorted(str(s) for s in OPEN)
['playing', 'waiting']
>>> transition(Lifecycle.WAITING, Lifecycle.PLAYING)
<Lifecycle.PLAYING: 'playing'>
>>> transition(Lifecycle.FINISHED, Lifecycle.PLAYING)
Traceback (most recent call last):
...
gamenight.server.lifecycle.IllegalTransitionError: a room cannot go from finished to playing
"""

from __future__ import annotations

from enum import StrEnum

from gamenight.core.errors import GamenightError


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


# Every move a live room makes. A room is created waiting; it is loaded in whatever state
# its row holds (no move). Finished, closed and broken are final: the table's last step
# finishes a room only while it is played, and another process's close is taken only
# while the room is open here (Room.catch_up).
TRANSITIONS: dict[Lifecycle, frozenset[Lifecycle]] = {
    Lifecycle.WAITING: frozenset({Lifecycle.PLAYING, Lifecycle.CLOSED, Lifecycle.BROKEN}),
    Lifecycle.PLAYING: frozenset({Lifecycle.FINISHED, Lifecycle.CLOSED, Lifecycle.BROKEN}),
    Lifecycle.FINISHED: frozenset(),
    Lifecycle.CLOSED: frozenset(),
    Lifecycle.BROKEN: frozenset(),
}


class IllegalTransitionError(GamenightError):
    """A move :data:`TRANSITIONS` does not hold: a defect of the server, never a
    player's doing (nothing was changed)."""


def transition(current: Lifecycle, to: Lifecycle) -> Lifecycle:
    """``to``, if a room may move there from ``current``; else IllegalTransitionError.
    The one guard of every status change of a room (``Room.become``)."""
    if to not in TRANSITIONS[current]:
        raise IllegalTransitionError(f"a room cannot go from {current} to {to}")
    return to
