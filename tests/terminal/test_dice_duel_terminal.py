"""The Dice Duel terminal presentation: command parsing, prompting, hints and rendering."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import pytest
from msgspec.structs import replace
from rich.console import Console

from gamenight.core.agents import RandomAgent
from gamenight.core.dice import ScriptedDice
from gamenight.core.record import RecordSeat
from gamenight.core.runner import Match
from gamenight.games.dice_duel.game import GAME, DiceDuelView
from gamenight.games.dice_duel.rules import Action, DiceDuelState, Roll, Stop, Take
from gamenight.terminal.dice_duel import HELP_ROWS, UI, describe, parse_command
from gamenight.terminal.ui import Prompter, Seating

TABLE = Seating(names=("Ann", "Bob"), humans=frozenset({0}))
NOTHING = (1, 2, 4, 5, 6)  # makes no combination at all


def start(players: int, *dice: int) -> tuple[DiceDuelState, object]:
    """A new game whose dice come out as scripted (the first value draws the starter)."""
    step = GAME.start(players, GAME.parse_options(), ScriptedDice(values=dice))
    return step.state, step.events


def _view(faces: tuple[int, ...], rolls_used: int = 1, **fields: object) -> DiceDuelView:
    state, _ = start(2, 1, 1, 2, 4, 5, 6)
    return GAME.view(replace(state, faces=faces, rolls_used=rolls_used, **fields), 0)


def _parse(text: str, view: DiceDuelView) -> Action | str:
    return parse_command(text, view, view.legal())


FULL_HOUSE = (3, 3, 3, 5, 5)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("134", Roll(keep=(0, 2, 3))),
        ("k 1 3 4", Roll(keep=(0, 2, 3))),
        ("k134", Roll(keep=(0, 2, 3))),
        ("keep 4,1", Roll(keep=(0, 3))),
        ("  431 ", Roll(keep=(0, 2, 3))),
        ("k", Roll(keep=())),
        ("r", Roll(keep=())),
        ("roll", Roll(keep=())),
        ("r 2 5", Roll(keep=(0, 2, 3))),
        ("fh", Take("full-house")),
        ("FH", Take("full-house")),
        ("full house", Take("full-house")),
        ("2p", Take("two-pairs")),
        ("3k", Take("three-of-a-kind")),
        ("fl", Take("flush")),
    ],
)
def test_commands(text: str, expected: Action) -> None:
    assert _parse(text, _view(FULL_HOUSE)) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "type a command"),
        ("xyz", "unknown command"),
        ("k 1 6", "numbered 1 to 5"),
        ("k 0", "numbered 1 to 5"),
        ("113", "each die once"),
        ("12345", "keeping all five"),
        ("ls", "do not make a Large straight (they make: 2p, 3k, fl, fh)"),
        ("a fh", "only be taken with a Kniffel"),
        ("s", "take one (2p, 3k, fl, fh) or none (n)"),
    ],
)
def test_mistakes_are_explained(text: str, message: str) -> None:
    result = _parse(text, _view(FULL_HOUSE))
    assert isinstance(result, str) and message in result


def test_stop_without_a_chip_and_with_the_only_chip() -> None:
    assert _parse("s", _view((1, 2, 4, 5, 6))) == Stop()
    pick = _view((1, 2, 3, 4, 6), rolls_used=3, phase="pick")
    assert _parse("s", pick) == Take("small-straight")
    nothing_left = _view((1, 1, 2, 2, 3), plate=(0, 4, 4, 4, 4, 4, 4))
    assert _parse("2p", nothing_left) == "no Two pairs chip is left on the plate"


def test_no_rolls_left_in_the_pick_phase() -> None:
    pick = _view(FULL_HOUSE, rolls_used=3, phase="pick")
    result = _parse("12", pick)
    assert isinstance(result, str) and "no rolls left" in result and "fh" in result


def test_kniffel_takes_from_plate_or_set_aside() -> None:
    view = _view((6,) * 5, set_aside=(0, 0, 0, 0, 0, 0, 1), plate=(4, 4, 4, 4, 4, 4, 3))
    assert _parse("ls", view) == Take("large-straight", "plate")
    assert _parse("a ls", view) == Take("large-straight", "set-aside")
    assert _parse("ls aside", view) == Take("large-straight", "set-aside")
    assert _parse("aside large straight", view) == Take("large-straight", "set-aside")
    assert _parse("ss", view) == Take("small-straight")  # any chip, whatever the dice make
    only_aside = _view((6,) * 5, set_aside=(0, 0, 0, 0, 0, 0, 1), plate=(4, 4, 4, 4, 4, 4, 0))
    assert _parse("ls", only_aside) == Take("large-straight", "set-aside")
    assert _parse("a 2p", view) == "no Two pairs chip is left on the set-aside pile"


def _prompter(lines: list[str]) -> tuple[Prompter, io.StringIO]:
    out = io.StringIO()
    feed: Iterator[str] = iter(lines)
    console = Console(file=out, width=120, color_system=None)
    return Prompter(console=console, reader=lambda _prompt: next(feed)), out


def test_ask_reprompts_and_offers_help_with_hints() -> None:
    view = _view((6, 6, 1, 6, 6), rolls_used=2)
    prompter, out = _prompter(["?", "k 9", "1245"])
    action = UI().ask(prompter, view, view.legal(), 0, TABLE)
    assert action == Roll(keep=(0, 1, 3, 4))
    text = out.getvalue()
    assert "Commands" in text and "Expected chip value" in text
    best = next(line for line in text.splitlines() if "★" in line)
    assert "keep 6 6 6 6 (1245) and roll" in best
    assert "numbered 1 to 5" in text


def test_hint_ranks_options() -> None:
    view = _view((2, 3, 4, 5, 6), rolls_used=2)
    hint = UI().hint(view, view.legal())
    assert hint is not None
    first = hint.options[0]
    assert first.values == (50.0,) and first.label == "take Large straight (ls)"
    assert hint.best_option == first


def _render(view: DiceDuelView) -> str:
    out = io.StringIO()
    UI().show(Console(file=out, width=120, color_system=None), view, 0, TABLE)
    return out.getvalue()


def test_show_renders_dice_plate_pile_chips_and_totals() -> None:
    view = _view(
        (2, 3, 4, 5, 6),
        rolls_used=2,
        kept=(True, False, True, False, False),
        plate=(4, 4, 3, 4, 4, 4, 2),
        set_aside=(0, 0, 0, 0, 0, 0, 1),
        chips=((0, 0, 1, 0, 0, 0, 1), (0, 0, 0, 0, 0, 0, 0)),
    )
    text = _render(view)
    assert "Round 1" in text and "Ann's turn" in text and "1 roll left" in text
    assert " 2    3    4    5    6" in text  # the dice
    assert "1▲" in text and "3▲" in text and "2▲" not in text  # kept marks
    assert "Small straight (ss), Large straight (ls)" in text
    ls_row = next(line for line in text.splitlines() if "Large straight" in line and "50" in line)
    # key, name, points, makes it, plate, aside, Ann's chip (Bob has none).
    assert re.split(r"\s{2,}", ls_row.strip()) == [
        "ls",
        "Large straight",
        "50",
        "✓",
        "●●··",
        "1",
        "1",
    ]
    total_row = next(line for line in text.splitlines() if "total" in line)
    assert re.split(r"\s{2,}", total_row.strip()) == ["total + bonuses", "70", "0"]


def test_many_players_get_a_compact_table() -> None:
    # Six columns of players do not fit 80 columns: the sheet splits in two and
    # loses nothing (every combination's name, every player's full name).
    state, _ = start(6, 1, 1, 2, 4, 5, 6)
    names = ("Ann", "Bob", "Carla", "Turn optimal 4", "Random 5", "Dieter")
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None)
    UI().show(console, GAME.view(state, 0), 0, Seating(names=names, humans=frozenset({0})))
    lines = out.getvalue().splitlines()
    assert all(len(line) <= 80 for line in lines)
    assert any(
        re.split(r"\s{2,}", line.strip()) == ["ls Large straight", "50", "●●●●"] for line in lines
    )
    header = next(line for line in lines if line.startswith("player"))
    assert header.split() == ["player", "2p", "3k", "ss", "fl", "fh", "4k", "ls", "total"]
    for name in names:
        assert any(line.strip().lstrip("▸ ").startswith(name) for line in lines), name
    assert any(line.startswith("▸ Ann ") for line in lines)  # to act


def test_dice_colours_follow_parity() -> None:
    out = io.StringIO()
    console = Console(file=out, width=120, force_terminal=True, color_system="truecolor")
    UI().show(console, _view((2, 3, 4, 5, 6)), 0, TABLE)
    raw = out.getvalue()
    red, grey = "48;5;160m", "48;5;237m"  # red3 and grey23 backgrounds
    assert raw.count(red + " 2 ") == raw.count(red + " 4 ") == raw.count(red + " 6 ") == 1
    assert raw.count(grey + " 3 ") == raw.count(grey + " 5 ") == 1


def test_kniffel_banner() -> None:
    assert "KNIFFEL!" in _render(_view((5,) * 5))


def test_events_results_and_a_whole_game_render() -> None:
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    ui = UI()
    match = Match(
        GAME,
        GAME.parse_options(),
        9,
        [RecordSeat("Ann", "bot:random"), RecordSeat("Bob", "bot:random")],
        [RandomAgent(1), RandomAgent(2)],
    )
    match.observers.append(lambda frame: ui.show_events(console, frame.events, TABLE))
    results = match.run()
    final = match.state
    assert final is not None
    view = GAME.view(final, None)
    ui.show(console, view, None, TABLE)
    ui.show_results(console, results, view, TABLE)
    text = out.getvalue()
    assert "draws the start" in text and "rolls (1/3)" in text and "takes a" in text
    assert "Game over" in text and "Final scores" in text
    for p, name in enumerate(TABLE.names):
        row = next(line for line in text.splitlines() if f" {name} " in line and "│" in line)
        assert str(results.scores[p]) in row


# ----- from the audit ---------------------------------------------------------------------------


def _render_pick(faces: tuple[int, ...]) -> str:
    state, _ = start(2, 1, *NOTHING)
    view = GAME.view(replace(state, faces=faces, rolls_used=3, phase="pick"), 0)
    out = io.StringIO()
    table = Seating(names=("Ann", "Bob"), humans=frozenset({0}))
    UI().show(Console(file=out, width=120, color_system=None), view, 0, table)
    return out.getvalue()


def test_pick_after_a_third_roll_is_not_called_a_kniffel() -> None:
    text = _render_pick((3, 3, 3, 5, 5))
    assert "choose your chip" in text and "Kniffel" not in text
    assert "choose your Kniffel chip" in _render_pick((5,) * 5)


def test_bad_die_number_names_the_culprit() -> None:
    state, _ = start(2, 1, *NOTHING)
    view = GAME.view(state, 0)
    assert parse_command("126", view, view.legal()) == (
        "dice are numbered 1 to 5: there is no die '6' in '126'"
    )
    message = parse_command("k 1x", view, view.legal())
    assert isinstance(message, str) and "no die 'x'" in message


def test_a_bot_default_name_fits_the_wide_table() -> None:
    state, _ = start(2, 1, *NOTHING)
    out = io.StringIO()
    table = Seating(names=("Ann", "Turn optimal 2"), humans=frozenset({0}))
    UI().show(Console(file=out, width=120, color_system=None), GAME.view(state, 0), 0, table)
    header = next(line for line in out.getvalue().splitlines() if line.startswith("key"))
    assert "Turn optimal 2" in header and "combination" in header


def test_n_takes_no_chip_even_one_the_dice_earn() -> None:
    """K4 revised: ``n`` declines; ``s`` still takes the only chip, so no slip declines."""
    pick = _view((1, 2, 3, 4, 6), rolls_used=3, phase="pick")
    assert _parse("n", pick) == Stop() and _parse("decline", pick) == Stop()
    assert _parse("s", pick) == Take("small-straight")
    assert _parse("n", _view(FULL_HOUSE)) == Stop()
    assert describe(Stop(), pick) == "take no chip (n)"
    assert any(keys == "n" for keys, _ in HELP_ROWS)
    solo_second = _view((4,) * 5, rolls_used=3, phase="pick", picks=1, mode="solo", players=1,
                        chips=((0,) * 7,), current=0)  # fmt: skip
    result = _parse("n", solo_second)
    assert isinstance(result, str) and "take the second one" in result


def test_a_declined_chip_is_narrated() -> None:
    from gamenight.games.dice_duel.events import NoChip
    from gamenight.terminal.dice_duel import narrate

    seating = Seating(names=("Ann", "Bob"), humans=frozenset({0}))
    line = narrate(NoChip(player=0, reason="declined"), seating)
    assert line is not None and line.plain == "Ann takes no chip and ends the turn."
