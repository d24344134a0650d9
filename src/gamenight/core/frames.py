"""Steps and frames: one applied action, and how it looks from each seat.

A :class:`Step` is what :meth:`Table.prepare <gamenight.core.table.Table.prepare>`
returns and :meth:`Table.commit <gamenight.core.table.Table.commit>` hands to
every listener: the seq, the acting seat, the action, the new state and the
events. The start of a game is step 0 (no seat, no action).

:meth:`Step.frame` is the ONE redaction in gamenight (boardgame.io's player
view, placed in core): what a seat (``None``: a spectator) may know of a step.
The server sends it, agents observe it, replays show it, the terminal narrates
it. It holds

* the events the seat may see (:meth:`Event.visible_to`);
* the action: the seat's own in full, anyone else's in its public form
  (:func:`public_form`), or ``None`` when it must not be shown at all;
* the position after the step (:class:`Position`): the seat's view, its legal
  actions if it is to act, who acts, and the results once the game is over.

Each seat's frame is computed once per step, however many listeners ask.

>>> from gamenight.core import registry
>>> from gamenight.core.dice import SeededDice
>>> from gamenight.core.table import Table
>>> game = registry.get("wurfeltod").game
>>> table = Table.start(game, 2, game.parse_options(), SeededDice(seed=5))
>>> step = table.prepare(0, table.position(0).legal[0])
>>> step.frame(1) is step.frame(1), step.frame(None).position.legal
(True, ())
>>> (seat,) = step.frame(None).position.to_act
>>> step.frame(seat).position.legal == tuple(game.legal_actions(step.state, seat))
True
>>> step.frame(1 - seat).position.legal
()
"""

from __future__ import annotations

from typing import Generic

import msgspec
from typing_extensions import TypeVar

from gamenight.core.events import Event
from gamenight.core.game import Game, Results

S = TypeVar("S", bound=msgspec.Struct, default=msgspec.Struct)
A = TypeVar("A", bound=msgspec.Struct, default=msgspec.Struct)
V = TypeVar("V", bound=msgspec.Struct, default=msgspec.Struct)
E = TypeVar("E", bound=Event, default=Event)


class Position(msgspec.Struct, Generic[A, V], frozen=True, kw_only=True):
    """What one seat (``None``: a spectator) may know of a position, with its seq."""

    seq: int
    seat: int | None
    view: V
    legal: tuple[A, ...]  # empty unless this seat is to act
    to_act: tuple[int, ...]
    finished: bool
    results: Results | None = None


class Frame(msgspec.Struct, Generic[A, V, E], frozen=True, kw_only=True):
    """One step as one seat may know it (see the module docstring)."""

    seq: int
    viewer: int | None
    seat: int | None  # who acted; None for the start of the game
    action: A | None  # the viewer's own action, its public form, or None
    events: tuple[E, ...]
    position: Position[A, V]


def public_form(game: Game[S, A, V, E], state: S, seat: int, action: A) -> A | None:
    """How ``seat``'s ``action`` may be shown to anyone else while ``state`` is current,
    or ``None`` if it may not be shown.

    A game with hidden information that does not say how its actions look
    (:meth:`Game.public_action` not overridden) shows none: its events say what
    is public. Otherwise the game's own :meth:`Game.public_action` decides.
    """
    if game.info.hidden_info and type(game).public_action is Game.public_action:
        return None
    return game.public_action(state, seat, action)


def action_for(
    game: Game[S, A, V, E], state: S, seat: int, action: A, viewer: int | None
) -> A | None:
    """``seat``'s ``action`` as ``viewer`` may know it while ``state`` is current."""
    return action if viewer == seat else public_form(game, state, seat, action)


def position_of(
    game: Game[S, A, V, E],
    state: S,
    seq: int,
    seat: int | None,
    *,
    acting: tuple[int, ...] | None = None,
    results: Results | None = None,
) -> Position[A, V]:
    """``seat``'s :class:`Position` in ``state`` (the one place a view is taken).

    ``acting`` and ``results``, if given, are ``state``'s (a step computes them once
    for all its viewers)."""
    if acting is None:
        acting = game.to_act(state)
    legal = tuple(game.legal_actions(state, seat)) if seat in acting else ()
    if not acting and results is None:
        results = game.results(state)
    return Position(
        seq=seq,
        seat=seat,
        view=game.view(state, seat),
        legal=legal,
        to_act=acting,
        finished=not acting,
        results=None if acting else results,
    )


class Step(msgspec.Struct, Generic[S, A, V, E], eq=False, repr_omit_defaults=True):
    """One action applied (or about to be), or the start of a game (seq 0).

    Immutable once made; who acts next, the results and the frames are computed on
    first request and kept (a room asks for them once per socket and writer). A struct
    for its C constructor (issue 29: one is made per action), compared by identity;
    the ``_`` fields are those caches, for core's own use.
    """

    game: Game[S, A, V, E]
    seq: int
    seat: int | None
    action: A | None
    state: S
    # a game's events are its event type E (the contract tests check each one
    # decodes as the game's event_type)
    events: tuple[E, ...]
    # made on first request (issue 29: most steps of a match are asked for no frame)
    _acting: tuple[int, ...] | None = None
    _results: Results | None = None
    _frames: dict[int | None, Frame[A, V, E]] | None = None
    _seen: dict[int | None, tuple[E, ...]] | None = None

    def __repr__(self) -> str:
        return f"Step(seq={self.seq}, seat={self.seat}, action={self.action!r})"

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seats that act after this step; empty if it ended the game."""
        acting = self._acting
        if acting is None:
            acting = self._acting = self.game.to_act(self.state)
        return acting

    @property
    def finished(self) -> bool:
        return not self.to_act

    def results(self) -> Results | None:
        """The results if this step ended the game."""
        if self.to_act:
            return None
        if self._results is None:
            self._results = self.game.results(self.state)
        return self._results

    def events_for(self, viewer: int | None) -> tuple[E, ...]:
        """The events ``viewer`` may see (the frame's, without computing its position)."""
        events = self.events
        if not events:
            return events
        cache = self._seen
        if cache is None:
            cache = self._seen = {}
        else:
            seen = cache.get(viewer)
            if seen is not None:
                return seen
        # a public event (no audience) is everyone's: no call to ask it (issue 29)
        seen = cache[viewer] = tuple(
            [e for e in events if e.audience is None or e.visible_to(viewer)]
        )
        return seen

    def frame(self, viewer: int | None) -> Frame[A, V, E]:
        """This step as ``viewer`` may know it; computed once per viewer."""
        frames = self._frames
        if frames is None:
            frames = self._frames = {}
        made = frames.get(viewer)
        if made is None:
            game, state = self.game, self.state
            action = (
                None
                if self.seat is None or self.action is None
                else action_for(game, state, self.seat, self.action, viewer)
            )
            made = frames[viewer] = Frame(
                seq=self.seq,
                viewer=viewer,
                seat=self.seat,
                action=action,
                events=self.events_for(viewer),
                position=position_of(
                    game, state, self.seq, viewer, acting=self.to_act, results=self.results()
                ),
            )
        return made
