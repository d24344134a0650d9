"""Bots for the Decathlon.

* ``optimal`` maximises each event's expected score exactly (:mod:`.advisor`);
* ``competitive`` plays for the posted results of the others (:mod:`.competition`):
  the chance to reach the best posted result in the interleaved events of the
  points game, the expected honours in the Championship;
* ``greedy`` plays every event by simple thresholds.

The greedy policy (:func:`greedy_action`) is a pure function of the view and
the legal actions. Its rules:

* sprints (D4): keep a set worth at least 2.5 per die, plus 0.5 per rethrow
  left per set still to play (at most +1); the hurdles (D5) keep a throw at a
  total that rises with the rethrows left;
* Long Jump run-up (D6): freeze every 1 and 2 that fits under 8 (at least the
  lowest die), then rethrow while the chance of stepping over on the next
  throw is at most even; in the jump freeze every 5 and 6 (at least the
  highest die);
* Shot Put (D7): throw until the total reaches 26;
* Discus and Javelin (D10): freeze every top die (6s; 5s), else the highest
  allowed one; rethrow while at least 2 dice are left and the total is under
  20 (discus) or 22 (javelin);
* in every 3-attempt event, an attempt that cannot yet beat the best valid
  result so far keeps going: stopping it could not improve the result (D3);
* heights (D8, D9): a high jumper jumps every height from 10 (misses cost
  nothing but the chance of going higher, and the bar outruns 5 dice fast);
  a pole vaulter opens at 12, then skips every height they would clear in
  three jumps more often than not, and throws the number of dice most likely
  to clear.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING

from gamenight.core.agents import Agent, Decision, Waiting
from gamenight.core.errors import BuildNeededError
from gamenight.games.decathlon.actions import (
    Action,
    Freeze,
    Jump,
    Rethrow,
    Skip,
    Stop,
    Throw,
    Vault,
)
from gamenight.games.decathlon.disciplines import FREEZE_RULES, RUN_UP_LIMIT, SET_RULES
from gamenight.games.decathlon.events import DecathlonEvent
from gamenight.games.decathlon.view import DecathlonView

if TYPE_CHECKING:  # the solver pulls in numpy: imported on a bot's first decision
    from gamenight.games.decathlon.solver import AnyObjective

SHOT_PUT_TARGET = 26
THROW_TARGET = {"discus": 20, "javelin": 22}
HURDLES_KEEP = {1: 18, 2: 20, 3: 21, 4: 22, 5: 22}  # rethrows left -> keep at this total
OVERSTEP_RISK = 0.5
OPENING_HEIGHT = {"high-jump": 10, "pole-vault": 12}
# Once a height is cleared, a pole vaulter skips heights they would clear in three
# jumps more often than this: a miss higher up costs nothing but the next chance.
VAULT_SKIP_ABOVE = 0.5


def greedy_action(view: DecathlonView, legal: Sequence[Action]) -> Action:
    """The greedy choice among ``legal`` (which must be the view's legal actions)."""
    choice = _choose(view, legal)
    return choice if choice in legal else legal[0]


def _choose(view: DecathlonView, legal: Sequence[Action]) -> Action:
    phase, event = view.phase, view.discipline or ""
    if phase == "keep-or-rethrow":
        return Freeze(tuple(range(len(view.thrown)))) if _keep_set(view) else Rethrow()
    if phase == "run-up-freeze":
        return Freeze(_run_up_picks(view.thrown, sum(view.frozen)))
    if phase == "rethrow-or-jump":
        return Rethrow() if _run_up_again(view) else Jump()
    if phase == "jump-freeze":
        return Freeze(_top_picks(view.thrown, range(len(view.thrown)), top=5))
    if phase == "throw-or-stop":
        total = sum(view.shot)
        return Throw() if total < SHOT_PUT_TARGET or not _beats_best(view, total) else Stop()
    if phase == "freeze":
        return Freeze(_top_picks(view.thrown, view.freezable, top=6 - FREEZE_RULES[event].parity))
    if phase == "rethrow-or-stop":
        return Rethrow() if _throw_again(view) else Stop()
    if phase == "jump-or-skip":
        return Jump() if _go_for(view, event) else Skip()
    if phase == "vault-dice":
        height = view.height or 0
        return Vault(max(range(1, 9), key=lambda n: clear_chance(n, height, ones_fail=True)))
    return legal[0]


def _go_for(view: DecathlonView, event: str) -> bool:
    height = view.height or 0
    mine = view.best[view.to_act] if view.to_act is not None and view.best else None
    if mine is None:
        return height >= OPENING_HEIGHT[event]
    if event == "high-jump":
        return True
    miss = 1 - max(clear_chance(n, height, ones_fail=True) for n in range(1, 9))
    return 1 - miss**3 < VAULT_SKIP_ABOVE


def _keep_set(view: DecathlonView) -> bool:
    event = view.discipline or ""
    value = sum(-6 if d == 6 else d for d in view.thrown)
    left = view.rethrows_left or 0
    if not SET_RULES[event].sixes_count_minus:  # the hurdles: plain sum, one set
        return sum(view.thrown) >= HURDLES_KEEP.get(left, 0)
    sets_to_play = (view.sets or 1) - (view.set_no or 1) + 1
    per_die = 2.5 + 0.5 * min(left / sets_to_play, 2.0)
    return value >= per_die * len(view.thrown)


def _run_up_picks(thrown: Sequence[int], frozen_total: int) -> tuple[int, ...]:
    by_value = sorted(range(len(thrown)), key=lambda i: thrown[i])
    picks = [by_value[0]]
    total = frozen_total + thrown[by_value[0]]
    for i in by_value[1:]:
        if thrown[i] <= 2 and total + thrown[i] <= RUN_UP_LIMIT:
            picks.append(i)
            total += thrown[i]
    return tuple(sorted(picks))


def _run_up_again(view: DecathlonView) -> bool:
    room = RUN_UP_LIMIT - sum(view.frozen)
    left = 5 - len(view.frozen)
    overstep = (max(0, 6 - room) / 6) ** left
    return overstep <= OVERSTEP_RISK


def _top_picks(thrown: Sequence[int], allowed: Sequence[int], *, top: int) -> tuple[int, ...]:
    picks = [i for i in allowed if thrown[i] >= top]
    return tuple(picks) if picks else (max(allowed, key=lambda i: thrown[i]),)


def _throw_again(view: DecathlonView) -> bool:
    event = view.discipline or ""
    total, left = sum(view.frozen), FREEZE_RULES[event].dice - len(view.frozen)
    if not _beats_best(view, total):
        return True
    return left >= 2 and total < THROW_TARGET[event]


def _beats_best(view: DecathlonView, total: int) -> bool:
    """Whether stopping now would improve this player's best valid result (D3)."""
    mine = view.best[view.to_act] if view.to_act is not None and view.best else None
    return mine is None or total > mine


@cache
def clear_chance(dice: int, height: int, *, ones_fail: bool) -> float:
    """P(``dice`` dice total at least ``height``), with no 1 showing if ``ones_fail``."""
    faces = range(2, 7) if ones_fail else range(1, 7)
    ways = {0: 1.0}
    for _ in range(dice):
        nxt: dict[int, float] = {}
        for total, p in ways.items():
            for f in faces:
                nxt[total + f] = nxt.get(total + f, 0.0) + p / 6
        ways = nxt
    return sum(p for total, p in ways.items() if total >= height)


class GreedyAgent:
    """Plays :func:`greedy_action`; the policy is deterministic, so the seed is unused."""

    label = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, decision: Decision[DecathlonView, Action]) -> Action:
        return greedy_action(decision.view, decision.legal)

    def observe(self, seat: int, events: Sequence[DecathlonEvent]) -> None:
        return None


