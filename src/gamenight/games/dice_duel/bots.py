"""Dice Duel bots: ``turn-optimal`` (``random`` comes from the registry).

``turn-optimal`` maximises the expected value of the chip it takes this turn,
given the plate and the set-aside pile, by exact expectimax over the remaining
rolls and every keep choice, taking no chip among the options (K4 revised): it
declines the plate's last chip when taking it would end the game with the bot
behind. The valuation lives in :mod:`.advisor` (the ``?`` hint shows the same
values); it ignores everything else beyond this turn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from gamenight.core.agents import Agent, Decision
from gamenight.games.dice_duel.advisor import best_action
from gamenight.games.dice_duel.events import DiceDuelEvent
from gamenight.games.dice_duel.game import DiceDuelView
from gamenight.games.dice_duel.rules import Action


class TurnOptimalBot:
    """Maximises the expected value of this turn's chip (see :mod:`.advisor`)."""

    label = "turn-optimal"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed  # the bot is deterministic; the seed is accepted for the contract

    def act(self, decision: Decision[DiceDuelView, Action]) -> Action:
        return best_action(decision.view, decision.legal)

    def observe(self, seat: int, events: Sequence[DiceDuelEvent]) -> None:
        return None


BOTS: dict[str, Callable[[int], Agent[DiceDuelView, Action, DiceDuelEvent]]] = {
    "turn-optimal": TurnOptimalBot
}
