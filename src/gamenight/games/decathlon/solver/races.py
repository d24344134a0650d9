"""Sprints (D4) and 110 m Hurdles (D5): throw a set, freeze it or rethrow it.

Both are races of ``sets`` sets of ``size`` dice sharing 5 rethrows; each set's
first throw is free.  Only the set's score matters to a decision, so a throw is
reduced to its score distribution (sorted patterns weighted by their orderings).

* Sprints: 100 m = 2 x 4, 400 m = 4 x 2, 1500 m = 8 x 1 dice; a die scores its
  value for 1..5 and -6 for a six (D4).
* Hurdles: one set of 5 dice scoring their plain sum (D5).

``throw[i, r]`` is the value of throwing set ``i`` with ``r`` rethrows left after
the throw; after seeing score ``s`` the player takes the better of freezing
(``s`` plus ``throw[i + 1, r]``) and rethrowing (``throw[i, r - 1]``, needs
``r > 0``; with none left the set is frozen automatically).

Target values depend on the score still *needed*, ``d = threshold - frozen
total``.  Needs are kept in a window that contains every possible remaining
score; below it success is certain, above it impossible, so clipping a need into
the window is exact.

A :class:`~objectives.Utility` is solved on demand over frozen totals instead of
needs: ``W[i, r, x]`` is ``E[u(final total)]`` on throwing set ``i`` with ``r``
rethrows left and ``x`` frozen.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gamenight.games.decathlon.solver.common import (
    Floats,
    Ints,
    Summary,
    checked_dice,
    take,
    threshold_for,
)
from gamenight.games.decathlon.solver.events import event_spec
from gamenight.games.decathlon.solver.objectives import (
    AnyObjective,
    ExpectedScore,
    Target,
    Utility,
)
from gamenight.games.decathlon.solver.situations import (
    HurdlesSituation,
    Option,
    SprintSituation,
)
from gamenight.solve.dice import throw_table
from gamenight.solve.ties import best_index

RETHROWS = 5  # D4, D5
FREEZE, RETHROW = 0, 1
UTILITY_CACHE = 256


@dataclass(frozen=True)
class Race:
    """A race's layout: ``sets`` sets of ``size`` dice; sixes score ``six``."""

    event: str
    sets: int
    size: int
    six: int


RACES = {
    race.event: race
    for race in (
        Race("100m", 2, 4, -6),
        Race("400m", 4, 2, -6),
        Race("1500m", 8, 1, -6),
        Race("110m-hurdles", 1, 5, 6),
    )
}


def set_scores(size: int, six: int) -> tuple[Ints, Floats]:
    """Distinct scores of one set and their probabilities.

    >>> scores, probs = set_scores(1, -6)
    >>> scores.tolist(), bool(probs[0] == 1 / 6)
    ([-6, 1, 2, 3, 4, 5], True)
    """
    table = throw_table(size)
    values = np.where(table.faces == 6, six, table.faces).sum(axis=1)
    scores, inverse = np.unique(values, return_inverse=True)
    probs: Floats = np.bincount(inverse.ravel(), weights=table.probs).astype(np.float64)
    return scores.astype(np.int64), probs


