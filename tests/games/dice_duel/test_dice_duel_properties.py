"""Property tests over random seeds, player counts and modes (engine contract)."""

from __future__ import annotations

import io
import random
from typing import Any

import msgspec
import pytest
from dice_duel_helpers import playout
from hypothesis import example, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from gamenight.core.agents import RandomAgent
from gamenight.core.dice import SeededDice
from gamenight.core.errors import IllegalActionError
from gamenight.core.game import to_json
from gamenight.core.record import RecordWriter, parse_record, replay
from gamenight.core.runner import play_match
from gamenight.games.dice_duel.bots import TurnOptimalBot
from gamenight.games.dice_duel.combinations import COMBINATIONS
from gamenight.games.dice_duel.events import Rolled
from gamenight.games.dice_duel.game import GAME
from gamenight.games.dice_duel.rules import ALL_ROLLS, Action, DiceDuelState, Roll, Stop, Take
from gamenight.games.dice_duel.scoring import score

# (players, mode): solo is exactly one player, multiplayer 2 to 6 (K7).
tables = st.one_of(
    st.just((1, "solo")), st.tuples(st.integers(min_value=2, max_value=6), st.just("multi"))
)
seeds = st.integers(min_value=0, max_value=2**32)

EVERY_ACTION: list[Any] = [
    *ALL_ROLLS,
    Roll(keep=(0, 1, 2, 3, 4)),
    Roll(keep=(2, 2)),
    Roll(keep=(4, 0)),
    Roll(keep=(7,)),
    Stop(),
    *(Take(c, s) for c in COMBINATIONS for s in ("plate", "set-aside")),
    Take("kniffel"),  # type: ignore[arg-type]
    Take("flush", "box"),  # type: ignore[arg-type]
]
GARBAGE: list[Any] = [
    None,
    3,
    "roll",
    {"type": "roll"},
    ("take", "flush"),
    Rolled(player=0, roll=1, kept=(), rolled=(1,) * 5, dice=(1,) * 5, makes=()),
]


def _chips_in_play(state: DiceDuelState) -> int:
    return sum(state.plate) + sum(state.set_aside) + sum(sum(c) for c in state.chips)


@settings(max_examples=150, deadline=None)
@given(tables, seeds, seeds)
@example(table=(1, "solo"), seed=390, choose=2723)  # a solo Kniffel takes the last plate chip
def test_random_play_terminates_with_valid_results(
    table: tuple[int, str], seed: int, choose: int
) -> None:
    players, mode = table
    states = playout(players, mode, seed, choose)
    final = states[-1]
    assert all(_chips_in_play(s) == 28 for s in states)  # K3: chips only move
    assert all(min(s.plate + s.set_aside) >= 0 for s in states)
    assert not any(final.plate)  # K6: the game ends exactly when the plate is empty
    # The plate is empty only at the end, or (K7) between the two chips of a solo
    # Kniffel whose first chip emptied it: the second may come from the set-aside pile.
    for s in states[:-1]:
        assert any(s.plate) or (s.mode == "solo" and s.phase == "pick" and s.picks == 1)
    results = GAME.results(final)
    assert len(results.scores) == len(results.ranks) == players
    for p, total in enumerate(results.scores):
        assert total == score(final.chips[p], final.last_chip == p).total
        assert total <= 1000
    assert results.winners and all(results.ranks[w] == 1 for w in results.winners)
    assert max(results.scores) == results.scores[results.winners[0]]


@settings(max_examples=60, deadline=None)
@given(tables, seeds, seeds, st.randoms(use_true_random=False))
def test_illegal_actions_are_refused_and_change_nothing(
    table: tuple[int, str], seed: int, choose: int, rnd: random.Random
) -> None:
    players, mode = table
    states = playout(players, mode, seed, choose)
    for state in rnd.sample(states[:-1], k=min(6, len(states) - 1)):
        before = msgspec.json.encode(state)
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, seat)
        illegal = [a for a in EVERY_ACTION if a not in legal]
        for action in [*rnd.sample(illegal, k=min(8, len(illegal))), *GARBAGE]:
            with pytest.raises(IllegalActionError):
                GAME.apply(state, seat, action)
        for other in range(players):
            if other != seat:
                with pytest.raises(IllegalActionError):
                    GAME.apply(state, other, legal[0])
        assert msgspec.json.encode(state) == before
    with pytest.raises(IllegalActionError):
        GAME.apply(states[-1], 0, Stop())


