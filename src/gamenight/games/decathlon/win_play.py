"""Play to win, solved: the two-player points game's decisions from the win tables.

Every decision of the two-player points game played to win (:mod:`.solver.win2p`) is
a one-player problem over the acting player's *segment*, whose terminal values the
table gives:

* races (D4, D5): the whole race, ``u(result)`` = the win chance after it;
* three-attempt events (D3): this attempt, ``u(new best)`` = the value of the next
  half-attempt; it is solved as the last attempt with the same best, which is exactly
  "one attempt, then the terminal value of the best so far";
* heights (D8, D9): this bar's turn (jump, skip or retire; the dice of each jump),
  from the per-lead height tables.

The first two go through the exact event solvers with a :class:`Utility`, so the one
tie rule picks (:mod:`gamenight.solve.ties`); the heights pick by it from the values.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
import numpy as np

from gamenight.games.decathlon import advisor
from gamenight.games.decathlon.actions import Action, Jump, Retire, Skip, Vault
from gamenight.games.decathlon.solver import Utility
from gamenight.games.decathlon.solver.events import event_spec
from gamenight.games.decathlon.solver.heights import BARS
from gamenight.games.decathlon.solver.situations import (
    FreezeSituation,
    LongJumpSituation,
    ShotPutSituation,
    Situation,
)
from gamenight.games.decathlon.solver.win2p import (
    HALVES,
    WinTable,
    family,
    jump_values,
    lead_values,
    score_range,
)
from gamenight.games.decathlon.solver.win2p_store import table_for
from gamenight.games.decathlon.view import DecathlonView
from gamenight.solve.ties import best_of

WIN_PLAY_LABEL = "chance to win, both playing to win"


def applies(view: DecathlonView) -> bool:
    """A two-player points game with an event still to play."""
    return view.players == 2 and view.variant == "points" and view.discipline is not None


def table(view: DecathlonView, *, build: bool | None = None) -> WinTable | None:
    """The game's win table (None: not built, and too costly to build now)."""
    if not applies(view):
        return None
    return table_for(view.disciplines, build=build)


def preparation_target(view: DecathlonView) -> str:
    """What the game's preparation builds for this game's table
    (:func:`.solver.win2p_store.prepare`): its events, comma-separated."""
    return ",".join(view.disciplines)


def _lead(view: DecathlonView, found: WinTable) -> int | None:
    """The first mover's lead at the start of this event, if the table covers it."""
    first, second = view.order
    d = view.totals[first] - view.totals[second]
    if d < 0 or d > found.limits[view.discipline_no]:
        return None  # beyond the bound the result is decided to within its epsilon
    return d


def _best(view: DecathlonView, seat: int) -> int:
    mine = view.best[seat] if view.best else None
    return 0 if mine is None else mine


def segment_utility(view: DecathlonView, found: WinTable) -> Utility | None:
    """The acting player's utility over this segment's result (races, attempts)."""
    k, event, seat = view.discipline_no, view.discipline or "", view.to_act
    d = _lead(view, found)
    if d is None or seat is None:
        return None
    first, second = view.order
    kind = family(event)
    if kind == "race":
        low, high = score_range(event)
        results = np.arange(low, high + 1)
        if seat == first:
            after, lo = found.after_first[k]
            values = after[d + results - lo]
        else:
            lead = d + _best(view, first)  # the first mover's posted result
            values = 1.0 - lead_values(found.w[k + 1], lead - results)
        return Utility(low, tuple(float(v) for v in values))
    if kind == "attempts":
        top = event_spec(event).max_score
        h = 2 * (view.attempt - 1) + (0 if seat == first else 1)
        b_first, b_second = _best(view, first), _best(view, second)
        if h + 1 < HALVES:
            nxt = found.halves[k][h + 1][:, :, d]
        else:
            b = np.arange(top + 1)
            nxt = lead_values(found.w[k + 1], d + b[:, None] - b[None, :])
        mine = nxt[:, b_second] if seat == first else 1.0 - nxt[b_first, :]
        return Utility(1, tuple(float(v) for v in mine[1:]), float(mine[0]))
    return None


def _segment_situation(view: DecathlonView) -> Situation:
    where = advisor.situation(view)
    if isinstance(where, LongJumpSituation | ShotPutSituation | FreezeSituation):
        # one attempt with this best, then the utility: the last attempt's problem
        return msgspec.structs.replace(where, attempt=3)
    return where


