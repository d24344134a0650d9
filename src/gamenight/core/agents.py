"""Agents: anything that picks actions from a seat's view.

An agent never sees the state, only a :class:`Decision`: the seat's view and
the legal actions. That makes bots unable to peek at hidden information.
``Decision`` and ``Agent`` are generic over the game's view and action types,
so mypy checks a bot against its game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, Protocol

import msgspec
from typing_extensions import TypeVar

from gamenight.core.events import Event

V = TypeVar("V", covariant=True, default=msgspec.Struct)
A = TypeVar("A", covariant=True, default=msgspec.Struct)
V_in = TypeVar("V_in", contravariant=True, default=msgspec.Struct)
A_any = TypeVar("A_any", default=msgspec.Struct)
E_in = TypeVar("E_in", contravariant=True, default=Event)


class Decision(msgspec.Struct, Generic[V, A], frozen=True, gc=False):
    """What an agent is told when it must act (``legal``: read it, never change it).

    A struct, not a dataclass: the match runner makes one per action (issue 29).
    ``gc=False``: it only points at values and is made afresh per action.
    """

    game_id: str
    seat: int
    view: V
    legal: Sequence[A]


class Agent(Protocol[V_in, A_any, E_in]):
    """Chooses one of ``decision.legal``; may watch the events it is allowed to see.

    An agent whose class sets ``observes = False`` says its :meth:`observe` ignores
    every event: the match runner then does not filter events for it (issue 29).
    """

    label: str

    def act(self, decision: Decision[V_in, A_any]) -> A_any: ...

    def observe(self, seat: int, events: Sequence[E_in]) -> None: ...


class Waiting(msgspec.Struct, frozen=True):
    """What an agent that plays a simpler method of its own until its game's one-time
    preparation (``GameInfo.preparation``) is done says after each act, as its
    ``waiting`` attribute (None, or no such attribute: nothing is missing).

    ``target`` is what to prepare, as the preparation's ``prepare(progress, target)``
    reads it ("": the preparation's default); ``playing`` names the method it plays
    meanwhile. A server starts that build in the background and shows it; the agent
    itself finds the result once it exists (e.g. in the cache) and stops waiting.
    """

    target: str
    playing: str


class Ready(Protocol[V_in]):
    """A bot whose play needs a one-time preparation (a solver table) says so before a
    game, never by playing something else in its name (issue 45).

    ``ready(view)`` gets each seat's view at the deal and raises
    :class:`~gamenight.core.errors.BuildNeededError`, one line naming the command
    that prepares what it lacks, if it cannot play this game as itself. Every match
    (:class:`gamenight.core.runner.Match`: series, tournaments, terminal play) asks it
    before the game's first action. A bot that may instead play a simpler method
    while a server builds what it waits for has a ``may_wait`` attribute; only a front
    end that shows the stand-in (a server's seat says which bot plays) sets it to True,
    and the bot then says what it waits for as its ``waiting`` (:class:`Waiting`).
    """

    def ready(self, view: V_in) -> None: ...


class RandomAgent:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    label = "random"
    observes = False  # it never looks at events

    def __init__(self, seed: int | None = None) -> None:
        import random  # here: listing or solving plays no random bot (issue 29)

        self._rng = random.Random(seed)

    def act(self, decision: Decision[object, A_any]) -> A_any:
        return self._rng.choice(decision.legal)

    def observe(self, seat: int, events: Sequence[Event]) -> None:
        return None
