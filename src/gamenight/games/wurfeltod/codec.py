"""Wurfeltod's RL codec (``GameInfo.codec``; ``docs/rl.md`` lists every slot)."""

from __future__ import annotations

from typing import Any

from gamenight.core.codec import Codec, Obs, fill, order_from
from gamenight.core.options import Options


class WurfeltodCodec(Codec):
    """Wurfeltod: 0-18 Book(c), 19-37 Scratch(c) in ``CATEGORIES`` order,
    38-99 SetAside: index 37 + bit mask of the positions set aside (1..62)."""

    game_id = "wurfeltod"
    HEAD = 6 + 6 + 6 + 19 + 1  # rolled, aside, counters, open boxes, to-act
    PER_SEAT = 20 * 3 + 3  # per box: booked, points, Wurfeltod; points, Wurfeltods, total

    def __init__(self) -> None:
        super().__init__()
        from gamenight.games.wurfeltod.categories import CATEGORIES
        from gamenight.games.wurfeltod.rules import Book, Scratch, SetAside

        for c in CATEGORIES:
            self._add(Book(c))
        for c in CATEGORIES:
            self._add(Scratch(c))
        for mask in range(1, 63):
            self._add(SetAside(tuple(i for i in range(6) if mask >> i & 1)))
        self.n_actions = len(self._actions)
        self._category = {c: i for i, c in enumerate(CATEGORIES)}

    def obs_size(self, players: int) -> int:
        return self.HEAD + self.PER_SEAT * players

    def score(self, view: Any, seat: int) -> float:
        return float(view.cards[seat].total)

    def encode(self, view: Any, seat: int, out: Obs) -> None:
        out[:] = 0
        fill(out, 0, view.rolled, 6)
        fill(out, 6, view.aside, 6)
        out[12], out[13], out[14] = view.turn, view.turns, view.roll
        out[15], out[16], out[17] = view.first_roll, view.must_book, view.finished
        for c in view.open_boxes:
            out[18 + self._category[c]] = 1
        out[37] = view.current == seat and not view.finished
        at = self.HEAD
        for s in order_from(seat, len(view.cards)):
            card = view.cards[s]
            for i, entry in enumerate(card.boxes):
                if entry is not None:
                    out[at + 3 * i] = 1
                    out[at + 3 * i + 1] = entry.points
                    out[at + 3 * i + 2] = entry.wurfeltod
            out[at + 60], out[at + 61], out[at + 62] = card.points, card.wurfeltods, card.total
            at += self.PER_SEAT


def make(options: Options) -> WurfeltodCodec:
    """The ``codec`` capability: a fresh codec (the same for every option)."""
    return WurfeltodCodec()