class RaceSolution:
    """Solved race: EV and target tables, both policies' distributions, option values."""

    def __init__(self, event: str) -> None:
        self.race = race = RACES[event]
        spec = event_spec(event)
        self.scores, self.probs = set_scores(race.size, race.six)
        self.low, self.high = spec.min_score, spec.max_score
        self.need_low, self.need_high = min(0, self.low), max(0, self.high) + 1
        needs = np.arange(self.need_low, self.need_high + 1)
        sets, n_needs, n_scores = race.sets, len(needs), len(self.scores)
        # EV tables: throw value and the choice per score.
        self.ev = np.zeros((sets + 1, RETHROWS + 1))
        self.ev_choice = np.zeros((sets, RETHROWS + 1, n_scores), dtype=np.int64)
        # Target tables over needs.
        self.hit = np.zeros((sets + 1, RETHROWS + 1, n_needs))
        self.hit_points = np.zeros_like(self.hit)
        self.hit[sets] = needs <= 0
        self.hit_choice = np.zeros((sets, RETHROWS + 1, n_needs, n_scores), dtype=np.int64)
        after = np.clip(needs[:, None] - self.scores[None, :], self.need_low, self.need_high)
        after -= self.need_low
        for i in range(sets - 1, -1, -1):
            for r in range(RETHROWS + 1):
                freeze = self.scores + self.ev[i + 1, r]
                if r == 0:
                    self.ev[i, r] = freeze @ self.probs
                    self.hit[i, r] = self.hit[i + 1, r][after] @ self.probs
                    self.hit_points[i, r] = (
                        self.hit_points[i + 1, r][after] + self.scores
                    ) @ self.probs
                    continue
                both = np.stack((freeze, np.full(n_scores, self.ev[i, r - 1])))
                pick = best_index(both, both, axis=0)
                self.ev_choice[i, r] = pick
                self.ev[i, r] = take(both, pick, 0) @ self.probs
                both_p = np.stack(
                    (
                        self.hit[i + 1, r][after],
                        np.repeat(self.hit[i, r - 1][:, None], n_scores, axis=1),
                    )
                )
                both_e = np.stack(
                    (
                        self.hit_points[i + 1, r][after] + self.scores,
                        np.repeat(self.hit_points[i, r - 1][:, None], n_scores, axis=1),
                    )
                )
                pick = best_index(both_p, both_e, axis=0)
                self.hit_choice[i, r] = pick
                self.hit[i, r] = take(both_p, pick, 0) @ self.probs
                self.hit_points[i, r] = take(both_e, pick, 0) @ self.probs
        self.total_low, self.total_high = min(0, self.low), max(0, self.high)
        self._utilities: dict[Utility, Floats] = {}
        self.summary = Summary(
            event=event,
            attempts=1,
            min_score=self.low,
            max_score=self.high,
            ev=float(self.ev[0, RETHROWS]),
            ev_dist=self._ev_dist(),
            target_p=self.hit[0, RETHROWS][np.arange(self.low, self.high + 2) - self.need_low],
            target_dist=self._target_dists(),
        )

    def _ev_dist(self) -> Floats:
        """Final-result distribution under the EV policy (forward over totals)."""
        dists = self._forward(self.ev_choice[:, :, None, :], np.zeros(1, dtype=np.int64))
        row: Floats = dists[0]
        return row

    def _target_dists(self) -> Floats:
        thresholds = np.arange(self.low, self.high + 2)
        return self._forward(self.hit_choice, thresholds)

    def _forward(self, choice: Ints, thresholds: Ints) -> Floats:
        """Distributions of the final total, one row per threshold.

        ``choice[i, r, need_index, score]`` is FREEZE or RETHROW; with a single
        need index the choice does not depend on the need (EV policy).
        """
        race, lo = self.race, self.need_low  # frozen totals run over the need window
        width = self.need_high - lo
        totals = np.arange(lo, lo + width)
        rows = len(thresholds)
        need = np.clip(thresholds[:, None] - totals[None, :], self.need_low, self.need_high)
        need_index = need - self.need_low if choice.shape[2] > 1 else np.zeros_like(need)
        probs = self.probs[:, None, None]
        # Where a frozen score moves the mass: its source and destination totals.
        spans = [
            (
                slice(max(0, -score), min(width, width - score)),
                slice(max(0, score), min(width, width + score)),
            )
            for score in self.scores.tolist()
        ]
        mass = np.zeros((RETHROWS + 1, rows, width))  # before throwing set i, by rethrows left
        mass[RETHROWS, :, -lo] = 1.0
        for i in range(race.sets):
            nxt = np.zeros_like(mass)
            for r in range(RETHROWS, -1, -1):
                here = mass[r]
                if not here.any():  # nothing to move (exact: the skipped terms are zeros)
                    continue
                # Every score at once (issue 29: one pass per score was most of the
                # solve): scores x rows x totals; a rethrown score's mass is the thrown
                # mass minus what freezes, exactly (x - x = 0 and x - 0 = x).
                thrown = probs * here
                if r > 0:
                    freeze = np.moveaxis(choice[i, r][need_index] == FREEZE, -1, 0)
                    moved = np.where(freeze, thrown, 0.0)
                    mass[r - 1] += (thrown - moved).sum(axis=0)
                else:
                    moved = thrown
                out = nxt[r]
                for k, (src, dst) in enumerate(spans):
                    out[:, dst] += moved[k, :, src]
            mass = nxt
        final = mass.sum(axis=0)[:, self.low - lo : self.high - lo + 1]
        return np.hstack((final, np.zeros((rows, 1))))  # races are never invalid

    def utility_table(self, utility: Utility) -> Floats:
        """``W[i, r, x - total_low]`` for ``utility`` (solved on first use, then cached)."""
        table = self._utilities.get(utility)
        if table is not None:
            return table
        race, lo = self.race, self.total_low
        totals = np.arange(lo, self.total_high + 1)
        # Every reachable partial total stays in the window; clipping only touches
        # states no play reaches.
        after = np.clip(totals[:, None] + self.scores[None, :], lo, self.total_high) - lo
        table = np.zeros((race.sets + 1, RETHROWS + 1, len(totals)))
        table[race.sets] = [utility(int(x)) for x in totals]
        for i in range(race.sets - 1, -1, -1):
            for r in range(RETHROWS + 1):
                freeze = table[i + 1, r][after]  # totals x scores
                if r > 0:
                    freeze = np.maximum(freeze, table[i, r - 1][:, None])
                table[i, r] = freeze @ self.probs
        if len(self._utilities) >= UTILITY_CACHE:
            del self._utilities[next(iter(self._utilities))]
        self._utilities[utility] = table
        return table

    def option_values(
        self,
        situation: SprintSituation | HurdlesSituation,
        objective: AnyObjective,
        points: bool = False,
    ) -> dict[Option, float]:
        race = self.race
        if isinstance(situation, HurdlesSituation):
            i, r, dice, so_far = 0, situation.rethrows_left, situation.dice, 0
        else:
            i, r = situation.set_index, situation.rethrows_left
            dice, so_far = situation.dice, situation.score_so_far
        if not 0 <= i < race.sets:
            raise ValueError(f"{race.event} has sets 0..{race.sets - 1}, got {i}")
        if not 0 <= r <= RETHROWS:
            raise ValueError(f"rethrows left must be 0..{RETHROWS}, got {r}")
        faces = checked_dice(dice, "dice")
        if len(faces) != race.size:
            raise ValueError(f"a {race.event} set has {race.size} dice, got {faces}")
        score = sum(race.six if face == 6 else face for face in faces)
        if points and not isinstance(objective, Target):
            raise TypeError("points are a target's tie-break")
        if isinstance(objective, ExpectedScore):
            options: dict[Option, float] = {"freeze": so_far + score + float(self.ev[i + 1, r])}
            if r > 0:
                options["rethrow"] = so_far + float(self.ev[i, r - 1])
            return options
        if isinstance(objective, Utility):
            table, lo, hi = self.utility_table(objective), self.total_low, self.total_high

            def total(value: int) -> int:
                return min(max(value, lo), hi) - lo

            options = {"freeze": float(table[i + 1, r][total(so_far + score)])}
            if r > 0:
                options["rethrow"] = float(table[i, r - 1][total(so_far)])
            return options
        need = threshold_for(objective, self.low, self.high) - so_far

        def at(value: int) -> int:
            return min(max(value, self.need_low), self.need_high) - self.need_low

        if points:  # the target policy's tie-break: the points of the sets to come
            options = {"freeze": float(self.hit_points[i + 1, r][at(need - score)] + score)}
            if r > 0:
                options["rethrow"] = float(self.hit_points[i, r - 1][at(need)])
            return options
        options = {"freeze": float(self.hit[i + 1, r][at(need - score)])}
        if r > 0:
            options["rethrow"] = float(self.hit[i, r - 1][at(need)])
        return options
