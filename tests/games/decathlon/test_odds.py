"""Live odds (gamenight.games.decathlon.odds) against brute force and Monte Carlo."""

from __future__ import annotations

import itertools
import math
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from gamenight.core.agents import Agent, Decision
from gamenight.core.dice import SeededDice
from gamenight.core.runner import play_match
from gamenight.games.decathlon import advisor
from gamenight.games.decathlon.actions import Action
from gamenight.games.decathlon.bots import OptimalAgent, WinnerAgent
from gamenight.games.decathlon.game import GAME
from gamenight.games.decathlon.odds import (
    championship_odds,
    event_points,
    odds,
    odds_at_start,
    position_points,
    win_shares,
    win_utility,
)
from gamenight.games.decathlon.view import DecathlonView

sys.path.insert(0, str(Path(__file__).parent / "solver"))
import decathlon_brute_positions as bp


def brute_shares(dists: list[dict[int, float]]) -> list[float]:
    """Enumerate every joint outcome; ties split the win."""
    shares = [0.0] * len(dists)
    for combo in itertools.product(*(d.items() for d in dists)):
        p = math.prod(q for _, q in combo)
        scores = [s for s, _ in combo]
        top = max(scores)
        tied = [i for i, s in enumerate(scores) if s == top]
        for i in tied:
            shares[i] += p / len(tied)
    return shares


def as_dict(low: int, pmf: Any) -> dict[int, float]:
    return {low + k: float(p) for k, p in enumerate(pmf) if p > 0}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_win_shares_match_enumeration_on_random_distributions(players: int) -> None:
    rng = random.Random(players)
    for _ in range(20):
        lows = [rng.randint(-3, 3) for _ in range(players)]
        pmfs = []
        for _ in range(players):
            raw = np.array([rng.random() if rng.random() < 0.7 else 0.0 for _ in range(5)])
            raw[rng.randrange(5)] += 0.1
            pmfs.append(raw / raw.sum())
        got = win_shares(pmfs, lows)
        want = brute_shares([as_dict(lo, p) for lo, p in zip(lows, pmfs, strict=True)])
        assert got == pytest.approx(want, abs=1e-12)
        assert sum(got) == pytest.approx(1.0)


def _start_view(events: str, players: int = 2) -> DecathlonView:
    start = GAME.start(players, GAME.parse_options({"events": events}), SeededDice(seed=1))
    return GAME.view(start.state, 0)


def test_start_odds_match_enumeration_of_two_short_events() -> None:
    (la, a), (lb, b) = event_points("100m"), event_points("long-jump")
    total = as_dict(la + lb, np.convolve(a, b))
    one = as_dict(la, a)
    want = brute_shares([total, total, one])
    got = odds_at_start(("100m", "long-jump"), 2)
    assert got == pytest.approx(brute_shares([total, total]), abs=1e-12)
    assert got == pytest.approx((0.5, 0.5), abs=1e-12)
    assert want[2] < 0.01  # one event against two: the tool itself is not symmetric-only


class Recorder(OptimalAgent):
    """An EV-optimal bot that keeps every view it decides on."""

    def __init__(self, seen: list[DecathlonView]) -> None:
        super().__init__()
        self.seen = seen

    def act(self, decision: Decision[DecathlonView, Action]) -> Action:
        self.seen.append(decision.view)
        return super().act(decision)


def test_odds_at_an_event_boundary_match_enumeration_with_posted_totals() -> None:
    seen: list[DecathlonView] = []
    opts = GAME.parse_options({"events": "100m,long"})
    play_match(GAME, [Recorder(seen), Recorder(seen)], seed=5, options=opts)
    boundary = next(v for v in seen if v.discipline == "long-jump")
    assert boundary.attempt == 1 and all(not t for t in boundary.tries)
    # the seat not acting has the whole long jump ahead; the acting one has thrown
    low, pmf = event_points("long-jump")
    acting = boundary.to_act
    assert acting is not None
    waiting = 1 - acting
    dists = [as_dict(low + boundary.totals[s], pmf) for s in range(2)]
    want = brute_shares(dists)
    got = odds(boundary)
    assert got != pytest.approx(want, abs=1e-6)  # the acting seat's dice count
    low, pmf = position_points("long-jump", advisor.situation(boundary))
    dists[1 - waiting] = as_dict(low + boundary.totals[1 - waiting], pmf)
    assert got == pytest.approx(brute_shares(dists), abs=1e-12)
    # the last decision: the odds only miss the acting player's result
    last = seen[-1]
    assert sum(odds(last)) == pytest.approx(1.0)


