"""The two-player points game played to win, solved in the real turn order (issue 27).

Both players maximise their own chance of winning (a tie counts a half); the game is
zero-sum, so one value per position, the **first mover's** win probability, says it
all. The structure that makes it small:

* **Between events only the lead matters.** At the start of event ``k`` the players
  act in order of their running totals (D2), so the first mover leads by ``d >= 0``
  (a tie keeps the previous order, and that order's first mover "leads" by 0).
  ``W[k][d]`` is the first mover's win probability there; after the last event
  ``W[K] = [0.5]`` and any lead ``> 0`` wins. A lead ``x`` seen from the player who
  moved first in event ``k`` is worth ``G_{k+1}(x) = W[k+1][x]`` for ``x >= 0`` and
  ``1 - W[k+1][-x]`` for ``x < 0`` (:func:`lead_values`).
* **Inside an event each player's state is the event's own state**, and the other
  player enters only through the terminal values. Every decision is therefore a
  one-player utility problem over the mover's *segment* (the rest of a race, one
  attempt, one bar), with terminal values read from the next segment's table:

  - races (D4, D5): the first mover runs, then the second, who knows the lead
    ``D = d + s_1`` and plays ``u(s_2) = 1 - G(D - s_2)``; the first plays
    ``u(s_1) = 1 - V_2(d + s_1)``;
  - three interleaved attempts (D3): six half-attempts A1 B1 A2 B2 A3 B3 over the
    bests ``(b_A, b_B)``; a half-attempt is one attempt whose reward for a result
    ``r`` is the next half's value at the mover's new best ``max(b, r)``;
  - heights in player order (D8, D9): per bar, the first mover's turn then the
    second's, over ``(b_A, in_A, b_B, in_B)``; jump/skip/retire, then up to three
    jumps (the pole vaulter choosing 1-8 dice before each).

  All leads ride along as columns of one backward pass per segment.
* **Bounded leads.** A lead beyond ``L_k`` before event ``k`` is taken as decided
  (worth 1 to the leader). :func:`lead_bound` gives a rigorous bound on the error:
  if the leader plays every remaining event for expected points, whatever the
  trailer does, ``P(trailer catches up) <= exp(-lam d) prod_j M_j(lam)`` with
  ``M_j(lam) = max_policy E[e^{lam s}] * E_EV[e^{-lam s}]`` (a Chernoff bound:
  the trailer's best ``E[e^{lam s}]`` is a one-player utility, and conditioning on
  the leader's dice leaves the trailer a one-player problem). The minimax value is
  1-Lipschitz in its terminal values, so every value here is within
  ``max_k bound_k(L_k + 1) <= eps`` of the exact game's. ``L_k`` is also capped by
  the largest swing the remaining events allow, beyond which the bound is 0: small
  games are solved exactly.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np

from gamenight.games.decathlon.solver.common import Floats
from gamenight.games.decathlon.solver.events import event_spec
from gamenight.games.decathlon.solver.freeze_events import RULES as FREEZE_RULES
from gamenight.games.decathlon.solver.freeze_events import FreezeModel
from gamenight.games.decathlon.solver.heights import BARS, JUMPS, clear_probability
from gamenight.games.decathlon.solver.long_jump import LongJumpModel
from gamenight.games.decathlon.solver.races import RACES, RETHROWS, set_scores
from gamenight.games.decathlon.solver.shot_put import ShotPutModel
from gamenight.games.decathlon.solver.win2p_file import EPS

HALVES = 6  # A1 B1 A2 B2 A3 B3 (D3)
CHUNK = 4096  # reward columns per attempt pass (memory: a few tens of MB)
ATTEMPT_EVENTS = ("long-jump", "shot-put", "discus", "javelin")
Progress = Callable[[int, int], None]


def family(event: str) -> str:
    """``race``, ``attempts`` or ``heights``."""
    if event in RACES:
        return "race"
    if event in BARS:
        return "heights"
    if event in ATTEMPT_EVENTS:
        return "attempts"
    raise ValueError(f"unknown event {event!r}")


def lead_values(w: Floats, x: np.ndarray) -> Floats:
    """``G(x)``: the value of lead ``x`` (any sign) for the player who moved first in the
    event just finished, from the next event's table ``w`` (leads ``0..len(w) - 1``;
    beyond them the leader wins). A tie keeps the order (D2).

    >>> lead_values(np.array([0.5]), np.array([-2, 0, 3])).tolist()
    [0.0, 0.5, 1.0]
    """
    top = len(w) - 1
    size = np.abs(x)
    v = np.where(size <= top, w[np.minimum(size, top)], 1.0)
    out: Floats = np.where(x >= 0, v, 1.0 - v)
    return out


# ----- one-player pieces: the result range, the EV distribution, utility maxima -----------


def score_range(event: str) -> tuple[int, int]:
    """The event's possible points: valid results, and 0 for no valid result (D11)."""
    spec = event_spec(event)
    return min(spec.min_score, 0), max(spec.max_score, 0)


