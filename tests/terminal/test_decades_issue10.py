"""The Decades at the terminal, issue 10: labelled round scores, a compact layout for
narrow terminals, user text never read as markup, and no ruling ids on screen."""

from __future__ import annotations

import io
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from gamenight.core.agents import Decision
from gamenight.core.dice import SeededDice
from gamenight.core.events import visible_to
from gamenight.core.runner import play_match
from gamenight.games.decades.bots import BOTS
from gamenight.games.decades.deck import Question, QuestionCard
from gamenight.games.decades.game import GAME
from gamenight.games.decades.rules import DecadesState, Keep
from gamenight.terminal.decades import UI, show_breakdown
from gamenight.terminal.decades_keys import HELP, parse_command
from gamenight.terminal.decades_text import narrate
from gamenight.terminal.ui import Prompter, Seating

sys.path.insert(0, str(Path(__file__).parents[1] / "games" / "decades"))
from decades_helpers import (
    keep_all,
    play_cards,
    round_until_cards,
    start,
)

TABLE = Seating(["Red", "Blue"], frozenset({0, 1}))
MARKUP = Seating(["[/]", "[bold red]Ann[/]"], frozenset({0, 1}))
RULING = re.compile(r"\b[DKWT]\d{1,2}\b")
KEEP = ("remove-token", "cancel-answer", "blocked", "blocked")
KEEP1 = ("remove-token", "cancel-answer", "cancel-answer", "blocked")
YEARS = (1984, 1991, 2002, 2015, 1988, 2007)


def _cards(text: str = "In which year?") -> list[QuestionCard]:
    return [
        QuestionCard(
            f"q{i}",
            tuple(
                Question(c, f"{text} #{i}{c}", y, f"[dim]src[/] {i}")
                for c, y in zip(
                    ("births-deaths", "screen", "music", "technology", "sport", "news"),
                    YEARS,
                    strict=True,
                )
            ),
        )
        for i in range(4)
    ]


def _two_rounds(text: str = "In which year?") -> DecadesState:
    state, _ = start(_cards(text), track=1000)
    state, _ = keep_all(state, KEEP, KEEP1)
    state, _ = round_until_cards(state, YEARS, (1980,) * 6)  # Red: six hits
    state, _ = play_cards(state, "blocked", "blocked")
    state, _ = round_until_cards(state, (1985,) * 6, YEARS)  # Blue: six hits
    state, _ = play_cards(state, "blocked", "remove-token")
    assert state.round == 3 and len(state.log) == 2
    return state


def _show(width: int, state: DecadesState, seat: int | None, table: Seating = TABLE) -> str:
    return _render(width, lambda con: UI().show(con, GAME.view(state, seat), seat, table))


def _render(width: int, draw: Any) -> str:
    console = Console(file=io.StringIO(), width=width, color_system=None)
    draw(console)
    text: str = console.file.getvalue()  # type: ignore[attr-defined]
    return text


# ----- round scoring is labelled -----------------------------------------------------


def test_round_scoring_labels_the_round_score_and_the_running_total() -> None:
    state = _two_rounds()
    second = state.log[-1]
    gained = [sum(c.scores[s].points for c in second.categories) for s in range(2)]
    totals = second.categories[-1].totals
    assert gained != list(totals)  # the case of the report: +N this round, more in all
    text = _render(120, lambda con: show_breakdown(con, second, TABLE))
    score_row = next(line for line in text.splitlines() if "Round 2 score" in line)
    total_row = next(line for line in text.splitlines() if "Total after round 2" in line)
    assert f"{gained[0]:+d}" in score_row and f"{gained[1]:+d}" in score_row
    assert str(totals[0]) in total_row and str(totals[1]) in total_row
    assert not any(line.split()[:1] == ["Total"] for line in text.splitlines()[3:])


def test_the_final_table_says_final_score() -> None:
    results, final = play_match(GAME, [BOTS["expert"](1), BOTS["novice"](2)], seed=4)
    text = _render(120, lambda con: UI().show_results(con, results, GAME.view(final, None), TABLE))
    assert "Final score" in text and "Points per round" in text


# ----- narrow terminals --------------------------------------------------------------


def _positions() -> list[DecadesState]:
    state, _ = start(_cards(), track=1000)
    positions = [state]
    state, _ = keep_all(state, KEEP, KEEP1)
    positions.append(state)
    state, _ = round_until_cards(state, YEARS, (1980,) * 6)
    positions.append(state)
    state, _ = play_cards(state, "blocked", "cancel-answer")
    positions.append(state)
    return [*positions, _two_rounds()]


@pytest.mark.parametrize("width", [40, 60])
def test_narrow_terminals_get_a_compact_readable_board(width: int) -> None:
    for state in _positions():
        for seat in (0, 1, None):
            text = _show(width, state, seat)
            lines = text.splitlines()
            assert max(len(line) for line in lines) <= width, text
            if state.phase == "keep":
                continue
            rows = [line for line in lines if re.match(r"^(\d\ds |    )\d\d", line)]
            assert len(rows) == 16  # two boards, 4 decades in two rows of 5 years each
            for row in rows[:8]:
                years = [int(y[:2]) for y in row[4:].split()]
                assert len(years) == 5 and years == list(range(years[0], years[0] + 5))


