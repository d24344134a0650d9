"""Rule tests on scripted dice: options, order (D2), attempts (D3), each event's mechanics."""

from __future__ import annotations

import pytest
from decathlon_script import chain, data, kind, kinds, new_game, play

from gamenight.core.dice import ScriptedDice, SeededDice
from gamenight.core.errors import IllegalActionError, OptionsError
from gamenight.games.decathlon.actions import (
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
from gamenight.games.decathlon.game import GAME

KEEP4 = Freeze((0, 1, 2, 3))


# ----- options and players ---------------------------------------------------------------
def test_events_option_takes_aliases_and_keeps_the_d1_order() -> None:
    options = GAME.parse_options({"events": "javelin, 100,hurdles,POLE"})
    assert options["events"] == ["100m", "110m-hurdles", "pole-vault", "javelin"]
    assert GAME.parse_options()["events"] == list(EVENT_IDS)
    assert GAME.parse_options()["variant"] == "points"
    assert GAME.parse_options({"variant": "champ"})["variant"] == "championship"


def test_unknown_event_and_player_counts_are_refused() -> None:
    with pytest.raises(OptionsError, match="'marathon' is not one of 100m"):
        GAME.parse_options({"events": "100m,marathon"})
    for players in (0, 9):
        with pytest.raises(OptionsError, match="1 to 8 players"):
            GAME.start(players, GAME.parse_options(), SeededDice(seed=1))


# ----- player order (D2) -------------------------------------------------------------------
def test_starting_order_is_drawn_with_the_engines_dice() -> None:
    # Fisher-Yates: a 1 of 3 swaps seats 2 and 0, then a 2 of 2 keeps the rest.
    state, events = new_game([1, 1, 1, 1] * 3, players=3, events="100m", draws=(1, 2))
    assert data(kinds(events, "starting-order")[0]) == {"order": [2, 1, 0], "draws": [1, 2]}
    assert state.order == (2, 1, 0)
    assert GAME.to_act(state) == (2,)


def _sprint(result: int) -> list[int]:
    """Two 100 m sets, kept at once, worth ``result`` (here 0..20)."""
    first = [5, 5, 5, 5] if result >= 20 else [1, 1, 1, 1]
    rest = result - sum(first)
    second = {0: [6, 3, 2, 1], 6: [3, 1, 1, 1], 16: [4, 4, 4, 4]}[rest]
    return first + second


def test_each_event_starts_by_running_total_and_ties_keep_the_previous_order() -> None:
    # Drawn order 2, 1, 0; results seat 2: 10, seat 1: 20, seat 0: 10.
    dice = _sprint(10) + _sprint(20) + _sprint(10) + [1] * 15
    state, _ = new_game(dice, players=3, events="100m,hurdles", draws=(1, 2))
    state, events = play(state, *[KEEP4] * 6)
    (start,) = kinds(events, "discipline-start")
    assert data(start) == {"discipline": "110m-hurdles", "order": [1, 2, 0]}
    assert GAME.view(state, None).order == (1, 2, 0)


def test_championship_orders_by_honours_not_points() -> None:
    # Event 1: seats 20, 10, 10 -> honours 3, 2, 2. Event 2 (hurdles): 6, 30, 5
    # -> points 26, 40, 15 but honours 5, 5, 3: the honours tie keeps seat 0 first.
    hurdles = [2, 1, 1, 1, 1] + [6] * 5 + [1] * 5
    dice = _sprint(20) + _sprint(10) + _sprint(10) + hurdles + [1] * 8
    state, _ = new_game(dice, players=3, events="100m,hurdles,1500", variant="championship")
    keep5 = Freeze((0, 1, 2, 3, 4))
    state, events = play(state, *[KEEP4] * 6, keep5, keep5, keep5)
    ends = kinds(events, "discipline-end")
    assert list(ends[1].honour_totals) == [5, 5, 3]
    assert list(ends[1].totals) == [26, 40, 15]
    assert list(kinds(events, "discipline-start")[-1].order) == [0, 1, 2]


# ----- interleaved attempts and no valid result (D3) --------------------------------------
def test_attempts_are_interleaved_and_all_fouls_leave_no_valid_result() -> None:
    # Every Shot Put attempt fouls on its first, automatic die: no decision at all.
    state, events = new_game([1] * 6, players=2, events="shot-put")
    turns = [(e.player, e.attempt) for e in kinds(events, "turn")]
    assert turns == [(0, 1), (1, 1), (0, 2), (1, 2), (0, 3), (1, 3)]
    assert GAME.is_terminal(state)
    results = GAME.results(state)
    assert results.detail["sheet"] == {"shot-put": [None, None]}
    assert results.scores == (0, 0)


def test_no_valid_result_earns_no_medal_in_the_championship() -> None:
    # seat 0 fouls thrice; seat 1 puts 2-3 (then fouls twice)
    dice = [1, 2, 3, 1, 1, 1, 1]
    state, _ = new_game(dice, players=2, events="shot", variant="championship")
    state, _ = play(state, Throw(), Stop())
    results = GAME.results(state)
    assert results.detail["honours"] == {"shot-put": [0, 3]}
    assert results.scores == (0, 3) and results.winners == (1,)


def test_best_valid_attempt_counts() -> None:
    dice = chain([2, 2], [3, 3, 3], [4])
    state, _ = new_game(dice, events="shot")
    state, _ = play(state, Throw(), Stop(), Throw(), Throw(), Stop(), Stop())
    assert GAME.results(state).detail["sheet"]["shot-put"] == [9]  # 4, 9, 4: best is 9


# ----- set events (D4, D5) ---------------------------------------------------------------
def test_sprint_sixes_count_minus_six_and_no_rethrow_left_freezes_everything() -> None:
    state, _ = new_game([6] * 32, events="100m")
    assert GAME.legal_actions(state, 0) == [KEEP4, Rethrow()]
    state, events = play(state, *[Rethrow()] * 5)
    assert [e.auto for e in kinds(events, "freeze")] == [True, True]
    assert GAME.results(state).scores == (-48,)


def test_a_sprint_set_is_frozen_whole() -> None:
    state, _ = new_game([1] * 8, events="100m")
    with pytest.raises(IllegalActionError, match="frozen whole"):
        GAME.apply(state, 0, Freeze((0, 1)))
    with pytest.raises(IllegalActionError, match="freeze the set or rethrow"):
        GAME.apply(state, 0, Jump())


def test_sprint_view_shows_sets_and_rethrows() -> None:
    state, _ = new_game([1, 2, 3, 4, 5, 5, 6, 6, 2, 2], events="400m")
    state, _ = play(state, Freeze((0, 1)), Rethrow(), Freeze((0, 1)))
    view = GAME.view(state, 0)
    assert (view.phase, view.set_no, view.sets, view.set_size) == ("keep-or-rethrow", 3, 4, 2)
    assert view.rethrows_left == 4
    assert view.frozen_sets == ((1, 2), (5, 5)) and view.thrown == (6, 6)
    assert view.frozen == (1, 2, 5, 5)


def test_hurdles_keep_the_last_of_six_throws() -> None:
    dice = [1] * 25 + [2, 2, 2, 2, 2]
    state, _ = new_game(dice, events="hurdles")
    state, events = play(state, *[Rethrow()] * 5)
    assert len(kinds(events, "roll")) == 5 and kinds(events, "freeze")[0].auto
    assert GAME.results(state).scores == (10,)


# ----- long jump (D6) --------------------------------------------------------------------
def test_all_five_frozen_in_the_run_up_jump_automatically() -> None:
    dice = [1, 1, 1, 1, 1] + [6, 6, 6, 6, 6] + [1] * 10
    state, _ = new_game(dice, events="long-jump")
    state, events = play(state, Freeze((0, 1, 2, 3, 4)))
    assert data(kinds(events, "jump")[0]) == {"dice": 5, "auto": True}
    view = GAME.view(state, 0)
    assert view.phase == "jump-freeze" and view.run_up == (1,) * 5 and view.thrown == (6,) * 5
    state, events = play(state, Freeze((0, 1, 2, 3, 4)))
    assert kinds(events, "result")[0].result == 30


def test_run_up_choices_are_rethrow_or_jump_after_a_freeze() -> None:
    state, _ = new_game([2, 3, 4, 5, 6] + [1] * 30, events="long-jump")
    assert len(GAME.legal_actions(state, 0)) == 31  # every non-empty set of 5 dice
    with pytest.raises(IllegalActionError, match="freeze at least one"):
        GAME.apply(state, 0, Freeze(()))
    with pytest.raises(IllegalActionError, match="must first freeze"):
        GAME.apply(state, 0, Jump())
    with pytest.raises(IllegalActionError, match="no die at position 5"):
        GAME.apply(state, 0, Freeze((5,)))
    state, _ = play(state, Freeze((0,)))
    assert GAME.legal_actions(state, 0) == [Rethrow(), Jump()]
    with pytest.raises(IllegalActionError, match="rethrow the unfrozen dice or jump"):
        GAME.apply(state, 0, Freeze((0,)))
    state, events = play(state, Jump())  # a jump with one die: frozen automatically
    assert kinds(events, "result")[0].result == 1


# ----- shot put (D7) ----------------------------------------------------------------------
def test_shot_put_ends_by_itself_after_eight_dice() -> None:
    state, _ = new_game([2] * 8 + [1, 1], events="shot-put")
    state, events = play(state, *[Throw()] * 7)
    assert kinds(events, "result")[0].result == 16
    assert GAME.is_terminal(state)


# ----- discus and javelin (D10) ------------------------------------------------------------
def test_discus_freezes_only_even_dice() -> None:
    state, _ = new_game([6, 3, 2, 5, 4] + [1] * 20, events="discus")
    view = GAME.view(state, 0)
    assert view.freezable == (0, 2, 4) and len(GAME.legal_actions(state, 0)) == 7
    with pytest.raises(IllegalActionError, match="shows 3: only even dice may be frozen"):
        GAME.apply(state, 0, Freeze((0, 1)))


def test_javelin_ends_by_itself_when_every_die_is_frozen() -> None:
    state, _ = new_game([5, 5, 5, 5, 5, 5] + [2] * 12, events="javelin")
    state, events = play(state, Freeze((0, 1, 2, 3, 4, 5)))
    # attempt 1 ends at 30 without a stop; attempts 2 and 3 show no odd die
    assert [e.result for e in kinds(events, "result")] == [30, None, None]
    assert GAME.is_terminal(state)


def test_discus_stop_and_rethrow_after_a_freeze() -> None:
    state, _ = new_game([6, 6, 1, 1, 1] + [3, 3, 3] + [1] * 10, events="discus")
    state, _ = play(state, Freeze((0, 1)))
    assert GAME.legal_actions(state, 0) == [Rethrow(), Stop()]
    with pytest.raises(IllegalActionError, match="stop or rethrow"):
        GAME.apply(state, 0, Freeze((0,)))
    state, events = play(state, Rethrow())
    assert "no even die among 3, 3, 3" in kinds(events, "invalid")[0].reason


# ----- heights (D8, D9) -----------------------------------------------------------------------
def test_high_jump_round_by_round_with_skip_retire_and_elimination() -> None:
    dice = [2, 2, 2, 2, 2] + [1] * 15
    state, _ = new_game(dice, players=2, events="high-jump")
    assert GAME.legal_actions(state, 0) == [Jump(), Skip(), Retire()]
    state, events = play(state, Jump())  # seat 0 clears 10 with 10
    assert data(kinds(events, "clear")[0]) == {"height": 10, "jump": 1, "total": 10}
    state, events = play(state, Skip())  # seat 1 skips 10; the bar rises
    assert data(kinds(events, "bar")[0]) == {"height": 12}
    state, _ = play(state, Retire())  # seat 0 retires, keeping 10
    view = GAME.view(state, 1)
    assert view.to_act == 1 and view.status == ("retired", "in")
    state, events = play(state, Jump())  # seat 1: three misses at 12
    assert [kind(e) for e in events if kind(e) in ("miss", "out")] == ["miss"] * 3 + ["out"]
    assert GAME.results(state).detail["sheet"] == {"high-jump": [10, None]}
    assert GAME.view(state, None).sheet == ((10, None),)


def test_high_jump_ends_when_the_bar_passes_30() -> None:
    state, _ = new_game([], events="high-jump")
    state, _ = play(state, *[Skip()] * 10)
    assert GAME.view(state, 0).height == 30
    state, _ = play(state, Skip())
    assert GAME.is_terminal(state) and GAME.results(state).scores == (0,)


def test_pole_vault_has_no_bail_out_and_one_to_eight_dice() -> None:
    state, _ = new_game(chain([1, 6, 6], [6, 6]), events="pole-vault")
    state, _ = play(state, Jump())
    assert GAME.legal_actions(state, 0) == [Vault(n) for n in range(1, 9)]
    state, events = play(state, Vault(3))
    assert kinds(events, "miss")[0].reason == "a 1 shows (total 13)"
    view = GAME.view(state, 0)
    assert (view.phase, view.jumps_at_height, view.last_jump) == ("vault-dice", 1, (1, 6, 6))
    for bad in (Skip(), Retire(), Jump()):
        with pytest.raises(IllegalActionError, match="no bail-out"):
            GAME.apply(state, 0, bad)
    for count in (0, 9):
        with pytest.raises(IllegalActionError, match="1 to 8 dice"):
            GAME.apply(state, 0, Vault(count))
    state, events = play(state, Vault(2))
    assert kinds(events, "clear")[0].height == 10


# ----- turns, the end, results ---------------------------------------------------------------
def test_wrong_seat_and_finished_game_are_refused() -> None:
    state, _ = new_game([1] * 16, players=2, events="100m")
    with pytest.raises(IllegalActionError, match="not seat 1's turn"):
        GAME.apply(state, 1, KEEP4)
    assert GAME.legal_actions(state, 1) == []
    state, _ = play(state, KEEP4, KEEP4, KEEP4, KEEP4)
    assert GAME.is_terminal(state)
    with pytest.raises(IllegalActionError, match="game is over"):
        GAME.apply(state, 0, KEEP4)
    assert GAME.view(state, 0).phase == "game-over"


def test_results_need_a_finished_game_and_carry_the_sheet() -> None:
    state, _ = new_game([1] * 16, events="100m,400m")
    with pytest.raises(ValueError, match="not over"):
        GAME.results(state)
    state, _ = play(state, KEEP4, KEEP4, *[Freeze((0, 1))] * 4)
    detail = GAME.results(state).detail
    assert detail["sheet"] == {"100m": [8], "400m": [8]}
    assert detail["totals"] == [16] and "honours" not in detail


def test_scripted_start_consumes_exactly_the_draws() -> None:
    step = GAME.start(2, GAME.parse_options({"events": "high"}), ScriptedDice(values=(2,)))
    assert step.state.order == (0, 1)
    assert step.state.dice == ScriptedDice(values=(2,), position=1)
