"""Rule tests with scripted dice: turns, rounds (K5), Kniffel (K2), the end (K6), solo (K7)."""

from __future__ import annotations

import msgspec
import pytest
from dice_duel_helpers import act, kinds, position, start

from gamenight.core.errors import IllegalActionError, OptionsError
from gamenight.games.dice_duel.combinations import Combination
from gamenight.games.dice_duel.events import (
    ChipTaken,
    GameOver,
    Rolled,
    SetAside,
    StartPlayer,
    TurnBegan,
)
from gamenight.games.dice_duel.game import GAME
from gamenight.games.dice_duel.rules import ALL_ROLLS, DiceDuelState, Roll, Stop, Take

NOTHING = (1, 2, 4, 5, 6)  # makes no combination at all
EMPTY = (0,) * 7


# ----- starting and rolling ---------------------------------------------------------


def test_starting_player_is_drawn_with_the_engine_dice() -> None:
    state, events = start(3, 3, *NOTHING)
    assert state.starter == state.current == 2
    assert kinds(events) == ["start-player", "turn", "roll"]
    assert events[0] == StartPlayer(player=2, draw=3, players=3)
    assert isinstance(events[2], Rolled) and events[2].dice == NOTHING
    assert state.plate == (4,) * 7 and state.set_aside == EMPTY


def test_keep_then_take_kept_dice_back() -> None:
    state, _ = start(2, 1, *NOTHING, 3, 3, 3, 6, 6, *NOTHING)
    assert state.rolls_used == 1 and state.kept == (False,) * 5
    state, events = act(state, Roll(keep=(0, 1)))
    assert state.faces == (1, 2, 3, 3, 3) and state.kept == (True, True, False, False, False)
    assert isinstance(events[0], Rolled) and events[0].rolled == (3, 3, 3)
    # K4: the earlier-kept 1 and 2 go back into the roll.
    state, events = act(state, Roll(keep=(2, 3, 4)))
    assert state.faces == (6, 6, 3, 3, 3)
    # After the third roll only taking is left: three chips to choose from, or none (K4).
    assert state.phase == "pick"
    assert GAME.legal_actions(state, 0) == [
        Take("two-pairs"),
        Take("three-of-a-kind"),
        Take("full-house"),
        Stop(),
    ]
    with pytest.raises(IllegalActionError, match="no rolls left"):
        act(state, Roll(keep=(0,)))
    state, events = act(state, Take("full-house"))
    assert state.chips[0][4] == 1 and state.plate[4] == 3
    assert state.current == 1 and kinds(events) == ["take", "turn", "roll"]


def test_roll_phase_offers_every_keep_and_the_chips() -> None:
    state, _ = start(2, 1, 3, 3, 3, 5, 5)
    legal = GAME.legal_actions(state, 0)
    takes = [a for a in legal if isinstance(a, Take)]
    assert {t.combination for t in takes} == {
        "full-house",
        "three-of-a-kind",
        "two-pairs",
        "flush",
    }
    assert Stop() in legal  # K4 revised: a chip the dice earn may be declined
    assert [a for a in legal if isinstance(a, Roll)] == list(ALL_ROLLS)
    assert len(ALL_ROLLS) == 31
    assert GAME.legal_actions(state, 1) == []


def test_third_roll_with_one_possible_chip_takes_it() -> None:
    state, _ = start(2, 1, 1, 1, 3, 4, 6, 2, 5, *NOTHING)
    state, _ = act(state, Roll(keep=(0, 1, 2, 3)))  # 1 1 3 4 2: a small straight
    state, events = act(state, Roll(keep=(0, 1, 2, 3)))  # rolls a 5 instead: nothing
    assert kinds(events) == ["roll", "no-chip", "turn", "roll"]
    assert state.current == 1 and state.chips[0] == EMPTY
    state, _ = start(2, 1, 1, 1, 3, 4, 6, 5, 2, *NOTHING)
    state, _ = act(state, Roll(keep=(0, 1, 2, 3)))
    state, events = act(state, Roll(keep=(0, 1, 2, 3)))  # rolls a 2: small straight only
    # K4 revised: even a single possible chip is asked for, since it may be declined
    assert kinds(events) == ["roll"] and state.phase == "pick"
    assert GAME.legal_actions(state, 0) == [Take("small-straight"), Stop()]
    state, events = act(state, Take("small-straight"))
    assert kinds(events) == ["take", "turn", "roll"]
    assert isinstance(events[0], ChipTaken) and not events[0].auto
    assert state.chips[0][2] == 1 and state.current == 1


# ----- rounds and the set-aside pile (K5) ---------------------------------------------


