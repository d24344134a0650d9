"""Does declining a chip help? (K4 revised, issue 28.)

turn-optimal, which considers declining (the plate's last chip while behind), against
the same bot that never declines a chip its dice earn (the old compulsory reading:
no decline, and the last chip valued without the loss). Every deal of dice is played
in both seat orders, so the two bots see the same luck; the figure is the decliner's
win share (ties shared) and how many games it declined a chip in.

    .venv/bin/python bench/dice_duel_decline.py [deals]
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Sequence
from typing import Any

from gamenight.core.agents import Decision
from gamenight.core.runner import play_match
from gamenight.core.seeds import derive
from gamenight.games.dice_duel import advisor
from gamenight.games.dice_duel.bots import TurnOptimalBot
from gamenight.games.dice_duel.events import DiceDuelEvent, NoChip
from gamenight.games.dice_duel.game import GAME, DiceDuelView
from gamenight.games.dice_duel.rules import Action, Stop, Take


class NeverDeclines(TurnOptimalBot):
    """turn-optimal as it played before K4's revision."""

    label = "never-declines"

    def act(self, decision: Decision[DiceDuelView, Action]) -> Action:
        legal = list(decision.legal)
        if any(isinstance(a, Take) for a in legal):
            legal = [a for a in legal if not isinstance(a, Stop)]
        saved, advisor.LOSS = advisor.LOSS, 0.0
        try:
            return advisor.best_action(decision.view, legal)
        finally:
            advisor.LOSS = saved


class Counting(TurnOptimalBot):
    """turn-optimal, counting the chips it declines."""

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat, self.declined = seat, 0

    def observe(self, seat: int, events: Sequence[DiceDuelEvent]) -> None:
        self.declined += sum(
            isinstance(e, NoChip) and e.reason == "declined" and e.player == self.seat
            for e in events
        )


def main(deals: int) -> None:
    started = time.perf_counter()
    share, games, declining_games = 0.0, 0, 0
    for deal in range(deals):
        seed = derive(99, "game", deal)
        for seat in (0, 1):
            me = Counting(seat)
            agents: list[Any] = [me, NeverDeclines()] if seat == 0 else [NeverDeclines(), me]
            results, _ = play_match(GAME, agents, seed=seed, options=GAME.parse_options())
            share += 1 / len(results.winners) if seat in results.winners else 0.0
            games += 1
            declining_games += me.declined > 0
    p = share / games
    print(
        f"{games} games ({deals} deals x 2 seat orders): considers-declining win share "
        f"{p:.4f} ± {math.sqrt(p * (1 - p) / games):.4f} (SE, games as independent); "
        f"it declined a chip in {declining_games} games; {time.perf_counter() - started:.0f} s"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
