"""T7 at the table: another team's or a spectator's history and event stream never
hold a secret choice before its reveal, and do hold it after; undo never crosses a
reveal (core.table.Table with DecadesGame.public_action / reversible)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest
from msgspec.structs import replace

from gamenight.core.dice import SeededDice
from gamenight.core.game import to_json
from gamenight.core.table import Table
from gamenight.games.decades.actions import (
    Answer,
    CancelAnswer,
    Extend,
    Hidden,
    Keep,
    RemoveToken,
)
from gamenight.games.decades.game import GAME

Moves = list[tuple[int, Any]]


def _table(seed: int, moves: Sequence[tuple[int, Any]] = ()) -> Table[Any, Any, Any, Any]:
    table = Table.start(GAME, 2, GAME.parse_options(), SeededDice(seed=seed))
    for seat, action in moves:
        table.submit(seat, action)
    return table


def _seen(table: Table[Any, Any, Any, Any], viewer: int | None) -> str:
    """Everything ``viewer`` can read at the table: history, events and snapshot."""
    return json.dumps(
        [
            to_json(table.history(viewer)),
            to_json(table.events_since(viewer, -1)),
            to_json(table.position(viewer).view),
        ],
        sort_keys=True,
    )


def _random_game(seed: int) -> Moves:
    rng = random.Random(seed)
    table = _table(seed)
    moves: Moves = []
    while not table.finished:
        seat = rng.choice(table.to_act())
        action = rng.choice(table.position(seat).legal)
        table.submit(seat, action)
        moves.append((seat, action))
    return moves


@pytest.mark.parametrize("seed", [3, 8])
def test_a_waiting_choice_is_in_no_other_stream_and_revealed_after(seed: int) -> None:
    moves = _random_game(seed)
    checked = 0
    for k in range(len(moves)):
        table = _table(seed, moves[:k])
        state = table.state
        acting = table.to_act()
        if state.phase not in ("answer", "extend", "card", "keep") or len(acting) != 2:
            continue  # only the first of two secret choices stays waiting
        seat = moves[k][0]
        legal = table.position(seat).legal
        if len(legal) < 2:
            continue
        chosen, other = moves[k][1], next(a for a in legal if a != moves[k][1])
        first, second = _table(seed, moves[: k + 1]), _table(seed, [*moves[:k], (seat, other)])
        for viewer in (1 - seat, None):
            assert _seen(first, viewer) == _seen(second, viewer), (k, chosen, other)
            shown = first.history(viewer)[-1].action
            assert shown == Hidden(state.phase)
        assert first.history(seat)[-1].action == chosen  # the team sees its own choice
        checked += 1
        # once the other team has chosen too, the choice is revealed to everyone
        later = _table(seed, moves[: k + 2])
        if moves[k + 1][0] != seat and not isinstance(chosen, Keep):
            for viewer in (1 - seat, None):
                assert later.history(viewer)[k].action == chosen
    assert checked > 25


def test_kept_cards_show_once_every_one_was_played() -> None:
    for seed in range(40):
        moves = _random_game(seed)
        table = _table(seed, moves)
        if table.state.early_win:
            continue
        keep = next(a for s, a in moves if s == 0 and isinstance(a, Keep))
        assert table.history(1)[:2] != [] and keep in [m.action for m in table.history(1)]
        middle = _table(seed, moves[: len(moves) // 2])
        assert keep not in [m.action for m in middle.history(1)]
        assert Hidden("keep") in [m.action for m in middle.history(None)]
        return
    raise AssertionError("no seed played all four rounds")


def test_a_redacted_history_round_trips_through_json() -> None:
    table = _table(5)
    table.submit(0, table.position(0).legal[0])
    moves = table.history(None)
    assert moves[0].action == Hidden("keep")
    assert GAME.decode_action(to_json(moves[0].action)) == Hidden("keep")
    assert GAME.legal_actions(table.state, 1) and Hidden("keep") not in GAME.legal_actions(
        table.state, 1
    )


def test_undo_is_allowed_only_before_a_reveal() -> None:
    table = _table(11)
    keep0, keep1 = table.position(0).legal[0], table.position(1).legal[0]
    table.submit(0, keep0)
    assert table.can_undo(0) and not table.can_undo(1)
    table.undo(0)
    assert table.seq == 0 and table.to_act() == (0, 1)
    table.submit(0, keep0)
    table.submit(1, keep1)  # the reveal: round 1 begins, the first question is read
    assert not table.can_undo(1)
    table.submit(1, Answer(1990))
    assert table.can_undo(1)
    table.submit(0, Answer(1991))  # both answers revealed, next question asked
    assert not table.can_undo(0)
    for _ in range(5):
        table.submit(0, Answer(1985))
        table.submit(1, Answer(2005))
    table.submit(0, Extend(()))
    assert table.can_undo(0)
    table.submit(1, Extend(()))
    assert not table.can_undo(1)  # boards revealed
    hand0 = table.position(0).legal
    table.submit(0, hand0[0])
    assert table.can_undo(0)
    table.submit(1, table.position(1).legal[0])
    assert not table.can_undo(1)  # cards revealed (and maybe the round scored)
    if table.state.phase == "target" and len(table.to_act()) == 2:
        seat = table.to_act()[0]
        table.submit(seat, table.position(seat).legal[0])
        assert table.can_undo(seat)  # a target in the open, before scoring
        other = table.to_act()[0]
        target = table.position(other).legal[0]
        assert isinstance(target, RemoveToken | CancelAnswer)
        table.submit(other, target)
        assert not table.can_undo(other)  # the round was scored


def test_reversible_never_crosses_a_draw_or_a_question() -> None:
    state = GAME.start(2, GAME.parse_options(), SeededDice(seed=2)).state
    moved = GAME.apply(state, 0, GAME.legal_actions(state, 0)[0]).state
    assert GAME.reversible(state, moved)
    assert not GAME.reversible(state, replace(moved, dice=SeededDice(seed=99)))
    assert not GAME.reversible(state, replace(moved, round=1))
