"""The match runner: plays a game to the end with any mix of agents.

A :class:`Match` drives a :class:`~gamenight.core.table.Table`: it asks each
seat's agent for a choice (agents see only their seat's view) and submits it.
Events reach each agent through the table's per-seat filter, observers see the
spectator's stream, and the record writer is the table's referee hook, so every
action is written before the table moves on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gamenight.core.agents import Agent, Decision
from gamenight.core.dice import DICE_SCHEME, DiceSource, SeededDice
from gamenight.core.game import Game, Results
from gamenight.core.options import Options
from gamenight.core.record import RecordWriter, SeatInfo
from gamenight.core.table import Table

Observer = Callable[[int, Sequence[Any]], None]  # (seq, spectator-visible events) -> None


@dataclass
class Match:
    """A game in progress: the game, its table, the seats' agents and the record."""

    game: Game[Any, Any]
    options: Options
    seed: int
    seats: list[SeatInfo]
    agents: list[Agent[Any, Any]]
    record: RecordWriter | None = None
    observers: list[Observer] = field(default_factory=list)
    table: Table[Any, Any] | None = None
    dice_scheme: int = DICE_SCHEME  # 1 only for a game resumed from before scheme 2

    @property
    def state(self) -> Any:
        """The full state (the referee's); ``None`` before :meth:`begin`."""
        return None if self.table is None else self.table.state

    @property
    def history(self) -> list[tuple[int, Any, tuple[Any, ...]]]:
        """(seat, action, events) of every action so far (the referee's view)."""
        if self.table is None:
            return []
        events: dict[int, list[Any]] = {}
        for stamped in self.table.log():
            events.setdefault(stamped.seq, []).append(stamped.event)
        return [
            (seat, action, tuple(events.get(seq, ())))
            for seq, (seat, action) in enumerate(self.table.moves(), start=1)
        ]

    def begin(self, dice: DiceSource | None = None, *, replayed: Sequence[Any] = ()) -> None:
        """Deal the game; ``replayed`` (seat, action) pairs are re-applied unrecorded."""
        table = Table.start(
            self.game,
            len(self.seats),
            self.options,
            dice or SeededDice(seed=self.seed, scheme=self.dice_scheme),
        )
        for seat, action in replayed:
            table.submit(seat, action)
        self.table = table
        if self.record and not replayed:
            self.record.header(
                self.game, self.options, self.seed, self.seats, dice_scheme=self.dice_scheme
            )
            self.record.start(table.start_events)
        if self.record:
            record = self.record

            def write(_seq: int, seat: int, action: Any, events: tuple[Any, ...]) -> None:
                record.action(seat, action, events)

            table.on_commit(write)
        for seat, agent in enumerate(self.agents):
            table.watch(seat, _observer(seat, agent))
        for observer in self.observers:
            table.watch(None, observer)
        if not replayed:
            self._deliver_start(table)

    def _deliver_start(self, table: Table[Any, Any]) -> None:
        events = table.start_events
        for seat, agent in enumerate(self.agents):
            mine = [e for e in events if e.visible_to(seat)]
            if mine:
                agent.observe(seat, mine)
        public = [e for e in events if e.visible_to(None)]
        if public:
            for observer in self.observers:
                observer(0, public)

    def step(self) -> None:
        """Ask each seat to act (in :meth:`Game.to_act` order) and submit its choice."""
        table = self._table()
        for seat in table.to_act():
            if seat not in table.to_act():
                continue  # an earlier simultaneous choice this step resolved it
            snap = table.snapshot(seat)
            decision = Decision(self.game.info.id, seat, snap.view, snap.legal)
            self.play(seat, self.agents[seat].act(decision))

    def play(self, seat: int, action: Any) -> tuple[Any, ...]:
        """Apply one action (raises IllegalActionError, leaving the match unchanged)."""
        return self._table().submit(seat, action)

    def finished(self) -> bool:
        return self._table().finished

    def run(self, max_steps: int = 1_000_000) -> Results:
        """Play to the end and return the results (also written to the record)."""
        if self.table is None:
            self.begin()
        for _ in range(max_steps):
            if self.finished():
                break
            self.step()
        else:
            raise RuntimeError(f"{self.game.info.id} did not finish in {max_steps} steps")
        results: Results = self.game.results(self.state)
        if self.record:
            self.record.results(results)
        return results

    def _table(self) -> Table[Any, Any]:
        if self.table is None:
            self.begin()
        assert self.table is not None
        return self.table


def _observer(seat: int, agent: Agent[Any, Any]) -> Callable[[int, Sequence[Any]], None]:
    return lambda _seq, events: agent.observe(seat, events)


def play_match(
    game: Game[Any, Any],
    agents: Sequence[Agent[Any, Any]],
    *,
    seed: int = 0,
    options: Options | None = None,
    names: Sequence[str] | None = None,
    record: RecordWriter | None = None,
) -> tuple[Results, Any]:
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
        SeatInfo(n, f"bot:{getattr(a, 'label', 'agent')}")
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
    return results, match.state