@cache
def _race(event: str) -> tuple[int, int, Floats, np.ndarray, np.ndarray]:
    """A race's partial-total window, the set score probabilities, the window index after
    adding each set score, and the set scores."""
    race = RACES[event]
    scores, probs = set_scores(race.size, race.six)
    low, high = score_range(event)
    totals = np.arange(low, high + 1)
    after = np.clip(totals[:, None] + scores[None, :], low, high) - low
    return low, high, probs, after, scores


def race_values(event: str, terminal: Floats) -> Floats:
    """The best ``E[u(final result)]`` of a whole race, for every utility column:
    ``terminal[x - low, c]`` is column ``c``'s utility of the final result ``x``."""
    low, _high, probs, after, _scores = _race(event)
    sets = RACES[event].sets
    nxt = np.broadcast_to(terminal, (RETHROWS + 1, *terminal.shape))
    for _ in range(sets):
        cur = np.empty_like(nxt)
        for r in range(RETHROWS + 1):
            freeze = nxt[r][after]  # totals x set scores x columns
            if r > 0:
                freeze = np.maximum(freeze, cur[r - 1][:, None, :])
            cur[r] = np.einsum("xsc,s->xc", freeze, probs)
        nxt = cur
    out: Floats = nxt[RETHROWS][0 - low]
    return out


@cache
def _attempt_model(event: str) -> LongJumpModel | ShotPutModel | FreezeModel:
    if event == "long-jump":
        return LongJumpModel()
    if event == "shot-put":
        return ShotPutModel()
    return FreezeModel(FREEZE_RULES[event])


def attempt_values(event: str, reward: Floats) -> Floats:
    """One attempt's best expected reward per column: ``reward[r, c]`` for a valid result
    ``r`` (rows up to the event's top), the last row for an invalid attempt."""
    model: Any = _attempt_model(event)  # an AttemptModel; a values-only pass where it has one
    cols = reward.shape[1]
    out = np.empty(cols)
    for start in range(0, cols, CHUNK):
        part = np.ascontiguousarray(reward[:, start : start + CHUNK])
        values = getattr(model, "values", None)
        solved = values(part) if values is not None else model.backward(part, part)
        out[start : start + CHUNK] = model.root(solved)
    return out


def one_player_best(
    event: str, utility: Callable[[Floats], Floats], invalid: Floats | float
) -> Floats:
    """``max_policy E[u(result)]`` for one player alone, per utility column:
    ``utility(results)`` gives ``(len(results), cols)`` values; no valid result is
    worth ``invalid`` (per column)."""
    spec = event_spec(event)
    kind = family(event)
    if kind == "race":
        low, high = score_range(event)
        u = utility(np.arange(low, high + 1).astype(np.float64))
        out: Floats = race_values(event, u)
        return out
    if kind == "attempts":
        top = spec.max_score
        u = utility(np.arange(1, top + 1).astype(np.float64))
        cols = u.shape[1]
        after = np.vstack((np.broadcast_to(invalid, (1, cols)), u))  # by best: none, 1..top
        rows = np.arange(top + 1)
        for attempt in range(3, 0, -1):
            bests = rows if attempt > 1 else rows[:1]
            reward = np.concatenate(
                (after[np.maximum(rows[:, None], bests[None, :])], after[bests][None]), axis=0
            )  # result, best, column
            root = attempt_values(event, reward.reshape(top + 2, -1)).reshape(len(bests), cols)
            after = np.zeros((top + 1, cols))
            after[bests] = root
        start: Floats = after[0]
        return start
    bar = BARS[event]
    u = utility(np.array(bar.heights, dtype=np.float64))
    end = np.vstack((np.broadcast_to(invalid, (1, u.shape[1])), u))  # best index x column
    clear = _clear(event)[:, :, None, None]
    choose = end.copy()  # before choosing at the bar after the last: the end
    for i in range(len(bar.heights) - 1, -1, -1):
        won = choose[i + 1]
        jump = end.copy()
        for _ in range(JUMPS):
            jump = np.max(clear[i] * won + (1 - clear[i]) * jump[None], axis=0)
        choose = np.maximum(np.maximum(jump, choose), end)
    first: Floats = choose[0]
    return first


