"""Chance made explicit (issue 28): every outcome of a throw, exactly, against the dice."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from typing import Any

import msgspec
import pytest

from gamenight.core import registry
from gamenight.core.chance import (
    ChanceError,
    DiceChance,
    HiddenDice,
    hide,
    marginal,
    sum_outcomes,
    throw_outcomes,
)
from gamenight.core.dice import SeededDice
from gamenight.solve.dice import ordered_count


class RecordingDice(msgspec.Struct, frozen=True, gc=False):
    """The real dice, writing down each throw (what the outcome of a real call was)."""

    source: SeededDice
    throws: tuple[tuple[int, ...], ...] = ()

    def roll(self, n: int, sides: int = 6) -> tuple[tuple[int, ...], RecordingDice]:
        faces, nxt = self.source.roll(n, sides)
        return faces, RecordingDice(nxt, (*self.throws, faces))


@pytest.mark.parametrize("n", range(1, 7))
def test_one_throw_matches_the_dice_model(n: int) -> None:
    """Multisets of n dice: probabilities sum to 1 exactly and are the multinomial counts
    of all 6**n ordered throws (brute force), the solvers' weights too."""
    listed = dict(throw_outcomes(n))
    assert sum(listed.values()) == 1
    brute = Counter(tuple(sorted(t)) for t in itertools.product(range(1, 7), repeat=n))
    assert listed == {faces: Fraction(count, 6**n) for faces, count in brute.items()}
    assert all(p == Fraction(ordered_count(f), 6**n) for f, p in listed.items())
    assert all(list(f) == sorted(f) for f in listed)


def test_a_draw_is_listed_face_by_face() -> None:
    assert throw_outcomes(1, 40) == tuple(((f,), Fraction(1, 40)) for f in range(1, 41))
    assert len(throw_outcomes(2, 7)) == 49  # more than six sides: ordered


GAMES: list[tuple[str, int, dict[str, Any]]] = [
    ("decathlon", 1, {}),
    ("decathlon", 2, {"events": "shot-put,110m-hurdles,pole-vault"}),
    ("dice-duel", 2, {}),
    ("dice-duel", 1, {"mode": "solo"}),
    ("wurfeltod", 1, {}),
    ("decades", 2, {}),
]


def _chance(game_id: str) -> DiceChance:
    entry = registry.get(game_id)
    make = entry.capability(entry.game.info.chance)
    assert make is not None, game_id
    made = make(entry.game)
    assert isinstance(made, DiceChance)
    return made


@pytest.mark.parametrize(("game_id", "players", "raw"), GAMES)
def test_outcomes_are_exact_and_the_real_one_replays(
    game_id: str, players: int, raw: dict[str, Any]
) -> None:
    """Along random games: each action's outcomes sum to exactly 1, the real throws are
    one of them (up to the order of the dice), and applying the real outcome gives
    exactly the state ``apply`` gives (dice source included)."""
    game: Any = registry.get(game_id).game
    chance = _chance(game_id)
    options = game.parse_options(raw)
    rng = random.Random(7)
    state: Any = game.start(players, options, SeededDice(seed=11)).state
    checked = thrown = chained = 0
    for step in range(100):
        if game.is_terminal(state):
            state = game.start(players, options, SeededDice(seed=step)).state
            continue
        seat = game.to_act(state)[0]
        action = rng.choice(list(game.legal_actions(state, seat)))
        record = game.apply(
            msgspec.structs.replace(state, dice=RecordingDice(state.dice)), seat, action
        )
        real = record.state.dice.throws
        # every throw of several dice in these games is of six-sided dice: a multiset
        canonical = tuple(tuple(sorted(t)) for t in real)
        try:
            outcomes = chance.outcomes(state, seat, action, limit=1000)
        except ChanceError:  # a long chain of throws: check it throw by throw
            chained += 1
            for k, faces in enumerate(canonical):
                step_outcomes = chance.next_throw(state, seat, action, canonical[:k])
                assert step_outcomes is not None and sum(p for _, p in step_outcomes) == 1
                assert faces in dict(step_outcomes)
            assert chance.next_throw(state, seat, action, canonical) is None
        else:
            assert sum(p for _, p in outcomes) == 1
            assert len({o for o, _ in outcomes}) == len(outcomes)
            assert canonical in dict(outcomes)
        expected = game.apply(state, seat, action)
        replayed = chance.apply_outcome(state, seat, action, real)
        assert replayed.state == expected.state and replayed.events == expected.events
        state = expected.state
        checked += 1
        thrown += bool(real)
    assert checked > 50 and chained < checked  # most listed flat, the chains throw by throw
    if game_id != "decades":  # The Decades draws its cards at the start (test below)
        assert thrown > 10


