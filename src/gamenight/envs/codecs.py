"""Each game's codec for the environments: its own, or the generic one.

A game declares its codec as ``GameInfo.codec`` (e.g. ``gamenight.games.decathlon.
codec:make``, the base class in :mod:`gamenight.core.codec`); ``docs/rl.md`` lists every
slot of the four built-in codecs. A game that declares none (a plug-in, say) gets the
:class:`GenericCodec`, so every registered game has environments:

* **observation**: ``[seat, n, b_1 .. b_n, 0 ..]``, the seat number, then the ``n`` bytes
  of the JSON of the seat's view (``msgspec``: the fields in declaration order), each a
  float 0-255, zero-padded to a fixed ``OBS_BYTES``. A view whose JSON is longer is an
  error naming the game: such a game should declare a codec;
* **actions**: if the game declares ``GameInfo.actions`` (``actions(options) -> every
  action``, in a fixed order), index ``i`` is the ``i``-th of them, as fixed as a real
  codec's. Otherwise index ``i`` is the ``i``-th of ``legal_actions`` now, in a fixed
  ``Discrete(MAX_LEGAL)``: sound (every index the mask allows is legal), but what an
  index means changes with the position;
* a ``GameInfo.simultaneous`` game gets one more index, *wait*, for the parallel env;
* the running score is 0 until the end (the results): a solitaire return is the score.

>>> codec = codec_for("decathlon")
>>> codec.n_actions, type(codec).__name__
(269, 'DecathlonCodec')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import msgspec
import numpy as np

from gamenight.core import registry
from gamenight.core.codec import BIG, Codec, Obs
from gamenight.core.game import AnyGame

__all__ = ["BIG", "Codec", "GenericCodec", "Obs", "codec_for"]

OBS_BYTES = 2048  # bytes of view JSON the generic observation holds
MAX_LEGAL = 64  # legal actions at once the generic positional action space holds


class GenericCodec(Codec):
    """The codec of a game that declares none (see the module doc)."""

    def __init__(self, game: AnyGame, options: Mapping[str, Any]) -> None:
        super().__init__()
        info = game.info
        self.game_id, self._name = info.id, info.name
        self.positional = info.actions is None
        if not self.positional:
            for action in registry.listed(str(info.actions), options):
                self._add(action)
        self.n_actions = MAX_LEGAL if self.positional else len(self._actions)
        if info.simultaneous:
            self.wait = self.n_actions
            self.n_actions += 1

    def obs_size(self, players: int) -> int:
        return 2 + OBS_BYTES

    def encode(self, view: Any, seat: int, out: Obs) -> None:
        data = msgspec.json.encode(view)
        if len(data) > OBS_BYTES:
            raise ValueError(
                f"{self._name}: a view of {len(data)} bytes of JSON is more than the generic "
                f"codec's {OBS_BYTES}; the game should declare a codec (GameInfo.codec)"
            )
        out[:] = 0
        out[0], out[1] = seat, len(data)
        out[2 : 2 + len(data)] = np.frombuffer(data, np.uint8)

    def legal_indices(
        self, actions: Sequence[Any], seat: int, view: Callable[[], Any]
    ) -> dict[int, Any]:
        if not self.positional:
            return super().legal_indices(actions, seat, view)
        if len(actions) > MAX_LEGAL:
            raise ValueError(
                f"{self._name} offers {len(actions)} actions at once, more than the generic "
                f"codec's {MAX_LEGAL}; the game should declare GameInfo.actions or a codec"
            )
        return dict(enumerate(actions))

    def action(self, index: int) -> Any:
        if self.positional:
            raise TypeError("positional indices stand for the legal actions of a position")
        return super().action(index)


def codec_for(game_id: str, options: Mapping[str, Any] | None = None) -> Codec:
    """A fresh codec for ``game_id`` with parsed ``options`` (default: the defaults)."""
    entry = registry.get(game_id)
    game = entry.game
    parsed = game.parse_options() if options is None else options
    make = entry.capability(game.info.codec)
    if make is None:
        return GenericCodec(game, parsed)
    return registry.made(make(parsed), Codec, str(game.info.codec))
