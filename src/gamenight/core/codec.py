"""The base of every game's RL codec: fixed action indices and a flat view encoding.

A :class:`Codec` turns a game's actions into fixed indices of a ``Discrete(n)``
space and one seat's *view* (never the state) into a flat ``float32`` vector.
Per-seat blocks are ordered from the observing seat: its own block first, then
the seats after it in seat order, so a policy learnt for seat 0 reads any seat.

A game declares its codec as ``GameInfo.codec`` ("module:attribute" of a factory
``(options) -> Codec``, e.g. ``gamenight.games.decathlon.codec:make``); the
environments (:mod:`gamenight.envs`) use it, or their generic codec for a game that
declares none. This is the only core module that imports numpy: nothing lists a
game through it.

>>> codec = Codec()
>>> codec._add("stay"), codec._add("go")
(None, None)
>>> codec.index("go"), codec.action(0), codec.score(None, 0)
(1, 'stay', 0.0)
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

Obs = npt.NDArray[np.float32]

BIG = 100_000.0  # bound of every observation slot (scores stay far below it)
# Entries per cache of a fast path before it starts again (a few MB at most per
# environment; the common dice tuples come back within a few episodes).
CACHE_LIMIT = 1 << 14


class Codec:
    """Action indices and view encoder of one game (subclasses fill the tables)."""

    game_id: str = ""
    n_actions: int = 0
    # Whether an action's index depends on the view (:meth:`index_at`), not on the
    # action alone: the environments then ask index_at for every legal action.
    view_indexed = False
    # The index of "wait" (a seat with nothing to choose while others choose at once:
    # a parallel environment's games, GameInfo.simultaneous); None: no such action.
    wait: int | None = None
    # Options a one-seat Gymnasium env of the game plays with only (name -> value), and
    # why, for its refusal of another value: the Decathlon's Championship alone always
    # wins the same honours (``{"variant": "points"}``). Default: none.
    solo_options: ClassVar[dict[str, Any]] = {}
    solo_hint: str = ""

    def __init__(self) -> None:
        self._index: dict[Any, int] = {}
        self._actions: list[Any] = []
        # Issue 29: index by identity for the action objects a game shares between its
        # legal-action lists (no hashing of a struct per legal action and step); the
        # objects are kept here, so their ids cannot be reused while the codec lives.
        self._by_id: dict[int, int] = {}
        self._kept: list[Any] = []

    def _add(self, action: Any) -> None:
        self._index[action] = self._by_id[id(action)] = len(self._actions)
        self._actions.append(action)

    def _share(self, actions: Iterable[Any]) -> None:
        """Index ``actions`` (equal to actions already added) by identity too: a game's
        own shared action objects, as its ``legal_actions`` returns them."""
        for action in actions:
            self._by_id[id(action)] = self._index[action]
            self._kept.append(action)

    def index(self, action: Any) -> int:
        """The fixed index of ``action`` (raises KeyError for a non-action)."""
        return self._index[action]

    def index_at(self, view: Any, seat: int, action: Any) -> int:
        """The index of ``action`` where ``seat`` sees ``view`` (most games: :meth:`index`)."""
        return self._index[action]

    def legal_indices(
        self, actions: Sequence[Any], seat: int, view: Callable[[], Any]
    ) -> dict[int, Any]:
        """Index -> action for ``actions`` (legal now; the first wins a shared index).
        ``view()`` gives ``seat``'s view, for a codec whose indices depend on it."""
        by_id = self._by_id
        try:
            return {by_id[id(action)]: action for action in reversed(actions)}
        except KeyError:  # an equal action, not one of the objects the codec knows
            index = self._index.__getitem__
            return {index(action): action for action in reversed(actions)}

    def action(self, index: int) -> Any:
        """The action a fixed index stands for (a template; legality is the game's)."""
        return self._actions[index]

    def obs_size(self, players: int) -> int:
        raise NotImplementedError

    def encode(self, view: Any, seat: int, out: Obs) -> None:
        """Write ``seat``'s ``view`` into ``out`` (length :meth:`obs_size`), zeros first."""
        raise NotImplementedError

    def encoded(self, view: Any, seat: int, players: int) -> Obs:
        """A fresh observation of ``seat``'s ``view`` with ``players`` seats: what
        :meth:`encode` writes (a codec may make it faster)."""
        out = np.zeros(self.obs_size(players), np.float32)
        self.encode(view, seat, out)
        return out

    def score(self, view: Any, seat: int) -> float:
        """The score ``seat`` holds now in ``view``, as the final results will count it
        (a solitaire env's reward is its change). Default 0: the score comes at the end."""
        return 0.0

    # A fast path may encode straight from the public fields of a state; it must give
    # exactly ``encode(game.view(state, seat))`` (tests/envs check it on many positions).
    fast = False

    def observe_state(self, state: Any, seat: int) -> tuple[bytes, Any, float]:
        """Fast codecs: ``seat``'s observation of ``state`` as float32 bytes, a mask key
        (None: nothing to choose; equal keys, equal legal actions) and the running score."""
        raise NotImplementedError

    def encode_state(self, state: Any, seat: int, out: Obs) -> float:
        """Encode ``seat``'s view of ``state`` into ``out``; returns its running score."""
        data, _key, score = self.observe_state(state, seat)
        out[:] = np.frombuffer(data, np.float32)
        return score


def fill(out: Obs, at: int, values: Sequence[int | float | None], width: int) -> None:
    """Copy up to ``width`` values into ``out[at:]`` (None becomes -1)."""
    for i, v in enumerate(values[:width]):
        out[at + i] = -1 if v is None else v


def pack(values: Sequence[int | float | None], width: int) -> bytes:
    """Up to ``width`` values (None as -1) as float32 bytes, padded with zeros."""
    row = [-1.0 if v is None else float(v) for v in values[:width]]
    return struct.pack(f"{width}f", *row, *[0.0] * (width - len(row)))


def order_from(seat: int, players: int) -> list[int]:
    return [(seat + k) % players for k in range(players)]