def test_last_event_win_utility_is_the_win_share_of_each_result() -> None:
    view = _start_view("long")
    assert view.to_act is not None
    u = win_utility(view, view.to_act)  # the other seat has not thrown yet
    low, pmf = event_points("long-jump")
    other = as_dict(low, pmf)
    for r in (1, 10, 20, 30):  # valid Long Jump results run from 1
        assert u(r) == pytest.approx(brute_shares([{r: 1.0}, other])[0], abs=1e-12)
    # no valid result scores 0 points
    assert u(None) == pytest.approx(brute_shares([{0: 1.0}, other])[0], abs=1e-12)


def test_monte_carlo_of_optimal_bots_agrees_with_start_odds() -> None:
    """2 players, 100 m + Long Jump, 2,000 seeded games: within 4 standard errors."""
    opts = GAME.parse_options({"events": "100m,long"})
    predicted = odds_at_start(("100m", "long-jump"), 2)[0]
    games, won = 2000, 0.0
    for seed in range(games):
        agents: list[Agent[Any, Any, Any]] = [OptimalAgent(), OptimalAgent()]
        results, _ = play_match(GAME, agents, seed=seed, options=opts)
        a, b = results.scores
        won += 1.0 if a > b else 0.5 if a == b else 0.0
    share = won / games
    se = math.sqrt(predicted * (1 - predicted) / games)
    assert abs(share - predicted) < 4 * se, (share, predicted)


def test_winner_bot_plays_a_short_points_game(own_table_cache: None) -> None:
    from gamenight.games.decathlon import win_play

    opts = GAME.parse_options({"events": "100m,long,shot"})
    # winner refuses a table not built (issue 45): build this small one first
    assert win_play.table(GAME.view(GAME.start(2, opts, SeededDice(seed=1)).state, 0), build=True)
    agents: list[Agent[Any, Any, Any]] = [WinnerAgent(1), OptimalAgent(2)]
    results, state = play_match(GAME, agents, seed=3, options=opts)
    assert GAME.is_terminal(state) and len(results.scores) == 2


def test_terminal_odds_line_and_column_only_in_the_points_game() -> None:
    from gamenight.terminal.decathlon import odds_line, win_odds

    view = _start_view("100m,long")
    a, b = odds(view)
    assert win_odds(view) == pytest.approx((a, b))
    line = odds_line(3, view, ["Ann", "Bob"])
    assert line == f"   3. 100 Metres     Ann {a:6.1%}  Bob {b:6.1%}"
    solo = GAME.start(1, GAME.parse_options({}), SeededDice(seed=1))
    assert win_odds(GAME.view(solo.state, 0)) is None


def _brute_seat(view: DecathlonView, seat: int) -> dict[int | None, float]:
    """A seat's final event result by enumeration, read off the view by the rules."""
    event, best = view.discipline, view.best[seat]
    if event == "shot-put":
        tries = view.tries[seat]
        if seat == view.to_act:
            dice = tuple(sorted(view.shot))
            if dice:
                return bp.shot_decide(view.attempt, best, dice)
            return bp.shot_throw(view.attempt, best, ())
        if len(tries) == 3:
            return bp.point(best)
        return bp.shot_throw(len(tries) + 1, best, ())
    assert event == "high-jump" and view.height is not None
    if view.status[seat] != "in":
        return bp.point(best)
    marks = view.marks[seat]
    if seat != view.to_act and marks and marks[-1][0] == view.height:
        return bp.height_choose(event, view.height + 2, best)  # D8: this height is done
    return bp.height_choose(event, view.height, best)


@pytest.mark.parametrize(("events", "seed"), [("shot", 4), ("high", 6), ("high", 8)])
def test_odds_inside_an_event_match_enumeration(events: str, seed: int) -> None:
    """Two players, one event: after every action the odds are those of brute force."""
    seen: list[DecathlonView] = []
    opts = GAME.parse_options({"events": events})
    play_match(GAME, [Recorder(seen), Recorder(seen)], seed=seed, options=opts)
    assert len(seen) > 6
    moved, before = 0, (0.5, 0.5)
    for view in seen:
        dists = []
        for seat in range(2):
            dist: dict[int, float] = {}
            for result, p in _brute_seat(view, seat).items():
                points = 0 if result is None else result
                dist[points] = dist.get(points, 0.0) + p
            dists.append(dist)
        want = brute_shares(dists)
        assert odds(view) == pytest.approx(want, abs=1e-9)
        moved += abs(want[0] - before[0]) > 1e-6
        before = (want[0], want[1])
    assert moved > 3  # the odds move inside the event


