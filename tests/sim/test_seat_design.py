"""Series statistics a researcher can trust (issue 45, research 2 and 3): every seat
order up to 4 seats (a balanced Latin square beyond), and standard errors with the
deal as the unit."""

from __future__ import annotations

import itertools
import math

import pytest

from gamenight.core import registry
from gamenight.sim.design import FULL_UP_TO, seat_orders, seated, williams
from gamenight.sim.engine import GameRow, Series
from gamenight.sim.series import deal_mean_se, mean_se, run_series, summarise
from gamenight.sim.tournament import effective_n, run_tournament


@pytest.mark.parametrize("k", range(1, FULL_UP_TO + 1))
def test_up_to_four_seats_a_deal_is_played_in_every_seat_order(k: int) -> None:
    orders = seat_orders(k)
    assert sorted(orders) == sorted(itertools.permutations(range(k)))
    for start in range(0, len(orders), k):  # every block of k is seat-balanced
        block = orders[start : start + k]
        assert all(sorted(o[s] for o in block) == list(range(k)) for s in range(k))


@pytest.mark.parametrize("k", [5, 6, 7, 8])
def test_beyond_four_seats_the_orders_are_a_balanced_latin_square(k: int) -> None:
    orders = seat_orders(k)
    assert orders == williams(k) and len(orders) == (k if k % 2 == 0 else 2 * k)
    per = len(orders) // k
    for s in range(k):  # every entrant in every seat equally often
        assert sorted(o[s] for o in orders) == sorted(list(range(k)) * per)
    follows = {(a, b): 0 for a in range(k) for b in range(k) if a != b}
    for o in orders:
        for a, b in itertools.pairwise(o):
            follows[(a, b)] += 1
    assert set(follows.values()) == {per}  # every entrant directly after every other


def test_the_series_plays_each_deal_in_every_seat_order() -> None:
    work = Series("dice-duel", ("a", "b", "c"), {}, 0, 12)
    assert [job.index for job in work] == [0] * 6 + [1] * 6
    assert {job.bots for job in work[:6]} == set(itertools.permutations("abc"))
    assert [job.bots for job in work[:6]] == [seated(("a", "b", "c"), j) for j in range(6)]


def test_two_identical_bots_in_a_three_seat_game_get_equal_figures() -> None:
    # Rotations alone (issue 45) gave these two random bots 57.25 and 71.83 points.
    entry = registry.get("dice-duel")
    report = run_series(entry, ["random", "random", "turn-optimal"], games=60, seed=1, jobs=1)
    first, second, _ = report.seats
    assert (first.mean_score, first.win_share) == (second.mean_score, second.win_share)
    assert first.score_se == second.score_se
    assert all(r.lineup == ("random", "random", "turn-optimal") for r in report.rows)


def test_identical_bots_beyond_four_seats_agree_within_their_errors() -> None:
    # A statistical sanity check of the Latin square (5 seats: 10 orders per deal)
    entry = registry.get("dice-duel")
    bots = ["random"] * 4 + ["turn-optimal"]
    report = run_series(entry, bots, games=200, seed=3, jobs=1)
    randoms = report.seats[:4]
    for a, b in itertools.combinations(randoms, 2):
        assert abs(a.mean_score - b.mean_score) <= 3 * math.hypot(a.score_se, b.score_se)


def _row(deal: int, order: int, scores: tuple[float, float]) -> GameRow:
    winners = (0,) if scores[0] > scores[1] else (1,)
    bots = seated(("x", "y"), order)
    ranks = (1, 2) if winners == (0,) else (2, 1)
    return GameRow(2 * deal + order, deal, deal, bots, scores, ranks, winners, 0.0, order)


def test_the_standard_error_takes_the_deal_as_the_unit() -> None:
    # Three deals, each played in both seat orders. x's scores: deal 0: 10 and 14
    # (mean 12), deal 1: 20 and 18 (19), deal 2: 5 and 9 (7).
    rows = [
        _row(0, 0, (10, 1)), _row(0, 1, (1, 14)),
        _row(1, 0, (20, 1)), _row(1, 1, (1, 18)),
        _row(2, 0, (5, 1)), _row(2, 1, (1, 9)),
    ]  # fmt: skip
    options = registry.get("dice-duel").game.parse_options()
    report = summarise("dice-duel", ["x", "y"], rows, seed=0, options=options, seconds=0.0,
                       asked=6, partial=False, jobs=1, backend="local")  # fmt: skip
    x = report.seats[0]
    # by hand: the deal means 12, 19, 7 have mean 38/3 and sample variance
    # ((12-38/3)^2 + (19-38/3)^2 + (7-38/3)^2) / 2 = 218/6, so SE = sqrt(218/18)
    assert x.mean_score == pytest.approx(38 / 3, abs=1e-12)
    assert x.score_se == pytest.approx(math.sqrt(218 / 18), abs=1e-12)
    # the six games taken as independent claim a smaller error
    assert mean_se([10, 14, 20, 18, 5, 9])[1] < x.score_se
    assert deal_mean_se([1.0, 2.0], [0, 1]) == mean_se([1.0, 2.0])


def test_identical_plays_of_a_deal_count_as_one_game_in_the_intervals() -> None:
    assert effective_n([1.0, 1.0, 0.0, 0.0, 1.0, 1.0], [0, 0, 1, 1, 2, 2]) == 3
    entry = registry.get("dice-duel")
    report = run_tournament(entry, ["random", "turn-optimal"], seats=2, games=20, seed=1, jobs=1)
    assert all(s.win_low <= s.win_share <= s.win_high for s in report.standings)
