"""Best response and exploitability in two-player win play (issue 45, research 8),
checked against a brute force that shares no code with the rules or the solver."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from gamenight.core.chance import DiceChance
from gamenight.games.decathlon import bots
from gamenight.games.decathlon.actions import Stop, Throw
from gamenight.games.decathlon.best_response import best_response, win_regret
from gamenight.games.decathlon.game import GAME
from gamenight.games.decathlon.solver import win2p_store

OPTIONS = GAME.parse_options({"variant": "points", "events": "shot-put"})
CHANCE = DiceChance(GAME)


def third_attempts() -> Any:
    """A two-player Shot Put at its third attempts (D3, D7): seat 1 moves first (its
    best 11), seat 0 has 15; both second attempts failed at once; seat 1 has thrown a 3."""
    state = CHANCE.start_with(2, OPTIONS, ((1,), (5,))).state  # seat 1 first, a 5
    for seat, action, outcome in [
        (1, Throw(), ((6,),)),
        (1, Stop(), ((4,),)),  # seat 0's first die
        (0, Throw(), ((6,),)),
        (0, Throw(), ((5,),)),
        (0, Stop(), ((1,), (1,), (3,))),  # both second attempts: a 1; then seat 1's 3
    ]:
        state = CHANCE.apply_outcome(state, seat, action, outcome).state
    view = GAME.view(state, 1)
    assert (view.to_act, view.attempt, view.shot, view.best) == (1, 3, (3,), (15, 11))
    return state


def seat_zero_last(state: Any) -> Any:
    """On from :func:`third_attempts`: seat 1 throws 3+6+6 = 15 and stops (its best
    stays 15... now 15), seat 0 throws 5+6+5 = 16 and is to decide, its best 15."""
    for seat, action, outcome in [
        (1, Throw(), ((6,),)),
        (1, Throw(), ((6,),)),
        (1, Stop(), ((5,),)),  # seat 0's first die
        (0, Throw(), ((6,),)),
        (0, Throw(), ((5,),)),
    ]:
        state = CHANCE.apply_outcome(state, seat, action, outcome).state
    view = GAME.view(state, 0)
    assert (view.to_act, view.shot, view.best) == (0, (5, 6, 5), (15, 15))
    return state


def brute(bot_rule: str, at: tuple[int, int, int, int, int] = (4, 15, 11, 3, 1)) -> float:
    """Seat 0's win chance from position ``at`` (half-attempt h: 4 = seat 1's third, 5 =
    seat 0's; the bests; the attempt's total and dice), seat 0 maximising; seat 1
    minimising (``minimax``) or throwing on while under 26 or not above its best (the
    greedy bot's Shot Put rule, D7)."""

    @cache
    def half(h: int, b0: int, b1: int) -> float:
        if h == 6:
            return 1.0 if b0 > b1 else 0.5 if b0 == b1 else 0.0
        return sum(half(h + 1, b0, b1) if f == 1 else decide(h, b0, b1, f, 1)
                   for f in range(1, 7)) / 6  # fmt: skip

    @cache
    def decide(h: int, b0: int, b1: int, x: int, n: int) -> float:
        mover = 1 if h == 4 else 0
        stop = half(h + 1, max(b0, x), b1) if mover == 0 else half(h + 1, b0, max(b1, x))
        if n == 8:
            return stop
        throw = (
            sum(
                half(h + 1, b0, b1) if f == 1 else decide(h, b0, b1, x + f, n + 1)
                for f in range(1, 7)
            )
            / 6
        )
        if mover == 0:
            return max(stop, throw)
        if bot_rule == "minimax":
            return min(stop, throw)
        return throw if x < 26 or x <= b1 else stop

    return decide(*at)


def test_the_solved_policy_plays_the_minimax_value() -> None:
    # winner at seat 0 mid-attempt, the responder (seat 1) with nothing left to decide:
    # its win chance is what winner leaves it, the brute force's minimax
    win2p_store.table_for(("shot-put",), build=True)  # winner's table (0.2 s)
    start = seat_zero_last(third_attempts())
    found = best_response(bots.WinnerAgent, ["shot-put"], seat=1, start=start)
    assert found.value == pytest.approx(1 - brute("minimax", (5, 15, 15, 16, 3)), abs=1e-12)
    greedy = best_response(bots.GreedyAgent, ["shot-put"], seat=1, start=start)
    assert greedy.value > found.value  # greedy stops at 16 > 15: it gives a chance away


def test_the_best_response_to_greedy_is_exact() -> None:
    # greedy (seat 1) at 20 with one die left, then the responder's whole third attempt
    state = third_attempts()
    for face in (2, 2, 3, 3, 3, 4):
        state = CHANCE.apply_outcome(state, 1, Throw(), ((face,),)).state
    assert GAME.view(state, 1).shot == (3, 2, 2, 3, 3, 3, 4)
    found = best_response(bots.GreedyAgent, ["shot-put"], start=state)
    assert found.value == pytest.approx(brute("greedy", (4, 15, 11, 20, 7)), abs=1e-12)
    # the responder's attempt valued by its dice, not their order: after each of greedy's
    # five throws that go on, 1,287 multisets of up to eight dice, not 488,281 orders
    assert found.states < 10_000, found.states
    assert found.value >= brute("minimax", (4, 15, 11, 20, 7)) - 1e-12


def test_win_regret_is_zero_for_the_solved_policy_and_positive_for_greedy() -> None:
    solved = win_regret(bots.WinnerAgent, ["1500m"], games=2, seed=1)
    assert solved.regret == pytest.approx(0.0, abs=1e-12)
    greedy = win_regret(bots.GreedyAgent, ["1500m"], games=6, seed=1)
    assert greedy.regret > 0 and greedy.regret_se >= 0