def test_championship_odds_of_one_event_match_enumeration() -> None:
    """Two players, one event: exact P(rank 1); the Monte Carlo within 4 standard errors."""
    opts = GAME.parse_options({"variant": "championship", "events": "shot"})
    start = GAME.start(2, opts, SeededDice(seed=3))
    view = GAME.view(start.state, None)
    dists = [_brute_seat(view, seat) for seat in range(2)]
    # D11 with two players: a valid result beaten by the other's takes silver (2),
    # equal valid results share gold; no valid result earns nothing.
    exact = [0.0, 0.0]
    for (ra, pa), (rb, pb) in itertools.product(dists[0].items(), dists[1].items()):
        ha = 0 if ra is None else 3 if rb is None or ra >= rb else 2
        hb = 0 if rb is None else 3 if ra is None or rb >= ra else 2
        exact[0] += pa * pb * (ha >= hb)
        exact[1] += pa * pb * (hb >= ha)
    assert championship_odds(view).first == pytest.approx(exact, abs=1e-12)
    got = championship_odds(view, exact=False)  # the Monte Carlo of more players
    for seat in range(2):
        assert abs(got.first[seat] - exact[seat]) < 4 * got.se[seat][0]
        assert sum(got.ranks[seat]) == pytest.approx(1.0)
    assert got == championship_odds(view, exact=False)  # seeded: the same answer


def _exact_honours(dists: list[dict[int | None, float]]) -> dict[tuple[int, ...], float]:
    """One event's honours vector by enumeration (D11, written out afresh): a valid
    result earns 3/2/1 by the number of valid results strictly better, else nothing."""
    out: dict[tuple[int, ...], float] = {}
    for combo in itertools.product(*(d.items() for d in dists)):
        results = [r for r, _ in combo]
        honours = tuple(
            0
            if r is None
            else {0: 3, 1: 2, 2: 1}.get(sum(o is not None and o > r for o in results), 0)
            for r in results
        )
        out[honours] = out.get(honours, 0.0) + math.prod(p for _, p in combo)
    return out


def test_three_player_championship_monte_carlo_matches_enumeration() -> None:
    """Three players, Shot Put then High Jump: every rank of every seat by enumerating
    both events' joint results; the Monte Carlo lies within 4 standard errors."""
    opts = GAME.parse_options({"variant": "championship", "events": "shot,high"})
    view = GAME.view(GAME.start(3, opts, SeededDice(seed=2)).state, None)
    shot = _exact_honours([_brute_seat(view, seat) for seat in range(3)])  # seat 0 has a die
    high = _exact_honours([bp.height_choose("high-jump", 10, None)] * 3)
    exact = [[0.0] * 3 for _ in range(3)]
    for (a, pa), (b, pb) in itertools.product(shot.items(), high.items()):
        totals = [x + y for x, y in zip(a, b, strict=True)]
        for seat, total in enumerate(totals):
            exact[seat][sum(t > total for t in totals)] += pa * pb
    got = championship_odds(view, samples=200_000)  # SE ~0.1%: a lost bronze shows (~1%)
    for seat in range(3):
        assert sum(got.ranks[seat]) == pytest.approx(1.0)
        for k in range(3):
            assert abs(got.ranks[seat][k] - exact[seat][k]) <= 4 * got.se[seat][k] + 1e-9
    # a tie for first is common: rank-1 chances add up to more than 1
    assert sum(r[0] for r in exact) > 1.05


def test_championship_odds_at_the_end_are_the_final_ranks() -> None:
    opts = GAME.parse_options({"variant": "championship", "events": "100m"})
    results, state = play_match(
        GAME, [OptimalAgent(), OptimalAgent(), OptimalAgent()], seed=2, options=opts
    )
    final = championship_odds(GAME.view(state, None), samples=100)
    for seat, rank in enumerate(results.ranks):
        assert final.ranks[seat][rank - 1] == 1.0


def test_terminal_championship_odds_show_standard_errors() -> None:
    """The replay line comes from the odds capability (chance of the most honours, with
    its standard error when simulated), as for any game with odds."""
    from gamenight.games.decathlon.odds import honours_odds
    from gamenight.terminal.decathlon import odds_line, win_odds

    opts = GAME.parse_options({"variant": "championship", "events": "100m,long"})
    view = GAME.view(GAME.start(3, opts, SeededDice(seed=1)).state, None)
    found = honours_odds(view)
    assert found is not None and win_odds(view) == found.first and found.samples > 0
    a, b, c = found.ranks
    line = odds_line(7, view, ["Ann", "Bob", "Cy"])
    assert line is not None and line.startswith("   7. 100 Metres     Ann ")
    assert f"Ann {a[0]:6.1%} ±{found.se[0][0]:.1%}" in line
    assert f"Bob {b[0]:6.1%}" in line
    # someone is first (alone or tied) in every simulated finish
    assert a[0] + b[0] + c[0] >= 1.0 - 1e-12
    two = GAME.view(GAME.start(2, opts, SeededDice(seed=1)).state, None)
    exact = honours_odds(two)
    assert exact is not None and exact.samples == 0
    line = odds_line(1, two, ["Ann", "Bob"])
    assert line is not None and "±" not in line and f"Ann {exact.first[0]:6.1%}" in line


