"""Kernel tests through a toy game: dice, options, apply, runner, records."""

from __future__ import annotations

import io
import json

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from toy import GAME, Hold, Roll, ToyState

from gamenight.core import (
    DiceExhaustedError,
    IllegalActionError,
    OptionsError,
    RandomAgent,
    RecordError,
    Results,
    ScriptedDice,
    SeededDice,
    registry,
    to_json,
)
from gamenight.core.record import RecordWriter, parse_record, replay
from gamenight.core.runner import play_match


@pytest.fixture(autouse=True)
def _toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    entry = registry.GameEntry("toy", "Toy Pig", "toy")
    entry.__dict__["game"] = GAME  # where the cached_property keeps it
    monkeypatch.setitem(registry.GAMES, "toy", entry)


def test_seeded_dice_are_reproducible_and_fair() -> None:
    faces, _ = SeededDice(seed=42).roll(60_000)
    assert faces == SeededDice(seed=42).roll(60_000)[0]
    counts = [faces.count(f) for f in range(1, 7)]
    # chi-square with 5 dof; 20.5 is the 0.999 quantile
    chi2 = sum((c - 10_000) ** 2 / 10_000 for c in counts)
    assert chi2 < 20.5, counts
    assert SeededDice(seed=43).roll(20)[0] != SeededDice(seed=42).roll(20)[0]


def test_seeded_dice_continue_where_they_left_off() -> None:
    first, rest = SeededDice(seed=5).roll(3)
    second, _ = rest.roll(4)
    assert first + second == SeededDice(seed=5).roll(7)[0]


def test_other_die_sizes() -> None:
    faces, _ = SeededDice(seed=1).roll(500, sides=3)
    assert set(faces) == {1, 2, 3}


def test_scripted_dice_run_out_clearly() -> None:
    with pytest.raises(DiceExhaustedError, match="exhausted"):
        ScriptedDice(values=(1, 2)).roll(3)


def test_options_are_validated_with_clear_messages() -> None:
    assert GAME.parse_options({})["target"] == 10
    assert GAME.parse_options({"target": "20"})["target"] == 20
    with pytest.raises(OptionsError, match="above the maximum 50"):
        GAME.parse_options({"target": 99})
    with pytest.raises(OptionsError, match="no option 'colour'"):
        GAME.parse_options({"colour": "red"})
    with pytest.raises(OptionsError, match="1 to 3 players, not 4"):
        GAME.start(4, GAME.parse_options(), SeededDice(seed=1))


def test_scripted_turn_and_illegal_actions_change_nothing() -> None:
    step = GAME.start(2, GAME.parse_options({"target": 5}), ScriptedDice(values=(4, 3, 1)))
    state = step.state
    with pytest.raises(IllegalActionError, match="roll at least once"):
        GAME.apply(state, 0, Hold())
    with pytest.raises(IllegalActionError, match="not seat 1's turn"):
        GAME.apply(state, 1, Roll())
    state = GAME.apply(state, 0, Roll()).state
    state = GAME.apply(state, 0, Roll()).state
    assert state.pot == 7
    state = GAME.apply(state, 0, Hold()).state
    assert GAME.is_terminal(state)
    assert GAME.results(state) == Results((7, 0), (1, 2), (0,))
    with pytest.raises(IllegalActionError, match="game is over"):
        GAME.apply(state, 1, Roll())


def test_decode_action_refuses_garbage() -> None:
    assert GAME.decode_action({"type": "roll"}) == Roll()
    with pytest.raises(IllegalActionError, match="malformed toy action"):
        GAME.decode_action({"type": "fly"})
    with pytest.raises(IllegalActionError, match="not a Toy Pig action"):
        GAME.apply(GAME.start(1, GAME.parse_options(), SeededDice(seed=1)).state, 0, "roll")  # type: ignore[arg-type]


def test_results_rank_ties_share() -> None:
    results = Results.from_scores([5, 9, 9, 1])
    assert results.ranks == (3, 1, 1, 4)
    assert results.winners == (1, 2)


def _recorded_game(seed: int, players: int) -> str:
    buffer = io.StringIO()
    agents = [RandomAgent(seed + i) for i in range(players)]
    play_match(GAME, agents, seed=seed, record=RecordWriter(buffer))
    return buffer.getvalue()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(1, 3))
def test_records_replay_exactly(seed: int, players: int) -> None:
    text = _recorded_game(seed, players)
    report = replay(parse_record(text.splitlines()))
    assert isinstance(report.final_state, ToyState)
    assert report.results == GAME.results(report.final_state)
    state_json = msgspec.json.encode(report.final_state)
    assert GAME.decode_state(msgspec.json.decode(state_json)) == report.final_state


def test_tampered_record_is_caught() -> None:
    lines = _recorded_game(3, 2).splitlines()
    # change the first recorded die face
    for i, line in enumerate(lines):
        row = json.loads(line)
        if row["type"] == "action" and row["events"][0]["kind"] == "roll":
            row["events"][0]["face"] = 7 - row["events"][0]["face"]
            lines[i] = json.dumps(row)
            break
    with pytest.raises(RecordError, match="event 1 differs"):
        replay(parse_record(lines))


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([], "empty file"),
        (["{not json"], "line 1: invalid JSON"),
        (['{"type": "header"}'], "not a gamenight record"),
        (["[1, 2]"], "not a gamenight record"),  # not "empty file" (issue 10, item 16)
        (["[1,2,3]", ""], "not a gamenight record"),
    ],
)
def test_malformed_records_name_the_problem(lines: list[str], message: str) -> None:
    with pytest.raises(RecordError, match=message):
        parse_record(lines)


def test_truncated_record_is_not_finished() -> None:
    lines = _recorded_game(4, 2).splitlines()[:-3]
    with pytest.raises(RecordError, match="not finished"):
        replay(parse_record(lines))
    report = replay(parse_record(lines), require_finished=False)
    assert isinstance(report.final_state, ToyState)
    assert not GAME.is_terminal(report.final_state)


def test_views_hold_no_dice_source() -> None:
    state = GAME.start(2, GAME.parse_options(), SeededDice(seed=99)).state
    other = msgspec.structs.replace(state, dice=SeededDice(seed=12345, counter=7))
    assert GAME.view(state, 0) == GAME.view(other, 0)
    assert "seed" not in json.dumps(to_json(GAME.view(state, None)))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(1, 3), target=st.integers(2, 20))
def test_shared_game_checks_pass_on_the_toy_game(seed: int, players: int, target: int) -> None:
    from gamenight.core.testing import check_replay, check_round_trips, random_playout

    options = GAME.parse_options({"target": target})
    final, history = random_playout(GAME, players, options, seed)
    check_round_trips(GAME, final, history)
    check_replay(GAME, players, options, seed, history, final)


def test_tampered_results_name_the_differing_field() -> None:
    lines = _recorded_game(6, 2).splitlines()
    row = json.loads(lines[-1])
    row["results"]["scores"][1] += 1
    lines[-1] = json.dumps(row)
    with pytest.raises(RecordError, match=r"results differ at \$\.scores\[1\]"):
        replay(parse_record(lines))


def test_a_cut_off_last_line_can_be_repaired_for_resuming() -> None:
    lines = _recorded_game(8, 2).splitlines()[:-1]  # unfinished game
    cut = [*lines[:-1], lines[-1][: len(lines[-1]) // 2]]
    with pytest.raises(RecordError, match="invalid JSON"):
        parse_record(cut)
    repaired = parse_record(cut, repair_tail=True)
    assert len(repaired.actions) == len(parse_record(lines).actions) - 1
