"""One episode of a game for the environments: seeding, stepping, masks and the record.

An :class:`Episode` drives a :class:`~gamenight.core.table.Table`, the one path every
front end takes: each action is :meth:`Table.submit`, so it is validated, applied and
its step (events included) handed to the table's listeners like a move in a room or
the terminal. Agents that play seats of the episode (a versus env's bots:
:meth:`Episode.seat_agents`) are told their seat's events of every step
(:meth:`Step.events_for <gamenight.core.frames.Step.events_for>`, the frames' rule)
and decide on :meth:`Table.decision`, as in a :class:`~gamenight.core.runner.Match`;
:meth:`Episode.events` gives any seat the events it may see. An observation is the
encoding of :meth:`Game.view` for the observing seat. ``reset(seed)`` seeds the dice with
``derive(seed, "env", 0)`` (later unseeded resets take ``derive(seed, "env", k)``
for the k-th episode), so an episode is reproducible and :meth:`Episode.record`
writes it as a gamenight record that ``gamenight replay`` verifies.

A game can be over at its start (a one-event Decathlon whose three Shot Put first dice
all show 1): such an episode has no decision, so ``reset`` draws again, deterministically
from the seed (:func:`redraw_seed`), and counts the draws in :attr:`Episode.redraws`.
``redraw=False`` keeps such episodes (the regret harness does, so its means are those
of the game itself, the ones the solvers' optima are for).

A codec with a fast path (the Decathlon's) builds the observation from the state's
public fields instead, checked equal to the view's encoding by tests/envs; its mask is
learnt from ``legal_actions`` once per *mask key* and reused for every position with
that key (also checked there against ``legal_actions`` on many positions).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import msgspec
import numpy as np
import numpy.typing as npt

from gamenight.core import registry
from gamenight.core.agents import Agent
from gamenight.core.dice import SeededDice
from gamenight.core.errors import GamenightError
from gamenight.core.events import Event
from gamenight.core.frames import Step
from gamenight.core.game import AnyGame, Results
from gamenight.core.record import RecordSeat, RecordWriter, write_moves
from gamenight.core.seeds import derive, draw_seed
from gamenight.core.table import Table
from gamenight.envs.codecs import Codec, Obs, codec_for

Mask = npt.NDArray[np.int8]

MAX_REDRAWS = 1000  # a game over at the start this often is a broken game, not bad luck


def redraw_seed(game_seed: int, draw: int) -> int:
    """The game seed of the ``draw``-th new draw of an episode whose first game seed was
    ``game_seed`` and whose game was over at the start.

    >>> redraw_seed(5, 1) == derive(5, "redraw", 1) != redraw_seed(5, 2)
    True
    """
    return derive(game_seed, "redraw", draw)


class Episode:
    """A game, its options and seat count, and the episode being played."""

    def __init__(
        self, game_id: str, players: int, options: Mapping[str, Any], *, redraw: bool = True
    ) -> None:
        self.game_id = game_id
        self.redraw = redraw
        self.redraws = 0  # new draws the last reset took (the game was over at the start)
        self.game: AnyGame = registry.get(game_id).game
        self.options = self.game.parse_options(dict(options))
        self.game.check_setup(players, self.options)
        self.players = players
        self.codec: Codec = codec_for(game_id, self.options)  # the game's, or the generic
        self.n_actions = self.codec.n_actions
        self.obs_size = self.codec.obs_size(players)
        self.base_seed = draw_seed()
        self.episode = -1
        self.game_seed = 0
        # the table of the current episode (before the first reset: a deal never played)
        self.table: Table[Any, Any, Any, Any] = Table.start(
            self.game, players, self.options, SeededDice(seed=0), undo=False
        )
        # the table's latest step (its opening after a reset): observations read its state
        self.last: Step[Any, Any, Any, Any] = self.table.opening
        self.finished = True
        self._agents: dict[int, Agent[Any, Any, Any]] = {}  # seat -> agent told its events
        # Caches for the current state only (checked by identity, so assigning
        # ``session.state`` directly is safe): legal index -> action per seat, and with a
        # fast codec each seat's (observation bytes, mask entry, running score).
        self._cached_for: Any = None
        self._legal: dict[int, dict[int, msgspec.Struct]] = {}  # the general path
        # the fast path
        self._snaps: dict[int, tuple[bytes, tuple[Mask, dict[int, msgspec.Struct]], float]] = {}
        self._masks: dict[Any, tuple[Mask, dict[int, msgspec.Struct]]] = {}
        # (the final state, its results); the state None matches no table's
        self._results: tuple[object, Results] = (None, Results((), (), ()))
        self._fast = self.codec.fast

    # ----- the episode ----------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.base_seed, self.episode = seed, 0
        else:
            self.episode += 1
        first = self.game_seed = derive(self.base_seed, "env", self.episode)
        self.redraws = 0
        self._agents = {}
        while True:
            self.table = Table.start(
                self.game, self.players, self.options, SeededDice(seed=self.game_seed), undo=False
            )
            self.finished = self.table.finished
            self.last = self.table.opening
            if not (self.finished and self.redraw):
                break
            self.redraws += 1
            if self.redraws > MAX_REDRAWS:
                raise GamenightError(
                    f"{self.game.info.name} was over at the start {MAX_REDRAWS} times running"
                )
            self.game_seed = redraw_seed(first, self.redraws)

    @property
    def state(self) -> Any:
        """The table's full state (the referee's: never a seat's observation)."""
        return self.last.state

    @state.setter
    def state(self, state: Any) -> None:
        """Put the episode at ``state``: a new table that starts there (tests and search
        tools read a position's encoding this way; its record starts there too)."""
        self.table = Table(self.game, state, undo=False)
        self.finished = self.table.finished
        self.last = self.table.opening
        self._agents = {}

    @property
    def moves(self) -> list[tuple[int, Any]]:
        """Every (seat, action) of the episode so far (the table's, unredacted)."""
        return self.table.moves()

    def to_act(self) -> tuple[int, ...]:
        return self.table.to_act()

    # ----- agents at the table ------------------------------------------------------------
    def seat_agents(self, agents: Mapping[int, Agent[Any, Any, Any]]) -> None:
        """Seat ``agents`` (seat -> agent) at this episode's table: each observes its
        seat's events of the start at once and of every later step, as a match's agents
        do (an agent whose class says ``observes = False`` is not told). A reset clears
        them."""
        self._agents = dict(agents)
        watching = [(s, a) for s, a in self._agents.items() if getattr(a, "observes", True)]
        if not watching:
            return
        table = self.table

        def deliver(step: Step[Any, Any, Any, Any]) -> None:
            if step.events:
                for seat, agent in watching:
                    mine = step.events_for(seat)
                    if mine:
                        agent.observe(seat, mine)

        deliver(table.opening)
        table.listen(deliver)

    def agent_index(self, seat: int) -> int:
        """The index of what ``seat``'s seated agent chooses now (it decides on
        :meth:`Table.decision`: its view and the legal actions, never the state)."""
        choice = self._agents[seat].act(self.table.decision(seat))
        for index, action in self.legal(seat).items():
            if action == choice:
                return index
        raise GamenightError(f"{self.game.info.name}: the bot chose {choice!r}, not a legal action")

    def events(self, seat: int | None, since: int = -1) -> Sequence[Event]:
        """The events ``seat`` may see that the actions after number ``since`` caused
        (``-1``: the start of the episode too), in order."""
        return [stamped.event for stamped in self.table.events_since(seat, since)]

    def snapshot(self, seat: int) -> tuple[bytes, tuple[Mask, dict[int, msgspec.Struct]], float]:
        """Fast codecs only: ``seat``'s observation bytes, (mask, legal index -> action)
        and running score for the current state, computed once per state and seat."""
        state = self.last.state
        if self._cached_for is state:
            snap = self._snaps.get(seat)
            if snap is not None:
                return snap
        else:
            self._cached_for, self._snaps = state, {}
        data, key, score = self.codec.observe_state(state, seat)
        entry = self._masks.get(key) or self._learn_mask(key, seat)
        snap = self._snaps[seat] = (data, entry, score)
        return snap

    def _learn_mask(
        self, key: Any, seat: int, legal: dict[int, msgspec.Struct] | None = None
    ) -> tuple[Mask, dict[int, msgspec.Struct]]:
        """The mask and legal actions of every position with this mask key, taken from
        ``Game.legal_actions`` at the first position met (the key is exact: tests/envs)."""
        if legal is None:
            legal = self._legal_now(seat) if key is not None else {}
        flags = bytearray(self.n_actions)  # a byte loop: no list-to-index conversion
        for index in legal:
            flags[index] = 1
        mask: Mask = np.frombuffer(flags, np.int8)
        mask.flags.writeable = False
        if len(self._masks) > 65536:
            self._masks.clear()
        # The general path keys masks by the legal indices themselves (many keys): it
        # keeps no action tables, which would only load the garbage collector.
        entry = self._masks[key] = (mask, legal if self._fast else {})
        return entry

    def _legal_now(self, seat: int) -> dict[int, msgspec.Struct]:
        actions = self.game.legal_actions(self.table.state, seat)
        if not actions:
            return {}
        state = self.table.state
        return self.codec.legal_indices(actions, seat, lambda: self.game.view(state, seat))

    def legal(self, seat: int) -> dict[int, msgspec.Struct]:
        """Index -> action for every legal action of ``seat`` now (the first action
        wins when two spellings share an index)."""
        if self._fast:
            return self.snapshot(seat)[1][1]
        if self._cached_for is not self.table.state:
            self._cached_for, self._legal = self.table.state, {}
        cached = self._legal.get(seat)
        if cached is None:
            cached = self._legal[seat] = self._legal_now(seat)
        return cached

    def mask(self, seat: int, out: Mask | None = None) -> Mask:
        """``seat``'s legal-action mask (a fresh array unless ``out`` is given)."""
        if self._fast:
            cached = self.snapshot(seat)[1][0]
        else:
            legal = self.legal(seat)
            key = tuple(legal)
            entry = self._masks.get(key)
            if entry is None:
                entry = self._learn_mask(key, seat, legal)
            cached = entry[0]
        if out is None:
            return cached.copy()
        out[:] = cached
        return out

    def observe(self, seat: int, out: Obs | None = None) -> Obs:
        """``seat``'s observation: the encoding of ``Game.view(state, seat)`` (a fresh
        array unless ``out`` is given)."""
        if self._fast:
            data = self.snapshot(seat)[0]
            if out is None:
                return np.frombuffer(bytearray(data), np.float32)
            out[:] = np.frombuffer(data, np.float32)
            return out
        obs = np.zeros(self.obs_size, np.float32) if out is None else out
        self.codec.encode(self.game.view(self.table.state, seat), seat, obs)
        return obs

    def step_view(self, seat: int) -> tuple[Obs, Mask, float]:
        """Fresh arrays of ``seat``'s observation and mask, and ``seat``'s running score
        (the final score once the game is over): what a solitaire step returns."""
        if self._fast:  # its running score is the final score at the end (tests/envs)
            data, entry, score = self.snapshot(seat)
            return np.frombuffer(bytearray(data), np.float32), entry[0].copy(), score
        view = self.game.view(self.table.state, seat)
        obs = self.codec.encoded(view, seat, self.players)
        mask = self.mask(seat)
        score = self.codec.score(view, seat)
        if self.finished:
            score = float(self.results().scores[seat])
        return obs, mask, score

    def score(self, seat: int) -> float:
        """``seat``'s running score (the final score once the game is over)."""
        if self._fast:
            return self.snapshot(seat)[2]
        if self.finished:
            return float(self.results().scores[seat])
        return self.codec.score(self.game.view(self.table.state, seat), seat)

    def play(self, seat: int, index: int) -> bool:
        """Apply ``seat``'s action number ``index``; False (nothing changes) if illegal."""
        if self._fast:
            snap = self._snaps.get(seat) if self._cached_for is self.last.state else None
            action = (snap or self.snapshot(seat))[1][1].get(int(index))
        else:
            action = self.legal(seat).get(int(index))
        if action is None:
            return False
        table = self.table
        self.last = table.submit(seat, action)  # the one path: checked, applied, told
        self.finished = table.finished
        return True

    def agent_plays(self, seat: int) -> None:
        """``seat``'s seated agent chooses on :meth:`Table.decision` and its choice is
        submitted as it is (no index: two spellings that share one are both fine)."""
        table = self.table
        self.last = table.submit(seat, self._agents[seat].act(table.decision(seat)))
        self.finished = table.finished

    def results(self) -> Results:
        """The game's results (once over), computed once per final state."""
        if self._results[0] is not self.table.state:
            self._results = (self.table.state, self.game.results(self.table.state))
        return self._results[1]

    def outcome(self, seat: int) -> float:
        """The multi-agent reward at the end: +1 per opponent beaten, -1 per opponent
        ahead, divided by the number of opponents (in -1..1); solitaire: the score."""
        scores = self.results().scores
        if self.players == 1:
            return float(scores[0])
        mine = scores[seat]
        return sum((mine > s) - (mine < s) for s in scores) / (self.players - 1)

    # ----- the record -------------------------------------------------------------------
    def record(self, path: str | Path, *, force: bool = True) -> Path:
        """Write this episode (so far) as a gamenight record; returns the path."""
        path = Path(path)
        game = self.game
        writer = RecordWriter.create(path, force=force)
        try:
            seats = [RecordSeat(f"agent {i + 1}", "bot:env") for i in range(self.players)]
            write_moves(writer, game, self.options, self.game_seed, seats, self.table.moves())
        finally:
            writer.close()
        return path
