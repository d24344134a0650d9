"""The Wurfeltod bots: legal, greedy by the turn's expected score, sensible in ties."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from gamenight.core import registry
from gamenight.core.agents import Agent, Decision, RandomAgent
from gamenight.core.dice import ScriptedDice, SeededDice
from gamenight.core.runner import play_match
from gamenight.games.wurfeltod.bots import BOTS, GreedyBot, greedy_action
from gamenight.games.wurfeltod.categories import Category
from gamenight.games.wurfeltod.game import GAME, WurfeltodView
from gamenight.games.wurfeltod.rules import (
    Action,
    Book,
    Scratch,
    SetAside,
    WurfeltodEvent,
    WurfeltodState,
)
from gamenight.games.wurfeltod.turn_plan import turn_plan


def option_value(state: WurfeltodState, action: Action) -> float:
    plan = turn_plan(frozenset(GAME.view(state, state.current).open_boxes))
    if isinstance(action, Book):
        return plan.book_value(state.aside, state.rolled, action.category)
    if isinstance(action, Scratch):
        return 0.0
    return plan.roll_on_value(state.aside, [state.rolled[i] for i in action.dice])


def test_registry_offers_greedy_and_random() -> None:
    bots = registry.get("wurfeltod").bots
    assert {"random", "greedy"} <= set(bots)
    assert bots["greedy"](3).label == "greedy"


def test_all_bot_game_runs_through_play_match() -> None:
    agents: list[Any] = [GreedyBot(0), RandomAgent(1), BOTS["greedy"](2)]
    results, state = play_match(GAME, agents, seed=11)
    assert state.finished and len(results.scores) == 3
    assert all(card.booked() == 20 for card in state.cards)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_greedy_always_picks_a_best_valued_legal_action(seed: int) -> None:
    bot = GreedyBot(seed)
    state: WurfeltodState = GAME.start(1, GAME.parse_options(), SeededDice(seed=seed)).state
    while not state.finished:
        legal = GAME.legal_actions(state, 0)
        action = bot.act(Decision("wurfeltod", 0, GAME.view(state, 0), legal))
        assert action in legal
        best = max(option_value(state, a) for a in legal)
        assert option_value(state, action) == pytest.approx(best, abs=1e-9)
        state = GAME.apply(state, 0, action).state


def test_greedy_books_face_value_in_the_worked_example() -> None:
    legal: list[Action] = [Book(c) for c in Category]
    assert greedy_action((1, 1, 4, 4, 4), (3,), legal) == Book(Category.FACE_VALUE)


def test_greedy_puts_a_forced_zero_in_the_cheapest_box() -> None:
    # Aside 1-2-3-4-5, last die 6: neither box is satisfied, both cost 0 and a Wurfeltod.
    legal: list[Action] = [Book(Category.SIX_OF_A_KIND), Book(Category.ANY_PAIR)]
    assert greedy_action((1, 2, 3, 4, 5), (6,), legal) == Book(Category.ANY_PAIR)
    assert greedy_action((1, 2, 3, 4, 5), (6,), legal[::-1]) == Book(Category.ANY_PAIR)


def test_greedy_scratches_the_cheaper_box_rather_than_take_a_wurfeltod() -> None:
    # Only 1-1-1 and Six of a Kind open. 1-1-1 is satisfied, but the 2, 3 and 5 were rolled
    # and are not part of it (100 - 250); every way of rolling on is worth less than 0.
    dice = ScriptedDice(values=(1, 1, 1, 2, 3, 5))
    state: WurfeltodState = GAME.start(1, GAME.parse_options(), dice).state
    open_now = (Category.TRIPLE_ONES, Category.SIX_OF_A_KIND)
    legal = [
        a
        for a in GAME.legal_actions(state, 0)
        if not isinstance(a, Book | Scratch) or a.category in open_now
    ]
    plan = turn_plan(frozenset(open_now))
    assert plan.book_value(state.aside, state.rolled, Category.TRIPLE_ONES) == -150
    assert all(
        plan.roll_on_value((), [state.rolled[i] for i in a.dice]) < 0
        for a in legal
        if isinstance(a, SetAside)
    )
    # Both scratches score 0; 1-1-1 is worth less alone than Six of a Kind.
    assert greedy_action(state.aside, state.rolled, legal) == Scratch(Category.TRIPLE_ONES)


def test_greedy_outscores_random_on_fixed_seeds() -> None:
    greedy = [play_match(GAME, [GreedyBot(0)], seed=s)[0].scores[0] for s in range(4)]
    random = [play_match(GAME, [RandomAgent(s)], seed=s)[0].scores[0] for s in range(4)]
    assert min(greedy) > max(random)


def test_greedy_chases_the_straight_with_more_rolls_left() -> None:
    # 1-2-3-4-5-5 with only the 6-Die Straight open. Keeping 1-2-3-4-5 leaves one roll of one
    # die: 1/6 x 2000 - 5/6 x 250 = 125. Keeping a single 5 leaves more rolls and is worth more.
    plan = turn_plan(frozenset({Category.SIX_STRAIGHT}))
    assert plan.roll_on_value((), (1, 2, 3, 4, 5)) == pytest.approx(125)
    assert plan.roll_on_value((), (5,)) > 125
    legal: list[Action] = [Book(Category.SIX_STRAIGHT), Scratch(Category.SIX_STRAIGHT)]
    legal += [SetAside((0, 1, 2, 3, 4)), SetAside((0, 1)), SetAside((5,))]
    assert greedy_action((), (1, 2, 3, 4, 5, 5), legal) == SetAside((5,))


def test_greedy_books_a_clean_six_straight_on_the_first_roll() -> None:
    dice = ScriptedDice(values=(3, 1, 2, 6, 5, 4))
    state: WurfeltodState = GAME.start(1, GAME.parse_options(), dice).state
    legal = GAME.legal_actions(state, 0)
    assert greedy_action(state.aside, state.rolled, legal) == Book(Category.SIX_STRAIGHT)


def test_bots_are_typed_agents_of_wurfeltod() -> None:
    # mypy checks these assignments against the game's view and action types.
    greedy: Agent[WurfeltodView, Action, WurfeltodEvent] = GreedyBot(0)
    factories: dict[str, Callable[[int], Agent[WurfeltodView, Action, WurfeltodEvent]]] = BOTS
    state: WurfeltodState = GAME.start(1, GAME.parse_options(), SeededDice(seed=4)).state
    decision: Decision[WurfeltodView, Action] = Decision(
        "wurfeltod", 0, GAME.view(state, 0), GAME.legal_actions(state, 0)
    )
    assert greedy.act(decision) in decision.legal
    assert set(factories) == {"greedy", "optimal"}
