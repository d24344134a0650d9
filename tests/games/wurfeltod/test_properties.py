"""Property tests of the Wurfeltod engine over random seeds, player counts and play."""

from __future__ import annotations

import io
import random
from collections import Counter
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.core.agents import RandomAgent
from gamenight.core.dice import ScriptedDice, SeededDice
from gamenight.core.errors import IllegalActionError
from gamenight.core.game import to_json
from gamenight.core.record import RecordWriter, parse_record, replay
from gamenight.core.runner import play_match
from gamenight.games.wurfeltod.booking import evaluate
from gamenight.games.wurfeltod.bots import GreedyBot
from gamenight.games.wurfeltod.categories import Category
from gamenight.games.wurfeltod.game import GAME, WurfeltodView
from gamenight.games.wurfeltod.rules import (
    BOXES,
    TURNS,
    Action,
    Book,
    Booked,
    Scratch,
    Scratched,
    SetAside,
)
from gamenight.games.wurfeltod.rules import WurfeltodEvent as Event
from gamenight.games.wurfeltod.rules import WurfeltodState as State

seeds = st.integers(min_value=0, max_value=2**32)
player_counts = st.integers(min_value=1, max_value=8)


def random_game(seed: int, players: int) -> list[tuple[State, Action, tuple[Event, ...]]]:
    """Random legal play to the end: (state before, action, events) per step; last state too."""
    rng = random.Random(seed)
    state: State = GAME.start(players, GAME.parse_options(), SeededDice(seed=seed)).state
    steps: list[tuple[State, Action, tuple[Event, ...]]] = []
    while not GAME.is_terminal(state):
        (seat,) = GAME.to_act(state)
        action = rng.choice(GAME.legal_actions(state, seat))
        step = GAME.apply(state, seat, action)
        steps.append((state, action, step.events))
        state = step.state
    steps.append((state, Book(Category.ANY_PAIR), ()))  # the final state; its action is unused
    return steps


@settings(max_examples=100, deadline=None)
@given(seed=seeds, players=player_counts)
def test_random_play_ends_with_every_box_booked_once(seed: int, players: int) -> None:
    steps = random_game(seed, players)
    final = steps[-1][0]
    assert final.finished and GAME.to_act(final) == ()
    bookings = [e for _, _, events in steps for e in events if isinstance(e, Booked | Scratched)]
    assert len(bookings) == TURNS * players
    for seat, card in enumerate(final.cards):
        # W1: every player books exactly 20 boxes, each box once.
        assert card.booked() == TURNS
        assert Counter(e.category for e in card.boxes if e is not None) == Counter(BOXES)
        assert sorted(e.turn for e in card.boxes if e is not None) == list(range(1, TURNS + 1))
        assert sum(1 for e in bookings if e.player == seat) == TURNS
        for entry in card.boxes:
            assert entry is not None
            if entry.scratch:
                assert (entry.points, entry.wurfeltod) == (0, False)
            else:
                booking = evaluate(entry.aside, entry.final_roll)[entry.category]
                assert (entry.points, entry.wurfeltod) == (booking.points, booking.wurfeltod)
        entries = [e for e in card.boxes if e is not None]
        assert card.points == sum(e.points for e in entries)
        assert card.wurfeltods == sum(e.wurfeltod for e in entries)
    results = GAME.results(final)
    totals = [c.points - 250 * c.wurfeltods for c in final.cards]
    assert list(results.scores) == totals
    assert all(results.ranks[s] == 1 + sum(t > totals[s] for t in totals) for s in range(players))
    assert set(results.winners) == {s for s in range(players) if totals[s] == max(totals)}


class Foreign(msgspec.Struct, frozen=True, tag="freeze"):
    dice: tuple[int, ...]


candidate_actions = st.one_of(
    st.builds(SetAside, st.lists(st.integers(-2, 7), max_size=7).map(tuple)),
    st.builds(Book, st.sampled_from(list(Category))),
    st.builds(Scratch, st.sampled_from(list(Category))),
    st.builds(Foreign, st.lists(st.integers(0, 5), max_size=3).map(tuple)),
    st.builds(SetAside, st.lists(st.sampled_from([None, "1", (1,)]), max_size=2).map(tuple)),
    st.builds(Book, st.sampled_from(["any-pair", "seven-of-a-kind", 3, None])),
    st.builds(SetAside, st.sampled_from([None, 5, "12"])),
    st.sampled_from([None, 3, "book", ("set-aside", 1)]),
)