@cache
def _clear(event: str) -> Floats:
    """``clear[i, n]``: one jump at bar ``i`` with the ``n``-th allowed dice count clears."""
    bar = BARS[event]
    return np.array([[clear_probability(bar, n, h) for n in bar.dice_counts] for h in bar.heights])


@cache
def ev_points(event: str) -> tuple[int, Floats]:
    """The EV policy's points distribution: ``(low, pmf over low..high)`` (invalid = 0)."""
    from gamenight.games.decathlon.solver.table import solve_event

    solution = solve_event(event)
    low, high = score_range(event)
    pmf = np.zeros(high - low + 1)
    for r, p in solution.pmf.items():
        pmf[r - low] += p
    pmf[0 - low] += solution.p_invalid
    return low, pmf


LAMBDAS = np.linspace(0.002, 1.0, 250)


def _exps(r: Floats) -> Floats:
    out: Floats = np.exp(r[:, None] * LAMBDAS[None, :])
    return out


@cache
def _log_mgf(event: str) -> Floats:
    """``log M(lam)`` per lambda: the trailer's best ``E[e^{lam s}]`` times the leader's
    ``E_EV[e^{-lam s}]`` (every lambda a utility column of one pass)."""
    low, pmf = ev_points(event)
    scores = np.arange(low, low + len(pmf)).astype(np.float64)
    best = one_player_best(event, _exps, 1.0)
    leader = pmf @ np.exp(-scores[:, None] * LAMBDAS[None, :])
    out: Floats = np.log(best) + np.log(leader)
    return out


@cache
def _variance(event: str) -> float:
    low, pmf = ev_points(event)
    scores = np.arange(low, low + len(pmf))
    mean = float(pmf @ scores)
    return float(pmf @ (scores - mean) ** 2)


def rough_limit(events: Sequence[str]) -> int:
    """A quick estimate of :func:`lead_limit` at the default bound (7 standard
    deviations of the lead's change under points play), for cost estimates."""
    if not events:
        return 0
    spread = math.sqrt(2 * sum(_variance(e) for e in events))
    return min(swing(events), math.ceil(7 * spread))


def swing(events: Sequence[str]) -> int:
    """The largest change of the lead the events allow: beyond it nothing can change."""
    return sum(high - low for low, high in map(score_range, events))


def lead_bound(events: Sequence[str], d: int) -> float:
    """An upper bound on the chance that a player leading by ``d`` before ``events`` does
    not win, when the leader plays every event for expected points and the other plays
    anyhow (0 once ``d`` exceeds :func:`swing`)."""
    if not events:
        return 0.0 if d > 0 else 1.0
    if d > swing(events):
        return 0.0
    total = sum(_log_mgf(e) for e in events)
    return float(min(1.0, np.exp(np.min(total - LAMBDAS * d))))


def lead_limit(events: Sequence[str], eps: float) -> int:
    """The smallest ``L`` with ``lead_bound(events, L + 1) <= eps``."""
    if not events:
        return 0
    top = swing(events)
    total = sum(_log_mgf(e) for e in events)
    log_eps = math.log(eps)
    for d in range(0, top + 1):
        if float(np.min(total - LAMBDAS * (d + 1))) <= log_eps:
            return d
    return top


# ----- the two-player segments ------------------------------------------------------------


def race_event(event: str, leads: int, nxt: Floats) -> tuple[Floats, Floats, int]:
    """A race with the first mover leading by ``0..leads``.

    Returns ``(W, after_first, lo)``: ``W[d]``, and ``after_first[D - lo]``, the first
    mover's value once they have run and lead by ``D`` (the second still to run).
    """
    low, high = score_range(event)
    results = np.arange(low, high + 1)
    lo, hi = low, leads + high
    big = np.arange(lo, hi + 1)
    # The second mover: u(s) = 1 - G(D - s), one column per D.
    u2 = 1.0 - lead_values(nxt, big[None, :] - results[:, None])
    after_first = 1.0 - race_values(event, u2)
    # The first mover: u(s) = after_first(d + s), one column per d.
    u1 = after_first[(np.arange(leads + 1)[None, :] + results[:, None]) - lo]
    return race_values(event, u1), after_first, lo


