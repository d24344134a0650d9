"""Best response, exploitability and win-probability regret for the two-player points
game played to win (issue 45, research 8).

* :func:`best_response` is exact on a subset of events: an expectimax over the rules
  themselves (every chance outcome through :class:`gamenight.core.chance.DiceChance`,
  with its exact probability), in which the responder picks the action of the largest
  win chance at each of its decisions and the bot plays as it plays (its ``act`` on
  its own view; ``random`` as the uniform mix over the legal actions). Positions are
  memoised with their dice hidden, and during the responder's own Shot Put attempt with
  its dice in sorted order (:func:`_position`). It is meant for small event subsets and positions:
  a sprint whose rethrows run out throws all its remaining sets in one action (up to
  6^7 per-throw outcomes in the 1500 m) and a High Jump bar up to 39,408, past the
  per-throw form's limit (see the aggregated forms of :mod:`gamenight.core.chance`).
* :func:`exploitability` sets it against the game's value from the win tables
  (:mod:`.solver.win2p`: both playing to win): how much a best responder gains against the
  bot over what it could against the solved policy. ``winner`` plays that policy, so
  its exploitability is 0 (the tests check, from a Shot Put position, that the best
  response to it is the brute-force minimax value to 1e-12).
* :func:`win_regret` is the win-probability regret of any agent along its own games
  against ``winner``: at each of its decisions the solved win chance of the best
  action minus the one of the action it took (:func:`.win_play.action_values`).
  Summed over a game, its expectation is exactly the win chance the agent gives away
  against the solved opponent (the telescoping argument of the control variate in
  docs/solvers-decathlon.md), with far less variance than the win share itself.

Win chances count a tie one half, as everywhere in the win tables.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import msgspec

from gamenight.core.agents import Agent, Decision, RandomAgent
from gamenight.core.chance import DiceChance, hide
from gamenight.core.errors import OptionsError
from gamenight.core.seeds import derive
from gamenight.games.decathlon.solver.win2p import WinTable

BotFactory = Callable[[int], Agent[Any, Any, Any]]


@dataclass(frozen=True)
class BestResponse:
    """The best responder's win chance against a bot, from the deal (the D2 order draw
    included) and by who moves first in the first event."""

    events: tuple[str, ...]
    seat: int  # the responder's seat (the bot has the other)
    value: float  # from the deal
    value_first: float  # the responder moving first in the first event
    value_second: float  # the bot moving first
    states: int  # positions valued (memoised)


@dataclass(frozen=True)
class Exploitability:
    """What a best responder gains against a bot over the solved game's value."""

    response: BestResponse
    game_value_first: float  # the first mover's win chance, both playing to win (w[0][0])

    @property
    def game_value(self) -> float:
        """The responder's share under solved play from the deal: one half (D2's draw)."""
        return 0.5 * (self.game_value_first + 1.0 - self.game_value_first)

    @property
    def value(self) -> float:
        """The responder's gain over solved play, from the deal (0: unexploitable)."""
        return self.response.value - self.game_value


def _options(events: Sequence[str]) -> Any:
    from gamenight.games.decathlon.game import GAME

    if not events:
        raise OptionsError("best_response: name at least one event")
    return GAME.parse_options({"variant": "points", "events": ",".join(events)})


def _position(state: Any, seat: int) -> Any:
    """The memo's key: ``state``, with the responder's own Shot Put attempt's dice in sorted
    order while it is to act.

    Exact: the rules read that attempt only through its dice's sum and count (D7), and no
    view the bot will see keeps their order (the attempt ends as a result in ``tries``).
    The bot's own attempts keep their order: a bot may read it. Without this, a whole
    attempt of eight dice valued every order apart: 488,281 orders of 1,287 multisets
    (the test's position took six minutes, now about a second).

    >>> from gamenight.games.decathlon.shot_put import ShotPutAttempt
    >>> _sorted_attempt(ShotPutAttempt((5, 2, 4))).dice
    (2, 4, 5)
    """
    from gamenight.games.decathlon.rules import AttemptsStage

    stage = state.stage
    if not isinstance(stage, AttemptsStage) or state.order[stage.turn] != seat:
        return state
    attempt = _sorted_attempt(stage.attempt)
    if attempt is stage.attempt:
        return state
    return msgspec.structs.replace(state, stage=msgspec.structs.replace(stage, attempt=attempt))


def _sorted_attempt(attempt: Any) -> Any:
    from gamenight.games.decathlon.shot_put import ShotPutAttempt

    if isinstance(attempt, ShotPutAttempt) and list(attempt.dice) != sorted(attempt.dice):
        return ShotPutAttempt(tuple(sorted(attempt.dice)))
    return attempt


