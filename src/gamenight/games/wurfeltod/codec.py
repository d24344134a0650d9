"""Wurfeltod's RL codec (``GameInfo.codec``; ``docs/rl.md`` lists every slot)."""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from gamenight.core.codec import Codec, Obs, order_from
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
        from gamenight.games.wurfeltod.rules import Book, Scratch, SetAside, shared_actions

        for c in CATEGORIES:
            self._add(Book(c))
        for c in CATEGORIES:
            self._add(Scratch(c))
        for mask in range(1, 63):
            self._add(SetAside(tuple(i for i in range(6) if mask >> i & 1)))
        self.n_actions = len(self._actions)
        self._share(shared_actions())
        self._category = {c: i for i, c in enumerate(CATEGORIES)}
        self._packers: dict[int, struct.Struct] = {}

    def obs_size(self, players: int) -> int:
        return self.HEAD + self.PER_SEAT * players

    def score(self, view: Any, seat: int) -> float:
        return float(view.cards[seat].total)

    def encode(self, view: Any, seat: int, out: Obs) -> None:
        out[:] = self._row(view, seat, len(out))

    def encoded(self, view: Any, seat: int, players: int) -> Obs:
        # packed as float32 bytes in one C call: a fresh array without numpy converting
        # a Python list (issue 29); the same float32 values as encode's
        size = self.obs_size(players)
        packer = self._packers.get(size)
        if packer is None:
            packer = self._packers[size] = struct.Struct(f"{size}f")
        row = self._row(view, seat, size)
        return np.frombuffer(bytearray(packer.pack(*row)), np.float32)

    def _row(self, view: Any, seat: int, size: int) -> list[float]:
        # Built as one Python list and copied in once: a numpy item write per slot was
        # most of an environment step's time (issue 29).
        row: list[float] = [0.0] * size
        for at, values in ((0, view.rolled), (6, view.aside)):
            for i, v in enumerate(values[:6]):
                row[at + i] = -1 if v is None else v
        row[12], row[13], row[14] = view.turn, view.turns, view.roll
        row[15], row[16], row[17] = view.first_roll, view.must_book, view.finished
        category = self._category
        for c in view.open_boxes:
            row[18 + category[c]] = 1
        row[37] = view.current == seat and not view.finished
        at = self.HEAD
        for s in order_from(seat, len(view.cards)):
            card = view.cards[s]
            for i, entry in enumerate(card.boxes):
                if entry is not None:
                    row[at + 3 * i] = 1
                    row[at + 3 * i + 1] = entry.points
                    row[at + 3 * i + 2] = entry.wurfeltod
            row[at + 60], row[at + 61], row[at + 62] = card.points, card.wurfeltods, card.total
            at += self.PER_SEAT
        return row


def make(options: Options) -> WurfeltodCodec:
    """The ``codec`` capability: a fresh codec (the same for every option)."""
    return WurfeltodCodec()
