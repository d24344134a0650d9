"""Dice Duel terminal reliability (issue 10): user text is never markup, the narration
names the kept dice, narrow terminals lose nothing, and no ruling id reaches the screen."""

from __future__ import annotations

import builtins
import contextlib
import io
import random
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec.structs import replace
from rich.console import Console

from gamenight.core.agents import Agent, RandomAgent
from gamenight.core.dice import ScriptedDice, SeededDice
from gamenight.core.errors import IllegalActionError
from gamenight.core.frames import Frame
from gamenight.core.record import RecordSeat
from gamenight.core.runner import Match
from gamenight.games.dice_duel.bots import TurnOptimalBot
from gamenight.games.dice_duel.combinations import COMBINATIONS, LABEL
from gamenight.games.dice_duel.game import GAME, DiceDuelView
from gamenight.games.dice_duel.rules import SOURCES, Action, DiceDuelState, Roll, Stop, Take
from gamenight.terminal.dice_duel import KEY, UI, narrate, parse_command
from gamenight.terminal.ui import Prompter, Seating

MARKUP = ("[/]", "[red]x[/blue]", "[bold red]Ann[/]", "[link=x]y", "\\[/]", "[")
NASTY = Seating(names=("[/]", "[bold red]Ann[/]"), humans=frozenset({0, 1}))
NOTHING = (1, 2, 4, 5, 6)


def _console(width: int = 120, *, colour: bool = False) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    if colour:
        return Console(file=out, width=width, force_terminal=True, color_system="truecolor"), out
    return Console(file=out, width=width, color_system=None), out


def _start(players: int, *dice: int, mode: str = "multi") -> DiceDuelState:
    options = GAME.parse_options({"mode": mode})
    return GAME.start(players, options, ScriptedDice(values=dice)).state


def _play_and_render(console: Console, table: Seating, seed: int, players: int = 2) -> str:
    """A whole seeded bot game narrated, with the board shown at every decision."""
    ui = UI()
    seats = [RecordSeat(name, "bot:random") for name in table.names[:players]]
    agents: list[Agent[Any, Any, Any]] = [RandomAgent(seed + p) for p in range(players)]
    match = Match(GAME, GAME.parse_options(), seed, seats, agents)

    def observe(frame: Frame[Any, Any, Any]) -> None:
        ui.show_events(console, list(frame.events), table)
        ui.show(console, frame.position.view, None, table)

    match.observers.append(observe)
    results = match.run()
    assert match.state is not None
    ui.show_results(console, results, GAME.view(match.state, None), table)
    out = console.file
    assert isinstance(out, io.StringIO)
    return out.getvalue()


# ----- Rich markup typed at the prompt or in a name ------------------------------------------


@pytest.mark.parametrize("colour", [False, True])
def test_markup_typed_at_the_prompt_is_shown_as_text(colour: bool) -> None:
    state = _start(2, 1, *NOTHING)
    view = GAME.view(state, 0)
    console, out = _console(colour=colour)
    feed: Iterator[str] = iter([*MARKUP, "[bold]s", "k [1]", "s"])
    prompter = Prompter(console=console, reader=lambda _prompt: next(feed))
    assert UI().ask(prompter, view, view.legal(), 0, NASTY) == Stop()
    text = out.getvalue()
    for typed in MARKUP:
        assert f"unknown command {typed!r}" in text
    assert "'[bold]s'" in text and "there is no die '['" in text


TYPED = st.one_of(
    st.text(max_size=40),
    st.lists(st.sampled_from([*MARKUP, "[", "]", "/", "bold", "k", "1", "\x1b", "\t"])).map(
        "".join
    ),
)


@settings(max_examples=150, deadline=None)
@given(typed=TYPED)
def test_any_typed_text_is_an_action_or_a_plain_message(typed: str) -> None:
    state = _start(2, 1, *NOTHING)
    view = GAME.view(state, 0)
    console, out = _console()
    feed = iter([typed, "s"])
    prompter = Prompter(console=console, reader=lambda _prompt: next(feed))
    assert UI().ask(prompter, view, view.legal(), 0, NASTY) in view.legal()
    if "unknown command" in out.getvalue():
        # Rich may wrap the message at any space: compare without whitespace.
        shown, quoted = ("".join(s.split()) for s in (out.getvalue(), repr(typed.strip())))
        assert quoted in shown


def test_markup_at_the_real_prompt_and_in_the_name(monkeypatch: pytest.MonkeyPatch) -> None:
    # No scripted reader: Rich prints the prompt itself and reads stdin via input().
    answers = iter(["[/]", "s"])
    monkeypatch.setattr(builtins, "input", lambda *_args: next(answers))
    state = _start(2, 1, *NOTHING)
    view = GAME.view(state, 0)
    console, out = _console()
    action = UI().ask(Prompter(console=console), view, view.legal(), 0, NASTY)
    assert action == Stop()
    # The prompt names the player, then the keys (issue 41): "[/]: 134 keep, ... > ".
    assert out.getvalue().count("[/]: ") == 2
    assert "unknown command '[/]'" in out.getvalue()


