"""Chip points and the end-of-game bonuses (K6), per player.

>>> b = score(chips=(4, 4, 4, 4, 4, 4, 4), took_last_chip=True)
>>> b.chip_points, b.gold, b.full_stacks, b.last_chip, b.total
(720, 50, 210, 20, 1000)
>>> score(chips=(1, 1, 1, 1, 1, 1, 0), took_last_chip=False).silver
20
>>> b.total == SOLO_MAXIMUM
True
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from gamenight.games.dice_duel.combinations import CHIPS_PER_COMBINATION, VALUES

GOLD_BONUS = 50  # K6: chips of all 7 combinations
SILVER_BONUS = 20  # K6: chips of exactly 6 combinations (the seed's "7" is a mistranslation)
FULL_STACK_BONUS = 30  # K6: all 4 chips of one combination
LAST_CHIP_BONUS = 20  # K6: took the last chip from the plate
SOLO_MAXIMUM = 1000  # every chip (720), gold, seven full stacks and the last chip


class Score(msgspec.Struct, frozen=True):
    """One player's total, broken down as the score sheet shows it."""

    chips: tuple[int, ...]  # chips held per combination
    chip_points: int
    gold: int
    silver: int
    full_stacks: int  # bonus points, 30 per full stack
    last_chip: int
    total: int


def score(chips: Sequence[int], took_last_chip: bool) -> Score:
    """The running (or final) total of a player holding ``chips`` per combination."""
    chip_points = sum(n * v for n, v in zip(chips, VALUES, strict=True))
    kinds = sum(1 for n in chips if n)
    gold = GOLD_BONUS if kinds == len(VALUES) else 0
    silver = SILVER_BONUS if kinds == len(VALUES) - 1 else 0
    full_stacks = FULL_STACK_BONUS * sum(1 for n in chips if n >= CHIPS_PER_COMBINATION)
    last_chip = LAST_CHIP_BONUS if took_last_chip else 0
    total = chip_points + gold + silver + full_stacks + last_chip
    return Score(tuple(chips), chip_points, gold, silver, full_stacks, last_chip, total)
