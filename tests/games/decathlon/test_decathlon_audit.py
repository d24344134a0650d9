"""Audit tests: edge cases of the rules (D2, D6, D8, D9, D11) and bad input.

The D12 counters on screen are tested in tests/terminal.
"""

from __future__ import annotations

import msgspec
import pytest
from decathlon_script import chain, data, kind, kinds, new_game, play

from gamenight.core.dice import SeededDice
from gamenight.core.errors import IllegalActionError, OptionsError
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
from gamenight.games.decathlon.game import GAME
from gamenight.games.decathlon.rules import DecathlonState
from gamenight.games.decathlon.scoring import honours


def refused(state: DecathlonState, action: Action, match: str) -> None:
    """``action`` by the seat to act is refused with ``match`` and changes nothing."""
    (seat,) = GAME.to_act(state)
    before = msgspec.json.encode(state)
    with pytest.raises(IllegalActionError, match=match):
        GAME.apply(state, seat, action)
    assert msgspec.json.encode(state) == before


# ----- heights: a clear on the very last jump counts (D8, D9) -----------------------------
def test_clearing_the_top_high_jump_height_on_the_last_jump_scores_30() -> None:
    # Skip 10..26, clear 28 with 29, then clear 30 with five sixes: the event ends on
    # that clear (the bar passes its top), and the result is 30, not 28.
    state, _ = new_game(chain([6, 6, 6, 6, 5], [6] * 5), events="high")
    state, _ = play(state, *[Skip()] * 9, Jump())
    assert GAME.view(state, 0).best == (28,)
    state, events = play(state, Jump())
    assert data(kinds(events, "clear")[0]) == {"height": 30, "jump": 1, "total": 30}
    assert list(kinds(events, "discipline-end")[0].results) == [30]
    assert GAME.results(state).scores == (30,)


def test_the_last_vaulter_clearing_48_keeps_it_and_the_others_keep_theirs() -> None:
    # Two vaulters skip to 48. Ann misses thrice (a 1 each time); Bob clears 48 with
    # eight sixes on his second jump, which ends the event.
    state, _ = new_game(chain([1], [1], [1], [1, 6], [6] * 8), players=2, events="pole")
    state, _ = play(state, *[Skip()] * 38)
    assert GAME.view(state, 0).height == 48
    state, _ = play(state, Jump(), Vault(1), Vault(1), Vault(1))  # Ann: out at 48
    state, events = play(state, Jump(), Vault(2), Vault(8))  # Bob: miss, then clear
    assert [kind(e) for e in events if kind(e) in ("miss", "clear")] == ["miss", "clear"]
    assert GAME.results(state).detail["sheet"] == {"pole-vault": [None, 48]}


def test_everyone_retiring_at_the_first_height_ends_the_event_without_a_result() -> None:
    state, _ = new_game([], players=3, events="high", variant="championship")
    state, events = play(state, Retire(), Retire(), Retire())
    assert [kind(e) for e in events] == ["retire"] * 3 + ["discipline-end", "game-over"]
    results = GAME.results(state)
    assert results.detail["sheet"] == {"high-jump": [None, None, None]}
    assert results.detail["honours"] == {"high-jump": [0, 0, 0]}  # no valid result (D11)


def test_an_eliminated_jumper_is_passed_over_at_the_next_height() -> None:
    # Ann clears 10, Bob misses 10 three times (out), Cy clears 10: at 12 Ann then Cy act.
    dice = chain([6] * 5, [1] * 15, [6] * 5, [6] * 5)
    state, _ = new_game(dice, players=3, events="high")
    state, _ = play(state, Jump(), Jump(), Jump())
    view = GAME.view(state, None)
    assert (view.height, view.to_act, view.status) == (12, 0, ("in", "out", "in"))
    state, _ = play(state, Skip())
    assert GAME.to_act(state) == (2,)


def test_a_committed_high_jumper_is_never_asked_between_jumps() -> None:
    # D8 no bail-out: the three jumps at 14 are thrown one after another.
    state, _ = new_game(chain([1] * 5, [2] * 5, [3, 3, 3, 3, 1]), events="high")
    state, _ = play(state, Skip(), Skip())
    state, events = play(state, Jump())
    assert [e.jump for e in kinds(events, "miss")] == [1, 2, 3]
    assert GAME.is_terminal(state) and GAME.results(state).detail["sheet"] == {"high-jump": [None]}