class OptimalAgent:
    """Maximises each event's expected result with the exact solver (D3-D10).

    The solver is imported and every event solved (~0.13 s) on the first decision,
    so importing the bots stays cheap.
    """

    label = "optimal"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed  # the policy is deterministic
        self._warm = False

    def act(self, decision: Decision[DecathlonView, Action]) -> Action:
        from gamenight.games.decathlon import advisor

        if not self._warm:
            advisor.warm()
            self._warm = True
        return advisor.best_action(decision.view, decision.legal, self.objective(decision.view))

    def objective(self, view: DecathlonView) -> AnyObjective:
        """Expected event score, at every decision."""
        from gamenight.games.decathlon.solver import ExpectedScore

        return ExpectedScore()

    def observe(self, seat: int, events: Sequence[DecathlonEvent]) -> None:
        return None


class CompetitiveAgent(OptimalAgent):
    """Plays for the others' posted results (:func:`competition.competitive_objective`)."""

    label = "competitive"

    def objective(self, view: DecathlonView) -> AnyObjective:
        from gamenight.games.decathlon.competition import competitive_objective

        return competitive_objective(view)


class WinnerPointsAgent(OptimalAgent):
    """Plays the points game for its share of first place (:func:`odds.win_utility`).

    In the current event it maximises ``sum_r P(r) * P(win | r)``: the others and
    its own later events are modelled as EV-optimal with their exact
    distributions (a best response to EV-optimal opponents, not an equilibrium).
    """

    label = "winner-points"

    def objective(self, view: DecathlonView) -> AnyObjective:
        from gamenight.games.decathlon.odds import win_utility

        if view.variant != "points" or view.to_act is None:
            return super().objective(view)
        return win_utility(view, view.to_act)