@pytest.mark.parametrize(("game_id", "players", "raw"), GAMES)
def test_start_outcomes(game_id: str, players: int, raw: dict[str, Any]) -> None:
    game: Any = registry.get(game_id).game
    chance = _chance(game_id)
    options = game.parse_options(raw)
    record = game.start(players, options, RecordingDice(SeededDice(seed=5)))
    real = record.state.dice.throws
    if game_id != "decades":  # its deal is too many draws to list flat
        outcomes = chance.start_outcomes(players, options)
        assert sum(p for _, p in outcomes) == 1
        assert tuple(tuple(sorted(t)) for t in real) in dict(outcomes)
    for k, faces in enumerate(real):  # throw by throw (The Decades: one card at a time)
        step = chance.start_next_throw(players, options, real[:k])
        assert step is not None and sum(p for _, p in step) == 1
        assert tuple(sorted(faces)) in dict(step)
    assert chance.start_next_throw(players, options, real) is None
    started = chance.start_with(players, options, real)
    assert isinstance(started.state.dice, HiddenDice)
    expected = game.start(players, options, SeededDice(seed=5))
    assert msgspec.structs.replace(started.state, dice=expected.state.dice) == expected.state


def test_shot_put_start_weights_the_failed_attempts() -> None:
    """The start of a one-event Shot Put throws each attempt's first die until one is not
    a 1: 5/6 at the first, 5/36 at the second, 5/216 at the third, 1/216 all three fail."""
    game = registry.get("decathlon").game
    options = game.parse_options({"events": "shot-put"})
    outcomes = _chance("decathlon").start_outcomes(1, options)
    mass = {k: sum((p for o, p in outcomes if len(o) == k), Fraction(0)) for k in (1, 2, 3)}
    assert mass == {1: Fraction(5, 6), 2: Fraction(5, 36), 3: Fraction(6, 216)}
    over = [o for o, _ in outcomes if all(t == (1,) for t in o)]
    assert over == [((1,), (1,), (1,))]
    assert game.is_terminal(_chance("decathlon").start_with(1, options, over[0]).state)


def test_hidden_dice_refuse_apply_and_wrong_outcomes_are_refused() -> None:
    game = registry.get("dice-duel").game
    chance = _chance("dice-duel")
    options = game.parse_options({"mode": "solo"})
    state = hide(game.start(1, options, SeededDice(seed=3)).state)
    action = next(a for a in game.legal_actions(state, 0) if type(a).__name__ == "Roll")
    with pytest.raises(ChanceError, match="hidden"):
        game.apply(state, 0, action)
    outcomes = chance.outcomes(state, 0, action)
    after = chance.apply_outcome(state, 0, action, outcomes[-1][0])
    assert isinstance(after.state.dice, HiddenDice)
    with pytest.raises(ChanceError, match="the rules throw"):
        chance.apply_outcome(state, 0, action, ((1, 2),))
    with pytest.raises(ChanceError, match="throws"):
        chance.apply_outcome(state, 0, action, ())


@pytest.mark.parametrize("n", range(1, 7))
@pytest.mark.parametrize("values", [None, (1, 2, 3, 4, 5, -6)])
def test_the_sum_form_is_the_per_throw_form_marginalised_exactly(
    n: int, values: tuple[int, ...] | None
) -> None:
    def count(face: int) -> int:
        return face if values is None else values[face - 1]

    per_throw = marginal(throw_outcomes(n), lambda faces: sum(count(f) for f in faces))
    assert sorted(per_throw) == list(sum_outcomes(n, 6, values))
    assert sum(p for _, p in sum_outcomes(n, 6, values)) == 1


def test_a_high_jump_bar_aggregated_by_its_totals_is_exact() -> None:
    # A Jump at a bar throws up to three jumps of 5 dice (D8): 39,408 per-throw
    # outcomes at 10; only whether a total reaches the bar matters, so the clear chance
    # is 1 - P(total < bar) ** 3 from sum_outcomes' 26 totals, exactly.
    from gamenight.games.decathlon.game import GAME as game

    state = game.start(1, game.parse_options({"events": "high-jump"}), SeededDice(seed=1)).state
    chance = DiceChance(game)
    root = hide(state)
    action = game.legal_actions(state, 0)[0]
    assert type(action).__name__ == "Jump"
    cleared = chance.aggregated(
        root, 0, action, lambda t: game.view(t.state, 0).best == (10,), limit=10**6
    )
    low = sum(p for total, p in sum_outcomes(5) if total < 10)
    assert dict(cleared) == {True: 1 - low**3, False: low**3}
    assert len(chance.outcomes(root, 0, action, limit=10**6)) == 39_408
