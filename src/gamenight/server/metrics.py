"""The server's Prometheus metrics (``/metrics``, ``docs/deploy.md``: "Health and metrics").

Counters and histograms are updated where things happen (the socket's reader, the
store, the bots); the rooms by lifecycle and the sockets are counted when scraped, from
the rooms each live :class:`~gamenight.server.rooms.Hub` holds (:func:`track`). One set
per process, in prometheus-client's default registry (with its process metrics).
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
)
from prometheus_client import generate_latest as generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from gamenight.server.lifecycle import Lifecycle

CONTENT_TYPE = CONTENT_TYPE_LATEST
# the *_created series: noise for a server's counters
# prometheus_client leaves it unannotated
disable_created_metrics()  # type: ignore[no-untyped-call]

ACKED = Counter(
    "gamenight_actions_acknowledged", "Actions acknowledged to a socket (after their commit)"
)
ACK_SECONDS = Histogram(
    "gamenight_ack_seconds",
    "Seconds from an act message read to its ack written",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
DB_ERRORS = Counter(
    "gamenight_database_errors",
    "Storage calls that failed: kind=outage (unreachable, full, locked) or other",
    ["kind"],
)
DB_OUTAGES = Counter(
    "gamenight_database_outages", "Times the database went from answering to unavailable"
)
DB_UP = Gauge("gamenight_database_up", "1 while the last storage call succeeded or was refused")
THROTTLED = Counter(
    "gamenight_throttled",
    "Requests refused for rate: what=hello (reconnects) or message (a socket's messages)",
    ["what"],
)
LOOP_STALLS = Counter(
    "gamenight_event_loop_stalls",
    "Times the event loop woke stall_warning seconds late or more (server/stalls.py)",
)
FOLLOWED = Counter(
    "gamenight_followed_actions",
    "Actions another process logged, applied here: source=notification (the action in "
    "its payload) or log (read from the database)",
    ["source"],
)
BOTS_THINKING = Gauge("gamenight_bots_thinking", "Bot moves being computed now")
BUILDS = Gauge("gamenight_background_builds", "Solver tables being built in the background now")
BUILDS_DONE = Counter(
    "gamenight_background_builds_finished",
    "Background builds finished: outcome=ready|failed",
    ["outcome"],
)

_HUBS: weakref.WeakSet[Any] = weakref.WeakSet()
_state = {"down": False}


def track(hub: Any) -> None:
    """Count ``hub``'s rooms and sockets at each scrape (while it lives)."""
    _HUBS.add(hub)


def database_ok() -> None:
    if _state["down"]:
        _state["down"] = False
        DB_UP.set(1)


def database_failed(outage: bool) -> None:
    DB_ERRORS.labels("outage" if outage else "other").inc()
    if outage and not _state["down"]:
        _state["down"] = True
        DB_OUTAGES.inc()
        DB_UP.set(0)


class _Rooms(Collector):
    def collect(self) -> Iterator[GaugeMetricFamily]:
        rooms = GaugeMetricFamily(
            "gamenight_rooms", "Rooms held by this process, by lifecycle", labels=["state"]
        )
        sockets = GaugeMetricFamily("gamenight_sockets", "Open game sockets (past their hello)")
        counts = dict.fromkeys((s.value for s in Lifecycle), 0)
        open_sockets = 0
        for hub in list(_HUBS):
            for room in list(hub.rooms.values()):
                counts[room.status.value] = counts.get(room.status.value, 0) + 1
                open_sockets += sum(1 for _ in room.conns)
        for state, count in counts.items():
            rooms.add_metric([state], count)
        sockets.add_metric([], open_sockets)
        yield rooms
        yield sockets


REGISTRY.register(_Rooms())
DB_UP.set(1)
for _what in ("hello", "message"):
    THROTTLED.labels(_what)
for _kind in ("outage", "other"):
    DB_ERRORS.labels(_kind)
FOLLOWED_NOTIFIED = FOLLOWED.labels("notification")  # at every action: bound once
FOLLOWED_READ = FOLLOWED.labels("log")
for _outcome in ("ready", "failed"):
    BUILDS_DONE.labels(_outcome)


def scrape() -> bytes:
    return generate_latest(REGISTRY)
