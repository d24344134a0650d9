"""Three interleaved attempts, best valid attempt counts (D3), on top of one attempt.

With ``A`` attempts, the expected-score objective depends on the best valid
result ``b`` so far (``b = 0`` stands for "none": every valid result of these
events is at least 1).  Writing ``U_a(b)`` for the optimal expected final result
before attempt ``a``:

* ``U_{A+1}(b) = b``;
* attempt ``a`` is one attempt whose terminal reward is ``U_{a+1}(max(b, s))``
  for a valid result ``s`` and ``U_{a+1}(b)`` for an invalid one.

Each attempt is solved for every ``b`` at once (one column per ``b``).  Targets
need no ``b``: once ``b`` reaches the target any play succeeds, and before that
every attempt should maximise its own chance, so ``P(final >= t) =
1 - (1 - p_t)**A`` with ``p_t`` the single-attempt optimum.  The target policy
plays every attempt with the single-attempt target policy (ties broken by
points), so its final result is the best of ``A`` independent attempts.

A :class:`~objectives.Utility` ``u`` is the expected-score chain with ``U_{A+1}(b)
= u(b)`` (``u(invalid)`` for none): :meth:`AttemptTables.utility_passes` solves it
on first use (a few ms) and keeps the most recent ones.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any, Generic, Protocol, TypeVar

import msgspec
import numpy as np

from gamenight.games.decathlon.solver.common import (
    Floats,
    Summary,
    best_of_attempts,
    threshold_for,
)
from gamenight.games.decathlon.solver.events import EventSpec
from gamenight.games.decathlon.solver.objectives import AnyObjective, ExpectedScore, Target, Utility

# Utilities kept per event, least recently used first out. Each keeps only the value
# tables option values read (about 0.5-0.9 MB): the competitive bot meets a few new
# ones per Championship game, and most recur.
UTILITY_CACHE = 64

PassT = TypeVar("PassT")


class AttemptModel(Protocol[PassT]):
    """One attempt of an event, solvable for many reward columns at once.

    Rewards are arrays of shape ``(top + 2, cols)``: row ``s`` is the reward of
    the valid result ``s`` (rows below the event's minimum are unused), the last
    row that of an invalid attempt.
    """

    top: int

    def backward(self, reward_p: Floats, reward_e: Floats) -> PassT: ...

    def root(self, solved: PassT) -> Floats: ...

    def forward(self, solved: PassT) -> Floats:
        """Outcome distribution per column, shape ``(top + 2, cols)``."""
        ...


class AttemptPass(msgspec.Struct, Generic[PassT], frozen=True):
    """The solved tables of one attempt and the rewards they were solved for.

    ``reward_e`` is the secondary reward (the tie-break's), ``reward_p`` where a
    pass has only one.
    """

    solved: PassT
    reward_p: Floats
    reward_e: Floats | None = None

    def secondary(self) -> AttemptPass[PassT]:
        """The same pass with every primary table replaced by its secondary twin,
        so that a :data:`Reader` reads the tie-break's value instead."""
        e = self.reward_p if self.reward_e is None else self.reward_e
        return AttemptPass(_swap_secondary(self.solved), e, e)


Reader = Callable[[AttemptPass[PassT], int], float]
"""Reads the primary value of some state from a pass, for one column."""


class AttemptTables(msgspec.Struct, Generic[PassT], frozen=True, dict=True):
    """All passes of a 3-attempt event and the summary figures (a Struct, not a
    dataclass: a frozen dataclass costs ~3.7 M instructions to create, issue 29)."""

    spec: EventSpec
    attempts: int
    passes: dict[int, AttemptPass[PassT]]
    single_target: Floats
    summary: Summary
    model: AttemptModel[PassT]

    @cached_property
    def _utilities(self) -> dict[Utility, UtilityChain[PassT]]:
        """The utility chains solved so far, least recently used first."""
        return {}

    def target_column(self, threshold: int) -> int:
        """Column of a (clipped) threshold in the last attempt's pass."""
        return self.spec.max_score + 1 + threshold - self.spec.min_score

    def check(self, attempt: int, best: int | None) -> None:
        """Reject an attempt number or best result that cannot happen."""
        if not 1 <= attempt <= self.attempts:
            raise ValueError(f"attempt must be 1..{self.attempts}, got {attempt}")
        if best is not None:
            if attempt == 1:
                raise ValueError("no best result can exist before the first attempt ends")
            if not self.spec.min_score <= best <= self.spec.max_score:
                raise ValueError(f"best result {best} is outside the {self.spec.event} range")

    def utility_passes(self, utility: Utility, down_to: int = 1) -> dict[int, AttemptPass[PassT]]:
        """The passes of the utility chain (column ``b`` = best so far), cached.

        Only the passes of attempts ``down_to .. A`` are solved (a decision in
        attempt ``a`` reads pass ``a``, which needs only the later ones); an
        earlier attempt asked later extends the chain.
        """
        chain = self._utilities.pop(utility, None)  # re-inserted last: an LRU order
        if chain is None:
            if len(self._utilities) >= UTILITY_CACHE:
                del self._utilities[next(iter(self._utilities))]  # least recently used
            chain = UtilityChain.start(self.model, self.attempts, utility)
        chain.extend(self.model, down_to)
        self._utilities[utility] = chain
        return chain.passes

    def value(
        self,
        attempt: int,
        best: int | None,
        objective: AnyObjective,
        read: Reader[PassT],
    ) -> float:
        """Objective value of a state of attempt ``attempt``; ``read`` locates the state."""
        if isinstance(objective, ExpectedScore):
            return read(self.passes[attempt], 0 if best is None else best)
        if isinstance(objective, Utility):
            passes = self.utility_passes(objective, attempt)
            return read(passes[attempt], 0 if best is None else best)
        t = threshold_for(objective, self.spec.min_score, self.spec.max_score)
        if best is not None and best >= t:
            return 1.0
        p = read(self.passes[self.attempts], self.target_column(t))
        later = 1.0 - float(self.single_target[t - self.spec.min_score])
        return 1.0 - (1.0 - p) * later ** (self.attempts - attempt)

    def points(self, target: Target, read: Reader[PassT]) -> float:
        """The expected result of this attempt under ``target``'s policy, from the
        state ``read`` locates: the target policy's tie-break (every attempt plays
        the single-attempt target policy, so the attempt and best do not matter)."""
        t = threshold_for(target, self.spec.min_score, self.spec.max_score)
        return read(self._target_secondary, self.target_column(t))

    @cached_property
    def _target_secondary(self) -> AttemptPass[PassT]:
        """The last attempt's pass (the one holding the target columns), secondary view."""
        return self.passes[self.attempts].secondary()


def solve_attempts(
    model: AttemptModel[PassT], spec: EventSpec, attempts: int
) -> AttemptTables[PassT]:
    """Solve ``attempts`` interleaved attempts of ``model`` for both objectives."""
    top, low = model.top, spec.min_score
    assert top == spec.max_score, "reward rows run up to the event's top result"
    scores = np.arange(top + 1)
    bests = np.arange(top + 1)  # column b; b = 0 means no valid result yet
    thresholds = np.arange(low, top + 2)
    passes: dict[int, AttemptPass[PassT]] = {}
    dists: dict[int, Floats] = {}
    single_target = np.zeros(len(thresholds))
    # Last attempt: U_{A+1}(b) = b, plus one column per target threshold.
    after = bests.astype(np.float64)
    for attempt in range(attempts, 0, -1):
        # Attempt 1 starts with no result (b = none) unless it is also the last
        # attempt, whose pass always has every b so target columns follow at top + 1.
        columns = bests if attempt > 1 or attempt == attempts else bests[:1]
        ev = np.vstack((after[np.maximum(scores[:, None], columns[None, :])], after[columns]))
        reward_p, reward_e = ev, ev
        if attempt == attempts:
            hit = (scores[:, None] >= thresholds[None, :]).astype(np.float64)
            hit = np.vstack((hit, np.zeros((1, len(thresholds)))))
            points = np.concatenate((scores, [0])).astype(np.float64)
            points = np.repeat(points[:, None], len(thresholds), axis=1)
            reward_p = np.hstack((ev, hit))
            reward_e = np.hstack((ev, points))
        solved = model.backward(reward_p, reward_e)
        passes[attempt] = AttemptPass(solved, reward_p, reward_e)
        dists[attempt] = model.forward(solved)
        root = model.root(solved)
        after = np.empty(top + 1)
        after[columns] = root[: len(columns)]
        if attempt == attempts:
            single_target = root[top + 1 :]
    # Chain the best-so-far distribution through the attempts (EV policy).
    best_dist = np.zeros(top + 1)  # index b; b = 0 means none
    best_dist[0] = 1.0
    for attempt in range(1, attempts + 1):
        outcome = dists[attempt]
        nxt = np.zeros(top + 1)
        for b in np.flatnonzero(best_dist):
            col = b if attempt > 1 else 0
            mass = best_dist[b] * outcome[:, col]
            np.add.at(nxt, np.maximum(scores, b), mass[:-1])
            nxt[b] += mass[-1]
        best_dist = nxt
    ev_dist = np.concatenate((best_dist[low : top + 1], best_dist[:1]))
    single = dists[attempts][:, top + 1 :]
    single = np.vstack((single[low : top + 1], single[-1:]))
    target_dist = np.array(
        [best_of_attempts(single[:, i], attempts) for i in range(len(thresholds))]
    )
    summary = Summary(
        event=spec.event,
        attempts=attempts,
        min_score=low,
        max_score=spec.max_score,
        ev=float(after[0]),
        ev_dist=ev_dist,
        target_p=1.0 - (1.0 - single_target) ** attempts,
        target_dist=target_dist,
    )
    return AttemptTables(spec, attempts, passes, single_target, summary, model)


class UtilityChain(msgspec.Struct, Generic[PassT]):
    """The utility chain solved from the last attempt down to ``next_attempt + 1``.

    ``after[b]`` is the value before attempt ``next_attempt + 1`` with best ``b``.
    """

    passes: dict[int, AttemptPass[PassT]]
    after: Floats
    next_attempt: int

    @classmethod
    def start(
        cls, model: AttemptModel[PassT], attempts: int, utility: Utility
    ) -> UtilityChain[PassT]:
        top = model.top
        after = np.array([utility.invalid] + [utility(int(b)) for b in range(1, top + 1)])
        return cls({}, after, attempts)

    def extend(self, model: AttemptModel[PassT], down_to: int) -> None:
        """Solve the passes of attempts ``down_to .. next_attempt`` (none if done)."""
        top = model.top
        scores = np.arange(top + 1)
        bests = np.arange(top + 1)
        while self.next_attempt >= down_to:
            attempt = self.next_attempt
            columns = bests if attempt > 1 else bests[:1]
            after = self.after
            reward = np.vstack(
                (after[np.maximum(scores[:, None], columns[None, :])], after[columns])
            )
            values = getattr(model, "values", None)  # a values-only pass, where a model has one
            solved = (
                values(reward) if values is not None else compact(model.backward(reward, reward))
            )
            root = model.root(solved)
            self.passes[attempt] = AttemptPass(solved, reward)
            self.after = np.zeros(top + 1)
            self.after[columns] = root[: len(columns)]
            self.next_attempt -= 1


def solve_utility(
    model: AttemptModel[PassT], spec: EventSpec, attempts: int, utility: Utility
) -> dict[int, AttemptPass[PassT]]:
    """The passes for ``E[u(best valid attempt)]``: the EV chain with ``U_{A+1} = u``.

    Every pass but the first has one column per best so far ``b`` (``b = 0``:
    none); the first has only ``b = 0``.  Ties inside a pass go to the first
    option (the tables only serve option values, which ties do not change).
    """
    top = model.top
    scores = np.arange(top + 1)
    bests = np.arange(top + 1)
    after = np.array([utility.invalid] + [utility(int(b)) for b in bests[1:]])
    passes: dict[int, AttemptPass[PassT]] = {}
    for attempt in range(attempts, 0, -1):
        columns = bests if attempt > 1 else bests[:1]
        reward = np.vstack((after[np.maximum(scores[:, None], columns[None, :])], after[columns]))
        solved = model.backward(reward, reward)
        root = model.root(solved)
        passes[attempt] = AttemptPass(compact(solved), reward)
        after = np.zeros(top + 1)
        after[columns] = root[: len(columns)]
    return passes


_NO_INDEX = np.zeros(0, dtype=np.int8)


def _swap_secondary(solved: PassT) -> PassT:
    """``solved`` with each ``*_p`` table replaced by its ``*_e`` twin (nested passes too)."""
    return _with_twins(solved, into="_p", source="_e", drop_policy=False)


def compact(solved: PassT) -> PassT:
    """A utility pass cut down to what option values read: the ``*_p`` value tables.

    A utility is solved with equal primary and secondary rewards, so every
    ``*_e`` table equals its ``*_p`` twin and is shared instead of kept; the
    policy (``settle``, ``choice``, ``dead``) only serves the forward pass that
    distributions need, which utility passes never run. Nested passes (the Long
    Jump's run-up and jump) are cut down alike.
    """
    return _with_twins(solved, into="_e", source="_p", drop_policy=True)


def _with_twins(solved: PassT, *, into: str, source: str, drop_policy: bool) -> PassT:
    """Each ``*{into}`` table of ``solved`` (and of its nested passes) replaced by its
    ``*{source}`` twin; with ``drop_policy`` the policy tables emptied too."""
    if not isinstance(solved, msgspec.Struct):
        return solved
    changes: dict[str, Any] = {}
    for name in solved.__struct_fields__:
        value = getattr(solved, name)
        twin = name[: -len(into)] + source
        if name.endswith(into) and hasattr(solved, twin):
            changes[name] = getattr(solved, twin)
        elif drop_policy and name == "settle":
            changes[name] = _NO_INDEX
        elif drop_policy and name in ("choice", "dead"):
            changes[name] = (None,) * len(value)
        elif isinstance(value, msgspec.Struct):
            changes[name] = _with_twins(value, into=into, source=source, drop_policy=drop_policy)
    return msgspec.structs.replace(solved, **changes)
