"""High Jump (D8) and Pole Vault (D9): one player's jump/skip/retire choices.

The other players never change what one player can achieve, so each player
solves alone.  A state is ``(height index i, best height cleared c)``:

* ``skip`` goes to ``(i + 1, c)``; ``retire`` ends the event with ``c``;
* ``jump`` commits to height ``i``: up to 3 jumps, the first clear goes to
  ``(i + 1, height i)``, three failures end the event with ``c``.

High jump clears with probability ``P(5 dice >= height)``; a pole vaulter picks
1..8 dice before every jump and clears iff no die shows a 1 and the total is at
least the height.  The result is the best height cleared (no valid result if
none), so the expected score counts "none" as 0.

Ties between options go, in order, to jump, skip, retire (and fewer dice).
"""

from __future__ import annotations

from functools import cache

import msgspec
import numpy as np

from gamenight.games.decathlon.solver.common import (
    Floats,
    Ints,
    Summary,
    take,
    threshold_for,
)
from gamenight.games.decathlon.solver.events import event_spec
from gamenight.games.decathlon.solver.objectives import (
    AnyObjective,
    ExpectedScore,
    Objective,
    Target,
    Utility,
)
from gamenight.games.decathlon.solver.situations import HeightSituation, NoDecisionError, Option
from gamenight.solve.dice import sum_counts
from gamenight.solve.ties import best_index

JUMPS = 3  # D8: three failures at one height end the event
JUMP, SKIP, RETIRE = 0, 1, 2
CHOICES = ("jump", "skip", "retire")
UTILITY_CACHE = 1024  # utilities kept (a few KB each)


class Bar(msgspec.Struct, frozen=True):
    """A height event: bar heights and the dice counts a jumper may choose."""

    event: str
    heights: tuple[int, ...]
    dice_counts: tuple[int, ...]
    no_ones: bool  # D9: a 1 spoils a pole vault


BARS = {
    bar.event: bar
    for bar in (
        Bar("high-jump", tuple(range(10, 31, 2)), (5,), False),
        Bar("pole-vault", tuple(range(10, 49, 2)), tuple(range(1, 9)), True),
    )
}


@cache
def _good_counts(n: int) -> tuple[int, ...]:
    """Ordered throws of ``n`` dice with no 1, by total (faces 2..6)."""
    counts = [1]
    for _ in range(n):
        nxt = [0] * (len(counts) + 6)
        for total, ways in enumerate(counts):
            for face in range(2, 7):
                nxt[total + face] += ways
        counts = nxt
    return tuple(counts)


def clear_probability(bar: Bar, dice: int, height: int) -> float:
    """Chance that one jump with ``dice`` dice clears ``height``.

    Five dice total 18+ exactly half the time (totals are symmetric about 17.5):

    >>> clear_probability(BARS["high-jump"], 5, 18)
    0.5
    >>> clear_probability(BARS["pole-vault"], 1, 6) == 1 / 6
    True
    """
    counts = _good_counts(dice) if bar.no_ones else sum_counts(dice)
    return sum(counts[height:]) / float(6**dice)


class HeightTables(msgspec.Struct, frozen=True):
    """Backward-induction tables for some objective columns (see :func:`_backward`)."""

    choose_p: Floats
    choose_e: Floats
    jumps_p: Floats
    jumps_e: Floats
    choice: Ints
    dice_choice: Ints


