"""The match runner: plays a game to the end with any mix of agents.

The runner is the only place where states, agents and records meet. Agents see
only their seat's view; events reach each agent and observer filtered by
audience; every action is written to the record as soon as it is applied.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gamenight.core.agents import Agent, Decision
from gamenight.core.dice import DiceSource, SeededDice
from gamenight.core.events import Event, visible_to
from gamenight.core.game import Game, Results
from gamenight.core.options import Options
from gamenight.core.record import RecordWriter, SeatInfo

Observer = Callable[[Any, Sequence[Event]], None]  # (state, events) -> None


@dataclass
class Match:
    """A game in progress: the game, its state, the seats' agents and the history."""

    game: Game[Any, Any]
    options: Options
    seed: int
    seats: list[SeatInfo]
    agents: list[Agent]
    state: Any = None
    history: list[tuple[int, Any, tuple[Event, ...]]] = field(default_factory=list)
    record: RecordWriter | None = None
    observers: list[Observer] = field(default_factory=list)

    def begin(self, dice: DiceSource | None = None) -> None:
        step = self.game.start(len(self.seats), self.options, dice or SeededDice(seed=self.seed))
        self.state = step.state
        if self.record:
            self.record.header(self.game, self.options, self.seed, self.seats)
            self.record.start(step.events)
        self._deliver(step.events)

    def step(self) -> None:
        """Ask each seat to act (in :meth:`Game.to_act` order) and apply its choice."""
        for seat in self.game.to_act(self.state):
            if seat not in self.game.to_act(self.state):
                continue  # an earlier simultaneous choice this step resolved it
            legal = self.game.legal_actions(self.state, seat)
            decision = Decision(self.game.info.id, seat, self.game.view(self.state, seat), legal)
            action = self.agents[seat].act(decision)
            self.play(seat, action)

    def play(self, seat: int, action: Any) -> tuple[Event, ...]:
        """Apply one action (raises IllegalActionError, leaving the match unchanged)."""
        step = self.game.apply(self.state, seat, action)
        self.state = step.state
        self.history.append((seat, action, step.events))
        if self.record:
            self.record.action(seat, action, step.events)
        self._deliver(step.events)
        return step.events

    def finished(self) -> bool:
        return bool(self.game.is_terminal(self.state))

    def run(self, max_steps: int = 1_000_000) -> Results:
        """Play to the end and return the results (also written to the record)."""
        if self.state is None:
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

    def _deliver(self, events: Sequence[Event]) -> None:
        for seat, agent in enumerate(self.agents):
            mine = visible_to(events, seat)
            if mine:
                agent.observe(seat, mine)
        for observer in self.observers:
            observer(self.state, events)


def play_match(
    game: Game[Any, Any],
    agents: Sequence[Agent],
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