def attempts_event(event: str, leads: int, nxt: Floats) -> tuple[Floats, Floats]:
    """Three interleaved attempts (D3), the first mover leading by ``0..leads``.

    Returns ``(W, halves)``: ``halves[h, bA, bB, d]`` is the first mover's value before
    half-attempt ``h`` (0..5: A1 B1 A2 B2 A3 B3) with bests ``bA``, ``bB`` (0: none; a
    best is worth its points, none 0).
    """
    top = event_spec(event).max_score
    n, ds = top + 1, np.arange(leads + 1)
    b = np.arange(n)
    value = lead_values(nxt, ds[None, None, :] + b[:, None, None] - b[None, :, None])
    halves = np.zeros((HALVES, n, n, leads + 1))
    rows = np.arange(n)
    for h in range(HALVES - 1, -1, -1):
        mover_first = h % 2 == 0
        # the mover's view of the next half: own best first, own values
        mine = value if mover_first else 1.0 - value.transpose(1, 0, 2)
        own = n if h >= 2 else (1 if h == 0 else n)  # bests reachable for the mover
        other = n if h >= 2 else 1
        if h == 1:
            own, other = 1, n  # B1: B has none, A any
        vals = np.empty((own, other, leads + 1))
        block = max(1, CHUNK // (own * other))  # leads per pass: bounded memory
        pick = np.maximum(rows[:, None], np.arange(own)[None, :])
        for start in range(0, leads + 1, block):
            full = mine[:, :other, start : start + block]  # own best x other best x d
            # rows: result r, then an invalid attempt; columns: own best, other best, d
            reward = np.concatenate((full[pick], full[None, :own]), axis=0)
            part = attempt_values(event, reward.reshape(n + 1, -1))
            vals[:, :, start : start + block] = part.reshape(own, other, -1)
        cur = np.zeros((n, n, leads + 1))
        if mover_first:
            cur[:own, :other] = vals
        else:
            cur[:other, :own] = 1.0 - vals.transpose(1, 0, 2)
        halves[h] = cur
        value = cur
    return halves[0, 0, 0].copy(), halves


@dataclass(frozen=True)
class HeightTables:
    """A height event for some first-mover leads: ``turn[i, half]`` is the first mover's
    value at bar ``i`` before the first (half 0) or second (half 1) mover's turn, over
    ``(bA, inA, bB, inB, d)``; best index 0 is none, ``j + 1`` bar ``j`` cleared."""

    event: str
    turn: Floats
    ds: np.ndarray = field(repr=False)


def heights_event(event: str, ds: np.ndarray, nxt: Floats) -> HeightTables:
    """Heights in player order (D8, D9) for the first-mover leads ``ds``."""
    bar = BARS[event]
    nb, nbar = len(bar.heights) + 1, len(bar.heights)
    points = np.concatenate(([0], bar.heights))
    clear = _clear(event)
    end = lead_values(nxt, ds[None, None, :] + points[:, None, None] - points[None, :, None])
    shape = (nb, 2, nb, 2, len(ds))
    turn = np.zeros((nbar + 1, 2, *shape))
    turn[nbar, 0] = end[:, None, :, None, :]
    for i in range(nbar - 1, -1, -1):
        nxt_val = turn[i + 1, 0]
        for half in (1, 0):
            after = nxt_val if half == 1 else turn[i, 1]
            # the mover's axes first, in the mover's values
            mine = after if half == 0 else 1.0 - after.transpose(2, 3, 0, 1, 4)
            best = _bar_turn(mine, clear[i], i)
            cur = best if half == 0 else 1.0 - best.transpose(2, 3, 0, 1, 4)
            turn[i, half] = cur
    return HeightTables(event, turn, ds)


def _bar_turn(mine: Floats, clear: Floats, i: int) -> Floats:
    """The mover's value before their turn at bar ``i``, from the values ``mine`` after it
    (mover's best, status, other's best, status, d); an out mover passes."""
    stay, out = mine[:, 1], mine[:, 0]  # skip keeps the mover in; retire puts them out
    won = np.broadcast_to(mine[i + 1, 1], stay.shape)  # cleared bar i: best i + 1, still in
    jump = out
    for _ in range(JUMPS):  # the committed jumps, last first
        jump = np.max(
            clear[:, None, None, None, None] * won
            + (1 - clear[:, None, None, None, None]) * jump[None],
            axis=0,
        )
    value = np.maximum(np.maximum(jump, stay), out)
    result = mine.copy()
    result[:, 1] = value
    return result


def jump_values(event: str, mine: Floats, i: int, used: int) -> Floats:
    """A committed mover's value per dice count at bar ``i`` after ``used`` failed jumps,
    from the mover's after-turn values ``mine[b, status]`` (other player fixed)."""
    clear = _clear(event)[i]
    won = mine[i + 1, 1]
    jump = mine[:, 0]
    for _ in range(JUMPS - 1 - used):
        jump = np.max(clear[:, None] * won + (1 - clear[:, None]) * jump[None], axis=0)
    out: Floats = clear[:, None] * won + (1 - clear[:, None]) * jump[None]
    return out


# ----- the whole chain --------------------------------------------------------------------


@dataclass
class WinTable:
    """The solved chain for ``events`` (D1 order): ``w[k]`` per event and the inner
    tables the decisions read (races: ``after_first``; attempts: ``halves``; heights are
    re-solved per lead on demand, a few ms)."""

    events: tuple[str, ...]
    eps: float
    limits: tuple[int, ...]
    w: list[Floats]
    after_first: dict[int, tuple[Floats, int]] = field(default_factory=dict)
    halves: dict[int, Floats] = field(default_factory=dict)
    _heights: dict[tuple[int, int], HeightTables] = field(default_factory=dict, repr=False)
    # The bound as built or as stored with the table (issue 46): computing it again
    # costs a one-player pass per event and lambda, seconds and ~140 MiB for ten events.
    stored_bound: float | None = None

    @property
    def bound(self) -> float:
        """The proven bound on every value's error (0: exact): the stored one, else
        :meth:`proven_bound`, computed once."""
        if self.stored_bound is None:
            self.stored_bound = self.proven_bound()
        return self.stored_bound

    def proven_bound(self) -> float:
        """The bound computed from the events and the leads kept (:func:`lead_bound`)."""
        return max(
            (lead_bound(self.events[k:], self.limits[k] + 1) for k in range(len(self.events))),
            default=0.0,
        )

    def start_value(self) -> float:
        """The first mover's win probability at the start (0.5: the draw makes it fair)."""
        return float(self.w[0][0])

    def lead_value(self, k: int, lead: int) -> float:
        """The value of ``lead`` (any sign) for a player about to play event ``k`` first
        if ``lead >= 0``, second if ``lead < 0`` (``k = len(events)``: the game is over)."""
        return float(lead_values(self.w[k], np.array([lead]))[0])

    def heights(self, k: int, d: int) -> HeightTables:
        found = self._heights.get((k, d))
        if found is None:
            if len(self._heights) > 64:
                self._heights.clear()
            found = heights_event(self.events[k], np.array([d]), self.w[k + 1])
            self._heights[(k, d)] = found
        return found


def solve_chain(
    events: Sequence[str], eps: float = EPS, progress: Progress | None = None
) -> WinTable:
    """Solve the two-player win game over ``events`` (any subset, in D1 order)."""
    events = tuple(events)
    K = len(events)
    limits = tuple(lead_limit(events[k:], eps) for k in range(K))
    w: list[Floats] = [np.zeros(0)] * K + [np.array([0.5])]
    table = WinTable(events, eps, (*limits, 0), w)
    weights = [_cost_weight(e, limits[k]) for k, e in enumerate(events)]
    done = 0
    for k in range(K - 1, -1, -1):
        event, leads, nxt = events[k], limits[k], w[k + 1]
        kind = family(event)
        if kind == "race":
            w[k], after, lo = race_event(event, leads, nxt)
            table.after_first[k] = (after, lo)
        elif kind == "attempts":
            w[k], table.halves[k] = attempts_event(event, leads, nxt)
        else:
            ht = heights_event(event, np.arange(leads + 1), nxt)
            w[k] = ht.turn[0, 0][0, 1, 0, 1].copy()
        done += weights[k]
        if progress is not None:
            progress(done, sum(weights))
    table.stored_bound = table.proven_bound()  # cheap here: lead_limit cached the MGFs
    return table


# Relative cost of one reward column of an attempt pass (measured: the long jump's
# run-up and jump are the dearest; a discus column takes about 8 us).
ATTEMPT_COST = {"long-jump": 20, "javelin": 6, "shot-put": 2, "discus": 1}


def _cost_weight(event: str, leads: int) -> int:
    """A rough cost of solving ``event`` for ``leads + 1`` leads (units of ~8 us)."""
    kind = family(event)
    if kind == "attempts":
        return ATTEMPT_COST[event] * (event_spec(event).max_score + 1) ** 2 * (leads + 1) * 4
    return (leads + 1) * 100
