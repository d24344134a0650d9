"""Events: what an action caused, in a form every front end can render.

An event with ``audience=None`` is public. Otherwise only the listed seats may
see it; spectators see only public events. Front ends must deliver events
through :func:`visible_to`, never directly.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec


class Event(msgspec.Struct, frozen=True, omit_defaults=True):
    """Something that happened: dice rolled, attempt invalid, score recorded..."""

    kind: str
    player: int | None = None
    data: dict[str, Any] = {}
    audience: tuple[int, ...] | None = None

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None`` for a spectator) may see this event."""
        return self.audience is None or (seat is not None and seat in self.audience)


def visible_to(events: Iterable[Event], seat: int | None) -> list[Event]:
    """The events a seat (or a spectator, ``None``) may see."""
    return [e for e in events if e.visible_to(seat)]