def test_round_without_a_chip_sets_the_best_chip_aside() -> None:
    state, _ = start(2, 1, *NOTHING, *NOTHING, *NOTHING)
    state, events = act(state, Stop())
    assert kinds(events) == ["no-chip", "turn", "roll"]  # seat 1 still to play this round
    assert state.set_aside == EMPTY
    state, events = act(state, Stop())
    assert kinds(events) == ["no-chip", "set-aside", "turn", "roll"]
    assert events[1] == SetAside(combination="large-straight", value=50, chipless="round")
    assert state.plate == (4, 4, 4, 4, 4, 4, 3) and state.set_aside == (0, 0, 0, 0, 0, 0, 1)
    assert state.round == 2 and state.current == 0
    # Another empty round: the next large straight goes too.
    state = position(state, *NOTHING, *NOTHING)
    state, _ = act(state, Stop())
    state, _ = act(state, Stop())
    assert state.set_aside == (0, 0, 0, 0, 0, 0, 2) and state.round == 3


def test_round_with_a_chip_sets_nothing_aside() -> None:
    state, _ = start(2, 1, 1, 1, 2, 2, 3, *NOTHING, *NOTHING)
    state, _ = act(state, Take("two-pairs"))
    state, events = act(state, Stop())
    assert "set-aside" not in kinds(events)
    assert state.round == 2 and not state.round_chip


def test_round_ends_when_play_returns_to_the_starting_player() -> None:
    state, _ = start(3, 2, *NOTHING, *NOTHING, *NOTHING, *NOTHING)
    assert state.current == 1
    for expected_next in (2, 0):
        state, events = act(state, Stop())
        assert state.current == expected_next and "set-aside" not in kinds(events)
    state, events = act(state, Stop())
    assert "set-aside" in kinds(events) and state.current == 1 and state.round == 2


# ----- Kniffel (K2) ---------------------------------------------------------------------


def test_kniffel_takes_a_set_aside_chip_then_plays_again() -> None:
    state, _ = start(2, 1, *NOTHING, *NOTHING, 3, 3, 3, 3, 3, 1, 2, 3, 4, 5, *NOTHING)
    state, _ = act(state, Stop())
    state, _ = act(state, Stop())  # empty round: a large straight is set aside
    assert state.set_aside[6] == 1 and state.faces == (3, 3, 3, 3, 3)
    legal = GAME.legal_actions(state, 0)
    assert Take("large-straight", "set-aside") in legal
    assert Take("large-straight", "plate") in legal
    assert Take("small-straight", "plate") in legal  # any chip, not just what the dice make
    state, events = act(state, Take("large-straight", "set-aside"))
    assert kinds(events) == ["take", "turn", "roll"]
    assert isinstance(events[0], ChipTaken)
    assert events[0].kniffel and events[0].source == "set-aside"
    assert events[1] == TurnBegan(player=0, round=2, extra=True)
    assert state.set_aside == EMPTY and state.chips[0][6] == 1 and state.plate[6] == 3
    assert state.current == 0 and state.rolls_used == 1 and state.faces == (1, 2, 3, 4, 5)
    # The extra turn is an ordinary turn; then play passes on within the same round.
    state, events = act(state, Take("large-straight"))
    assert state.chips[0][6] == 2 and state.current == 1 and state.round == 2


def test_only_a_kniffel_takes_from_the_set_aside_pile() -> None:
    state, _ = start(2, 1, 1, 2, 3, 4, 5)
    state = msgspec.structs.replace(state, set_aside=(0, 0, 0, 0, 0, 0, 1))
    with pytest.raises(IllegalActionError, match="only be taken with a Kniffel"):
        act(state, Take("large-straight", "set-aside"))
    assert Take("large-straight", "set-aside") not in GAME.legal_actions(state, 0)


def test_a_round_whose_only_chip_was_set_aside_counts_as_a_chip() -> None:
    state, _ = start(2, 1, 6, 6, 6, 6, 6, *NOTHING, *NOTHING, *NOTHING)
    state = msgspec.structs.replace(
        state, plate=(4, 4, 4, 4, 4, 4, 3), set_aside=(0, 0, 0, 0, 0, 0, 1)
    )
    state, _ = act(state, Take("large-straight", "set-aside"))
    state, _ = act(state, Stop())  # the extra turn, empty-handed
    state, events = act(state, Stop())  # seat 1 ends the round
    assert "set-aside" not in kinds(events) and state.plate[6] == 3


# ----- the end (K6) ------------------------------------------------------------------------


