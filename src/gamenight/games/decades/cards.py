"""Action card definitions, as data (T3).

A card kind names its effect; the engine implements the three effects, so a
new card kind (or a different mix) is a new line in :data:`ACTION_CARDS`.

>>> len(action_deck()), action_deck()[:2]
(14, ('remove-token', 'remove-token'))
>>> CARDS["blocked"].name
'Blocked'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

Effect = Literal["block", "remove-token", "cancel-answer"]

DEALT = 7  # T3: each team draws 7 ...
KEPT = 4  # ... and keeps 4, one for each round


@dataclass(frozen=True)
class CardKind:
    id: str
    name: str
    count: int  # copies in the 14-card deck
    effect: Effect
    text: str  # the effect, as printed on the card

    @property
    def needs_target(self) -> bool:
        """Whether the player chooses a target after the reveal (T3)."""
        return self.effect in ("remove-token", "cancel-answer")


# T3: only three kinds are known from the rulebook, so the deck is 5 + 5 + 4.
ACTION_CARDS: tuple[CardKind, ...] = (
    CardKind(
        "remove-token",
        "Remove the Year Extension token",
        5,
        "remove-token",
        "Choose one of the other team's extension tokens; it does not count this round.",
    ),
    CardKind(
        "cancel-answer",
        "Cancel the answer",
        5,
        "cancel-answer",
        "Choose one of the other team's six answers; it scores 0 this round.",
    ),
    CardKind(
        "blocked",
        "Blocked",
        4,
        "block",
        "The other team's card has no effect this round.",
    ),
)

CARDS: Mapping[str, CardKind] = {card.id: card for card in ACTION_CARDS}


def action_deck() -> tuple[str, ...]:
    """The 14 card ids in a fixed order (dealing shuffles them with the game's dice)."""
    return tuple(card.id for card in ACTION_CARDS for _ in range(card.count))


def card_order(card_id: str) -> int:
    """Sort key keeping hands in deck order."""
    return [card.id for card in ACTION_CARDS].index(card_id)
