"""The greedy bot's within-turn expectimax against a plain recursive reading of W2/W3."""

from __future__ import annotations

import functools
import itertools
import math
from collections import Counter
from collections.abc import Callable

import pytest

from gamenight.games.wurfeltod.booking import evaluate
from gamenight.games.wurfeltod.categories import CATEGORIES, Category
from gamenight.games.wurfeltod.turn_plan import category_worth, turn_plan

Dice = tuple[int, ...]


def outcomes(n: int) -> list[tuple[Dice, float]]:
    """Every multiset of ``n`` fair dice with its multinomial probability."""
    result = []
    for dice in itertools.combinations_with_replacement(range(1, 7), n):
        ways = math.factorial(n)
        for count in Counter(dice).values():
            ways //= math.factorial(count)
        result.append((dice, ways / 6**n))
    return result


def brute_force(open_categories: frozenset[Category]) -> Callable[[Dice, Dice], float]:
    """V(aside, rolled) by direct recursion: book, scratch on the first roll, or set aside."""

    @functools.cache
    def value(aside: Dice, rolled: Dice) -> float:
        bookings = evaluate(aside, rolled)
        best: float = max(bookings[c].points - 250 * bookings[c].wurfeltod for c in open_categories)
        if not aside:
            best = max(best, 0.0)  # W2 scratch
        for size in range(1, len(rolled)):
            for chosen in set(itertools.combinations(rolled, size)):
                best = max(best, onward(tuple(sorted(aside + chosen))))
        return best

    @functools.cache
    def onward(aside: Dice) -> float:
        return sum(p * value(aside, roll) for roll, p in outcomes(6 - len(aside)))

    return value


@pytest.mark.parametrize(
    "open_categories",
    [
        frozenset({Category.ANY_PAIR, Category.FIVE_STRAIGHT, Category.FACE_VALUE}),
        frozenset({Category.SIX_OF_A_KIND}),
        frozenset({Category.TWO_TRIPLETS, Category.SEQUENTIAL_PAIRS, Category.TRIPLE_SIXES}),
        frozenset(CATEGORIES),
    ],
)
def test_turn_values_match_a_brute_force_recursion(open_categories: frozenset[Category]) -> None:
    plan = turn_plan(open_categories)
    value = brute_force(open_categories)
    first = sum(p * value((), roll) for roll, p in outcomes(6))
    assert plan.expected == pytest.approx(first, abs=1e-9)
    for aside, rolled in [
        ((), (1, 2, 3, 4, 5, 6)),
        ((6, 6), (1, 3, 6, 6)),
        ((2, 3, 4, 5, 6), (1,)),
    ]:
        assert plan.position_value(aside, rolled) == pytest.approx(value(aside, rolled), abs=1e-9)
    assert plan.roll_on_value((6,), (6, 6)) == pytest.approx(
        sum(p * value((6, 6, 6), r) for r, p in outcomes(3)), abs=1e-9
    )


def test_book_values_include_the_penalty() -> None:
    plan = turn_plan(frozenset(CATEGORIES))
    assert plan.book_value((1, 1, 4, 4, 4), (3,), Category.TRIPLE_FOURS) == 100 - 250
    assert plan.book_value((1, 1, 4, 4, 4), (3,), Category.FACE_VALUE) == 170
    assert plan.book_value((), (1, 2, 3, 4, 5, 6), Category.SIX_STRAIGHT) == 2000
    assert plan.position_value((), (1, 2, 3, 4, 5, 6)) == 2000


def test_roll_on_needs_dice_aside_and_dice_to_roll() -> None:
    plan = turn_plan(frozenset({Category.FACE_VALUE}))
    with pytest.raises(ValueError, match="cannot roll on"):
        plan.roll_on_value((1, 2, 3), (4, 5, 6))
    with pytest.raises(ValueError, match="at least one open category"):
        turn_plan(frozenset())


def test_category_worth_is_at_least_what_scratching_or_booking_at_once_gives() -> None:
    worth = category_worth()
    assert set(worth) == set(CATEGORIES)
    assert all(w >= 0 for w in worth.values())  # the scratch is always available
    assert worth[Category.FACE_VALUE] > 210  # booking the first roll averages 210
    # Rolling for the big straight beats the small one; six of a kind is a long shot.
    assert (
        worth[Category.FIVE_STRAIGHT] > worth[Category.SIX_STRAIGHT] > worth[Category.SIX_OF_A_KIND]
    )
