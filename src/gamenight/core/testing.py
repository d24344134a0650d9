"""Checks every game must pass, shared by the per-game property tests.

Each function plays or probes one game position and raises ``AssertionError``
with a precise message when the game breaks a kernel promise. Per-game tests
drive them with hypothesis over seeds, seat counts and options.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import msgspec

from gamenight.core.dice import DiceSource, SeededDice
from gamenight.core.errors import IllegalActionError
from gamenight.core.events import Event
from gamenight.core.game import Game, Results, to_json
from gamenight.core.options import Options
from gamenight.core.record import RecordWriter, SeatInfo, parse_record, replay
from gamenight.core.table import Table


def random_playout(
    game: Game[Any, Any],
    seats: int,
    options: Options,
    seed: int,
    *,
    max_steps: int = 100_000,
    probe: bool = True,
) -> tuple[Any, list[tuple[int, Any, tuple[Event, ...]]]]:
    """Play uniformly random legal actions to the end, checking each step.

    With ``probe``, every position is also checked for refusing illegal actions
    and for views that do not depend on the dice source. Returns the final
    state and the history ``(seat, action, events)``.
    """
    rng = random.Random(seed)
    step = game.start(seats, options, SeededDice(seed=seed))
    state = step.state
    history: list[tuple[int, Any, tuple[Event, ...]]] = []
    for _ in range(max_steps):
        acting = game.to_act(state)
        if not acting:
            break
        seat = rng.choice(acting)
        legal = game.legal_actions(state, seat)
        assert legal, f"seat {seat} must act but has no legal action"
        if probe:
            check_views_hide_dice(game, state, seats)
            check_illegal_refused(game, state, seats, legal, rng)
        action = rng.choice(legal)
        transition = game.apply(state, seat, action)
        history.append((seat, action, transition.events))
        state = transition.state
    else:
        raise AssertionError(f"{game.info.id} did not end within {max_steps} actions")
    results = game.results(state)
    check_results(results, seats)
    return state, history


def check_results(results: Results, seats: int) -> None:
    assert len(results.scores) == len(results.ranks) == seats
    assert results.winners, "a finished game has at least one winner"
    for seat, rank in enumerate(results.ranks):
        better = sum(other > results.scores[seat] for other in results.scores)
        assert rank == 1 + better, f"seat {seat}: rank {rank} but {better} better scores"
    assert set(results.winners) == {s for s, r in enumerate(results.ranks) if r == 1}


def check_illegal_refused(
    game: Game[Any, Any], state: Any, seats: int, legal: list[Any], rng: random.Random
) -> None:
    """Actions outside the legal list, and actions by seats not to act, are refused."""
    before = msgspec.json.encode(state)
    acting = set(game.to_act(state))
    candidates: list[tuple[int, Any]] = []
    for seat in range(seats):
        others = game.legal_actions(state, seat) if seat in acting else []
        pool = [a for a in others if a not in legal] if seat in acting else legal
        candidates += [(seat, a) for a in pool[:3]]
    for seat in acting:
        own = game.legal_actions(state, seat)
        for mutant in _mutants(own, rng):
            if mutant not in own:
                candidates.append((seat, mutant))
    for seat, action in candidates:
        if seat in acting and action in game.legal_actions(state, seat):
            continue
        try:
            game.apply(state, seat, action)
        except IllegalActionError:
            pass
        else:
            raise AssertionError(f"seat {seat}: illegal {action!r} was accepted")
        assert msgspec.json.encode(state) == before, "a refused action changed the state"


def _mutants(actions: list[Any], rng: random.Random) -> Iterable[Any]:
    """Nearby actions: the same kind with perturbed fields (often illegal)."""
    for action in rng.sample(actions, min(3, len(actions))):
        raw = to_json(action)
        for key, value in raw.items():
            if key == "type":
                continue
            mutated = dict(raw)
            if isinstance(value, bool):
                mutated[key] = not value
            elif isinstance(value, int):
                mutated[key] = value + rng.choice((-100, -1, 1, 7, 100))
            elif isinstance(value, list):
                mutated[key] = [*value, *value] if value else [99]
            elif isinstance(value, str):
                mutated[key] = value + "?"
            else:
                continue
            try:
                yield msgspec.convert(mutated, type(action))
            except msgspec.ValidationError:
                continue


def check_views_hide_dice(game: Game[Any, Any], state: Any, seats: int) -> None:
    """Views do not change when only the dice source changes, nor mention it."""
    dice: DiceSource = state.dice
    other = msgspec.structs.replace(state, dice=SeededDice(seed=dice_seed(dice) + 7919, counter=3))
    for seat in [*range(seats), None]:
        view = game.view(state, seat)
        assert view == game.view(other, seat), f"view of seat {seat} depends on the dice"
        text = json.dumps(to_json(view))
        assert '"seed"' not in text and '"counter"' not in text, "view leaks the dice source"


def dice_seed(dice: DiceSource) -> int:
    return dice.seed if isinstance(dice, SeededDice) else 0


def check_round_trips(game: Game[Any, Any], state: Any, history: list[Any]) -> None:
    """States, actions and events survive JSON unchanged."""
    assert game.decode_state(to_json(state)) == state
    for _, action, events in history:
        assert game.decode_action(to_json(action)) == action
        for event in events:
            assert msgspec.convert(to_json(event), game.event_type) == event, (
                f"{event!r} does not survive JSON"
            )


def check_replay(
    game: Game[Any, Any],
    seats: int,
    options: Options,
    seed: int,
    history: list[Any],
    final: Any,
) -> None:
    """A record of the game replays to exactly the same final state."""
    buffer = io.StringIO()
    writer = RecordWriter(buffer)
    writer.header(game, options, seed, [SeatInfo(f"p{i}", "bot:random") for i in range(seats)])
    start = game.start(seats, options, SeededDice(seed=seed))
    writer.start(start.events)
    for seat, action, events in history:
        writer.action(seat, action, events)
    writer.results(game.results(final))
    report = replay(parse_record(buffer.getvalue().splitlines()))
    assert report.final_state == final, "replayed final state differs"


def check_table(
    game: Game[Any, Any], seats: int, options: Options, seed: int, *, max_steps: int = 100_000
) -> Table[Any, Any]:
    """Play a random game through a :class:`Table`, checking its promises at every step.

    * snapshots give each seat its view, its legal actions (only when it is to
      act) and the seq; a spectator's has no legal actions;
    * a stale ``expected_seq`` and an illegal action are refused and change nothing;
    * ``events_since`` and watchers give each seat exactly the events it may see;
    * ``history`` shows a seat its own actions and others' in their public form;
    * no snapshot, event or history entry any seat or spectator receives holds the seed.
    """
    rng = random.Random(seed)
    table = Table.start(game, seats, options, SeededDice(seed=seed))
    viewers: list[int | None] = [*range(seats), None]
    heard: dict[int | None, list[Any]] = {v: [] for v in viewers}
    for viewer in viewers:
        table.watch(viewer, _collector(heard[viewer]))
    expected: dict[int | None, list[Any]] = {v: [] for v in viewers}
    secret = str(seed)

    def audit(viewer: int | None, *sent: Any) -> None:
        stream = msgspec.json.encode(list(sent)).decode()
        assert secret not in stream, f"seat {viewer}'s stream holds the seed"

    for viewer in viewers:
        audit(viewer, table.events_since(viewer, -1))
    for _ in range(max_steps):
        if table.finished:
            break
        acting = table.to_act()
        for viewer in viewers:
            snap = table.snapshot(viewer)
            assert snap.seq == table.seq and snap.to_act == acting
            if viewer in acting:
                assert list(snap.legal) == game.legal_actions(table.state, viewer)
            else:
                assert snap.legal == (), f"seat {viewer} got legal actions out of turn"
            audit(viewer, snap, table.events_since(viewer, table.seq - 1))
        seat = rng.choice(acting)
        legal = table.snapshot(seat).legal
        _check_refusals(table, seat, legal, seats)
        action = rng.choice(legal)
        events = table.submit(seat, action, expected_seq=table.seq)
        for viewer in viewers:
            expected[viewer] += [e for e in events if e.visible_to(viewer)]
    else:
        raise AssertionError(f"{game.info.id} did not end within {max_steps} actions")
    for viewer in viewers:
        since_start = [s.event for s in table.events_since(viewer, 0)]
        assert since_start == expected[viewer] == heard[viewer], f"seat {viewer}'s events"
        mine = table.history(viewer)
        audit(viewer, mine)
        moves = table.moves()
        assert len(mine) == len(moves) == table.seq
        for move, (actor, action) in zip(mine, moves, strict=True):
            assert move.seat == actor
            if actor == viewer:
                assert move.action == action
            else:
                assert move.action == game.public_action(table.state, actor, action)
    assert table.results() == game.results(table.state)
    return table


def _collector(into: list[Any]) -> Callable[[int, tuple[Any, ...]], None]:
    return lambda _seq, events: into.extend(events)


def _check_refusals(table: Table[Any, Any], seat: int, legal: Sequence[Any], seats: int) -> None:
    """A stale seq and a seat out of turn are refused, and change nothing."""
    before = (table.seq, msgspec.json.encode(table.state))
    if table.seq > 0:
        _refused(lambda: table.submit(seat, legal[0], expected_seq=table.seq - 1))
    outsiders = [s for s in range(seats) if s not in table.to_act()]
    if outsiders:
        _refused(lambda: table.submit(outsiders[0], legal[0]))
    assert (table.seq, msgspec.json.encode(table.state)) == before, "a refusal changed it"


def _refused(attempt: Callable[[], object]) -> None:
    try:
        attempt()
    except IllegalActionError:
        return
    raise AssertionError("an action that must be refused was accepted")