def _last_chip_position() -> DiceDuelState:
    """Seat 0 to act first in a round, one Two-pairs chip left on the plate."""
    state, _ = start(2, 1, 2, 2, 3, 3, 6)
    return msgspec.structs.replace(
        state,
        plate=(1, 0, 0, 0, 0, 0, 0),
        set_aside=(1, 0, 0, 1, 0, 0, 0),
        chips=((1, 2, 2, 1, 2, 2, 2), (1, 2, 2, 2, 2, 2, 2)),
    )


def test_game_ends_the_moment_the_plate_empties() -> None:
    state, events = act(_last_chip_position(), Take("two-pairs"))
    # Seat 1 has not played this round, yet the game is over at once.
    assert kinds(events) == ["take", "game-over"]
    assert isinstance(events[1], GameOver) and events[1].last_chip == 0
    assert GAME.is_terminal(state) and GAME.to_act(state) == ()
    assert GAME.legal_actions(state, 1) == []
    with pytest.raises(IllegalActionError, match="over"):
        GAME.apply(state, 1, Stop())
    results = GAME.results(state)
    sheet = results.detail["scores"]
    assert sheet[0]["last_chip"] == 20 and sheet[1]["last_chip"] == 0
    # 335 in chips + 50 gold + 20 last chip against 355 + 50: ties share the win (K6).
    assert results.scores == (405, 405)
    assert results.ranks == (1, 1) and results.winners == (0, 1)


def test_plate_emptied_by_setting_aside_earns_no_bonus() -> None:
    state, _ = start(2, 2, *NOTHING)
    state = msgspec.structs.replace(
        state, plate=(0, 0, 0, 0, 0, 0, 1), chips=((4, 4, 4, 0, 0, 0, 0), (0, 0, 0, 4, 4, 4, 3))
    )
    state = position(state, *NOTHING)
    state, _ = act(state, Stop())  # seat 1 started; seat 0 ends the empty round
    state, events = act(state, Stop())
    assert kinds(events) == ["no-chip", "set-aside", "game-over"]
    assert state.last_chip is None
    results = GAME.results(state)
    assert [s["last_chip"] for s in results.detail["scores"]] == [0, 0]
    # Seat 1: 95·4 + 150 in chips, 3 full stacks; seat 0: 140, 3 full stacks.
    assert results.scores == (140 + 90, 4 * 95 + 150 + 90)


def test_kniffel_taking_the_last_plate_chip_ends_without_an_extra_turn() -> None:
    state, _ = start(2, 1, 5, 5, 5, 5, 5)
    state = msgspec.structs.replace(
        state, plate=(0, 0, 0, 0, 0, 0, 1), set_aside=(1, 0, 0, 0, 0, 0, 0)
    )
    # Taking the set-aside chip would keep the game going; the plate chip ends it.
    assert Take("two-pairs", "set-aside") in GAME.legal_actions(state, 0)
    state, events = act(state, Take("large-straight"))
    assert kinds(events) == ["take", "game-over"] and state.last_chip == 0
    assert GAME.results(state).detail["scores"][0]["last_chip"] == 20


def test_results_refused_before_the_end() -> None:
    state, _ = start(2, 1, *NOTHING)
    with pytest.raises(ValueError, match="not over"):
        GAME.results(state)


# ----- solo (K7) --------------------------------------------------------------------------


def test_solo_has_no_draw_and_sets_aside_after_every_chipless_turn() -> None:
    state, events = start(1, *NOTHING, *NOTHING, mode="solo")
    assert kinds(events) == ["turn", "roll"] and state.current == 0
    state, events = act(state, Stop())
    assert kinds(events) == ["no-chip", "set-aside", "turn", "roll"]
    assert isinstance(events[1], SetAside) and events[1].chipless == "turn"
    assert state.set_aside == (0, 0, 0, 0, 0, 0, 1)
    assert state.round == 2


def test_solo_kniffel_takes_two_chips_then_plays_again() -> None:
    state, _ = start(1, 4, 4, 4, 4, 4, *NOTHING, mode="solo")
    state = msgspec.structs.replace(
        state, plate=(4, 4, 4, 4, 4, 4, 3), set_aside=(0, 0, 0, 0, 0, 0, 1)
    )
    state, events = act(state, Take("large-straight", "set-aside"))
    assert kinds(events) == ["take"] and state.phase == "pick" and state.picks == 1
    legal = GAME.legal_actions(state, 0)
    assert Take("large-straight") in legal and Take("two-pairs") in legal and len(legal) == 7
    assert not any(isinstance(a, Roll | Stop) for a in legal)
    state, events = act(state, Take("large-straight"))
    assert kinds(events) == ["take", "turn", "roll"]
    assert isinstance(events[1], TurnBegan) and events[1].extra
    assert state.chips[0][6] == 2 and state.plate[6] == 2 and state.set_aside == EMPTY


