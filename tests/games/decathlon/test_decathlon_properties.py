"""Property tests over random seeds, player counts, event subsets and both variants."""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from dataclasses import dataclass

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.core.agents import RandomAgent
from gamenight.core.dice import ScriptedDice, SeededDice
from gamenight.core.errors import IllegalActionError, RecordError
from gamenight.core.options import Options
from gamenight.core.record import RecordWriter, parse_record, replay
from gamenight.core.runner import play_match
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
from gamenight.games.decathlon.events import DecathlonEvent as Event
from gamenight.games.decathlon.game import GAME
from gamenight.games.decathlon.rules import DecathlonState
from gamenight.games.decathlon.scoring import honours
from gamenight.games.decathlon.view import DecathlonView

# Valid results per event: sprints 8 dice at -6..5 (D4), hurdles 5..30 (D5), long jump
# 1..30 (D6), shot put 2..48 (D7), heights are bar heights (D8, D9), discus 2..30 and
# javelin 1..30 (D10).
RANGES = {
    "100m": (-48, 40),
    "400m": (-48, 40),
    "1500m": (-48, 40),
    "110m-hurdles": (5, 30),
    "long-jump": (1, 30),
    "shot-put": (2, 48),
    "high-jump": (10, 30),
    "pole-vault": (10, 48),
    "discus": (2, 30),
    "javelin": (1, 30),
}


@dataclass(frozen=True)
class Setup:
    seed: int
    players: int
    events: list[str]
    variant: str

    def options(self) -> Options:
        return GAME.parse_options({"events": self.events, "variant": self.variant})


games = st.builds(
    Setup,
    seed=st.integers(0, 2**40),
    players=st.integers(1, 8),
    events=st.lists(st.sampled_from(EVENT_IDS), min_size=1, max_size=10, unique=True),
    variant=st.sampled_from(["points", "championship"]),
)


def positions(setup: Setup) -> Iterator[tuple[DecathlonState, int, list[Action]]]:
    """Every position of a random legal game: (state, seat to act, legal actions).

    The last item is the final state, with seat -1 and no legal actions.
    """
    state = GAME.start(setup.players, setup.options(), SeededDice(seed=setup.seed)).state
    rng = random.Random(setup.seed)
    while not GAME.is_terminal(state):
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        yield state, seat, legal
        state = GAME.apply(state, seat, rng.choice(legal)).state
    yield state, -1, []


@settings(max_examples=60, deadline=None)
@given(games)
def test_random_play_terminates_with_a_valid_result_for_everyone(setup: Setup) -> None:
    steps = 0
    for state, seat, legal in positions(setup):
        if seat < 0:
            break
        steps += 1
        assert len(legal) >= 2, "a player is never asked a question with one answer"
        assert GAME.view(state, seat).to_act == seat
    assert steps < 5000
    results = GAME.results(state)
    players, events = state.players, list(state.disciplines)
    assert len(results.scores) == players and results.winners
    assert list(results.detail["sheet"]) == events
    for event, row in results.detail["sheet"].items():
        lo, hi = RANGES[event]
        assert len(row) == players
        assert all(r is None or lo <= r <= hi for r in row), (event, row)
    rows = [tuple(row) for row in results.detail["sheet"].values()]
    points = [sum(r[s] or 0 for r in rows) for s in range(players)]
    medals = [sum(honours(r)[s] for r in rows) for s in range(players)]
    expected = medals if setup.variant == "championship" else points
    assert list(results.scores) == expected
    assert results.detail["totals"] == points
    assert set(results.winners) == {s for s in range(players) if expected[s] == max(expected)}


POOL: list[Action] = [Rethrow(), Jump(), Stop(), Throw(), Skip(), Retire()]


def candidates(rng: random.Random) -> list[Action]:
    freezes = [
        Freeze(tuple(rng.randint(-1, 8) for _ in range(rng.randint(0, 7)))) for _ in range(6)
    ]
    return [*POOL, *freezes, Vault(rng.randint(-1, 10)), Vault(rng.randint(1, 8))]


def equivalent_legal(action: Action, legal: list[Action]) -> bool:
    if isinstance(action, Freeze) and len(set(action.dice)) == len(action.dice):
        return Freeze(tuple(sorted(action.dice))) in legal
    return action in legal


