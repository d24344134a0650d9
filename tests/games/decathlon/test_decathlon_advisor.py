"""The advisor: engine views and actions mapped onto the exact solver, hand-checked."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import msgspec
import pytest
from decathlon_script import chain, new_game, play
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.core.agents import Decision
from gamenight.core.dice import SeededDice
from gamenight.games.decathlon import advisor
from gamenight.games.decathlon.actions import (
    Action,
    Freeze,
    Jump,
    Rethrow,
    Retire,
    Skip,
    Stop,
    Throw,
    Vault,
)
from gamenight.games.decathlon.disciplines import EVENT_IDS
from gamenight.games.decathlon.game import GAME
from gamenight.games.decathlon.rules import DecathlonState
from gamenight.games.decathlon.solver import (
    ExpectedScore,
    FreezeSituation,
    HeightSituation,
    HurdlesSituation,
    LongJumpSituation,
    NoDecisionError,
    ShotPutSituation,
    SprintSituation,
    Target,
    situation_value,
)
from gamenight.games.decathlon.solver import option_values as solver_values
from gamenight.games.decathlon.view import DecathlonView

EV = ExpectedScore()


def at(state: DecathlonState) -> tuple[DecathlonView, list[Action]]:
    (seat,) = GAME.to_act(state)
    return GAME.view(state, seat), GAME.legal_actions(state, seat)


def hurdles_values() -> list[float]:
    """V[r]: value of a hurdles throw still to come with r rethrows left after it (D5)."""
    sums = [sum(d) for d in itertools.product(range(1, 7), repeat=5)]
    values = [sum(sums) / len(sums)]  # 17.5: with no rethrow left the throw stands
    for _ in range(5):
        values.append(sum(max(s, values[-1]) for s in sums) / len(sums))
    return values


def test_hurdles_five_sixes_are_frozen_at_30() -> None:
    state, _ = new_game([6, 6, 6, 6, 6], events="hurdles")
    view, legal = at(state)
    values = advisor.option_values(view, legal, EV)
    keep = Freeze((0, 1, 2, 3, 4))
    assert values[keep] == 30
    # rethrowing spends one of the 5 rethrows: the next throw has 4 left after it
    assert values[Rethrow()] == pytest.approx(hurdles_values()[4], abs=1e-12)
    assert advisor.best_action(view, legal, EV) == keep
    assert advisor.situation(view) == HurdlesSituation(5, (6, 6, 6, 6, 6))


def test_hurdles_low_throw_is_rethrown() -> None:
    state, _ = new_game([1, 2, 3, 1, 2] * 2, events="hurdles")
    state, _ = play(state, Rethrow())  # 4 rethrows left
    view, legal = at(state)
    values = advisor.option_values(view, legal, EV)
    assert values[Freeze((0, 1, 2, 3, 4))] == 9
    assert values[Rethrow()] == pytest.approx(hurdles_values()[3], abs=1e-12)
    assert advisor.best_action(view, legal, EV) == Rethrow()


def test_sprint_sets_count_from_one_in_the_view_and_from_zero_in_the_solver() -> None:
    # 100 m: set 1 (6, 1, 1, 1) = -6 + 3 = -3 (D4); set 2 thrown as (5, 5, 4, 6)
    state, _ = new_game(chain([6, 1, 1, 1], [5, 5, 4, 6]), events="100m")
    state, _ = play(state, Freeze((0, 1, 2, 3)))
    view, legal = at(state)
    assert (view.set_no, view.rethrows_left, view.frozen) == (2, 5, (6, 1, 1, 1))
    assert advisor.situation(view) == SprintSituation(1, 5, (5, 5, 4, 6), -3)
    values = advisor.option_values(view, legal, EV)
    assert values[Freeze((0, 1, 2, 3))] == -3 + 8  # the last set: its score is final
    expected = solver_values("100m", SprintSituation(1, 5, (5, 5, 4, 6), -3))
    assert values[Rethrow()] == expected["rethrow"]


def test_shot_put_last_die_by_hand() -> None:
    # attempt 1: 6 6 6 2 stop (20); attempt 2: a 1 (invalid); attempt 3: 6 6 6 6 6 6 5 = 41
    dice = chain([6, 6, 6, 2], [1], [6, 6, 6, 6, 6, 6, 5])
    state, _ = new_game(dice, events="shot")
    state, _ = play(state, Throw(), Throw(), Throw(), Stop(), *[Throw()] * 6)
    view, legal = at(state)
    assert (view.attempt, view.shot, view.best) == (3, (6, 6, 6, 6, 6, 6, 5), (20,))
    values = advisor.option_values(view, legal, EV)
    assert values[Stop()] == 41
    # the 8th die: a 1 leaves the best of 20, else 41 + 2..6
    assert values[Throw()] == pytest.approx((20 + 43 + 44 + 45 + 46 + 47) / 6, abs=1e-12)
    assert advisor.best_action(view, legal, EV) == Stop()


def test_long_jump_with_two_dice_is_worth_593_over_72() -> None:
    # attempts 1 and 2 step over on purpose (5 + 5 > 8); attempt 3 freezes 1 and 2
    dice = chain([5] * 5, [5] * 5, [1, 2, 6, 6, 6])
    state, _ = new_game(dice, events="long")
    state, _ = play(state, Freeze((0, 1)), Freeze((0, 1)), Freeze((0, 1)))
    view, legal = at(state)
    assert (view.phase, view.attempt, view.frozen, view.best) == (
        "rethrow-or-jump",
        3,
        (1, 2),
        (None,),
    )
    values = advisor.option_values(view, legal, EV)
    assert float(Fraction(593, 72)) == pytest.approx(values[Jump()], abs=1e-12)
    assert values[Rethrow()] == situation_value(
        "long-jump", LongJumpSituation("run-up", (1, 2), (), 3, None)
    )


def test_freezes_of_equal_values_are_worth_the_same() -> None:
    state, _ = new_game([6, 3, 6, 2, 4] + [2] * 30, events="discus")
    view, legal = at(state)
    values = advisor.option_values(view, legal, EV)
    assert set(values) == set(legal) and len(legal) == 15  # 4 even dice: 2^4 - 1 freezes
    assert values[Freeze((0,))] == values[Freeze((2,))]
    assert values[Freeze((0, 3))] == values[Freeze((2, 3))]
    solver = solver_values("discus", FreezeSituation((), (6, 3, 6, 2, 4)))
    assert values[Freeze((0, 2, 4))] == solver[(4, 6, 6)]
    assert advisor.best_action(view, legal, EV) in legal


def test_pole_vault_dice_at_the_top_bar_by_hand() -> None:
    view = DecathlonView(
        seat=0, players=1, variant="points", disciplines=("pole-vault",), discipline="pole-vault",
        discipline_no=0, order=(0,), to_act=0, phase="vault-dice", height=48, jumps_at_height=2,
        best=(46,),
    )  # fmt: skip
    legal: list[Action] = [Vault(n) for n in range(1, 9)]
    values = advisor.option_values(view, legal, EV)
    # Only eight sixes clear 48 (D9); the last jump otherwise leaves 46.
    assert values[Vault(8)] == pytest.approx(46 + 2 / 6**8, abs=1e-12)
    assert all(values[Vault(n)] == 46 for n in range(1, 8))
    assert advisor.best_action(view, legal, EV) == Vault(8)
    reach = advisor.option_values(view, legal, Target(48))
    assert reach[Vault(8)] == pytest.approx(6.0**-8, abs=1e-15)


def test_height_choices_map_to_jump_skip_retire() -> None:
    state, _ = new_game([], events="high")
    view, legal = at(state)
    assert advisor.situation(view) == HeightSituation(10, None, False, 0)
    values = advisor.option_values(view, legal, EV)
    solver = solver_values("high-jump", HeightSituation(10))
    assert values == {Jump(): solver["jump"], Skip(): solver["skip"], Retire(): solver["retire"]}


def test_situations_of_the_other_phases() -> None:
    state, _ = new_game(chain([2, 5, 3, 6, 4], [1, 1, 2, 6, 6]), events="long")
    view, _ = at(state)
    assert advisor.situation(view) == LongJumpSituation("run-up", (), (2, 5, 3, 6, 4), 1, None)
    state, _ = play(state, Freeze((0, 2, 4)))  # 2 + 3 + 4 = 9: stepped over (D6)
    view, _ = at(state)
    assert advisor.situation(view) == LongJumpSituation("run-up", (), (1, 1, 2, 6, 6), 2, None)
    state, _ = new_game([4, 4, 2, 6, 6] + [3] * 5, events="long")
    state, _ = play(state, Freeze((0, 1)), Jump())  # run-up 4 4; jump throws 3 3
    view, legal = at(state)
    assert advisor.situation(view) == LongJumpSituation("jump", (), (3, 3), 1, None)
    values = advisor.option_values(view, legal, EV)
    solver = solver_values("long-jump", LongJumpSituation("jump", (), (3, 3), 1, None))
    assert values[Freeze((0,))] == values[Freeze((1,))] == solver[(3,)]
    assert values[Freeze((0, 1))] == solver[(3, 3)]
    state, _ = new_game([4, 2, 1, 3, 5, 6] + [3] * 6, events="javelin")
    state, _ = play(state, Freeze((2, 3)))
    view, legal = at(state)
    assert advisor.situation(view) == FreezeSituation((1, 3), (), 1, None)
    assert set(advisor.option_values(view, legal, EV)) == {Rethrow(), Stop()}
    state, _ = new_game([5, 4] + [2] * 8, events="shot")
    state, _ = play(state, Throw())
    assert advisor.situation(at(state)[0]) == ShotPutSituation((5, 4), 1, None)


def test_game_over_has_no_decision() -> None:
    state, _ = new_game([6, 6, 6, 6, 6], events="hurdles")
    state, _ = play(state, Freeze((0, 1, 2, 3, 4)))
    with pytest.raises(NoDecisionError):
        advisor.situation(GAME.view(state, 0))


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    event=st.sampled_from(EVENT_IDS),
    players=st.integers(1, 4),
)
def test_every_legal_action_is_valued_and_the_best_matches_the_solver(
    seed: int, event: str, players: int
) -> None:
    """Random play: every decision values all legal actions; the top one is the optimum."""
    options = GAME.parse_options({"events": event})
    state = GAME.start(players, options, SeededDice(seed=seed)).state
    steps = 0
    while not GAME.is_terminal(state) and steps < 400:
        view, legal = at(state)
        values = advisor.option_values(view, legal, EV)
        assert set(values) == set(legal)
        assert max(values.values()) == pytest.approx(
            situation_value(event, advisor.situation(view)), abs=1e-12
        )
        pick = legal[(seed + steps) % len(legal)]  # wander: not only optimal positions
        state = GAME.apply(state, view.to_act or 0, pick).state
        steps += 1
        assert msgspec.json.encode(view)  # views stay plain data


# ----- advise: the hint as data -----------------------------------------------------------
@pytest.mark.parametrize("seed", range(4))
def test_advice_best_is_the_optimal_bots_choice_and_round_trips(seed: int) -> None:
    from gamenight.core.advice import Advice
    from gamenight.games.decathlon.bots import CompetitiveAgent, OptimalAgent

    rng = random.Random(seed)
    variant = "championship" if seed % 2 else "points"
    options = GAME.parse_options({"variant": variant})
    state = GAME.start(1 + seed % 3, options, SeededDice(seed=seed)).state
    optimal, competitive = OptimalAgent(seed), CompetitiveAgent(seed)
    checked = 0
    while not GAME.is_terminal(state):
        (seat,) = GAME.to_act(state)
        view, legal = GAME.view(state, seat), GAME.legal_actions(state, seat)
        advice = advisor.advise(view, seat, legal)
        found = advisor.recommend(view, legal)
        assert (advice is None) == (found is None) == (len(legal) < 2)
        if advice is not None and found is not None and rng.random() < 0.3:
            decision = Decision("decathlon", seat, view, legal)
            assert GAME.decode_action(advice.best_option.action) == optimal.act(decision)
            wanted = competitive.act(decision)
            assert found.actions[found.competitive] == wanted or (
                advisor.option_key(view, found.actions[found.competitive])
                == advisor.option_key(view, wanted)
            )
            assert msgspec.json.decode(msgspec.json.encode(advice), type=Advice) == advice
            assert advisor.advise(view, seat + 1, legal) is None  # not that seat's decision
            checked += 1
        state = GAME.apply(state, seat, rng.choice(legal)).state
    assert checked > 0