def _backward(clear: Floats, end_p: Floats, end_e: Floats) -> HeightTables:
    """Solve every column at once from the terminal values ``end_*[best index, column]``.

    ``choose_*[i]``: value before choosing at height ``i``; ``jumps_*[i, u]``:
    committed to height ``i`` with ``u`` failed jumps.
    """
    n_heights, (n_best, cols) = clear.shape[0], end_p.shape
    choose_p = np.zeros((n_heights + 1, n_best, cols))
    choose_e = np.zeros_like(choose_p)
    choose_p[n_heights], choose_e[n_heights] = end_p, end_e
    jumps_p = np.zeros((n_heights, JUMPS + 1, n_best, cols))
    jumps_e = np.zeros_like(jumps_p)
    choice = np.zeros((n_heights, n_best, cols), dtype=np.int64)
    dice_choice = np.zeros((n_heights, JUMPS, n_best, cols), dtype=np.int64)
    for i in range(n_heights - 1, -1, -1):
        won_p, won_e = choose_p[i + 1, i + 1], choose_e[i + 1, i + 1]
        jumps_p[i, JUMPS], jumps_e[i, JUMPS] = end_p, end_e
        for used in range(JUMPS - 1, -1, -1):
            q = clear[i][:, None, None]  # dice counts x best x columns
            opt_p = q * won_p + (1 - q) * jumps_p[i, used + 1][None]
            opt_e = q * won_e + (1 - q) * jumps_e[i, used + 1][None]
            pick = best_index(opt_p, opt_e, axis=0)
            dice_choice[i, used] = pick
            jumps_p[i, used] = take(opt_p, pick, 0)
            jumps_e[i, used] = take(opt_e, pick, 0)
        opt_p = np.stack((jumps_p[i, 0], choose_p[i + 1], end_p))
        opt_e = np.stack((jumps_e[i, 0], choose_e[i + 1], end_e))
        pick = best_index(opt_p, opt_e, axis=0)
        choice[i] = pick
        choose_p[i], choose_e[i] = take(opt_p, pick, 0), take(opt_e, pick, 0)
    return HeightTables(choose_p, choose_e, jumps_p, jumps_e, choice, dice_choice)


_NO_CHOICE = np.zeros(0, dtype=np.int64)


def _values(clear: Floats, end: Floats) -> HeightTables:
    """:func:`_backward`'s value tables for one utility column, without the policy.

    Option values read only ``choose_p`` and ``jumps_p``; plain maxima replace the
    tie-breaking argmax (ties do not change a value), which makes a new utility
    several times cheaper.  The ``*_e`` tables alias the ``*_p`` ones.
    """
    n_heights, (n_best, cols) = clear.shape[0], end.shape
    choose = np.zeros((n_heights + 1, n_best, cols))
    choose[n_heights] = end
    jumps = np.zeros((n_heights, JUMPS + 1, n_best, cols))
    for i in range(n_heights - 1, -1, -1):
        won = choose[i + 1, i + 1]
        jumps[i, JUMPS] = end
        q = clear[i][:, None, None]
        for used in range(JUMPS - 1, -1, -1):
            jumps[i, used] = (q * won + (1 - q) * jumps[i, used + 1][None]).max(axis=0)
        choose[i] = np.maximum(np.maximum(jumps[i, 0], choose[i + 1]), end)
    return HeightTables(choose, choose, jumps, jumps, _NO_CHOICE, _NO_CHOICE)