class WinTableNeededError(BuildNeededError):
    """``winner`` cannot play this game as itself: its two-player win table is not built."""


class WinnerAgent(WinnerPointsAgent):
    """In a two-player points game, plays the solved win-play policy exactly
    (:mod:`.win_play`, both players playing to win, D2/D3/D8/D9 order); with three or
    more players, in the Championship, or where the lead is beyond the table's bound
    (decided to within its epsilon), plays as ``winner-points``.

    The win table of the game's events is found in the cache, or built on the spot
    when that takes about a second at most (:data:`.win2p_store.ON_DEMAND_WEIGHT`).
    A heavier one is never replaced silently (issue 45): :meth:`ready` (asked before
    every match) and :meth:`act` raise :class:`WinTableNeededError`, one line naming
    ``gamenight solve decathlon --two-player-win``. Only a front end that shows the
    stand-in sets ``may_wait`` (a server: the seat says ``winner-points`` plays while
    it builds the table); the bot then says what it waits for as ``waiting``.
    """

    label = "winner"
    may_wait = False
    # Set after each act while the game's win table is not built and ``may_wait``: the
    # game's preparation builds it (a server starts that in the background) and this
    # bot plays as ``winner-points`` until it finds the table in the cache.
    waiting: Waiting | None = None

    def ready(self, view: DecathlonView) -> None:
        """Raise :class:`WinTableNeededError` if this game needs a table not built."""
        from gamenight.games.decathlon import win_play

        if not self.may_wait and win_play.applies(view) and win_play.table(view) is None:
            raise _table_needed(view)

    def act(self, decision: Decision[DecathlonView, Action]) -> Action:
        from gamenight.games.decathlon import win_play

        view = decision.view
        self.waiting = None
        if win_play.applies(view) and view.to_act is not None:
            found = win_play.table(view)
            if found is None:
                if not self.may_wait:
                    raise _table_needed(view)
                self.waiting = Waiting(win_play.preparation_target(view), "winner-points")
            else:
                if not self._warm:
                    from gamenight.games.decathlon import advisor

                    advisor.warm()
                    self._warm = True
                action = win_play.win_action(view, decision.legal, found)
                if action is not None:
                    return action
        return super().act(decision)


def _table_needed(view: DecathlonView) -> WinTableNeededError:
    from gamenight.games.decathlon.disciplines import EVENT_IDS

    command = "gamenight solve decathlon --two-player-win"
    if tuple(view.disciplines) != tuple(EVENT_IDS):
        command += " --event " + ",".join(view.disciplines)
    return WinTableNeededError(
        "the winner bot needs the two-player win table of these events, not built yet: "
        "build it once with `{command}`, or choose winner-points",
        command=command,
    )


BOTS: dict[str, Callable[[int], Agent[DecathlonView, Action, DecathlonEvent]]] = {
    "greedy": GreedyAgent,
    "optimal": OptimalAgent,
    "competitive": CompetitiveAgent,
    "winner": WinnerAgent,
    "winner-points": WinnerPointsAgent,
}
