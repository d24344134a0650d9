"""Decathlon positions shared by the advisor, competitive-bot and hint tests."""

from __future__ import annotations

from decathlon_script import chain, new_game, play

from gamenight.games.decathlon.actions import Stop, Throw
from gamenight.games.decathlon.rules import DecathlonState


def shot_put_at_22(variant: str) -> DecathlonState:
    """Shot put, attempt 3: the last seat has 6 6 6 4 = 22 and no valid attempt yet.

    Seat 0 put 26 in attempt 1; in the Championship seat 1 put 12; every other
    attempt fouled on its first die (a 1, D7).
    """
    if variant == "points":
        dice = chain([6, 6, 6, 6, 2], [1], [1, 1], [1], [6, 6, 6, 4])
        state, _ = new_game(dice, players=2, events="shot", variant=variant)
        state, _ = play(state, *[Throw()] * 4, Stop(), *[Throw()] * 3)
    else:
        dice = chain([6, 6, 6, 6, 2], [6, 6], [1], [1, 1, 1], [1, 1], [6, 6, 6, 4])
        state, _ = new_game(dice, players=3, events="shot", variant=variant)
        state, _ = play(state, *[Throw()] * 4, Stop(), Throw(), Stop(), *[Throw()] * 3)
    return state