def _height_options(
    view: DecathlonView, found: WinTable, legal: Sequence[Action]
) -> list[float] | None:
    """The acting player's win chance per legal action at a bar (D8, D9)."""
    k, event, seat = view.discipline_no, view.discipline or "", view.to_act
    d = _lead(view, found)
    if d is None or seat is None or view.height is None:
        return None
    first, second = view.order
    heights = BARS[event].heights
    i = heights.index(view.height)
    half = 0 if seat == first else 1
    tables = found.heights(k, d)
    after = tables.turn[i, 1] if half == 0 else tables.turn[i + 1, 0]

    def index(s: int) -> tuple[int, int]:
        best = view.best[s] if view.best else None
        return (0 if best is None else heights.index(best) + 1), int(view.status[s] == "in")

    (bf, sf), (bs, ss) = index(first), index(second)
    mine = after[:, :, bs, ss, 0] if half == 0 else 1.0 - after[bf, sf, :, :, 0]
    own = bf if half == 0 else bs
    used = (view.jumps_at_height or 0) if view.phase == "vault-dice" else 0
    per_dice = jump_values(event, mine, i, used)[:, own]
    counts = BARS[event].dice_counts
    out: list[float] = []
    for action in legal:
        if isinstance(action, Vault):
            out.append(float(per_dice[counts.index(action.dice)]))
        elif isinstance(action, Jump):
            out.append(float(per_dice.max()))
        elif isinstance(action, Skip):
            out.append(float(mine[own, 1]))
        elif isinstance(action, Retire):
            out.append(float(mine[own, 0]))
        else:
            return None
    return out


def win_action(view: DecathlonView, legal: Sequence[Action], found: WinTable) -> Action | None:
    """The solved win-play action (None where the table does not reach: use another)."""
    event = view.discipline or ""
    if family(event) == "heights":
        values = _height_options(view, found, legal)
        return None if values is None else best_of(list(legal), values)
    utility = segment_utility(view, found)
    if utility is None:
        return None
    best = advisor._best_option(event, _segment_situation(view), utility)
    for action in legal:
        if advisor.option_key(view, action) == best:
            return action
    return None


def action_values(
    view: DecathlonView, legal: Sequence[Action], found: WinTable
) -> list[float] | None:
    """The acting player's win chance after each legal action, both playing to win from
    then on (None where the table does not reach: the lead is beyond its bound).

    The best of them is the position's value; an action's shortfall from it is what
    that choice costs against a solved opponent (``bench/decathlon_win2p.py cv``).
    """
    event = view.discipline or ""
    if family(event) == "heights":
        return _height_options(view, found, legal)
    utility = segment_utility(view, found)
    if utility is None:
        return None
    values = advisor._solver_values(event, _segment_situation(view), utility)
    out: list[float] = []
    for action in legal:
        value = values.get(advisor.option_key(view, action))
        if value is None:
            return None
        out.append(float(value))
    return out


def mover_value(view: DecathlonView, legal: Sequence[Action], found: WinTable) -> float | None:
    """The acting player's win chance under win play by both, at this decision."""
    event = view.discipline or ""
    if family(event) == "heights":
        at_bar = _height_options(view, found, legal)
        return None if at_bar is None else max(at_bar)
    utility = segment_utility(view, found)
    if utility is None:
        return None
    values = advisor._solver_values(event, _segment_situation(view), utility)
    return float(max(values.values()))


def decision_options(view: DecathlonView) -> list[Action]:
    """The choices a height decision offers (D8, D9: all of them are always legal);
    other decisions are valued through their situation alone (an empty list)."""
    if view.phase == "jump-or-skip":
        return [Jump(), Skip(), Retire()]
    if view.phase == "vault-dice":
        return [Vault(n) for n in BARS["pole-vault"].dice_counts]
    return []


def win_play_odds(view: DecathlonView, legal: Sequence[Action]) -> tuple[float, float] | None:
    """Each seat's win chance when both play to win, at a decision (None: no table, or
    the lead is beyond it)."""
    found = table(view)
    if found is None or view.to_act is None:
        return None
    value = mover_value(view, legal, found)
    if value is None:
        return None
    return (value, 1.0 - value) if view.to_act == 0 else (1.0 - value, value)
