"""Events: what an action caused, typed, in a form every front end can render.

Each game declares its events as frozen subclasses of :class:`Event`, one per
kind, with a ``tag`` (the JSON ``"kind"``). The game's ``event_type`` is the
union of them, so events round-trip exactly through JSON and a browser can
switch on ``kind``.

An event with ``audience=None`` is public. Otherwise only the listed seats may
see it; spectators see only public events. Front ends must deliver events
through :func:`visible_to` (or the :class:`~gamenight.core.table.Table`), never
directly.

>>> class Rolled(Event, frozen=True, tag="rolled"):
...     player: int
...     dice: tuple[int, ...]
>>> e = Rolled(player=0, dice=(6, 6))
>>> to_json_bytes(e)
b'{"kind":"rolled","player":0,"dice":[6,6]}'
>>> Rolled(player=1, dice=(1,), audience=(1,)).visible_to(0)
False
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, TypeVar

import msgspec


class Event(
    msgspec.Struct, frozen=True, gc=False, kw_only=True, omit_defaults=True, tag_field="kind"
):
    """Base of every game's events; subclasses add the fields of their kind.

    ``gc=False`` (inherited): a frozen value cannot be part of a reference cycle,
    so the cycle collector need not track the many events a game makes.
    """

    audience: tuple[int, ...] | None = None

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None`` for a spectator) may see this event."""
        return self.audience is None or (seat is not None and seat in self.audience)


class Audienced(Protocol):
    """Anything with an audience (every event)."""

    def visible_to(self, seat: int | None) -> bool: ...


E = TypeVar("E", bound=Audienced)


def visible_to(events: Iterable[E], seat: int | None) -> list[E]:
    """The events a seat (or a spectator, ``None``) may see."""
    return [e for e in events if e.visible_to(seat)]


def to_json_bytes(value: Any) -> bytes:
    return msgspec.json.encode(value)