@settings(max_examples=100, deadline=None)
@given(seed=seeds, players=player_counts, data=st.data())
def test_illegal_actions_raise_and_leave_the_state_alone(
    seed: int, players: int, data: st.DataObject
) -> None:
    steps = random_game(seed, players)
    for _ in range(6):
        state = data.draw(st.sampled_from(steps))[0]
        before = msgspec.json.encode(state)
        seat = state.current
        action: Any = data.draw(candidate_actions)
        legal = GAME.legal_actions(state, seat)
        if action in legal:
            GAME.apply(state, seat, action)
        else:
            try:
                GAME.apply(state, seat, action)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"{action!r} was accepted but is not legal")
        if legal and players > 1:
            other = data.draw(st.sampled_from([s for s in range(players) if s != seat]))
            try:
                GAME.apply(state, other, legal[0])
            except IllegalActionError:
                pass
            else:
                raise AssertionError("a seat acted out of turn")
        assert msgspec.json.encode(state) == before


def test_malformed_json_actions_are_refused() -> None:
    for raw in (
        {"type": "book", "category": "seven-of-a-kind"},
        {"type": "set-aside", "dice": "12"},
        {"type": "roll"},
        {"category": "any-pair"},
        "book p",
    ):
        try:
            GAME.decode_action(raw)
        except IllegalActionError:
            continue
        raise AssertionError(f"{raw!r} decoded")


@settings(max_examples=25, deadline=None)
@given(seed=seeds, players=player_counts)
def test_states_actions_events_and_views_round_trip_through_json(seed: int, players: int) -> None:
    for state, action, events in random_game(seed, players):
        assert GAME.decode_state(msgspec.json.decode(msgspec.json.encode(state))) == state
        assert GAME.decode_action(msgspec.json.decode(msgspec.json.encode(action))) == action
        for event in events:
            encoded = msgspec.json.encode(event)
            assert msgspec.json.decode(encoded, type=Event) == event
            assert msgspec.json.decode(encoded, type=GAME.event_type) == event
            assert msgspec.json.encode(msgspec.json.decode(encoded, type=Event)) == encoded
            assert msgspec.json.decode(encoded) == to_json(event)
        view = GAME.view(state, state.current)
        assert msgspec.json.decode(msgspec.json.encode(view), type=WurfeltodView) == view


@settings(max_examples=25, deadline=None)
@given(seed=seeds, players=st.integers(1, 4), greedy=st.booleans())
def test_records_replay_to_the_same_final_state(seed: int, players: int, greedy: bool) -> None:
    stream = io.StringIO()
    agents: list[Any] = [
        GreedyBot(i) if greedy and i % 2 == 0 else RandomAgent(i) for i in range(players)
    ]
    results, state = play_match(GAME, agents, seed=seed, record=RecordWriter(stream))
    report = replay(parse_record(stream.getvalue().splitlines()))
    assert report.final_state == state
    assert report.results == results


def _keys(value: object) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


@settings(max_examples=25, deadline=None)
@given(seed=seeds, other=seeds, players=player_counts, data=st.data())
def test_views_do_not_depend_on_the_dice_source(
    seed: int, other: int, players: int, data: st.DataObject
) -> None:
    steps = random_game(seed, players)
    for _ in range(5):
        state = data.draw(st.sampled_from(steps))[0]
        counter = data.draw(st.integers(0, 10_000))
        sources = [
            SeededDice(seed=other, counter=counter),
            ScriptedDice(values=(6, 6, 6), position=1),
        ]
        for seat in (None, *range(players)):
            view = GAME.view(state, seat)
            for source in sources:
                assert GAME.view(msgspec.structs.replace(state, dice=source), seat) == view
            assert not _keys(to_json(view)) & {"dice", "seed", "counter", "values", "position"}
