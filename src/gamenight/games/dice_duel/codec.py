"""Kniffel Dice Duel's RL codec (``GameInfo.codec``; ``docs/rl.md`` lists every slot)."""

from __future__ import annotations

from typing import Any

from gamenight.core.codec import Codec, Obs, fill, order_from
from gamenight.core.options import Options


class DiceDuelCodec(Codec):
    """Dice Duel: 0 Stop (no chip: none earned, or one declined, K4), 1-31 Roll(keep) in
    ``rules.ALL_ROLLS`` order (keep 0-4 dice), 32-38 Take(c, plate) and 39-45
    Take(c, set-aside) in ``COMBINATIONS`` order."""

    game_id = "dice-duel"
    HEAD = 5 + 5 + 3 + 3 + 1 + 7 + 7 + 2 + 2  # faces, kept, counters, phase, kniffel, ...
    PER_SEAT = 7 + 2 + 1  # chips, total, last chip, current

    def __init__(self) -> None:
        super().__init__()
        from gamenight.games.dice_duel.combinations import COMBINATIONS
        from gamenight.games.dice_duel.rules import ALL_ROLLS, Stop, Take

        self._add(Stop())
        for roll in ALL_ROLLS:
            self._add(roll)
        for source in ("plate", "set-aside"):
            for c in COMBINATIONS:
                self._add(Take(c, source))
        self.n_actions = len(self._actions)
        self._phase = {"roll": 0, "pick": 1, "over": 2}

    def obs_size(self, players: int) -> int:
        return self.HEAD + self.PER_SEAT * players

    def score(self, view: Any, seat: int) -> float:
        return float(view.scores[seat].total)

    def encode(self, view: Any, seat: int, out: Obs) -> None:
        out[:] = 0
        fill(out, 0, view.faces, 5)
        fill(out, 5, view.kept, 5)
        out[10], out[11], out[12] = view.rolls_used, view.rolls_left, view.picks
        out[13 + self._phase[view.phase]] = 1
        out[16] = view.kniffel
        fill(out, 17, view.plate, 7)
        fill(out, 24, view.set_aside, 7)
        out[31] = view.round
        out[32] = view.round_chip
        out[33] = view.mode == "solo"
        out[34] = view.current == seat
        at = self.HEAD
        for s in order_from(seat, view.players):
            fill(out, at, view.chips[s], 7)
            out[at + 7] = view.scores[s].total
            out[at + 8] = view.last_chip == s
            out[at + 9] = view.current == s
            at += self.PER_SEAT


def make(options: Options) -> DiceDuelCodec:
    """The ``codec`` capability: a fresh codec (the same for every option)."""
    return DiceDuelCodec()
