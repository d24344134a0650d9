"""Property tests over random seeds and options (the engine contract)."""

from __future__ import annotations

import io
import random
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from gamenight.core.agents import RandomAgent
from gamenight.core.dice import SeededDice
from gamenight.core.errors import IllegalActionError
from gamenight.core.game import to_json
from gamenight.core.record import RecordWriter, parse_record, replay
from gamenight.core.runner import play_match
from gamenight.core.testing import (
    check_illegal_refused,
    check_replay,
    check_round_trips,
    random_playout,
)
from gamenight.games.decades.bots import BOTS
from gamenight.games.decades.events import Ready
from gamenight.games.decades.game import GAME
from gamenight.games.decades.rules import (
    Answer,
    CancelAnswer,
    DecadesState,
    Extend,
    Keep,
    PlayCard,
    RemoveToken,
)
from gamenight.games.decades.tokens import Placement

seeds = st.integers(min_value=0, max_value=2**32)
option_sets = st.fixed_dictionaries(
    {
        "track": st.sampled_from([1, 25, 60, 100, 400]),
        "sides": st.sampled_from(["A,B", "B,A", "A,A", "B,B"]),
    }
)

EVERY_KIND: list[Any] = [
    Keep(("blocked",) * 4),
    Keep(("cancel-answer",) * 5),
    Keep(()),
    Answer(1979),
    Answer(2020),
    Answer(1995),
    Extend(()),
    Extend((Placement(4, 1980),)),
    Extend((Placement(2, 2019),)),
    Extend((Placement(3, 1999), Placement(3, 1999))),
    PlayCard("blocked"),
    PlayCard("joker"),
    RemoveToken(4),
    RemoveToken(7),
    CancelAnswer("music"),
    CancelAnswer("weather"),
]
GARBAGE: list[Any] = [
    None,
    3,
    "answer",
    {"type": "answer", "year": 1990},
    Ready(team=0, step="answer"),
]


def _states(seed: int, options: dict[str, Any]) -> list[DecadesState]:
    rng = random.Random(seed)
    state = GAME.start(2, GAME.parse_options(options), SeededDice(seed=seed)).state
    states = [state]
    while not GAME.is_terminal(state):
        seat = rng.choice(GAME.to_act(state))
        state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat))).state
        states.append(state)
    return states


@settings(max_examples=100, deadline=None)
@given(seeds, option_sets)
def test_random_play_terminates_with_valid_results(seed: int, options: dict[str, Any]) -> None:
    parsed = GAME.parse_options(options)
    final, history = random_playout(GAME, 2, parsed, seed, probe=False)
    assert final.finished and 1 <= len(final.log) <= 4
    results = GAME.results(final)
    assert results.scores == final.scores
    # T6: the game ends early exactly when a team reaches the end of the track
    assert final.early_win == (max(final.scores) >= final.track)
    if not final.early_win:
        assert len(final.log) == 4 and all(len(r.categories) == 6 for r in final.log)
    # scores are the sum of every scored answer (T5)
    for seat in (0, 1):
        total = sum(c.scores[seat].points for r in final.log for c in r.categories)
        assert total == final.scores[seat]
    # every kept card is played, one per round (T3)
    for seat in (0, 1):
        assert len(final.hands[seat]) == 4 - len(final.log)
    check_round_trips(GAME, final, history)


@settings(max_examples=30, deadline=None)
@given(seeds, option_sets)
def test_every_position_refuses_illegal_actions_and_hides_the_dice(
    seed: int, options: dict[str, Any]
) -> None:
    # random_playout probes every position: mutated and foreign actions are refused
    # and leave the state unchanged; views ignore the dice source.
    random_playout(GAME, 2, GAME.parse_options(options), seed, probe=True)


