"""The match runner: plays a game to the end with any mix of agents.

A :class:`Match` drives a :class:`~gamenight.core.table.Table`: it asks each
seat's agent for a choice (agents see only their seat's view) and submits it.
Every consumer takes the table's steps: each agent observes its seat's frame,
observers the spectator's, and the record writer is the table's durable writer,
so every action is written before the table moves on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Generic

import msgspec
from typing_extensions import TypeVar

from gamenight.core.agents import Agent
from gamenight.core.dice import DICE_SCHEME, DiceSource, SeededDice
from gamenight.core.events import Event
from gamenight.core.frames import Frame, Step
from gamenight.core.game import Game, Results
from gamenight.core.options import Options
from gamenight.core.record import RecordSeat, RecordWriter
from gamenight.core.table import Table

S = TypeVar("S", bound=msgspec.Struct, default=msgspec.Struct)
A = TypeVar("A", bound=msgspec.Struct, default=msgspec.Struct)
V = TypeVar("V", bound=msgspec.Struct, default=msgspec.Struct)
E = TypeVar("E", bound=Event, default=Event)

Observer = Callable[[Frame[A, V, E]], None]  # the spectator's frame of every step, start first


@dataclass
class Match(Generic[S, A, V, E]):
    """A game in progress: the game, its table, the seats' agents and the record."""

    game: Game[S, A, V, E]
    options: Options
    seed: int
    seats: list[RecordSeat]
    agents: list[Agent[V, A, E]]
    record: RecordWriter | None = None
    observers: list[Observer[A, V, E]] = field(default_factory=list)
    table: Table[S, A, V, E] | None = None
    dice_scheme: int = DICE_SCHEME  # 1 only for a game resumed from before scheme 2
    _watching: list[tuple[int, Agent[V, A, E]]] = field(default_factory=list, repr=False)
    _listening: bool = field(default=False, repr=False)

    @property
    def state(self) -> S | None:
        """The full state (the referee's); ``None`` before :meth:`begin`."""
        return None if self.table is None else self.table.state

    @property
    def history(self) -> list[tuple[int, A, tuple[E, ...]]]:
        """(seat, action, events) of every action so far (the referee's view)."""
        return [] if self.table is None else self.table.played()

    def begin(
        self, dice: DiceSource | None = None, *, replayed: Sequence[tuple[int, A]] = ()
    ) -> None:
        """Deal the game; ``replayed`` (seat, action) pairs are re-applied unrecorded."""
        table = Table.start(
            self.game,
            len(self.seats),
            self.options,
            dice or SeededDice(seed=self.seed, scheme=self.dice_scheme),
        )
        for seat, action in replayed:
            table.submit(seat, action)
        for seat, agent in enumerate(self.agents):  # before the record's first line
            ready = getattr(agent, "ready", None)  # a bot with a preparation (agents.Ready)
            if ready is not None:
                ready(self.game.view(table.state, seat))
        self.table = table
        if self.record and not replayed:
            self.record.begin(
                self.game, self.options, self.seed, self.seats, table.opening,
                dice_scheme=self.dice_scheme,
            )  # fmt: skip
        if self.record:
            table.on_commit(self.record.on_step)
        # Issue 29: an agent that says it ignores events (``observes = False``) is not
        # shown them, so a match of such agents filters no events at all.
        self._watching = [
            (seat, agent)
            for seat, agent in enumerate(self.agents)
            if getattr(agent, "observes", True)
        ]
        self._listening = False
        self._hear(table)
        if not replayed:
            self._deliver(table.opening)

    def _hear(self, table: Table[S, A, V, E]) -> None:
        """Listen to the table once someone is to be told of its steps: a watching agent
        or an observer (one added after :meth:`begin` too: :meth:`step` and :meth:`play`
        look). A match of agents that ignore events and no observers is not called at
        every step (issue 29)."""
        if not self._listening and (self._watching or self.observers):
            table.listen(self._deliver)
            self._listening = True

    def _deliver(self, step: Step[S, A, V, E]) -> None:
        """Each agent observes its seat's events of ``step``; observers get the
        spectator's frame."""
        if step.events:
            for seat, agent in self._watching:
                mine = step.events_for(seat)
                if mine:
                    agent.observe(seat, mine)
        if self.observers:
            frame = step.frame(None)
            for observer in self.observers:
                observer(frame)

    def step(self) -> None:
        """Ask each seat to act (in :meth:`Game.to_act` order) and submit its choice."""
        table = self.table if self.table is not None else self._table()
        if not self._listening:
            self._hear(table)
        acting = table.to_act()
        if len(acting) == 1:  # the common case, without the loop's re-check
            seat = acting[0]
            table.submit(seat, self.agents[seat].act(table.decision(seat)))
            return
        for seat in acting:
            if seat not in table.to_act():
                continue  # an earlier simultaneous choice this step resolved it
            table.submit(seat, self.agents[seat].act(table.decision(seat)))

    def play(self, seat: int, action: A) -> tuple[E, ...]:
        """Apply one action (raises IllegalActionError, leaving the match unchanged);
        returns its events."""
        table = self._table()
        if not self._listening:
            self._hear(table)
        return table.submit(seat, action).events

    def finished(self) -> bool:
        return self._table().finished

    def run(self, max_steps: int = 1_000_000) -> Results:
        """Play to the end and return the results (the record has them: the last
        action's write carries them)."""
        table = self._table()
        for _ in range(max_steps):
            if table.finished:
                break
            self.step()
        else:
            raise RuntimeError(f"{self.game.info.id} did not finish in {max_steps} steps")
        return self.game.results(table.state)

    def _table(self) -> Table[S, A, V, E]:
        if self.table is None:
            self.begin()
        assert self.table is not None
        return self.table


def play_match(
    game: Game[S, A, V, E],
    agents: Sequence[Agent[V, A, E]],
    *,
    seed: int = 0,
    options: Options | None = None,
    names: Sequence[str] | None = None,
    record: RecordWriter | None = None,
) -> tuple[Results, S]:
    """Play one game to the end; returns the results and the final state.

    >>> from gamenight.core.agents import RandomAgent
    >>> from gamenight.core import registry
    >>> game = registry.get("decathlon").game
    >>> results, _ = play_match(game, [RandomAgent(1), RandomAgent(2)], seed=3,
    ...                         options=game.parse_options({"events": "110m-hurdles"}))
    >>> len(results.scores)
    2
    """
    labels = list(
        names or [f"{getattr(a, 'label', 'agent')} {i + 1}" for i, a in enumerate(agents)]
    )
    seats = [
        RecordSeat(n, f"bot:{getattr(a, 'label', 'agent')}")
        for n, a in zip(labels, agents, strict=True)
    ]
    match = Match(
        game,
        options if options is not None else game.parse_options(),
        seed,
        seats,
        list(agents),
        record=record,
    )
    results = match.run()
    return results, match._table().state
