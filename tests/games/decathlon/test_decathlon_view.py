"""The Decathlon view on scripted positions: each value lands in its own field.

The view has some twenty fields, several of one type (``int | None``, tuples of
ints). ``view.build`` constructs it positionally (the hot path: CPython 3.11 turns
a call of more than 15 keywords into a dict, about five times slower), so a field
reorder would still type-check and still encode. These tests build the expected
view by keyword, field by field, so a reorder fails them.
"""

from __future__ import annotations

from decathlon_positions import shot_put_at_22
from decathlon_script import chain, new_game, play

from gamenight.games.decathlon.actions import Freeze, Skip
from gamenight.games.decathlon.game import GAME
from gamenight.games.decathlon.view import DecathlonView

# view.build passes the fields positionally in this order: a change to the struct's
# order must change build's calls with it, and this pin says so.
FIELDS = (
    "seat", "players", "variant", "disciplines", "discipline", "discipline_no", "order",
    "to_act", "phase", "sheet", "honours", "totals", "honour_totals", "attempt", "attempts",
    "tries", "best", "thrown", "freezable", "frozen", "run_up", "rethrows_left", "set_no",
    "sets", "set_size", "frozen_sets", "shot", "height", "jumps_at_height", "last_jump",
    "status", "marks",
)  # fmt: skip


def test_the_field_order_build_relies_on() -> None:
    assert DecathlonView.__struct_fields__ == FIELDS


def test_a_sprint_view_after_the_first_set() -> None:
    # two seats, seat 1 drawn first (D2); the 100 Metres' first set frozen (D4)
    dice = chain([1, 2, 3, 4], [5, 6, 6, 5])
    state, _ = new_game(dice, players=2, events="100m,high", draws=(1,))
    state, _ = play(state, Freeze((0, 1, 2, 3)))
    assert GAME.view(state, 0) == DecathlonView(
        seat=0,
        players=2,
        variant="points",
        disciplines=("100m", "high-jump"),
        discipline="100m",
        discipline_no=0,
        order=(1, 0),
        to_act=1,
        phase="keep-or-rethrow",
        totals=(0, 0),
        honour_totals=(0, 0),
        attempt=1,
        attempts=1,
        tries=((), ()),
        best=(None, None),
        thrown=(5, 6, 6, 5),
        frozen=(1, 2, 3, 4),
        rethrows_left=5,
        set_no=2,
        sets=2,
        set_size=4,
        frozen_sets=((1, 2, 3, 4),),
    )
    spectator = GAME.view(state, None)
    assert spectator.seat is None and spectator.to_act == 1
    # the four optional counters, each its own value
    assert (spectator.rethrows_left, spectator.set_no, spectator.sets, spectator.set_size) == (
        5,
        2,
        2,
        4,
    )


def test_a_shot_put_view_in_the_third_round() -> None:
    state = shot_put_at_22("championship")
    view = GAME.view(state, 1)
    assert (view.seat, view.to_act, view.players, view.variant) == (1, 2, 3, "championship")
    assert (view.discipline, view.discipline_no, view.order) == ("shot-put", 0, (0, 1, 2))
    assert (view.phase, view.attempt, view.attempts) == ("throw-or-stop", 3, 3)  # D3, D7
    assert view.tries == ((26, None, None), (12, None, None), (None, None))
    assert view.best == (26, 12, None)
    assert view.shot == (6, 6, 6, 4)
    assert view.thrown == view.frozen == view.run_up == ()
    assert view.rethrows_left is view.set_no is view.sets is view.set_size is None
    assert view.height is view.jumps_at_height is None


def test_a_high_jump_view_after_a_skip() -> None:
    state, _ = new_game([], players=2, events="high")
    state, _ = play(state, Skip())  # D8: seat 0 passes the opening height
    view = GAME.view(state, 0)
    assert (view.seat, view.to_act, view.phase) == (0, 1, "jump-or-skip")
    assert (view.height, view.jumps_at_height) == (10, 0)
    assert (view.attempt, view.attempts, view.tries) == (0, 0, ())  # no attempts (D8)
    assert view.best == (None, None)  # the highest cleared, by seat
    assert view.status == ("in", "in")
    assert view.marks == (((10, "-"),), ())
    assert view.rethrows_left is view.set_no is None


def test_the_view_once_the_game_is_over() -> None:
    state, _ = new_game(chain([6, 6, 6, 6] * 2), events="100m")
    state, _ = play(state, Freeze((0, 1, 2, 3)), Freeze((0, 1, 2, 3)))
    assert GAME.view(state, 0) == DecathlonView(
        seat=0,
        players=1,
        variant="points",
        disciplines=("100m",),
        discipline=None,
        discipline_no=1,
        order=(0,),
        to_act=None,
        phase="game-over",
        sheet=((-48,),),  # D4: sixes count minus six
        honours=((3,),),
        totals=(-48,),
        honour_totals=(3,),
    )