# ----- long jump (D6) -----------------------------------------------------------------------
def test_the_jump_phase_must_freeze_at_least_one_die_and_cannot_stop() -> None:
    state, _ = new_game(chain([1, 2, 6, 6, 6], [3, 4]) + [1] * 20, events="long")
    state, _ = play(state, Freeze((0, 1)), Jump())
    assert GAME.view(state, 0).phase == "jump-freeze"
    refused(state, Freeze(()), "must freeze at least one")
    refused(state, Freeze((2,)), "no die at position 2")
    refused(state, Freeze((0, 0)), "only once")
    for action in (Stop(), Jump(), Rethrow()):
        refused(state, action, "must first freeze")
    state, events = play(state, Freeze((1,)))  # the 3 is rethrown by itself
    assert list(kinds(events, "roll")[0].dice) == [1]
    assert kinds(events, "result")[0].result == 5


def test_rethrowing_with_a_run_up_of_8_always_steps_over() -> None:
    state, _ = new_game(chain([4, 4, 5, 5, 5], [1, 1, 1]) + [1] * 40, events="long")
    state, _ = play(state, Freeze((0, 1)))
    state, events = play(state, Rethrow())
    assert "stepped over" in kinds(events, "invalid")[0].reason
    assert kinds(events, "result")[0].result is None


# ----- scoring and order (D2, D11) --------------------------------------------------------------
@pytest.mark.parametrize(
    ("results", "expected"),
    [
        ((27, 27, 25, 20), (3, 3, 1, 0)),  # two golds, then bronze
        ((30, 20, 20, 10), (3, 2, 2, 0)),  # two silvers, no bronze
        ((5, 5, 5, 1), (3, 3, 3, 0)),  # three golds, nothing else
        ((-3, None, -9, -3), (3, 0, 1, 3)),  # negative sprints still medal; none wins none
        ((None, None), (0, 0)),
    ],
)
def test_honours_share_the_better_medal_on_ties(
    results: tuple[int | None, ...], expected: tuple[int, ...]
) -> None:
    assert honours(results) == expected


def test_negative_totals_order_the_next_event_and_ties_keep_the_order() -> None:
    # 100 m: Ann -20 (6 6 1 1 | 6 6 1 1), Bob -20, Cy 8: Cy first, then Ann, Bob.
    bad = [6, 6, 1, 1] * 2
    dice = bad + bad + [1] * 8 + [1] * 15
    state, _ = new_game(dice, players=3, events="100m,hurdles")
    keep = Freeze((0, 1, 2, 3))
    state, events = play(state, *[keep] * 6)
    assert list(kinds(events, "discipline-end")[0].totals) == [-20, -20, 8]
    assert list(kinds(events, "discipline-start")[0].order) == [2, 0, 1]


# ----- bad options --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("raw", "match"),
    [
        ({"events": ""}, "choose at least one"),
        ({"events": []}, "choose at least one"),
        ({"events": 7}, "comma-separated list"),
        ({"variant": "golf"}, "'golf' is not one of points, championship"),
        ({"rounds": 3}, "no option 'rounds'"),
    ],
)
def test_bad_options_are_refused_clearly(raw: dict[str, object], match: str) -> None:
    with pytest.raises(OptionsError, match=match):
        GAME.parse_options(raw)


def test_actions_of_the_wrong_kind_are_refused_in_every_family() -> None:
    shot, _ = new_game([2] * 10, events="shot")
    refused(shot, Freeze((0,)), "throw the next die or stop")
    vault, _ = new_game([], events="pole")
    refused(vault, Vault(3), "jump, skip or retire")
    javelin, _ = new_game([1, 3, 2, 2, 2, 2] + [1] * 30, events="javelin")
    refused(javelin, Stop(), "must first freeze at least one odd die")
    refused(javelin, Throw(), "must first freeze at least one odd die")
    start = GAME.start(1, GAME.parse_options({"events": "hurdles"}), SeededDice(seed=4))
    refused(start.state, Skip(), "freeze the set or rethrow")
