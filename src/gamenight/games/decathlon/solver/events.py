"""The ten Decathlon events: ids, order (D1), attempts (D3) and result ranges."""

from __future__ import annotations

import msgspec


class EventSpec(msgspec.Struct, frozen=True):
    """Static facts about one event.

    ``min_score``/``max_score`` bound the *valid* results the rules allow; a
    3-attempt event's ``attempts`` is the number of interleaved attempts (D3).
    """

    event: str
    name: str
    attempts: int
    min_score: int
    max_score: int


# D1: the fixed order.  Ranges: sprints score 1-5 per die and -6 per six (D4);
# hurdles sum 5 dice (D5); long jump sums 1..5 jump dice (D6); shot put sums
# 1..8 dice showing 2..6 (D7); heights are bar heights (D8, D9); discus sums
# 1..5 even dice, javelin 1..6 odd dice (D10).
EVENT_SPECS: tuple[EventSpec, ...] = (
    EventSpec("100m", "100 Metres", 1, -48, 40),
    EventSpec("long-jump", "Long Jump", 3, 1, 30),
    EventSpec("shot-put", "Shot Put", 3, 2, 48),
    EventSpec("high-jump", "High Jump", 1, 10, 30),
    EventSpec("400m", "400 Metres", 1, -48, 40),
    EventSpec("110m-hurdles", "110 Metre Hurdles", 1, 5, 30),
    EventSpec("discus", "Discus", 3, 2, 30),
    EventSpec("pole-vault", "Pole Vault", 1, 10, 48),
    EventSpec("javelin", "Javelin", 3, 1, 30),
    EventSpec("1500m", "1500 Metres", 1, -48, 40),
)

EVENTS: tuple[str, ...] = tuple(spec.event for spec in EVENT_SPECS)
"""Event ids in D1 order."""

_BY_ID = {spec.event: spec for spec in EVENT_SPECS}


def event_spec(event: str) -> EventSpec:
    """The spec of an event id; ``ValueError`` naming the valid ids otherwise.

    >>> event_spec("discus").attempts
    3
    """
    try:
        return _BY_ID[event]
    except KeyError:
        raise ValueError(f"unknown Decathlon event {event!r}; expected one of {EVENTS}") from None


def resolve_attempts(event: str, attempts: int | None) -> int:
    """The number of attempts to solve for: the rules' count unless overridden.

    Only the 3-attempt events (D3) may be solved with 1 or 2 attempts, which the
    verification tests use.
    """
    spec = event_spec(event)
    if attempts is None:
        return spec.attempts
    if spec.attempts == 1 and attempts != 1:
        raise ValueError(f"{event} has a single attempt; got attempts={attempts}")
    if not 1 <= attempts <= 3:
        raise ValueError(f"attempts must be 1, 2 or 3; got {attempts}")
    return attempts