def best_response(
    bot: BotFactory, events: Sequence[str], *, seat: int = 0, start: Any = None
) -> BestResponse:
    """The exact best response to ``bot`` (playing the seat other than ``seat``) in a
    two-player points game of ``events``, and its win chance (module docstring): from
    the deal, or from the position ``start`` (a state of such a game; then
    ``value_first`` and ``value_second`` are NaN)."""
    from gamenight.games.decathlon.game import GAME

    if seat not in (0, 1):
        raise OptionsError("best_response: the responder sits at seat 0 or 1")
    options = _options(events)
    chance = DiceChance(GAME)
    agent = bot(derive(0, "best-response", 1 - seat))
    uniform = isinstance(agent, RandomAgent)
    memo: dict[Any, float] = {}

    def outcome_value(state: Any) -> float:
        if GAME.is_terminal(state):
            winners = GAME.results(state).winners
            return 1.0 / len(winners) if seat in winners else 0.0
        key = _position(state, seat)
        found = memo.get(key)
        if found is not None:
            return found
        (actor,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, actor)
        if actor == seat:
            value = max(action_value(state, actor, a) for a in legal)
        elif uniform:
            value = sum(action_value(state, actor, a) for a in legal) / len(legal)
        else:
            view = GAME.view(state, actor)
            choice = agent.act(Decision("decathlon", actor, view, legal))
            value = action_value(state, actor, choice)
        memo[key] = value
        return value

    def action_value(state: Any, actor: int, action: Any) -> float:
        total = 0.0
        for outcome, p in chance.outcomes(state, actor, action):
            after = chance.apply_outcome(state, actor, action, outcome).state
            total += float(p) * outcome_value(after)
        return total

    if start is not None:
        value = outcome_value(hide(start))
        return BestResponse(tuple(events), seat, value, math.nan, math.nan, len(memo))
    by_first: dict[int, list[tuple[Fraction, float]]] = {0: [], 1: []}
    value = 0.0
    for outcome, p in chance.start_outcomes(2, options):
        state = hide(chance.start_with(2, options, outcome).state)
        v = outcome_value(state)
        value += float(p) * v
        by_first[GAME.view(state, seat).order[0]].append((p, v))

    def mean(pairs: list[tuple[Fraction, float]]) -> float:
        weight = sum(p for p, _ in pairs)
        return sum(float(p) * v for p, v in pairs) / float(weight) if weight else math.nan

    return BestResponse(
        tuple(events), seat, value, mean(by_first[seat]), mean(by_first[1 - seat]), len(memo)
    )


def exploitability(bot: BotFactory, events: Sequence[str], *, seat: int = 0) -> Exploitability:
    """:func:`best_response` to ``bot`` set against the solved game's value (the win
    table of ``events``, from the cache or built and cached)."""
    from gamenight.games.decathlon.solver.win2p_store import table_for

    order = _options(events)["events"]
    table = table_for(tuple(order), build=True)  # an event subset: quick to build
    assert table is not None
    response = best_response(bot, order, seat=seat)
    return Exploitability(response, float(table.w[0][0]))


@dataclass(frozen=True)
class WinRegret:
    """An agent's win-probability regret per game against ``winner`` (mean, its
    standard error, games), and its plain win share for comparison."""

    events: tuple[str, ...]
    games: int
    regret: float
    regret_se: float
    win_share: float
    win_share_se: float


def win_regret(
    agent: BotFactory, events: Sequence[str], *, games: int = 200, seed: int = 0
) -> WinRegret:
    """The win chance ``agent`` gives away per game against the solved opponent
    (``winner``), from its decisions' shortfalls (module docstring); the agent takes
    each seat in turn, on the same deal."""
    from gamenight.core.runner import play_match
    from gamenight.games.decathlon import win_play
    from gamenight.games.decathlon.bots import WinnerAgent
    from gamenight.games.decathlon.game import GAME
    from gamenight.games.decathlon.solver.win2p_store import table_for

    if games < 1:
        raise OptionsError("win_regret: play at least one game")
    options = _options(events)
    built = table_for(tuple(options["events"]), build=True)
    assert built is not None
    table: WinTable = built

    class Measured:
        """The agent, adding up the shortfall of each of its choices."""

        def __init__(self, inner: Agent[Any, Any, Any]) -> None:
            self.inner, self.label, self.regret = inner, getattr(inner, "label", "agent"), 0.0

        def act(self, decision: Decision[Any, Any]) -> Any:
            choice = self.inner.act(decision)
            view = decision.view
            if win_play.applies(view) and view.to_act is not None:
                values = win_play.action_values(view, decision.legal, table)
                if values is not None:
                    self.regret += max(values) - values[list(decision.legal).index(choice)]
            return choice

        def observe(self, seat: int, events: Sequence[Any]) -> None:
            self.inner.observe(seat, events)

    regrets, shares = [], []
    for i in range(games):
        dice = derive(seed, "win-regret", i // 2)
        mine = i % 2
        measured = Measured(agent(derive(dice, "bot", mine)))
        seats: list[Any] = [None, None]
        seats[mine], seats[1 - mine] = measured, WinnerAgent(derive(dice, "bot", 1 - mine))
        results, _ = play_match(GAME, seats, seed=dice, options=options)
        regrets.append(measured.regret)
        shares.append(1.0 / len(results.winners) if mine in results.winners else 0.0)
    regret, regret_se = _deal_mean_se(regrets)
    share, share_se = _deal_mean_se(shares)
    return WinRegret(tuple(options["events"]), games, regret, regret_se, share, share_se)


def _deal_mean_se(values: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error with the deal (two games, one per seat) as the unit.

    >>> _deal_mean_se([1.0, 3.0, 5.0, 7.0])
    (4.0, 2.0)
    """
    deals = [sum(values[i : i + 2]) / len(values[i : i + 2]) for i in range(0, len(values), 2)]
    n = len(deals)
    mean = sum(values) / len(values)
    if n < 2:
        return mean, 0.0
    centre = sum(deals) / n
    return mean, math.sqrt(sum((d - centre) ** 2 for d in deals) / (n - 1) / n)
