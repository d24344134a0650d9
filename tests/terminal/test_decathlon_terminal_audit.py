"""The D12 counters and the standing at the terminal (moved from the Decathlon audit tests)."""

from __future__ import annotations

import io

from decathlon_table import chain, new_game, play
from rich.console import Console

from gamenight.games.decathlon.actions import Freeze, Jump, Throw, Vault
from gamenight.games.decathlon.game import GAME
from gamenight.games.decathlon.rules import DecathlonState
from gamenight.terminal.decathlon import UI
from gamenight.terminal.ui import Seating

TABLE = Seating(["Ann", "Bob", "Cy"], frozenset({0}))


# ----- the D12 counters at the terminal -----------------------------------------------------------
def _shown(state: DecathlonState) -> str:
    out = io.StringIO()
    UI().show(Console(file=out, width=120, color_system=None), GAME.view(state, 0), 0, TABLE)
    return out.getvalue()


def test_counters_show_the_shot_put_die_and_the_jumps_used_after_a_miss() -> None:
    state, _ = new_game([3, 4] + [1] * 5, events="shot")
    state, _ = play(state, Throw())
    assert "attempt 1 of 3 · die 2 of 8, total 7" in _shown(state)
    state, _ = new_game([1, 6], events="pole")
    state, _ = play(state, Jump(), Vault(2))
    assert "bar 10 · jumps used 1 of 3" in _shown(state)


def test_counters_show_the_sprint_score_of_the_frozen_sets() -> None:
    state, _ = new_game([5, 5, 6, 1, 2, 2, 2, 2], events="100m")
    state, _ = play(state, Freeze((0, 1, 2, 3)))
    assert "rethrows left 5 of 5 · set 2 of 2 · score so far 5" in _shown(state)


def test_counters_show_the_frozen_totals_in_the_jump_and_the_throws() -> None:
    state, _ = new_game(chain([1, 1, 2, 6, 6], [5, 4, 3], [2, 2]) + [1] * 30, events="long")
    state, _ = play(state, Freeze((0, 1, 2)), Jump(), Freeze((0,)))
    assert "jump with 3 dice · jump so far 5" in _shown(state)
    state, _ = new_game([6, 4, 3, 1, 1, 2, 2, 5, 5] + [1] * 20, events="discus")
    state, _ = play(state, Freeze((0, 1)))
    assert "attempt 1 of 3 · frozen total 10" in _shown(state)


def test_the_standing_names_its_unit_in_the_championship() -> None:
    # 100 m: Ann 20 (gold), Bob 8 (silver); the Long Jump panel shows honours.
    dice = chain([5, 5, 5, 5, 1, 1, 1, 1], [1] * 8, [4, 1, 2, 6, 2]) + [1] * 30
    state, _ = new_game(dice, players=2, events="100m,long", variant="championship")
    state, _ = play(state, *[Freeze((0, 1, 2, 3))] * 4)
    assert "Standing (honours): Ann 3 · Bob 2" in _shown(state)
