"""The table: one game in progress, the object every front end drives.

A :class:`Table` holds the state, the sequence number ``seq`` (actions applied
so far) and the history. Front ends never touch the state: they

* :meth:`Table.submit` one action for a seat, optionally with the ``seq`` they
  saw (a stale one is refused, so a re-send after a reconnect is no double move);
* read a seat's :meth:`Table.snapshot` (view, legal actions, seq): all a
  reconnecting client needs;
* read :meth:`Table.events_since` and :meth:`Table.history`, filtered for the
  seat (spectators pass ``None``): events by audience, actions in their public
  form (:meth:`Game.public_action`) until the game reveals them;
* :meth:`Table.watch` for a seat's filtered events as they happen.

The referee's log (records, databases) hooks in with :meth:`Table.on_commit`,
which sees every action and event *before* the table moves on; if a hook
raises, nothing changes. The table never waits for an agent: something outside
(the terminal session, :class:`~gamenight.core.runner.Match`, the server, an
RL environment) asks agents and submits their choices.

>>> from gamenight.core import registry
>>> from gamenight.core.dice import SeededDice
>>> game = registry.get("wurfeltod").game
>>> table = Table.start(game, 2, game.parse_options(), SeededDice(seed=5))
>>> snap = table.snapshot(0)
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
from typing import Any, Generic, TypeVar

import msgspec

from gamenight.core.dice import DiceSource
from gamenight.core.errors import IllegalActionError, StaleActionError
from gamenight.core.game import Game, Results
from gamenight.core.options import Options

S = TypeVar("S", bound=msgspec.Struct)
A = TypeVar("A", bound=msgspec.Struct)

# (seq, events) for one seat's watcher; (seq, seat, action, events) for the referee.
Watcher = Callable[[int, tuple[Any, ...]], None]
CommitHook = Callable[[int, int, Any, tuple[Any, ...]], None]


class Snapshot(msgspec.Struct, frozen=True, kw_only=True):
    """What one seat (``None``: a spectator) may know now, with the position's seq."""

    seq: int
    seat: int | None
    view: Any
    legal: tuple[Any, ...]  # empty unless this seat is to act
    to_act: tuple[int, ...]
    finished: bool
    results: Results | None = None


class Stamped(msgspec.Struct, frozen=True):
    """An event with the seq of the action that caused it (0: the start of the game)."""

    seq: int
    event: Any


class Move(msgspec.Struct, frozen=True):
    """One applied action as a viewer may know it."""

    seq: int
    seat: int
    action: Any


class Pending(msgspec.Struct, frozen=True):
    """A validated action not yet committed (see :meth:`Table.prepare`)."""

    seq: int  # the seq it will get
    seat: int
    action: Any
    state: Any
    events: tuple[Any, ...]


