"""Bots: the knowledge model, exact expected-points planning, card play, and strength."""

from __future__ import annotations

import math
import statistics
from itertools import product
from typing import Any

import pytest
from decades_helpers import answer_all, both, keep_all, start
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.core.agents import Decision
from gamenight.core.dice import SeededDice
from gamenight.core.runner import play_match
from gamenight.games.decades.boards import SIDES, YEARS, BoardSide
from gamenight.games.decades.bots import BOTS, KnowledgeBot
from gamenight.games.decades.deck import default_deck
from gamenight.games.decades.game import GAME
from gamenight.games.decades.knowledge import LEVELS, belief, recall
from gamenight.games.decades.planner import Valuer, best_placement, choose_year
from gamenight.games.decades.rules import (
    CancelAnswer,
    DecadesState,
    Extend,
    PlayCard,
    RemoveToken,
)
from gamenight.games.decades.scoring import score_answer
from gamenight.games.decades.tokens import Placement, canonical, placement_error


def _normal(centre: float, sd: float) -> tuple[float, ...]:
    weights = [math.exp(-(((y - centre) / sd) ** 2) / 2) for y in YEARS]
    return tuple(w / sum(weights) for w in weights)


def _expected(
    answer: int, tokens: tuple[Placement, ...], p: tuple[float, ...], side: BoardSide
) -> float:
    """Expected T5 points straight from the scoring rules (no shortcuts)."""
    return sum(
        q * score_answer(answer, tokens, y, side).points for y, q in zip(YEARS, p, strict=True)
    )


def _brute_best(
    answers: tuple[int, ...], beliefs: list[tuple[float, ...]], side: BoardSide
) -> float:
    """Best expected total over every token combination anywhere on the board."""
    spots: list[list[Placement | None]] = [
        [None, *(Placement(n, y) for y in YEARS)] for n in (2, 3, 4)
    ]
    best = -math.inf
    for combo in product(*spots):
        placed = canonical(t for t in combo if t is not None)
        if placement_error(placed, answers) is None:
            total = sum(
                _expected(a, placed, p, side) for a, p in zip(answers, beliefs, strict=True)
            )
            best = max(best, total)
    return best


CASES = [
    # (answers, belief centres and spreads, side)
    (
        (1985, 1987, 1995, 2003, 2011, 2016),
        [(1986, 1.0), (1988, 2.0), (1996, 3.0), (2003, 0.7), (2012, 1.5), (2017, 1.2)],
        "A",
    ),
    (
        (1980, 1980, 1989, 2009, 2019, 1990),
        [(1981, 2.5), (1979.5, 1.0), (1990, 1.5), (2010, 1.0), (2018.5, 2.0), (1991, 0.5)],
        "B",
    ),
    (
        (1986, 1986, 1986, 2002, 2002, 2015),
        [(1988, 1.0), (1986, 4.0), (1987, 1.0), (2002, 0.5), (2004, 2.0), (2015, 6.0)],
        "A",
    ),
]


@pytest.mark.parametrize(("answers", "shape", "side"), CASES)
def test_placement_is_optimal_against_brute_force(
    answers: tuple[int, ...], shape: list[tuple[float, float]], side: str
) -> None:
    beliefs = [_normal(c, s) for c, s in shape]
    board = SIDES[side]
    tokens, value = best_placement(answers, [Valuer(p, board) for p in beliefs])
    assert placement_error(tokens, answers) is None
    direct = sum(_expected(a, tokens, p, board) for a, p in zip(answers, beliefs, strict=True))
    assert direct == pytest.approx(value, abs=1e-9)  # the planner's arithmetic is T5's
    assert value == pytest.approx(_brute_best(answers, beliefs, board), abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1980, 2019),
    st.integers(0, 3),
    st.floats(1979.0, 2020.0),
    st.floats(0.3, 8.0),
    st.sampled_from(["A", "B"]),
)
def test_valuer_matches_the_scoring_rules(
    start_year: int, extra: int, centre: float, sd: float, side: str
) -> None:
    p = _normal(centre, sd)
    end = min(start_year + extra, start_year - start_year % 10 + 9)
    tokens = (Placement(end - start_year + 1, start_year),) if end > start_year else ()
    assert Valuer(p, SIDES[side]).interval(start_year, end) == pytest.approx(
        _expected(start_year, tokens, p, SIDES[side]), abs=1e-9
    )


@pytest.mark.parametrize(("answers", "shape", "side"), CASES)
def test_choose_year_finds_the_best_of_all_40_years_in_these_cases(
    answers: tuple[int, ...], shape: list[tuple[float, float]], side: str
) -> None:
    board = SIDES[side]
    valuers = [Valuer(_normal(c, s), board) for c, s in shape]
    for known in range(6):  # the k-th question, with the earlier answers fixed
        year = choose_year(answers[:known], valuers[:known], valuers[known])
        value = best_placement([*answers[:known], year], valuers[: known + 1])[1]
        best = max(best_placement([*answers[:known], y], valuers[: known + 1])[1] for y in YEARS)
        assert value == pytest.approx(best, abs=1e-9)