def test_the_odds_capability_through_the_registry() -> None:
    """``GameInfo.odds``: the points odds exactly, the Championship's chance of rank 1 with
    its standard errors when simulated, None solo and once the game is over."""
    from gamenight.core import registry
    from gamenight.core.odds import Odds

    live = registry.get("decathlon").odds
    assert live is not None and registry.get("wurfeltod").odds is None
    view = _start_view("100m,long")
    found = live(view)
    assert isinstance(found, Odds) and found.exact and found.se is None
    assert found.win == odds(view) and sum(found.win) == pytest.approx(1.0)
    assert found.label == "chance to win"
    opts = GAME.parse_options({"variant": "championship", "events": "100m,long"})
    three = GAME.view(GAME.start(3, opts, SeededDice(seed=1)).state, None)
    simulated = live(three)
    ranked = championship_odds(three)
    assert simulated is not None and not simulated.exact and ranked.samples > 0
    assert simulated.win == ranked.first
    assert simulated.se == tuple(se[0] for se in ranked.se) and all(simulated.se)
    assert "honours" in simulated.label
    two = live(GAME.view(GAME.start(2, opts, SeededDice(seed=1)).state, None))
    assert two is not None and two.exact and two.se is None
    solo = GAME.start(1, GAME.parse_options({}), SeededDice(seed=1))
    assert live(GAME.view(solo.state, None)) is None
    _, over = play_match(
        GAME,
        [OptimalAgent(), OptimalAgent()],
        seed=2,
        options=GAME.parse_options({"events": "100m"}),
    )
    assert live(GAME.view(over, None)) is None


@pytest.mark.parametrize("seed", [1, 2])
def test_exact_two_player_championship_odds_agree_with_the_monte_carlo(seed: int) -> None:
    """A whole Championship, mid-game: exact and simulated rank odds within 4 SE."""
    seen: list[DecathlonView] = []
    opts = GAME.parse_options({"variant": "championship"})
    play_match(GAME, [Recorder(seen), Recorder(seen)], seed=seed, options=opts)
    for view in (seen[0], seen[len(seen) // 3], seen[2 * len(seen) // 3]):
        exact = championship_odds(view)
        assert exact.samples == 0 and sum(exact.ranks[0]) == pytest.approx(1.0)
        simulated = championship_odds(view, exact=False)
        for seat in range(2):
            for k in range(2):
                se = simulated.se[seat][k]
                assert abs(simulated.ranks[seat][k] - exact.ranks[seat][k]) <= 4 * se + 1e-9


def test_monte_carlo_of_optimal_bots_from_inside_an_event_agrees_with_the_odds() -> None:
    """Mid Long Jump of a 2-player Long Jump + Shot Put game, the engine plays on with
    fresh dice 1,500 times (EV-optimal bots): the first seat's win share lies within
    4 standard errors of the odds at that decision."""
    import msgspec

    opts = GAME.parse_options({"events": "long,shot"})
    state = GAME.start(2, opts, SeededDice(seed=11)).state
    bot = OptimalAgent()
    for _ in range(6):  # a few decisions into the first attempts
        (seat,) = GAME.to_act(state)
        view = GAME.view(state, seat)
        action = bot.act(Decision("decathlon", seat, view, GAME.legal_actions(state, seat)))
        state = GAME.apply(state, seat, action).state
    view = GAME.view(state, None)
    assert view.discipline == "long-jump" and view.to_act is not None
    predicted = odds(view)[0]
    assert (
        0.05 < predicted < 0.95
        and abs(predicted - odds_at_start(("long-jump", "shot-put"), 2)[0]) > 0.01
    )
    games, won = 1500, 0.0
    for k in range(games):
        play = msgspec.structs.replace(state, dice=SeededDice(seed=1000 + k))
        while not GAME.is_terminal(play):
            (seat,) = GAME.to_act(play)
            decision = Decision(
                "decathlon", seat, GAME.view(play, seat), GAME.legal_actions(play, seat)
            )
            play = GAME.apply(play, seat, bot.act(decision)).state
        a, b = GAME.results(play).scores
        won += 1.0 if a > b else 0.5 if a == b else 0.0
    share = won / games
    se = math.sqrt(predicted * (1 - predicted) / games)
    assert abs(share - predicted) < 4 * se, (share, predicted)
