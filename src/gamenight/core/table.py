"""The table: one game in progress, the object every front end drives.

A :class:`Table` holds the state, the sequence number ``seq`` (actions applied
so far) and the history. Front ends never touch the state: they

* :meth:`Table.submit` one action for a seat, optionally with the ``seq`` they
  saw (a stale one is refused, so a re-send after a reconnect is no double move);
* read a seat's :meth:`Table.position` (view, legal actions, seq): all a
  reconnecting client needs;
* read :meth:`Table.events_since` and :meth:`Table.history`, filtered for the
  seat (spectators pass ``None``): events by audience, actions in their public
  form (:meth:`Game.public_action`) until the game reveals them;
* :meth:`Table.listen` for every :class:`~gamenight.core.frames.Step` as it
  happens; each listener takes the frame of the seat it serves
  (:meth:`Step.frame`, the one redaction) or, for the referee, the step itself.

Durable writers (records, databases) hook in with :meth:`Table.on_commit`:
they get the same step *before* the table moves on; if one raises, nothing
changes. Every front end takes this one path: prepare, durable writers,
commit, listeners. The table never waits for an agent: something outside
(the terminal session, :class:`~gamenight.core.runner.Match`, the server, an
RL environment) asks agents and submits their choices.

>>> from gamenight.core import registry
>>> from gamenight.core.dice import SeededDice
>>> game = registry.get("wurfeltod").game
>>> table = Table.start(game, 2, game.parse_options(), SeededDice(seed=5))
>>> snap = table.position(0)
>>> snap.seq, snap.to_act, len(snap.legal) > 0
(0, (0,), True)
>>> _ = table.submit(0, snap.legal[0], expected_seq=0)
>>> table.seq
1
>>> table.submit(0, snap.legal[0], expected_seq=0)
Traceback (most recent call last):
...
gamenight.core.errors.StaleActionError: that move was made for position 0; the table is at 1
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Generic

import msgspec
from typing_extensions import TypeVar

from gamenight.core.agents import Decision
from gamenight.core.dice import DiceSource
from gamenight.core.errors import IllegalActionError, StaleActionError
from gamenight.core.events import Event
from gamenight.core.frames import Position, Step, action_for, position_of
from gamenight.core.game import Game, Results
from gamenight.core.options import Options

S = TypeVar("S", bound=msgspec.Struct, default=msgspec.Struct)
A = TypeVar("A", bound=msgspec.Struct, default=msgspec.Struct)
V = TypeVar("V", bound=msgspec.Struct, default=msgspec.Struct)
E = TypeVar("E", bound=Event, default=Event)

Listener = Callable[[Step[S, A, V, E]], None]


class Stamped(msgspec.Struct, Generic[E], frozen=True):
    """An event with the seq of the action that caused it (0: the start of the game)."""

    seq: int
    event: E


class Move(msgspec.Struct, Generic[A], frozen=True):
    """One applied action as a viewer may know it (``None``: not shown to them)."""

    seq: int
    seat: int
    action: A | None


def _stale(expected: int, seq: int) -> StaleActionError:
    return StaleActionError(
        "that move was made for position {made}; the table is at {seq}", made=expected, seq=seq
    )


class Table(Generic[S, A, V, E]):
    """A game in progress; the single place where actions are applied.

    It keeps the current state, the moves and the events, and the states that
    undo may go back to (those before a run of reversible moves), not every
    position of the game.
    """

    def __init__(
        self,
        game: Game[S, A, V, E],
        state: S,
        start_events: Sequence[E] = (),
        *,
        undo: bool = True,
    ) -> None:
        self.game = game
        self._state = state
        self._back: list[S] = []  # the state before each trailing reversible move
        self._moves: list[tuple[int, A]] = []
        self.opening: Step[S, A, V, E] = Step(game, 0, None, None, state, tuple(start_events))
        # Each action's events, by seq (0: the start). Issue 29: no wrapper object per
        # event on the hot path; events_since and log stamp them when asked.
        self._events: list[tuple[E, ...]] = [self.opening.events]
        # Who acts now, from the step that made the current state (issue 29: the table
        # layer asked the game three more times per action).
        self._acting = self.opening.to_act  # the current step's, read at every action
        # Tuples, replaced on change: a listener may stop itself while being called.
        self._listeners: tuple[Listener[S, A, V, E], ...] = ()
        self._hooks: tuple[Listener[S, A, V, E], ...] = ()
        # bound once: commit asks at every action. ``undo=False`` (a table nobody takes a
        # move back at: an RL episode) keeps no states to go back to and never asks.
        self._reversible = game.reversible if undo else None
        # Game.apply's own checks, made with the seats the table already knows (issue 45:
        # no second to_act per action); a game that overrides apply is asked as it says.
        self._checked = type(game).apply is Game.apply
        self._action_classes = game._action_classes if self._checked else ()
        self._action_types = game._action_types  # the exact types: one lookup
        self._plain_end = type(game).is_terminal is Game.is_terminal  # over: no seat acts
        self.finished = self._over()  # kept by commit and undo: read at every action

    @classmethod
    def start(
        cls,
        game: Game[S, A, V, E],
        players: int,
        options: Options,
        dice: DiceSource,
        *,
        undo: bool = True,
    ) -> Table[S, A, V, E]:
        """A new table; raises :class:`OptionsError` for a bad set-up. ``undo=False``: no
        move is ever taken back (:meth:`can_undo` is always False)."""
        step = game.start(players, options, dice)
        return cls(game, step.state, step.events, undo=undo)

    # ----- reading -------------------------------------------------------------
    @property
    def seq(self) -> int:
        """Actions applied so far."""
        return len(self._moves)

    @property
    def state(self) -> S:
        """The full state: for the referee (records, tests, bots' hosts), never for a seat."""
        return self._state

    @property
    def start_events(self) -> tuple[E, ...]:
        return self.opening.events

    def _over(self) -> bool:
        return not self._acting if self._plain_end else self.game.is_terminal(self._state)

    def to_act(self) -> tuple[int, ...]:
        return self._acting

    def results(self) -> Results | None:
        return self.game.results(self._state) if self.finished else None

    def position(self, seat: int | None) -> Position[A, V]:
        """``seat``'s view, its legal actions (if it is to act) and the seq."""
        return position_of(self.game, self._state, self.seq, seat, acting=self._acting)

    def decision(self, seat: int) -> Decision[V, A]:
        """What ``seat``'s agent is told now: its view and legal actions (the agents'
        :meth:`position`, without a Position: the match runner asks once per action).
        Raises :class:`IllegalActionError` if ``seat`` is not to act."""
        if seat not in self._acting:
            raise IllegalActionError("it is not seat {seat}'s turn to act", seat=seat)
        game, state = self.game, self._state
        return Decision(game.info.id, seat, game.view(state, seat), game.legal_actions(state, seat))

    def events_since(self, seat: int | None, seq: int) -> list[Stamped[E]]:
        """The events ``seat`` may see that actions after ``seq`` caused.

        ``seq=-1`` includes the start of the game.
        """
        events = self._events
        return [
            Stamped(n, e)
            for n in range(max(seq + 1, 0), len(events))
            for e in events[n]
            if e.visible_to(seat)
        ]

    def log(self) -> list[Stamped[E]]:
        """The referee's stream: every event, unfiltered (records, never a seat)."""
        return [Stamped(n, e) for n, mine in enumerate(self._events) for e in mine]

    def history(self, viewer: int | None) -> list[Move[A]]:
        """Every action so far, as ``viewer`` may know it now (the frames' rule)."""
        game, state = self.game, self._state
        return [
            Move(seq, seat, action_for(game, state, seat, action, viewer))
            for seq, (seat, action) in enumerate(self._moves, start=1)
        ]

    def moves(self) -> list[tuple[int, A]]:
        """The referee's history: every (seat, action), unredacted."""
        return list(self._moves)

    def played(self) -> list[tuple[int, A, tuple[E, ...]]]:
        """The referee's history with each action's events: (seat, action, events)."""
        return [
            (seat, action, mine)
            for (seat, action), mine in zip(self._moves, self._events[1:], strict=True)
        ]

    # ----- acting ---------------------------------------------------------------
    def prepare(self, seat: int, action: A, expected_seq: int | None = None) -> Step[S, A, V, E]:
        """Validate ``action`` and compute its :class:`Step` without applying it.

        Raises :class:`StaleActionError` or :class:`IllegalActionError`; the
        table is unchanged either way.
        """
        seq = len(self._moves)
        if expected_seq is not None and expected_seq != seq:
            raise _stale(expected_seq, seq)
        done = self.game.apply(self._state, seat, action)
        return Step(self.game, seq + 1, seat, action, done.state, tuple(done.events))

    def commit(self, step: Step[S, A, V, E]) -> Step[S, A, V, E]:
        """Apply a prepared step: durable writers first (any may refuse by raising),
        then the table moves on and every listener gets the same step."""
        moves = self._moves
        if step.seq != len(moves) + 1 or step.seat is None or step.action is None:
            raise StaleActionError(
                "that move was prepared for position {made}; the table is at {seq}",
                made=step.seq - 1,
                seq=len(moves),
            )
        return self._commit(step)

    def _commit(self, step: Step[S, A, V, E]) -> Step[S, A, V, E]:
        """:meth:`commit` of a step known to be the next (``submit`` made it)."""
        for hook in self._hooks:
            hook(step)
        after = step.state
        reversible = self._reversible
        if reversible is not None:
            before = self._state
            if reversible(before, after):
                self._back.append(before)
            elif self._back:
                self._back.clear()
        self._state = after
        acting = step._acting  # Step.to_act, without its property: read at every action
        if acting is None:
            acting = step._acting = self.game.to_act(after)
        self._acting = acting
        self.finished = not acting if self._plain_end else self.game.is_terminal(after)
        seat, action = step.seat, step.action
        assert seat is not None and action is not None  # commit checked both
        self._moves.append((seat, action))
        self._events.append(step.events)
        for listener in self._listeners:
            listener(step)
        return step

    def submit(self, seat: int, action: A, expected_seq: int | None = None) -> Step[S, A, V, E]:
        """Validate and apply one action; returns its step (:meth:`prepare` then
        :meth:`commit`, in one call: issue 29, it is made at every action).

        Raises :class:`StaleActionError` for a stale ``expected_seq`` and
        :class:`IllegalActionError` for an illegal action, changing nothing.
        """
        seq = len(self._moves)
        if expected_seq is not None and expected_seq != seq:
            raise _stale(expected_seq, seq)
        game = self.game
        if self._checked:
            acting = self._acting
            if seat not in acting or (
                type(action) not in self._action_types
                and not isinstance(action, self._action_classes)
            ):
                game.check_action(acting, seat, action)  # raises, with Game.apply's words
            done = game._apply(self._state, seat, action)
        else:
            done = game.apply(self._state, seat, action)
        events = done.events
        if events.__class__ is not tuple:
            events = tuple(events)
        step = Step(game, seq + 1, seat, action, done.state, events)
        return self._commit(step)  # the one body of a commit (issue 45: not inlined)

    def can_undo(self, seat: int) -> bool:
        """Whether ``seat`` may take back the last action: it was theirs and the
        game calls it reversible (no dice thrown, nothing revealed)."""
        return bool(self._back) and self._moves[-1][0] == seat

    def undo(self, seat: int) -> None:
        """Take back ``seat``'s last action (see :meth:`can_undo`).

        Only for tables without a durable writer that cannot forget (the
        terminal rewrites its record itself).
        """
        if not self.can_undo(seat):
            raise IllegalActionError("there is no move of yours to take back here")
        seq = self.seq
        self._state = self._back.pop()
        self._acting = Step(self.game, seq - 1, None, None, self._state, ()).to_act
        self.finished = self._over()
        self._moves.pop()
        del self._events[seq:]

    # ----- listening -------------------------------------------------------------
    def listen(self, listener: Listener[S, A, V, E]) -> Callable[[], None]:
        """Call ``listener(step)`` after each action takes effect. Returns a function
        that stops it. (The start of the game is :attr:`opening`.)"""
        self._listeners += (listener,)

        def stop() -> None:
            mine = list(self._listeners)
            mine.remove(listener)
            self._listeners = tuple(mine)

        return stop

    def on_commit(self, hook: Listener[S, A, V, E]) -> None:
        """Call ``hook(step)`` before each action takes effect (durable writers)."""
        self._hooks += (hook,)