def test_a_free_token_moves_the_bet_to_the_left_edge_of_a_window() -> None:
    sharp = Valuer(_normal(2013, 0.3), SIDES["B"])  # B: +3 on 2011
    # alone, 2013 is the best guess; with the 4-year token free, 2011-2014 is a surer hit
    assert max(YEARS, key=lambda y: sharp.interval(y, y)) == 2013
    assert choose_year([], [], sharp) == 2011


def test_belief_and_recall() -> None:
    for sd in LEVELS.values():
        for memory in (1980, 1987, 2019):
            b = belief(memory, sd)
            assert sum(b) == pytest.approx(1.0)
            if memory not in (1980, 2019):
                assert max(range(40), key=b.__getitem__) + 1980 == memory
    # a clamped memory at the board's edge makes the edge the most likely year
    assert max(range(40), key=belief(2019, 6.0).__getitem__) == 39
    assert recall(1995, "q", 3.0, "s") == recall(1995, "q", 3.0, "s")
    for level, sd in LEVELS.items():
        errors = [recall(2000, f"question {i}", sd, level) - 2000 for i in range(3000)]
        assert statistics.mean(errors) == pytest.approx(0, abs=0.35)
        assert statistics.pstdev(errors) == pytest.approx(math.sqrt(sd**2 + 1 / 12), rel=0.08)


def test_bots_know_the_default_deck_and_nothing_else() -> None:
    bot = KnowledgeBot("expert", 1)
    step = GAME.start(2, GAME.parse_options(), SeededDice(seed=4))
    state = step.state
    for seat in (0, 1):
        state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0]).state
    view = GAME.view(state, 0)
    question = view.questions[0]
    truth = state.questions[0].questions[0].year
    b = bot.belief(view, question)
    assert sum(p for y, p in zip(YEARS, b, strict=True) if abs(y - truth) <= 4) > 0.5
    # a question the deck does not hold: the bot knows nothing
    unknown = type(question)(question.category, question.name, "Made-up question?")
    assert len(set(bot.belief(view, unknown))) == 1


def _card_step() -> tuple[DecadesState, list[int]]:
    """Round 1 at the card step, on a shipped card whose first answer is mid-decade.

    Team 0 (the bot under test) answers every year wrongly. Team 1 answers three
    categories exactly, three wildly wrong, and puts its 2-year token so that
    only through it does its first answer, one year early, hit.
    """
    deck = default_deck().cards
    index = next(i for i, c in enumerate(deck) if c.questions[0].year % 10 not in (0, 9))
    cards = (deck[index], *(c for i, c in enumerate(deck) if i != index))
    state, _ = start(cards[:4])
    state, _ = keep_all(
        state,
        ("remove-token", "cancel-answer", "blocked", "blocked"),
        ("cancel-answer", "cancel-answer", "remove-token", "blocked"),
    )
    truth = [q.year for q in cards[0].questions]
    far = [2019 if y < 2000 else 1980 for y in truth]
    team1 = [truth[0] - 1, *truth[1:3], *far[3:]]
    state, _ = answer_all(state, far, team1)
    state, _ = both(
        state,
        Extend(()),
        Extend((Placement(2, team1[0]), Placement(3, far[5])))
        if far[5] % 10 < 8
        else Extend((Placement(2, team1[0]),)),
    )
    assert state.phase == "card"
    return state, truth


def test_expert_cancels_one_of_the_other_teams_likely_hits() -> None:
    state, _ = _card_step()
    bot = BOTS["expert"](3)
    # Cancel is worth a likely hit (8 or more); Remove spoils one token (a hit becomes +4).
    choice = bot.act(Decision("decades", 0, GAME.view(state, 0), GAME.legal_actions(state, 0)))
    assert choice == PlayCard("cancel-answer")
    state, _ = both(state, choice, PlayCard("cancel-answer"))
    target = bot.act(Decision("decades", 0, GAME.view(state, 0), GAME.legal_actions(state, 0)))
    assert isinstance(target, CancelAnswer)
    categories = [q.category for q in state.questions[0].questions]
    assert target.category in categories[:3]  # never an answer that is sure to miss


def test_expert_removes_the_token_that_makes_a_hit() -> None:
    state, _ = _card_step()
    bot = BOTS["expert"](3)
    state, _ = both(state, PlayCard("remove-token"), PlayCard("cancel-answer"))
    legal = GAME.legal_actions(state, 0)
    assert RemoveToken(2) in legal
    target = bot.act(Decision("decades", 0, GAME.view(state, 0), legal))
    assert target == RemoveToken(2)


def test_bots_play_legal_actions_to_the_end() -> None:
    for level in LEVELS:
        results, final = play_match(GAME, [BOTS[level](1), BOTS["novice"](2)], seed=5)
        assert GAME.is_terminal(final) and results.winners


@pytest.mark.slow
def test_expert_beats_novice_in_at_least_90_percent_of_1000_games() -> None:
    wins = 0
    for game in range(1000):
        expert_seat = game % 2  # alternate seats (and so board sides)
        agents: list[Any] = [BOTS["novice"](2 * game), BOTS["novice"](2 * game + 1)]
        agents[expert_seat] = BOTS["expert"](2 * game + expert_seat)
        results, _ = play_match(GAME, agents, seed=game)
        wins += results.winners == (expert_seat,)
    assert wins >= 900, f"expert won {wins} of 1000"