@pytest.mark.parametrize("width", [120, 40])
def test_markup_in_player_names_never_crashes_and_shows_as_typed(width: int) -> None:
    console, _ = _console(width, colour=True)
    raw = _play_and_render(console, NASTY, seed=5)
    # Strip colours: the names must appear literally (wrapping may split them at 40).
    text = re.sub(r"\x1b\[[0-9;]*m", "", raw)
    flat = re.sub(r"\s+", "", text)
    assert "[bold red]Ann[/]".replace(" ", "") in flat and "[/]rolls" in flat
    assert "wins!" in text or "share the win!" in text
    assert "Final scores" in text


def test_a_name_is_not_styled() -> None:
    console, out = _console(colour=True)
    state = _start(2, 1, *NOTHING)
    UI().show(console, GAME.view(state, 1), 1, Seating(("Bob", "[red]Ann[/]"), frozenset({1})))
    raw = out.getvalue()
    assert "[red]Ann[/]" in raw
    assert "\x1b[31mAnn" not in raw  # the markup was not applied


# ----- narration names the kept dice -----------------------------------------------------


def test_narration_says_which_dice_were_kept() -> None:
    table = Seating(names=("Ann", "Random 3"), humans=frozenset({0}))
    state = _start(2, 2, 1, 6, 6, 1, 6, 2, 3, 4, 5, 5, 1, 4, *NOTHING)
    assert state.current == 1
    step = GAME.apply(state, 1, Roll(keep=(1, 2, 4)))
    lines = [str(narrate(e, table)) for e in step.events]
    assert lines == ["Random 3 rolls (2/3), keeping dice 2 3 5 (6 6 6): 2 6 6 3 6"]
    step = GAME.apply(step.state, 1, Roll(keep=()))
    lines = [str(line) for e in step.events if (line := narrate(e, table)) is not None]
    assert lines[0] == "Random 3 rolls all five (3/3): 4 5 5 1 4"


def test_every_roll_of_a_game_names_its_kept_dice() -> None:
    console, _ = _console()
    text = _play_and_render(console, Seating(("Ann", "Bob"), frozenset()), seed=3)
    rolls = [line for line in text.splitlines() if re.match(r"(Ann|Bob) rolls", line)]
    assert rolls and any("keeping dice" in line for line in rolls)
    for line in rolls:
        match = re.fullmatch(r"\w+ rolls (?:all five )?\(([123])/3\)(.*): ([1-6] ){4}[1-6]", line)
        assert match, line
        if match[2]:  # ", keeping dice 2 3 5 (6 6 6)": as many faces as dice
            kept = re.fullmatch(r", keeping dice ((?:[1-5] ?)+) \(((?:[1-6] ?)+)\)", match[2])
            assert kept and len(kept[1].split()) == len(kept[2].split()), line


# ----- narrow terminals: a compact sheet that keeps everything ----------------------------------


def _sheet_position(players: int) -> DiceDuelView:
    state = _start(players, 1, 2, 3, 4, 5, 6)
    held = tuple(
        tuple((p + i) % 3 for i in range(len(COMBINATIONS))) for p in range(players)
    )  # a few chips of most kinds for everybody
    state = replace(
        state,
        plate=(4, 3, 2, 1, 0, 2, 1),
        set_aside=(0, 0, 0, 0, 1, 0, 2),
        chips=held,
        kept=(True, False, True, False, False),
        rolls_used=2,
    )
    return GAME.view(state, 0)


NAMES = ("Ann", "Bob", "Carla", "Turn optimal 4", "Random 5", "Dieter")


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_sheet_at_40_columns_keeps_every_figure(players: int) -> None:
    view = _sheet_position(players)
    console, out = _console(40)
    UI().show(console, view, 0, Seating(NAMES[:players], frozenset({0})))
    lines = out.getvalue().splitlines()
    assert all(len(line) <= 40 for line in lines)
    text = out.getvalue()
    for i, combination in enumerate(COMBINATIONS):  # every combination: key, name, plate
        row = next(line for line in lines if line.startswith(f"{KEY[combination]} "))
        assert LABEL[combination] in row, row
        plate = "●" * view.plate[i] + "·" * (4 - view.plate[i]) if view.plate[i] else "—"
        assert plate in row and (
            not view.set_aside[i] or row.rstrip().endswith("2" if i == 6 else "1")
        )
    header = next(line for line in lines if line.startswith("player"))
    assert header.split() == ["player", *(KEY[c] for c in COMBINATIONS), "total"]
    flat = re.sub(r"\s+", " ", text)
    for p in range(players):  # every player's name, chips per combination and total
        chips = " ".join(str(n) if n else "·" for n in view.chips[p])
        assert f"{chips} {view.scores[p].total}" in flat, NAMES[p]
        assert all(word in text for word in NAMES[p].split())
    assert "The dice make: Small straight (ss), Large straight (ls)" in flat


