"""Dice Duel bots: ``turn-optimal`` (``random`` comes from the registry).

``turn-optimal`` maximises the expected value of the chip it takes this turn,
given the plate and the set-aside pile, by exact expectimax over the remaining
rolls and every keep choice (:mod:`.expectimax`). What a chip is worth to it:

* its face value, plus the 20-point last-chip bonus (K6) when it is the last
  chip on the plate;
* a Kniffel is worth its best award (the best chip, or in solo the best two, K7,
  from plate or set-aside) plus an estimate of the extra turn: the expected
  chip value of a fresh turn with the same chips on offer (the chip just taken
  is ignored), solved as a fixed point because that turn may bring another
  Kniffel. An award that empties the plate ends the game, so earns no extra turn.

It ignores everything beyond this turn (bonuses for sets, what opponents need).
:func:`option_values` gives the value of every legal option, for the terminal hint.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from gamenight.core.agents import Agent, Decision
from gamenight.core.events import LooseEvent as Event
from gamenight.games.dice_duel.combinations import INDEX, VALUES
from gamenight.games.dice_duel.expectimax import KEEP_INDEX, ChipValues, TurnTables, turn_tables
from gamenight.games.dice_duel.game import DiceDuelView
from gamenight.games.dice_duel.rules import Action, Roll, Stop, Take
from gamenight.games.dice_duel.scoring import LAST_CHIP_BONUS

Pile = tuple[int, ...]
NONE = float("-inf")


def chip_worth(combination_index: int, source: str, plate: Pile) -> float:
    """A chip's worth to the taker: face value, +20 if it is the plate's last chip (K6)."""
    last = source == "plate" and sum(plate) == 1
    return VALUES[combination_index] + (LAST_CHIP_BONUS if last else 0)


@lru_cache(maxsize=65536)
def kniffel_award(plate: Pile, set_aside: Pile, picks: int) -> tuple[float, float]:
    """Best total worth of a Kniffel award of ``picks`` chips (K2, K7).

    Returns ``(plate survives, plate emptied)``: the best award that leaves chips
    on the plate (an extra turn follows) and the best that empties it (the game
    ends); ``-inf`` where impossible. As in the rules, once the plate is empty a
    remaining solo pick may still come from the set-aside pile.
    """
    if picks == 0 or not (any(plate) or any(set_aside)):
        return (0.0, NONE) if any(plate) else (NONE, 0.0)
    on, off = NONE, NONE
    for i in range(len(VALUES)):
        for source, pile in (("plate", plate), ("set-aside", set_aside)):
            if not pile[i]:
                continue
            worth = chip_worth(i, source, plate)
            after = kniffel_award(*_without(plate, set_aside, i, source), picks - 1)
            on, off = max(on, worth + after[0]), max(off, worth + after[1])
    return on, off


def _without(plate: Pile, set_aside: Pile, i: int, source: str) -> tuple[Pile, Pile]:
    """The plate and set-aside pile after one chip of combination ``i`` left ``source``."""
    pile = list(plate if source == "plate" else set_aside)
    pile[i] -= 1
    return (tuple(pile), set_aside) if source == "plate" else (plate, tuple(pile))


def _kniffel_picks(view: DiceDuelView) -> int:
    """Chips the current Kniffel award still takes."""
    return (2 if view.mode == "solo" else 1) - view.picks


def tables_for(view: DiceDuelView) -> TurnTables:
    """The expectimax tables for the chips on offer in ``view``."""
    chips = tuple(
        chip_worth(i, "plate", view.plate) if n else 0.0 for i, n in enumerate(view.plate)
    )
    wanted = 2 if view.mode == "solo" else 1
    on, off = kniffel_award(view.plate, view.set_aside, wanted)
    return turn_tables(ChipValues(chips, on, off))


def option_values(view: DiceDuelView, legal: Sequence[Action] | None = None) -> dict[Action, float]:
    """The expected chip value (as ``turn-optimal`` counts it) of every legal option."""
    options = list(view.legal() if legal is None else legal)
    if not options:
        return {}
    tables = tables_for(view)
    values: dict[Action, float] = {}
    for action in options:
        if isinstance(action, Roll):
            kept = tuple(sorted(view.faces[i] for i in action.keep))
            values[action] = float(tables.after[view.rolls_left][KEEP_INDEX[kept]])
        elif isinstance(action, Take):
            values[action] = _take_value(view, action, tables.extra_turn)
        else:
            values[action] = 0.0
    return values


def _take_value(view: DiceDuelView, take: Take, extra_turn: float) -> float:
    i = INDEX[take.combination]
    worth = chip_worth(i, take.source, view.plate)
    if not view.kniffel:
        return worth
    plate, set_aside = _without(view.plate, view.set_aside, i, take.source)
    on, off = kniffel_award(plate, set_aside, _kniffel_picks(view) - 1)
    return worth + max(on + extra_turn, off)


def best_action(view: DiceDuelView, legal: Sequence[Action]) -> Action:
    """The option of highest value.

    Ties go to taking (a set-aside chip first: the plate's twin can still be won
    later without a Kniffel), then stopping, then the first roll listed.
    """
    values = option_values(view, legal)
    top = max(values.values())
    near = [a for a in legal if values[a] >= top - 1e-9]
    return min(near, key=_preference)


def _preference(action: Action) -> int:
    if isinstance(action, Take):
        return 0 if action.source == "set-aside" else 1
    return 2 if isinstance(action, Stop) else 3


class TurnOptimalBot:
    """Maximises the expected value of this turn's chip (see the module docstring)."""

    label = "turn-optimal"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed  # the bot is deterministic; the seed is accepted for the contract

    def act(self, decision: Decision[Any, Any]) -> Action:
        view: DiceDuelView = decision.view
        return best_action(view, decision.legal)

    def observe(self, seat: int, events: Sequence[Event]) -> None:
        return None


BOTS: dict[str, Callable[[int], Agent[Any, Any]]] = {"turn-optimal": TurnOptimalBot}