def test_wide_terminals_keep_the_ten_year_rows() -> None:
    state = _positions()[2]
    text = _render(100, lambda con: UI().show(con, GAME.view(state, 0), 0, TABLE))
    rows = [line for line in text.splitlines() if re.match(r"^\d{4}s ", line)]
    assert len(rows) == 8 and all(len(r.split()) >= 11 for r in rows)


def test_narrow_breakdown_and_results_fit_one_line_per_category() -> None:
    state = _two_rounds()
    text = _render(40, lambda con: show_breakdown(con, state.log[-1], TABLE))
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 40
    for name in ("Births", "Screen", "Music", "Tech", "Sport", "News", "Round ", "Total"):
        row = [
            line
            for line in lines
            if line.lstrip().startswith(name.strip()) and "scoring" not in line
        ]
        assert len(row) == 1, (name, text)
        if name != "Total":  # both teams' points on the category's one line
            assert len(re.findall(r"(?<!\d)[+-]\d+", row[0])) == 2, (name, text)


# ----- user text is text ----------------------------------------------------------


def test_names_and_deck_texts_in_markup_are_shown_as_typed() -> None:
    state = _two_rounds("[red]x[/blue] [bold]")
    out = ""
    for seat in (0, 1, None):
        out += _show(100, state, seat, MARKUP) + _show(40, state, seat, MARKUP)
    assert "[bold red]Ann[/]" in out and "[/]" in out and "[red]x[/blue]" in out
    # every event narrates with the names as typed
    step = GAME.start(2, GAME.parse_options({"track": 60}), SeededDice(seed=3))
    lines = [narrate(e, MARKUP) for e in step.events]
    assert any(line is not None and "[bold red]Ann[/]" in line.plain for line in lines)
    results, final = play_match(GAME, [BOTS["casual"](1), BOTS["novice"](2)], seed=3)
    text = _render(100, lambda con: UI().show_results(con, results, GAME.view(final, 0), MARKUP))
    assert "[bold red]Ann[/]" in text
    text = _render(40, lambda con: UI().show_results(con, results, GAME.view(final, 0), MARKUP))
    assert "[/]" in text


def test_narration_never_reads_markup() -> None:
    state, events = start(_cards("[/] odd [b]"))
    state, more = keep_all(state, KEEP, KEEP1)
    visible = visible_to([*events, *more], 1)
    text = _render(160, lambda con: UI().show_events(con, visible, MARKUP))
    assert "[bold red]Ann[/] drew:" in text and "[/] odd [b]" in text


def test_markup_typed_at_keep_which_4_cards_is_a_plain_message() -> None:
    state, _ = start(_cards())
    view, legal = GAME.view(state, 0), GAME.legal_actions(state, 0)
    for typed in ("[/]", "[red]x[/blue]", "[bold]1 2 3 4", "\x1b[2J", "9" * 5000):
        message = parse_command(typed, view, legal)
        assert isinstance(message, str)


@dataclass
class Keyboard(Prompter):
    lines: list[str] = field(default_factory=list)

    def ask(self, prompt: str, *, secret: bool = False, **_: Any) -> str:
        return self.lines.pop(0)


@pytest.mark.skipif(
    not hasattr(Prompter, "say"), reason="needs the plain-text Prompter.error (cliux branch)"
)
def test_markup_typed_at_the_keep_prompt_does_not_crash_the_ui() -> None:
    state, _ = start(_cards())
    console = Console(file=io.StringIO(), width=100, color_system=None)
    keys = Keyboard(console=console, lines=["[/]", "[red]x[/blue]", "1 4 6 7"])
    action = UI().ask(keys, GAME.view(state, 0), GAME.legal_actions(state, 0), 0, MARKUP)
    assert action == Keep(KEEP)
    assert "'[/]' is not an action card" in console.file.getvalue()  # type: ignore[attr-defined]


# ----- no ruling ids on screen ----------------------------------------------------------


def _play_and_render(width: int) -> str:
    """Everything a whole bots' game puts on screen at ``width`` columns."""
    ui = UI()
    step = GAME.start(2, GAME.parse_options({"track": 60}), SeededDice(seed=9))
    state = step.state
    console = Console(file=io.StringIO(), width=width, color_system=None)
    ui.show_events(console, step.events, TABLE)
    agents = [BOTS["expert"](1), BOTS["casual"](2)]
    shown = ""
    while not GAME.is_terminal(state):
        seat = GAME.to_act(state)[0]
        view = GAME.view(state, seat)
        legal = GAME.legal_actions(state, seat)
        ui.show(console, view, seat, TABLE)
        shown += str(ui.hint(view, legal) or "") + str(parse_command("zz", view, legal))
        action = agents[seat].act(Decision("decades", seat, view, legal))
        transition = GAME.apply(state, seat, action)
        ui.show_events(console, transition.events, TABLE)
        state = transition.state
    ui.show_results(console, GAME.results(state), GAME.view(state, 0), TABLE)
    rendered: str = console.file.getvalue()  # type: ignore[attr-defined]
    return shown + rendered


def test_no_ruling_ids_on_screen() -> None:
    shown = _play_and_render(40) + _play_and_render(120)
    shown += " ".join(HELP.values())
    shown += " ".join(spec.help for spec in GAME.info.options)
    shown += " ".join(bot.summary for bot in GAME.info.bots) + GAME.info.summary
    assert "Round 1" in shown and "Points per round" in shown
    assert not RULING.search(shown), RULING.search(shown)