class Table(Generic[S, A]):
    """A game in progress; the single place where actions are applied."""

    def __init__(self, game: Game[S, A], state: S, start_events: Sequence[Any] = ()) -> None:
        self.game = game
        self._states: list[S] = [state]
        self._moves: list[tuple[int, A]] = []
        self._log: list[Stamped] = [Stamped(0, e) for e in start_events]
        self._watchers: list[tuple[int | None, Watcher]] = []
        self._hooks: list[CommitHook] = []

    @classmethod
    def start(
        cls, game: Game[S, A], players: int, options: Options, dice: DiceSource
    ) -> Table[S, A]:
        """A new table; raises :class:`OptionsError` for a bad set-up."""
        step = game.start(players, options, dice)
        return cls(game, step.state, step.events)

    # ----- reading -------------------------------------------------------------
    @property
    def seq(self) -> int:
        """Actions applied so far."""
        return len(self._moves)

    @property
    def state(self) -> S:
        """The full state: for the referee (records, tests, bots' hosts), never for a seat."""
        return self._states[-1]

    @property
    def start_events(self) -> tuple[Any, ...]:
        return tuple(s.event for s in self._log if s.seq == 0)

    @property
    def finished(self) -> bool:
        return self.game.is_terminal(self.state)

    def to_act(self) -> tuple[int, ...]:
        return self.game.to_act(self.state)

    def results(self) -> Results | None:
        return self.game.results(self.state) if self.finished else None

    def snapshot(self, seat: int | None) -> Snapshot:
        """``seat``'s view, its legal actions (if it is to act) and the seq."""
        state = self.state
        acting = self.game.to_act(state)
        legal = tuple(self.game.legal_actions(state, seat)) if seat in acting else ()
        return Snapshot(
            seq=self.seq,
            seat=seat,
            view=self.game.view(state, seat),
            legal=legal,
            to_act=acting,
            finished=not acting,
            results=self.results(),
        )

    def events_since(self, seat: int | None, seq: int) -> list[Stamped]:
        """The events ``seat`` may see that actions after ``seq`` caused.

        ``seq=-1`` includes the start of the game.
        """
        return [s for s in self._log if s.seq > seq and s.event.visible_to(seat)]

    def log(self) -> list[Stamped]:
        """The referee's stream: every event, unfiltered (records, never a seat)."""
        return list(self._log)

    def history(self, viewer: int | None) -> list[Move]:
        """Every action so far, as ``viewer`` may know it now."""
        state = self.state
        return [
            Move(
                seq,
                seat,
                action if seat == viewer else self.game.public_action(state, seat, action),
            )
            for seq, (seat, action) in enumerate(self._moves, start=1)
        ]

    def moves(self) -> list[tuple[int, A]]:
        """The referee's history: every (seat, action), unredacted."""
        return list(self._moves)

    # ----- acting ---------------------------------------------------------------
    def prepare(self, seat: int, action: A, expected_seq: int | None = None) -> Pending:
        """Validate ``action`` and compute its outcome without applying it.

        Raises :class:`StaleActionError` or :class:`IllegalActionError`; the
        table is unchanged either way.
        """
        if expected_seq is not None and expected_seq != self.seq:
            raise StaleActionError(
                f"that move was made for position {expected_seq}; the table is at {self.seq}"
            )
        step = self.game.apply(self.state, seat, action)
        return Pending(self.seq + 1, seat, action, step.state, tuple(step.events))

    def commit(self, pending: Pending) -> tuple[Any, ...]:
        """Apply a prepared action: commit hooks first (any may refuse by raising),
        then the table moves on and watchers hear of it. Returns the events."""
        if pending.seq != self.seq + 1:
            raise StaleActionError(
                f"that move was prepared for position {pending.seq - 1}; the table is at {self.seq}"
            )
        for hook in self._hooks:
            hook(pending.seq, pending.seat, pending.action, pending.events)
        self._states.append(pending.state)
        self._moves.append((pending.seat, pending.action))
        self._log.extend(Stamped(pending.seq, e) for e in pending.events)
        self._notify(pending.seq, pending.events)
        return pending.events

    def submit(self, seat: int, action: A, expected_seq: int | None = None) -> tuple[Any, ...]:
        """Validate and apply one action; returns its events.

        Raises :class:`StaleActionError` for a stale ``expected_seq`` and
        :class:`IllegalActionError` for an illegal action, changing nothing.
        """
        return self.commit(self.prepare(seat, action, expected_seq))

    def can_undo(self, seat: int) -> bool:
        """Whether ``seat`` may take back the last action: it was theirs and the
        game calls it reversible (no dice thrown, nothing revealed)."""
        if not self._moves or self._moves[-1][0] != seat:
            return False
        return self.game.reversible(self._states[-2], self._states[-1])

    def undo(self, seat: int) -> None:
        """Take back ``seat``'s last action (see :meth:`can_undo`).

        Only for tables without a referee's log hooked in that cannot forget
        (the terminal rewrites its record itself).
        """
        if not self.can_undo(seat):
            raise IllegalActionError("there is no move of yours to take back here")
        seq = self.seq
        self._states.pop()
        self._moves.pop()
        self._log = [s for s in self._log if s.seq < seq]

    # ----- listening -------------------------------------------------------------
    def watch(self, seat: int | None, watcher: Watcher) -> Callable[[], None]:
        """Call ``watcher(seq, events)`` with the events ``seat`` may see after each
        action (only when there are some). Returns a function that stops it."""
        entry = (seat, watcher)
        self._watchers.append(entry)
        return lambda: self._watchers.remove(entry)

    def on_commit(self, hook: CommitHook) -> None:
        """Call ``hook(seq, seat, action, events)`` before each action takes effect."""
        self._hooks.append(hook)

    def _notify(self, seq: int, events: tuple[Any, ...]) -> None:
        for seat, watcher in list(self._watchers):
            mine = tuple(e for e in events if e.visible_to(seat))
            if mine:
                watcher(seq, mine)