def test_solo_kniffel_second_chip_may_come_from_the_set_aside_pile_after_the_plate_empties() -> (
    None
):
    state, _ = start(1, 2, 2, 2, 2, 2, mode="solo")
    state = msgspec.structs.replace(
        state, plate=(0, 0, 0, 0, 0, 0, 1), set_aside=(1, 0, 0, 0, 0, 0, 0)
    )
    state, events = act(state, Take("large-straight"))
    # One chip left anywhere: the second pick is taken automatically, then the game ends.
    assert kinds(events) == ["take", "take", "game-over"]
    assert isinstance(events[1], ChipTaken)
    assert events[1].source == "set-aside" and events[1].auto
    assert state.chips[0] == (1, 0, 0, 0, 0, 0, 1) and state.last_chip == 0


def test_best_possible_solo_game_scores_1000() -> None:
    # K7: every chip (720) + gold (50) + seven full stacks (210) + last chip (20).
    hands: dict[Combination, tuple[int, ...]] = {
        "large-straight": (1, 2, 3, 4, 5),
        "four-of-a-kind": (2, 2, 2, 2, 3),
        "full-house": (2, 2, 3, 3, 3),
        "flush": (1, 1, 3, 5, 5),
        "small-straight": (1, 2, 3, 4, 6),
        "three-of-a-kind": (1, 1, 1, 2, 4),
        "two-pairs": (1, 1, 2, 2, 3),
    }
    turns = [c for c in hands for _ in range(4)]
    dice = [f for c in turns for f in hands[c]]
    state, _ = start(1, *dice, mode="solo")
    for combination in turns:
        state, events = act(state, Take(combination))
        assert "set-aside" not in kinds(events)
    assert GAME.is_terminal(state) and state.round == 28
    results = GAME.results(state)
    assert results.scores == (1000,)
    assert results.detail["scores"][0] == {
        "chips": [4] * 7,
        "chip_points": 720,
        "gold": 50,
        "silver": 0,
        "full_stacks": 210,
        "last_chip": 20,
        "total": 1000,
    }


# ----- players and options ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "mode", "message"),
    [
        (1, "multi", "mode=solo"),
        (2, "solo", "solo variant is for 1 player"),
        (7, "multi", "1 to 6"),
        (0, "multi", "1 to 6"),
    ],
)
def test_player_counts_are_checked(players: int, mode: str, message: str) -> None:
    with pytest.raises(OptionsError, match=message):
        start(players, 1, *NOTHING, mode=mode)


def test_unknown_mode_is_refused() -> None:
    with pytest.raises(OptionsError, match="mode"):
        GAME.parse_options({"mode": "team"})


# ----- illegal actions say what is wrong ------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Take("large-straight"), "do not make a Large straight"),
        (Take("two-pairs", "set-aside"), "only be taken with a Kniffel"),
        (Roll(keep=(0, 1, 2, 3, 4)), "keeping all five"),
        (Roll(keep=(3, 1)), "once, in order"),
        (Roll(keep=(1, 1)), "once, in order"),
        (Roll(keep=(5,)), "from 0 to 4"),
        (Roll(keep=(-1,)), "from 0 to 4"),
        (Take("flush", "nowhere"), "unknown chip source"),  # type: ignore[arg-type]
        (Take("yahtzee"), "unknown combination"),  # type: ignore[arg-type]
    ],
)
def test_illegal_actions_are_explained(action: object, message: str) -> None:
    state, _ = start(2, 1, 1, 1, 2, 2, 3)
    before = msgspec.json.encode(state)
    with pytest.raises(IllegalActionError, match=message):
        GAME.apply(state, 0, action)  # type: ignore[arg-type]
    assert msgspec.json.encode(state) == before


def test_no_chip_left_on_the_plate() -> None:
    state, _ = start(2, 1, 1, 1, 2, 2, 3)
    state = msgspec.structs.replace(state, plate=(0, 4, 4, 4, 4, 4, 4))
    with pytest.raises(IllegalActionError, match="no Two pairs chip is left on the plate"):
        act(state, Take("two-pairs"))
    assert Stop() in GAME.legal_actions(state, 0)


def test_wrong_seat_is_refused() -> None:
    state, _ = start(2, 1, 1, 1, 2, 2, 3)
    with pytest.raises(IllegalActionError, match="not seat 1's turn"):
        GAME.apply(state, 1, Take("two-pairs"))