@settings(max_examples=30, deadline=None)
@given(seeds, st.randoms(use_true_random=False))
def test_illegal_actions_and_garbage_are_refused(seed: int, rnd: random.Random) -> None:
    states = _states(seed, {})
    for state in rnd.sample(states[:-1], k=8):
        before = msgspec.json.encode(state)
        acting = GAME.to_act(state)
        for seat in (0, 1):
            legal = GAME.legal_actions(state, seat)
            for action in [*EVERY_KIND, *GARBAGE]:
                if seat in acting and action in legal:
                    continue
                with pytest.raises(IllegalActionError):
                    GAME.apply(state, seat, action)
            if seat not in acting:
                assert legal == []
                other_legal = GAME.legal_actions(state, acting[0])
                with pytest.raises(IllegalActionError):
                    GAME.apply(state, seat, other_legal[0])
        check_illegal_refused(GAME, state, 2, GAME.legal_actions(state, acting[0]), rnd)
        assert msgspec.json.encode(state) == before
    with pytest.raises(IllegalActionError, match="game is over"):
        GAME.apply(states[-1], 0, Answer(1990))


@settings(max_examples=30, deadline=None)
@given(seeds)
def test_state_actions_and_events_round_trip_through_json(seed: int) -> None:
    states = _states(seed, {"track": 60})
    for state in [*states[::5], states[-1]]:
        raw = msgspec.json.decode(msgspec.json.encode(state))
        assert GAME.decode_state(raw) == state
        for seat in GAME.to_act(state):
            for action in GAME.legal_actions(state, seat)[:20]:
                assert GAME.decode_action(to_json(action)) == action
        for viewer in (0, 1, None):
            view = GAME.view(state, viewer)
            assert msgspec.json.decode(msgspec.json.encode(view), type=type(view)) == view
    _, history = random_playout(GAME, 2, GAME.parse_options(), seed, probe=False)
    for _, _, events in history:
        for event in events:
            # typed events round-trip exactly through the game's event union
            assert msgspec.json.decode(msgspec.json.encode(event), type=GAME.event_type) == event


def test_malformed_actions_do_not_decode() -> None:
    for raw in ({"type": "answer"}, {"type": "answer", "year": "1990"}, {"type": "dance"}, [1]):
        with pytest.raises(IllegalActionError):
            GAME.decode_action(raw)


@settings(max_examples=15, deadline=None)
@given(seeds, option_sets)
def test_a_record_replays_to_the_same_final_state(seed: int, options: dict[str, Any]) -> None:
    parsed = GAME.parse_options(options)
    final, history = random_playout(GAME, 2, parsed, seed, probe=False)
    check_replay(GAME, 2, parsed, seed, history, final)
    # and a bots' game written by the runner
    buffer = io.StringIO()
    agents: list[Any] = [BOTS["expert"](seed), RandomAgent(seed + 1)]
    results, final = play_match(
        GAME, agents, seed=seed, options=parsed, record=RecordWriter(buffer)
    )
    report = replay(parse_record(buffer.getvalue().splitlines()))
    assert report.final_state == final and report.results == results


@settings(max_examples=30, deadline=None)
@given(seeds, seeds)
def test_views_hold_no_dice_source(seed: int, other: int) -> None:
    states = _states(seed, {})
    for state in states[::4]:
        moved = replace(state, dice=SeededDice(seed=other, counter=other % 977))
        for seat in (None, 0, 1):
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


def test_all_bot_game_through_the_runner() -> None:
    for names in (("expert", "novice"), ("casual", "random")):
        agents: list[Any] = [BOTS[n](7) if n in BOTS else RandomAgent(7) for n in names]
        results, final = play_match(GAME, agents, seed=21)
        assert GAME.is_terminal(final) and len(results.scores) == 2
        assert results.winners


def test_every_event_kind_is_typed_and_round_trips_exactly() -> None:
    """Events are typed structs of the game's union; a few games meet every kind."""
    members = set(GAME.event_type.__args__)
    met: set[type] = set()
    for seed in range(6):
        step = GAME.start(2, GAME.parse_options({"track": 60}), SeededDice(seed=seed))
        _, history = random_playout(GAME, 2, GAME.parse_options({"track": 60}), seed, probe=False)
        for event in [*step.events, *(e for _, _, events in history for e in events)]:
            assert type(event) in members
            met.add(type(event))
            raw = msgspec.json.encode(event)
            assert msgspec.json.decode(raw, type=GAME.event_type) == event
            assert msgspec.json.encode(msgspec.json.decode(raw, type=GAME.event_type)) == raw
    assert met == members
