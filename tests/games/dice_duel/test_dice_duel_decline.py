"""K4 revised: a player may take one chip or none; K5 still ends every game.

The trailing-player case: a player behind whose last roll matches the plate's last
chip declines it, so as not to end the game while behind.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest
from dice_duel_helpers import act, kinds, position, start

from gamenight.core.agents import Decision
from gamenight.core.errors import IllegalActionError
from gamenight.core.game import to_json
from gamenight.core.record import read_record, replay
from gamenight.games.dice_duel.advisor import advise, option_values
from gamenight.games.dice_duel.bots import TurnOptimalBot
from gamenight.games.dice_duel.codec import DiceDuelCodec
from gamenight.games.dice_duel.events import GameOver, NoChip
from gamenight.games.dice_duel.expectimax import HAND_INDEX, ChipValues, turn_tables
from gamenight.games.dice_duel.game import GAME, DiceDuelGameV1
from gamenight.games.dice_duel.rules import DiceDuelState, Roll, Stop, Take

NOTHING = (1, 2, 4, 5, 6)
THREES = (6, 6, 6, 1, 2)  # three of a kind, nothing more
LAST_THREE = (0, 1, 0, 0, 0, 0, 0)  # one Three-of-a-kind chip left on the plate
BEHIND = ((1, 0, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 0, 1))  # 5 points against 50
AHEAD = ((0, 0, 0, 0, 0, 0, 1), (1, 0, 0, 0, 0, 0, 0))
RECORD_V1 = Path(__file__).parent / "data" / "rules-v1-game.jsonl"


def last_roll(chips: tuple[tuple[int, ...], ...], *then: int) -> DiceDuelState:
    """Seat 0 (the starter) about to throw its 3rd roll, which comes out THREES; the
    plate holds only the last Three-of-a-kind chip."""
    state, _ = start(2, 1, *NOTHING)
    state = position(state, *THREES, *then, rolls_used=2, plate=LAST_THREE, chips=chips, round=9)
    state, events = act(state, Roll())
    assert kinds(events) == ["roll"] and state.phase == "pick"
    return state


def bot_choice(state: DiceDuelState) -> object:
    legal = GAME.legal_actions(state, state.current)
    view = GAME.view(state, state.current)
    return TurnOptimalBot().act(Decision("dice-duel", state.current, view, legal))


def test_a_trailing_player_declines_the_last_chip_and_the_game_goes_on() -> None:
    state = last_roll(BEHIND, *NOTHING)
    assert GAME.legal_actions(state, 0) == [Take("three-of-a-kind"), Stop()]
    assert bot_choice(state) == Stop()  # taking it would end the game 35 to 50
    values = option_values(GAME.view(state, 0))
    assert values[Stop()] == 0.0 > values[Take("three-of-a-kind")]
    state, events = act(state, Stop())
    assert events[0] == NoChip(player=0, reason="declined")
    assert kinds(events) == ["no-chip", "turn", "roll"]
    assert state.phase == "roll" and state.current == 1 and state.plate == LAST_THREE
    assert state.chips == BEHIND and not state.round_chip  # a declined chip is no chip (K5)


def test_a_round_of_declined_chips_still_sets_one_aside_so_the_game_ends() -> None:
    state = last_roll(BEHIND, *NOTHING)
    state, _ = act(state, Stop())  # seat 0 declines
    state, events = act(state, Stop())  # seat 1 earns nothing and stops: the round is over
    assert kinds(events) == ["no-chip", "set-aside", "game-over"]
    assert isinstance(events[-1], GameOver) and events[-1].last_chip is None
    assert state.phase == "over" and GAME.results(state).winners == (1,)


def test_a_leading_player_takes_the_last_chip_and_wins() -> None:
    state = last_roll(AHEAD)
    assert bot_choice(state) == Take("three-of-a-kind")
    state, events = act(state, Take("three-of-a-kind"))
    assert kinds(events) == ["take", "game-over"]
    assert GAME.results(state).scores == (80.0, 5.0)  # 50 + 10 + 20 for the last chip


def test_a_player_may_decline_any_chip_after_any_roll() -> None:
    state, _ = start(2, 1, 3, 3, 3, 5, 5, *NOTHING)
    assert Stop() in GAME.legal_actions(state, 0)
    state, events = act(state, Stop())
    assert events[0] == NoChip(player=0, reason="declined") and state.current == 1
    assert state.chips[0] == (0,) * 7


def test_a_solo_kniffel_cannot_decline_its_second_chip() -> None:
    state, _ = start(1, *NOTHING, mode="solo")
    state = position(state, 4, 4, 4, 4, 4, *NOTHING, rolls_used=2)
    state, _ = act(state, Roll())
    assert Stop() in GAME.legal_actions(state, 0)  # the Kniffel itself may be declined
    state, _ = act(state, Take("large-straight"))
    assert state.picks == 1 and Stop() not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalActionError, match="take the second one"):
        act(state, Stop())


def test_the_hint_names_declining() -> None:
    state = last_roll(BEHIND)
    view = GAME.view(state, 0)
    advice = advise(view, 0, view.legal())
    assert advice is not None and advice.best_option.label == "take no chip (decline it)"


def test_the_expectimax_never_values_a_hand_below_declining() -> None:
    losing = ChipValues((0.0, -970.0, 0.0, 0.0, 0.0, 0.0, 0.0), 0.0, float("-inf"))
    tables = turn_tables(losing)
    assert tables.stop[HAND_INDEX[(1, 2, 6, 6, 6)]] == 0.0
    assert min(tables.after[1]) >= 0.0 and min(tables.after[2]) >= 0.0


def test_declining_round_trips_through_json_and_the_codec() -> None:
    assert GAME.decode_action(to_json(Stop())) == Stop()
    event = NoChip(player=1, reason="declined")
    assert msgspec.json.decode(msgspec.json.encode(event), type=NoChip) == event
    codec = DiceDuelCodec()
    assert codec.action(0) == Stop() and codec.index(Stop()) == 0
    state = last_roll(BEHIND)
    view = GAME.view(state, 0)
    legal = codec.legal_indices(view.legal(), 0, lambda: view)
    assert legal == {0: Stop(), codec.index(Take("three-of-a-kind")): Take("three-of-a-kind")}


def test_records_of_rules_version_1_still_replay() -> None:
    record = read_record(RECORD_V1)
    assert record.rules_version == "1" and GAME.info.rules_version == "2"
    report = replay(record, str(RECORD_V1))
    assert report.finished and report.actions == len(record.actions)
    assert isinstance(report.final_state, DiceDuelState)
    assert not report.final_state.may_decline  # played on under the old reading
    # 13 chips were taken at once after a 3rd roll: what the revised rules ask about
    autos = [e for _, _, events in record.actions for e in events if isinstance(e, dict)]
    assert sum(e.get("auto") is True for e in autos) == 13
    old = GAME.older_rules("1")
    assert isinstance(old, DiceDuelGameV1) and old.info.rules_version == "1"
    assert GAME.older_rules("0") is None


def test_under_rules_version_1_a_single_chip_is_taken_at_once() -> None:
    state, _ = start(2, 1, *NOTHING)
    state = position(state, *THREES, *NOTHING, rolls_used=2, may_decline=False)
    assert Stop() in GAME.legal_actions(state, 0)  # NOTHING earns no chip
    state, events = act(state, Roll())
    assert kinds(events) == ["roll", "take", "turn", "roll"]
    state, _ = start(2, 1, 3, 3, 3, 5, 5)
    state = msgspec.structs.replace(state, may_decline=False)
    assert Stop() not in GAME.legal_actions(state, 0)
    with pytest.raises(IllegalActionError, match="take one"):
        act(state, Stop())


def test_an_unfinished_rules_version_1_game_is_refused_by_resume_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from gamenight.cli.main import run

    unfinished = tmp_path / "old.jsonl"
    unfinished.write_text("".join(RECORD_V1.read_text().splitlines(keepends=True)[:-6]))
    assert not replay(read_record(unfinished), require_finished=False).finished  # it replays
    with pytest.raises(SystemExit) as exit_info:
        run(["resume", str(unfinished)])
    assert exit_info.value.code not in (0, None)
    out, err = capsys.readouterr()
    said = (out + err).strip()
    assert "rules version 1" in said and "Traceback" not in said
