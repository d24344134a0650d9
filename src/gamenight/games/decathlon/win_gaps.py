"""A seat's expected share of the win against any opponent, without the dice's noise:
the martingale control variate of the solved two-player win game (issue 27).

Let ``V`` be the win table's value (:mod:`.solver.win2p`) seen from a seat ``me``. Along
any game:

* a chance step (the starting draw, a throw) changes ``V`` by a martingale increment:
  its expectation over the dice is 0, because ``V`` is exactly the expectation of its
  own next values (the table is the exact value of its game);
* a decision by a player changes ``V`` by minus that player's *gap*, ``V(best action) -
  V(chosen action)`` from the player's own point of view (the game is zero-sum, so an
  opponent's gap is ``me``'s gain, ``me``'s own gap its loss).

So ``result = 1/2 + sum(opponent gaps) - sum(own gaps) + (chance increments)
+ (result - V(s_stop))``, where ``s_stop`` is the first event start whose lead is beyond
the table's bound (the table counts it as decided; if none, the term is 0), and the
estimator ``Y = 1/2 + sum(opponent gaps) - sum(own gaps) + (result - V(s_stop))`` has
the same expectation as ``me``'s share, with no chance term in it. ``1/2`` is ``V``
before the starting draw (D2: the draw is fair, and ``W`` for the first mover is ``1 -
W`` for the second). A seat that plays the solved policy has no gaps of its own, so
against an opponent that plays nearly as well ``Y`` is nearly constant: thousands of
games' worth of raw Monte Carlo in a few hundred.

Unbiased whatever the table's truncation (``ε``): the table is the exact value of the
*truncated* game, and ``result - V(s_stop)`` accounts for the rest exactly. Only float
rounding (about 1e-16 a decision) separates the option values from the table's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gamenight.core.agents import Agent, Decision
from gamenight.games.decathlon import win_play
from gamenight.games.decathlon.actions import Action
from gamenight.games.decathlon.events import DecathlonEvent
from gamenight.games.decathlon.solver.win2p import WinTable
from gamenight.games.decathlon.view import DecathlonView


@dataclass
class Ledger:
    """One game's gaps, seen from seat ``me`` (both seats' agents report to it)."""

    table: WinTable
    me: int
    opponent_gaps: float = 0.0
    own_gaps: float = 0.0
    decisions: int = 0
    stop_value: float | None = None  # V at the first event start beyond the bound
    _values: list[float] | None = None

    def before(self, view: DecathlonView, legal: Sequence[Action]) -> None:
        self._values = None
        if self.stop_value is not None or not win_play.applies(view):
            return
        if win_play._lead(view, self.table) is None:  # beyond the bound: V says decided
            totals = view.totals
            lead = totals[self.me] - totals[1 - self.me]
            self.stop_value = self.table.lead_value(view.discipline_no, lead)
            return
        values = win_play.action_values(view, legal, self.table)
        if values is None:
            raise ValueError(f"no win-play values at {view.discipline} {view.phase}")
        self._values = values

    def after(self, view: DecathlonView, legal: Sequence[Action], action: Action) -> None:
        values = self._values
        if values is None:
            return
        gap = max(values) - values[list(legal).index(action)]
        self.decisions += 1
        if view.to_act == self.me:
            self.own_gaps += gap
        else:
            self.opponent_gaps += gap

    def estimate(self, share: float) -> float:
        """``Y`` for a game in which ``me`` won ``share`` (1, 1/2 or 0)."""
        rest = 0.0 if self.stop_value is None else share - self.stop_value
        return 0.5 + self.opponent_gaps - self.own_gaps + rest


class Reporting:
    """An agent that reports each of its decisions to a :class:`Ledger`."""

    def __init__(self, agent: Agent[DecathlonView, Action, DecathlonEvent], ledger: Ledger):
        self.agent, self.ledger = agent, ledger
        self.label = getattr(agent, "label", "agent")

    def act(self, decision: Decision[DecathlonView, Action]) -> Action:
        self.ledger.before(decision.view, decision.legal)
        action = self.agent.act(decision)
        self.ledger.after(decision.view, decision.legal, action)
        return action

    def observe(self, seat: int, events: Sequence[DecathlonEvent]) -> None:
        self.agent.observe(seat, events)
