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
from typing_extensions import TypeVar

from gamenight.core.dice import DiceSource, SeededDice
from gamenight.core.errors import IllegalActionError
from gamenight.core.events import Event
from gamenight.core.game import Game, Results, to_json
from gamenight.core.options import Options
from gamenight.core.record import RecordSeat, RecordWriter, parse_record, replay, write_moves
from gamenight.core.table import Table

S = TypeVar("S", bound=msgspec.Struct, default=msgspec.Struct)
A = TypeVar("A", bound=msgspec.Struct, default=msgspec.Struct)
V = TypeVar("V", bound=msgspec.Struct, default=msgspec.Struct)
E = TypeVar("E", bound=Event, default=Event)


def random_playout(
    game: Game[S, A, V, E],
    seats: int,
    options: Options,
    seed: int,
    *,
    max_steps: int = 100_000,
    probe: bool = True,
) -> tuple[S, list[tuple[int, A, tuple[E, ...]]]]:
    """Play uniformly random legal actions to the end, checking each step.

    With ``probe``, every position is also checked for refusing illegal actions
    and for views that do not depend on the dice source. Returns the final
    state and the history ``(seat, action, events)``.
    """
    rng = random.Random(seed)
    step = game.start(seats, options, SeededDice(seed=seed))
    state = step.state
    history: list[tuple[int, A, tuple[E, ...]]] = []
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
    game: Game[S, A, V, E], state: S, seats: int, legal: list[A], rng: random.Random
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


def check_views_hide_dice(game: Game[S, A, V, E], state: Any, seats: int) -> None:
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


def check_round_trips(game: Game[S, A, V, E], state: Any, history: list[Any]) -> None:
    """States, actions and events survive JSON unchanged."""
    assert game.decode_state(to_json(state)) == state
    for _, action, events in history:
        assert game.decode_action(to_json(action)) == action
        for event in events:
            assert msgspec.convert(to_json(event), game.event_type) == event, (
                f"{event!r} does not survive JSON"
            )


def check_replay(
    game: Game[S, A, V, E],
    seats: int,
    options: Options,
    seed: int,
    history: list[Any],
    final: Any,
) -> None:
    """A record of the game replays to exactly the same final state."""
    buffer = io.StringIO()
    writer = RecordWriter(buffer)
    names = [RecordSeat(f"p{i}", "bot:random") for i in range(seats)]
    table = write_moves(writer, game, options, seed, names, [(s, a) for s, a, _ in history])
    assert [events for _, _, events in table.played()] == [
        tuple(events) for _, _, events in history
    ], "the table's events differ from the game's"
    report = replay(parse_record(buffer.getvalue().splitlines()))
    assert report.final_state == final, "replayed final state differs"


def check_table(
    game: Game[S, A, V, E], seats: int, options: Options, seed: int, *, max_steps: int = 100_000
) -> Table[S, A, V, E]:
    """Play a random game through a :class:`Table` on the path every front end takes
    (prepare, a durable writer, commit, listeners taking each seat's frame, as the
    server's broadcast does), checking its promises at every step.

    * each seat's frame holds exactly the events it may see, its own action in
      full and anyone else's in its public form, and its position after the step:
      its view, its legal actions (only when it is to act; a spectator never has
      any), who acts and the results;
    * the durable writer sees each step before the table moves on;
    * a stale ``expected_seq`` and an illegal action are refused and change nothing;
    * ``events_since`` and ``history`` agree with the frames;
    * no frame, position, event or history entry any seat or spectator receives
      holds the seed, encoded as the server encodes it.
    """
    rng = random.Random(seed)
    table = Table.start(game, seats, options, SeededDice(seed=seed))
    viewers: list[int | None] = [*range(seats), None]
    frames: dict[int | None, list[Any]] = {v: [table.opening.frame(v)] for v in viewers}
    durable: list[int] = []

    def write(step: Any) -> None:
        assert step.seq == table.seq + 1, "the durable writer runs before the table moves"
        durable.append(step.seq)

    def broadcast(step: Any) -> None:
        for viewer in viewers:
            frames[viewer].append(step.frame(viewer))

    table.on_commit(write)
    table.listen(broadcast)
    secret = str(seed)

    def audit(viewer: int | None, *sent: Any) -> None:
        stream = msgspec.json.encode(list(sent)).decode()
        assert secret not in stream, f"seat {viewer}'s stream holds the seed"

    for _ in range(max_steps):
        if table.finished:
            break
        acting = table.to_act()
        seat = rng.choice(acting)
        legal = table.position(seat).legal
        _check_refusals(table, seat, legal, seats)
        action = rng.choice(legal)
        step = table.prepare(seat, action, expected_seq=table.seq)
        assert table.commit(step) is step
        for viewer in viewers:
            frame = frames[viewer][-1]
            _check_frame(game, table, step, viewer, frame)
            audit(viewer, frame)
    else:
        raise AssertionError(f"{game.info.id} did not end within {max_steps} actions")
    assert durable == list(range(1, table.seq + 1))
    for viewer in viewers:
        seen = [e for f in frames[viewer] for e in f.events]
        assert [s.event for s in table.events_since(viewer, -1)] == seen, f"seat {viewer}"
        opening = frames[viewer][0]
        assert opening.seat is None and opening.action is None
        assert opening.events == tuple(e for e in table.start_events if e.visible_to(viewer))
        mine = table.history(viewer)
        audit(viewer, mine, frames[viewer][0])
        moves = table.moves()
        assert len(mine) == len(moves) == table.seq
        for move, (actor, action) in zip(mine, moves, strict=True):
            assert move.seat == actor
            if actor == viewer:
                assert move.action == action
    assert table.results() == game.results(table.state)
    return table


def _check_frame(
    game: Game[S, A, V, E], table: Table[S, A, V, E], step: Any, viewer: int | None, frame: Any
) -> None:
    """One seat's frame of ``step``, against the game's own functions."""
    assert frame.seq == step.seq == table.seq and frame.viewer == viewer
    assert frame.seat == step.seat
    assert frame.events == tuple(e for e in step.events if e.visible_to(viewer))
    if viewer == step.seat:
        assert frame.action == step.action
    elif frame.action is not None:
        assert frame.action == game.public_action(step.state, step.seat, step.action)
    else:
        assert game.info.hidden_info, "a game without secrets shows every action"
    position = frame.position
    assert position == table.position(viewer)
    assert position.to_act == game.to_act(table.state)
    assert position.view == game.view(table.state, viewer)
    if viewer is not None and viewer in position.to_act:
        assert list(position.legal) == game.legal_actions(table.state, viewer)
    else:
        assert position.legal == (), f"seat {viewer} got legal actions out of turn"
    assert (position.results is not None) == table.finished


def _check_refusals(table: Table[S, A, V, E], seat: int, legal: Sequence[Any], seats: int) -> None:
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