@settings(max_examples=60, deadline=None)
@given(tables, seeds, seeds)
def test_state_actions_and_events_round_trip_through_json(
    table: tuple[int, str], seed: int, choose: int
) -> None:
    players, mode = table
    states = playout(players, mode, seed, choose)
    for state in [*states[:: max(1, len(states) // 12)], states[-1]]:
        assert GAME.decode_state(msgspec.json.decode(msgspec.json.encode(state))) == state
        seat = GAME.to_act(state)[0] if not GAME.is_terminal(state) else 0
        for action in GAME.legal_actions(state, seat):
            raw = msgspec.json.decode(msgspec.json.encode(action))
            assert GAME.decode_action(raw) == action
    rng = random.Random(choose)
    state = states[0]
    while not GAME.is_terminal(state):
        seat = GAME.to_act(state)[0]
        step = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        for event in step.events:
            assert msgspec.json.decode(msgspec.json.encode(event), type=GAME.event_type) == event
            assert msgspec.json.decode(msgspec.json.encode(event)) == to_json(event)
        state = step.state
    results = GAME.results(state)
    assert msgspec.json.decode(msgspec.json.encode(results)) == to_json(results)


def test_malformed_actions_do_not_decode() -> None:
    for raw in ({"type": "take", "combination": "kniffel"}, {"type": "jump"}, [1], "stop"):
        with pytest.raises(IllegalActionError):
            GAME.decode_action(raw)


@settings(max_examples=30, deadline=None)
@given(tables, seeds)
def test_a_record_replays_to_the_same_final_state(table: tuple[int, str], seed: int) -> None:
    players, mode = table
    buffer = io.StringIO()
    agents: list[Any] = [RandomAgent(seed + p) for p in range(players)]
    agents[0] = TurnOptimalBot(seed)
    options = GAME.parse_options({"mode": mode})
    results, final = play_match(
        GAME, agents, seed=seed, options=options, record=RecordWriter(buffer)
    )
    report = replay(parse_record(buffer.getvalue().splitlines()))
    assert report.final_state == final
    assert report.results == results


@settings(max_examples=60, deadline=None)
@given(tables, seeds, seeds, seeds)
def test_views_hold_no_dice_source(
    table: tuple[int, str], seed: int, choose: int, other: int
) -> None:
    players, mode = table
    states = playout(players, mode, seed, choose)
    for state in [*states[:: max(1, len(states) // 8)], states[-1]]:
        moved = replace(state, dice=SeededDice(seed=other, counter=other % 1000))
        for seat in [None, *range(players)]:
            view = GAME.view(state, seat)
            assert GAME.view(moved, seat) == view
            assert _keys(to_json(view)).isdisjoint(
                {"dice", "seed", "counter", "values", "position"}
            )


def _keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def test_view_lists_the_same_legal_actions_as_the_engine() -> None:
    for seed in range(5):
        for state in playout(3, "multi", seed, seed)[:60]:
            if GAME.is_terminal(state):
                break
            seat = GAME.to_act(state)[0]
            legal: list[Action] = GAME.legal_actions(state, seat)
            assert GAME.view(state, seat).legal() == legal


def test_all_bot_game_through_the_runner() -> None:
    agents: list[Any] = [TurnOptimalBot(1), RandomAgent(2), TurnOptimalBot(3)]
    results, final = play_match(GAME, agents, seed=11)
    assert GAME.is_terminal(final) and len(results.scores) == 3
    solo, final = play_match(
        GAME, [TurnOptimalBot(4)], seed=12, options=GAME.parse_options({"mode": "solo"})
    )
    assert GAME.is_terminal(final) and 0 < solo.scores[0] <= 1000