def test_sheet_follows_the_columns_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    out = io.StringIO()
    console = Console(file=out, color_system=None)
    assert console.width == 40
    UI().show(console, _sheet_position(2), 0, Seating(NAMES[:2], frozenset({0})))
    assert "combination" not in out.getvalue()  # the narrow layout, with names in rows
    assert "ls Large straight" in out.getvalue()
    assert all(len(line) <= 40 for line in out.getvalue().splitlines())


@pytest.mark.parametrize("width", [40, 120])
def test_results_keep_every_figure_at_any_width(width: int) -> None:
    console, _ = _console(width)
    table = Seating(NAMES[:3], frozenset())
    text = _play_and_render(console, table, seed=8, players=3)
    assert all(len(line) <= width for line in text.splitlines())
    final = text[text.rindex("Final scores") :]
    flat = re.sub(r"\s+", " ", final)
    for figure in ("chips", "gold", "silver", "full stacks", "last chip", "total"):
        assert figure in flat
    assert all(name in flat for name in NAMES[:3])


def test_help_and_hint_fit_40_columns() -> None:
    state = _start(2, 1, 6, 6, 1, 6, 6)
    view = GAME.view(state, 0)
    console, out = _console(40)
    feed = iter(["?", "1245"])
    prompter = Prompter(console=console, reader=lambda _prompt: next(feed))
    UI().ask(prompter, view, view.legal(), 0, NASTY)
    lines = out.getvalue().splitlines()
    assert all(len(line) <= 40 for line in lines)
    best = next(line for line in lines if "★" in line)
    assert "keep 6 6 6 6 (1245)" in best and re.search(r"\d+\.\d\d$", best.rstrip())


# ----- no ruling ids on screen -------------------------------------------------------------


def _script(lines: Sequence[str]) -> Callable[[str], str]:
    """A keyboard that types ``lines``, then closes (EOFError)."""
    feed = iter(lines)

    def read(_prompt: str) -> str:
        line = next(feed, None)
        if line is None:
            raise EOFError
        return line

    return read


RULING = re.compile(r"\b[DKTW]\d+\b")


def test_no_ruling_ids_in_anything_a_player_reads() -> None:
    shown: list[str] = []
    console, out = _console(100)
    table = Seating(("Ann", "Bob"), frozenset({0, 1}))
    for seed in range(3):
        _play_and_render(console, table, seed)
    solo = Match(
        GAME,
        GAME.parse_options({"mode": "solo"}),
        4,
        [RecordSeat("Ann", "bot")],
        [TurnOptimalBot()],
    )
    ui = UI()
    solo.observers.append(lambda frame: ui.show_events(console, frame.events, table))
    results = solo.run()
    assert solo.state is not None
    ui.show_results(console, results, GAME.view(solo.state, None), table)
    # Help, hints and every error the keyboard can cause, in a few positions.
    rng = random.Random(1)
    state = GAME.start(2, GAME.parse_options(), SeededDice(seed=2)).state
    words = ["?", "ls", "a ls", "a fh", "s", "12345", "k 9", "113", "r", "fh", "zz", "2p", "k"]
    for _ in range(30):
        if GAME.is_terminal(state):
            break
        seat = state.current
        view, legal = GAME.view(state, seat), GAME.legal_actions(state, seat)
        for word in words:
            result = parse_command(word, view, legal)
            shown.append(result if isinstance(result, str) else "")
        refusable: list[Action] = [Stop(), Roll(keep=(0,))]
        refusable += [Take(c, s) for c in COMBINATIONS for s in SOURCES]
        for bad in refusable:
            if bad not in legal:
                with pytest.raises(IllegalActionError) as refused:
                    GAME.apply(state, seat, bad)
                shown.append(str(refused.value))
        with contextlib.suppress(EOFError):  # the script ran out before a legal command
            ui.ask(Prompter(console, reader=_script(words)), view, legal, seat, table)
        state = GAME.apply(state, seat, rng.choice(legal)).state
    # What the menu and `gamenight list` show about the game.
    shown += [GAME.info.summary, *(o.help for o in GAME.info.options)]
    shown += [b.summary for b in GAME.info.bots]
    shown.append(out.getvalue())
    found = [m for text in shown for m in RULING.findall(text)]
    assert not found, found


@pytest.mark.parametrize("width", [40, 80, 120])
def test_long_names_are_never_cut(width: int) -> None:
    names = ("Christopher Robin the Third", "Bob")
    console, out = _console(width)
    UI().show(console, _sheet_position(2), 0, Seating(names, frozenset({0})))
    assert "…" not in out.getvalue()
    flat = re.sub(r"\s+", " ", out.getvalue())
    assert names[0] in flat
