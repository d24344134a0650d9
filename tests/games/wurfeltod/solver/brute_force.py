"""An independent brute-force expectimax of solitaire Wurfeltod, for tests only.

Plain recursion over ordered dice outcomes and physical dice subsets, with
memoisation; it shares no code with the solver (bookings come from the test
reference of W3/W4). Boxes are category ids; a box listed twice has two boxes.
"""

from __future__ import annotations

import functools
import itertools

from ..reference import score

Boxes = tuple[str, ...]  # sorted ids of the open boxes
Dice = tuple[int, ...]


class BruteForce:
    """Optimal expected remaining score of a solitaire game over a few boxes (W2, W3, W5)."""

    def __init__(self) -> None:
        self.game_value = functools.cache(self._game_value)
        self.roll_value = functools.cache(self._roll_value)
        self.options = functools.cache(self._options)
        self._score = functools.cache(score)

    def _game_value(self, open_boxes: Boxes) -> float:
        """Expected score still to come at the start of a turn."""
        if not open_boxes:
            return 0.0
        return float(self.roll_value(open_boxes, ()))

    def _roll_value(self, open_boxes: Boxes, aside: Dice) -> float:
        """Expected value of rolling every die not aside, then playing on optimally."""
        n = 6 - len(aside)
        total = 0.0
        for outcome in itertools.product(range(1, 7), repeat=n):
            total += max(self.options(open_boxes, aside, tuple(sorted(outcome))).values())
        return total / float(6**n)

    def _options(self, open_boxes: Boxes, aside: Dice, rolled: Dice) -> dict[str, float]:
        """Value of each legal option after a roll, keyed like ``str(option)`` of the solver."""
        values: dict[str, float] = {}
        for box in set(open_boxes):
            rest = list(open_boxes)
            rest.remove(box)
            after = self.game_value(tuple(rest))
            values[f"book {box}"] = self._score(box, aside, rolled) + after
            if not aside:  # the first roll: scratch allowed (W2)
                values[f"scratch {box}"] = after
        # Set aside any non-empty proper subset of the physical dice just rolled.
        for mask in range(1, 2 ** len(rolled) - 1):
            kept = tuple(sorted(d for i, d in enumerate(rolled) if mask >> i & 1))
            key = "set aside " + "-".join(map(str, kept))
            if key not in values:
                values[key] = self.roll_value(open_boxes, tuple(sorted(aside + kept)))
        return values
