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

import msgspec
import numpy as np
from numpy.lib.stride_tricks import as_strided

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


class Race(msgspec.Struct, frozen=True):
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
        need index the choice does not depend on the need (EV policy), else the
        thresholds are consecutive (``low .. high + 1``).

        A frozen score ``s`` moves mass from total ``x`` to ``x + s``. Laying the scores
        out as the run ``low_score .. high_score`` (absent ones weigh 0), destination
        ``d`` gathers ``mass[x = d - s] * P(s, frozen at need(x))`` over ``s``: both
        factors are strided views (the mass's along a diagonal of a zero-padded copy,
        the need ``threshold - x`` along a diagonal of a table over ``row - d + j``),
        so one ``einsum`` moves every score at once with no temporaries (issue 29: one
        array pass per score, then a gather of the choices, were most of the solve).
        Both views run forwards in memory along the scores, the axis ``einsum`` sums
        over (its contiguous inner loop takes half the instructions of a strided one):
        the padded mass is stored reversed, and the need's weights as ``V[q, j] =
        weights[q + j, j]`` (gathered once per step) rather than read along a diagonal.
        Mass leaving the window falls on the padding and is dropped, as before.
        """
        race, lo = self.race, self.need_low  # frozen totals run over the need window
        width = self.need_high - lo
        rows = len(thresholds)
        low_score, high_score = int(self.scores[0]), int(self.scores[-1])
        span = high_score - low_score + 1
        column = self.scores - low_score  # each distinct score's place in the run
        # padded[row, x + off] = mass of total lo + x; sources[row, d, j] = padded at
        # x = d - (low_score + j).
        off = max(high_score, 0)
        padded = np.zeros((rows, off + width + max(0, -low_score)))[:, ::-1]  # see above
        inner = padded[:, off : off + width]
        p0, p1 = padded.strides
        sources = as_strided(
            padded[:, off - low_score :], shape=(rows, width, span), strides=(p0, p1, -p1)
        )
        by_need = choice.shape[2] > 1
        if by_need:
            assert np.array_equal(thresholds, thresholds[0] + np.arange(rows))
            # The need at (row, x) is clip(threshold_row - lo - x): a function of
            # row - x; e = row - d + j + width - 1 = row - x + low_score + width - 1.
            first = int(thresholds[0]) - lo - (width - 1)  # the need at row - x = -(width - 1)
            need = first + low_score + np.arange(rows + width + span - 2)
            need_at = np.clip(need, self.need_low, self.need_high) - self.need_low
            # diagonal[q, j] = weights[q + j, j]: P(score j frozen at need_at[q + j])
            diagonal = np.zeros((rows + width - 1, span))
            v0, v1 = diagonal.strides
            picks = as_strided(
                diagonal[width - 1 :], shape=(rows, width, span), strides=(v0, -v0, v1)
            )
            frozen_at = np.zeros((choice.shape[2], span))  # by need index
            q = np.arange(rows + width - 1)[:, None]
            gather = need_at[q + np.arange(span)] * span + np.arange(span)
            # the need of (row, x) at index row - x + width - 1, for the rethrown mass
            need = first + np.arange(rows + width - 1)
            x_need = np.clip(need, self.need_low, self.need_high) - self.need_low
            stay_at = np.empty(rows + width - 1)  # P(rethrow) at index row - x + width - 1
            (t0,) = stay_at.strides
            stays = as_strided(stay_at[width - 1 :], shape=(rows, width), strides=(t0, -t0))
        else:
            weights = np.zeros((1, span))  # P(score) if frozen
            picks = as_strided(
                weights, shape=(rows, width, span), strides=(0, 0, weights.strides[1])
            )
        moved = np.empty((rows, width))
        mass = np.zeros((RETHROWS + 1, rows, width))  # before throwing set i, by rethrows left
        mass[RETHROWS, :, -lo] = 1.0
        for i in range(race.sets):
            nxt = np.zeros_like(mass)
            for r in range(RETHROWS, -1, -1):
                here = mass[r]
                # Only destinations some held total can reach are summed (exact: the
                # others' terms are all zeros); early sets hold only a few totals.
                held = np.flatnonzero(here.any(axis=0))
                if not len(held):  # nothing to move
                    continue
                dest = slice(max(0, held[0] + low_score), min(width, held[-1] + high_score + 1))
                inner[...] = here
                if r > 0:
                    frozen = choice[i, r] == FREEZE  # need index x score
                    frozen_p = self.probs * frozen  # masks multiply: no where copies
                    stay = (self.probs * np.logical_not(frozen)).sum(axis=1)  # P(rethrow)
                    if by_need:
                        frozen_at[:, column] = frozen_p
                        np.take(frozen_at, gather, out=diagonal)
                        np.take(stay, x_need, out=stay_at)
                        mass[r - 1] += here * stays
                    else:
                        weights[0, column] = frozen_p[0]
                        mass[r - 1] += here * stay[0]
                elif by_need:
                    diagonal[:, column] = self.probs
                else:
                    weights[:, column] = self.probs
                np.einsum("rdj,rdj->rd", sources[:, dest], picks[:, dest], out=moved[:, dest])
                nxt[r][:, dest] += moved[:, dest]
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