@settings(max_examples=40, deadline=None)
@given(games)
def test_illegal_actions_are_refused_and_change_nothing(setup: Setup) -> None:
    rng = random.Random(setup.seed + 1)
    for state, seat, legal in positions(setup):
        before = msgspec.json.encode(state)
        acting = seat if seat >= 0 else 0
        for action in candidates(rng):
            if seat >= 0 and equivalent_legal(action, legal):
                GAME.apply(state, seat, action)  # accepted; states are immutable anyway
                continue
            try:
                GAME.apply(state, acting, action)
            except IllegalActionError as exc:
                assert str(exc)
            else:
                raise AssertionError(f"{action} accepted; legal were {legal}")
        if seat >= 0 and state.players > 1:
            other = (seat + 1) % state.players
            try:
                GAME.apply(state, other, legal[0])
            except IllegalActionError as exc:
                assert "turn" in str(exc)
            else:
                raise AssertionError("an action by the wrong seat was accepted")
        assert msgspec.json.encode(state) == before


@settings(max_examples=30, deadline=None)
@given(games)
def test_states_actions_events_and_views_round_trip_through_json(setup: Setup) -> None:
    step = GAME.start(setup.players, setup.options(), SeededDice(seed=setup.seed))
    rng, state = random.Random(setup.seed), step.state
    events = list(step.events)
    while True:
        assert GAME.decode_state(msgspec.json.decode(msgspec.json.encode(state))) == state
        view = GAME.view(state, 0)
        assert msgspec.json.decode(msgspec.json.encode(view), type=DecathlonView) == view
        if GAME.is_terminal(state):
            break
        (seat,) = GAME.to_act(state)
        action = rng.choice(GAME.legal_actions(state, seat))
        assert GAME.decode_action(msgspec.json.decode(msgspec.json.encode(action))) == action
        step = GAME.apply(state, seat, action)
        state = step.state
        events.extend(step.events)
    for event in events:
        assert msgspec.json.decode(msgspec.json.encode(event), type=Event) == event


@settings(max_examples=20, deadline=None)
@given(games)
def test_a_record_replays_to_the_same_final_state(setup: Setup) -> None:
    stream = io.StringIO()
    agents = [RandomAgent(setup.seed + i) for i in range(setup.players)]
    results, state = play_match(
        GAME, agents, seed=setup.seed, options=setup.options(), record=RecordWriter(stream)
    )
    report = replay(parse_record(stream.getvalue().splitlines()))
    assert report.final_state == state
    assert report.results == results


@settings(max_examples=30, deadline=None)
@given(games, st.integers(0, 2**40))
def test_views_do_not_depend_on_the_dice_source(setup: Setup, other: int) -> None:
    for state, seat, _ in positions(setup):
        views = [GAME.view(state, s) for s in [None, *range(state.players)]]
        for dice in (SeededDice(seed=other, counter=7), ScriptedDice(values=(6, 5, 4))):
            moved = msgspec.structs.replace(state, dice=dice)
            assert [GAME.view(moved, s) for s in [None, *range(state.players)]] == views
        # nothing is private in the Decathlon: seats differ only in whose view it is
        assert {msgspec.structs.replace(v, seat=None) for v in views} == {views[0]}
        text = msgspec.json.encode(views[-1]).decode()
        for secret in ('"seed"', '"counter"', '"values"', '"position"', "seeded", "scripted"):
            assert secret not in text
        assert seat >= 0 or GAME.is_terminal(state)


def test_a_tampered_record_is_caught() -> None:
    stream = io.StringIO()
    options = GAME.parse_options({"events": "hurdles"})
    agents = [RandomAgent(1), RandomAgent(2)]
    play_match(GAME, agents, seed=5, options=options, record=RecordWriter(stream))
    record = parse_record(stream.getvalue().splitlines())
    assert replay(record).actions == len(record.actions)
    (roll,) = [e for e in record.start_events if isinstance(e, dict) and e["kind"] == "roll"]
    dice = roll["dice"]
    assert isinstance(dice, list) and isinstance(dice[0], int)
    dice[0] = 7 - dice[0]
    with pytest.raises(RecordError, match=r"start of game: event \d+ differs"):
        replay(record)


@settings(max_examples=15, deadline=None)
@given(games)
def test_the_sheet_summaries_kept_on_the_state_match_the_sheet(setup: Setup) -> None:
    from gamenight.games.decathlon.rules import summaries

    for state, _, _ in positions(setup):
        assert (state.honours, state.totals, state.honour_totals) == summaries(
            state.sheet, state.players
        )