class HeightSolution:
    """Solved height event for the expected score and every target.

    Columns: 0 is the expected score, then one per threshold
    ``t = min_score .. max_score + 1``.  ``best`` is indexed 0 for "none" and
    ``j + 1`` for ``heights[j]``.
    """

    def __init__(self, event: str) -> None:
        self.bar = bar = BARS[event]
        spec = event_spec(event)
        self.low, self.high = spec.min_score, spec.max_score
        heights = np.array(bar.heights)
        self.thresholds = np.arange(self.low, self.high + 2)
        best_value = np.concatenate(([0], heights))  # "none" counts 0
        # Terminal rewards by best index, per column.
        hit = (best_value[:, None] >= self.thresholds[None, :]).astype(np.float64)
        hit[0] = 0.0
        self.end_p = np.hstack((best_value[:, None].astype(np.float64), hit))
        self.end_e = np.repeat(best_value[:, None].astype(np.float64), self.end_p.shape[1], axis=1)
        self.clear = np.array(
            [[clear_probability(bar, n, int(h)) for n in bar.dice_counts] for h in heights]
        )
        self.tables = tables = _backward(self.clear, self.end_p, self.end_e)
        self.choose_p, self.choose_e = tables.choose_p, tables.choose_e
        self.jumps_p, self.jumps_e = tables.jumps_p, tables.jumps_e
        self.choice, self.dice_choice = tables.choice, tables.dice_choice
        self.best_values = best_value
        self._utilities: dict[Utility, tuple[HeightTables, Floats]] = {}
        dists = self._forward()
        self.summary = Summary(
            event=event,
            attempts=1,
            min_score=self.low,
            max_score=self.high,
            ev=float(self.choose_p[0, 0, 0]),
            ev_dist=dists[0],
            target_p=self.choose_p[0, 0, 1:],
            target_dist=dists[1:],
        )

    def _forward(self) -> Floats:
        """Final-result distribution of every column's policy, shape (cols, results + 1)."""
        n_heights = len(self.bar.heights)
        cols = self.end_p.shape[1]
        mass = np.zeros((self.end_p.shape[0], cols))
        mass[0] = 1.0
        final = np.zeros_like(mass)
        for i in range(n_heights):
            choice = self.choice[i]
            # masks multiply (exact for these finite masses): no 3-argument where copies
            final += mass * (choice == RETIRE)
            going = mass * (choice == JUMP)
            mass = mass * (choice == SKIP)
            for used in range(JUMPS):
                q = self.clear[i][self.dice_choice[i, used]]
                mass[i + 1] += (q * going).sum(axis=0)
                going = (1 - q) * going
            final += going
        final += mass
        heights = np.array(self.bar.heights)
        out = np.zeros((cols, self.high - self.low + 2))
        out[:, heights - self.low] = final[1:].T
        out[:, -1] = final[0]
        return out

    def _best_index(self, best: int | None, height: int) -> int:
        if best is None:
            return 0
        if best not in self.bar.heights or best >= height:
            raise ValueError(f"best height {best} cannot precede bar height {height}")
        return self.bar.heights.index(best) + 1

    def _column(self, objective: Objective) -> int:
        if isinstance(objective, ExpectedScore):
            return 0
        return 1 + threshold_for(objective, self.low, self.high) - self.low

    def utility_tables(self, utility: Utility) -> tuple[HeightTables, Floats]:
        """One-column tables for ``utility`` and their terminal values (cached)."""
        solved = self._utilities.get(utility)
        if solved is None:
            if len(self._utilities) >= UTILITY_CACHE:
                del self._utilities[next(iter(self._utilities))]
            end = np.array([utility(None)] + [utility(int(h)) for h in self.best_values[1:]])
            end = end[:, None]
            solved = _values(self.clear, end), end  # option values only: no policy kept
            self._utilities[utility] = solved
        return solved

    def option_values(
        self, situation: HeightSituation, objective: AnyObjective, points: bool = False
    ) -> dict[Option, float]:
        s, bar = situation, self.bar
        if s.height not in bar.heights:
            raise ValueError(f"{bar.event} bar heights are {bar.heights}, got {s.height}")
        i = bar.heights.index(s.height)
        b = self._best_index(s.best, s.height)
        if isinstance(objective, Utility):
            tables, end_p = self.utility_tables(objective)
            col = 0
        else:
            tables, end_p, col = self.tables, self.end_p, self._column(objective)
        if points:  # the target policy's tie-break: its expected best height
            if not isinstance(objective, Target):
                raise TypeError("points are a target's tie-break")
            tables = msgspec.structs.replace(
                tables, choose_p=tables.choose_e, jumps_p=tables.jumps_e
            )
            end_p = self.end_e
        if not s.committed:
            return {
                "jump": float(tables.jumps_p[i, 0, b, col]),
                "skip": float(tables.choose_p[i + 1, b, col]),
                "retire": float(end_p[b, col]),
            }
        if not 0 <= s.jumps_used < JUMPS:
            raise ValueError(f"jumps used at a height must be 0..{JUMPS - 1}, got {s.jumps_used}")
        if len(bar.dice_counts) == 1:
            raise NoDecisionError("a committed high jumper just jumps: no choice")
        won = tables.choose_p[i + 1, i + 1, col]
        lost = tables.jumps_p[i, s.jumps_used + 1, b, col]
        return {
            int(n): float(q * won + (1 - q) * lost)
            for n, q in zip(bar.dice_counts, self.clear[i], strict=True)
        }
