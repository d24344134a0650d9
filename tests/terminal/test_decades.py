"""The Decades terminal UI: input parsing, hidden entry, and what is shown."""

from __future__ import annotations

import io
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

sys.path.insert(0, str(Path(__file__).parents[1] / "games" / "decades"))
from decades_helpers import answer_all, both, card, keep_all, play_cards, start, tokens

from gamenight.core.events import visible_to
from gamenight.core.runner import play_match
from gamenight.core.testing import random_playout
from gamenight.games.decades.bots import BOTS
from gamenight.games.decades.game import GAME
from gamenight.games.decades.rules import (
    Answer,
    CancelAnswer,
    DecadesState,
    Extend,
    Keep,
    PlayCard,
    RemoveToken,
)
from gamenight.games.decades.tokens import Placement
from gamenight.terminal.decades import UI, board_grid
from gamenight.terminal.decades_keys import parse_command, parse_placements, parse_year
from gamenight.terminal.decades_text import narrate
from gamenight.terminal.ui import Prompter, Seating

TABLE = Seating(names=("Red", "Blue"), humans=frozenset({0, 1}))
CARDS = [card(f"c{i}", (1984, 1991, 2002, 2015, 1988, 2007)) for i in range(4)]
KEEP = ("remove-token", "cancel-answer", "blocked", "blocked")


def console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=160, color_system=None), out


@dataclass
class Keyboard(Prompter):
    """A scripted keyboard that remembers which prompts asked for hidden entry."""

    lines: list[str] = field(default_factory=list)
    secret_calls: list[bool] = field(default_factory=list)

    def ask(self, prompt: str, *, secret: bool = False, **_: Any) -> str:
        self.secret_calls.append(secret)
        return self.lines.pop(0)


def keyboard(*lines: str) -> Keyboard:
    con, _ = console()
    return Keyboard(console=con, lines=list(lines))


def _state(phase: str) -> DecadesState:
    state, _ = start(CARDS)
    if phase == "keep":
        return state
    state, _ = keep_all(state, KEEP, ("remove-token", "cancel-answer", "cancel-answer", "blocked"))
    if phase == "answer":
        return state
    state, _ = answer_all(state, (1984, 1986, 2002, 2015, 1988, 2007), (1980,) * 6)
    if phase == "extend":
        return state
    state, _ = both(state, tokens((4, 1984)), tokens((2, 1980)))
    if phase == "card":
        return state
    state, _ = play_cards(state, "remove-token", "cancel-answer")
    assert state.phase == "target"
    return state


def _parse(text: str, phase: str, seat: int = 0) -> Any:
    state = _state(phase)
    return parse_command(text, GAME.view(state, seat), GAME.legal_actions(state, seat))


# ----- parsing --------------------------------------------------------------------------


def test_years_and_placements() -> None:
    assert [parse_year(t) for t in ("1987", "87", "00", "19", "2019", " 80 ")] == [
        1987,
        1987,
        2000,
        2019,
        2019,
        1980,
    ]
    assert parse_year("8") is None and parse_year("19877") is None and parse_year("x") is None
    assert parse_placements("4@1987 2@01") == (Placement(4, 1987), Placement(2, 2001))
    assert parse_placements("3x95;2:2010") == (Placement(3, 1995), Placement(2, 2010))
    assert "length@year" in str(parse_placements("4-1987"))
    assert "not a year" in str(parse_placements("4@123"))


def test_keep_by_numbers_or_names() -> None:
    # dealt to team 0: 3 x Remove, 2 x Cancel, 2 x Blocked
    assert _parse("1 4 6 7", "keep") == Keep(KEEP)
    assert _parse("1467", "keep") == Keep(KEEP)
    assert _parse("remove cancel blocked b", "keep") == Keep(KEEP)
    assert "not a card number" in _parse("1 2 3 9", "keep")
    assert "chosen twice" in _parse("1 1 2 3", "keep")
    assert "keep exactly 4" in _parse("1 2 3", "keep")
    assert "not dealt those cards" in _parse("blocked blocked blocked cancel", "keep")
    assert "not an action card" in _parse("joker 1 2 3", "keep")


def test_answers() -> None:
    assert _parse("1987", "answer") == Answer(1987)
    assert _parse("05", "answer") == Answer(2005)
    assert "type a year" in _parse("nineteen", "answer")
    assert "not on the board" in _parse("2025", "answer")
    assert "not on the board" in _parse("1975", "answer")


def test_extension_placements() -> None:
    assert _parse("none", "extend") == Extend(())
    assert _parse("4@84 2@02", "extend") == Extend((Placement(2, 2002), Placement(4, 1984)))
    assert "overlap" in _parse("4@84 2@86", "extend")
    assert "must start under one of your answer tokens" in _parse("2@1985", "extend")
    assert "leave the 2000s row" in _parse("4@2007 ", "extend")
    assert "can be placed only once" in _parse("2@84 2@02", "extend")
    assert "type tokens" in _parse("", "extend")


def test_cards_and_targets() -> None:
    # team 0 holds Remove, Cancel, Blocked x2: listed as 1 Remove, 2 Cancel, 3 Blocked
    assert _parse("3", "card") == PlayCard("blocked")
    assert _parse("cancel", "card") == PlayCard("cancel-answer")
    assert _parse("rem", "card") == PlayCard("remove-token")
    assert "not one of your cards" in _parse("4", "card")
    assert "card number" in _parse("", "card")
    # team 0 removes a token: team 1 placed only its 2-year token, so Enter takes it
    assert _parse("", "target") == RemoveToken(2)
    assert _parse("2@1980", "target") == RemoveToken(2)
    assert "type its length: 2" in _parse("4", "target")
    # team 1 cancels an answer
    assert _parse("3", "target", seat=1) == CancelAnswer("music")
    assert _parse("cinema", "target", seat=1) == CancelAnswer("screen")
    assert _parse("tech", "target", seat=1) == CancelAnswer("technology")
    assert "type a category" in _parse("weather", "target", seat=1)


# ----- asking ------------------------------------------------------------------------------


def test_secret_steps_are_asked_without_echo_and_typos_reasked() -> None:
    state = _state("answer")
    prompter = keyboard("?", "19x", "2030", "87")
    action = UI().ask(prompter, GAME.view(state, 0), GAME.legal_actions(state, 0), 0, TABLE)
    assert action == Answer(1987)
    assert prompter.secret_calls == [True] * 4
    text = prompter.console.file.getvalue()  # type: ignore[attr-defined]
    assert "1987 or just 87" in text  # the help
    assert "type a year" in text and "2030 is not on the board" in text
    for phase in ("keep", "extend", "card"):
        state = _state(phase)
        line = {"keep": "1 4 6 7", "extend": "none", "card": "1"}[phase]
        prompter = keyboard(line)
        UI().ask(prompter, GAME.view(state, 0), GAME.legal_actions(state, 0), 0, TABLE)
        assert prompter.secret_calls == [True]


def test_targets_are_public_and_help_lists_them() -> None:
    state = _state("target")
    prompter = keyboard("h", "music")
    action = UI().ask(prompter, GAME.view(state, 1), GAME.legal_actions(state, 1), 1, TABLE)
    assert action == CancelAnswer("music")
    assert prompter.secret_calls == [False, False]
    assert "cancel Music answer" in prompter.console.file.getvalue()  # type: ignore[attr-defined]


def test_hint_never_mentions_answers() -> None:
    state = _state("extend")
    hint = UI().hint(GAME.view(state, 0), GAME.legal_actions(state, 0))
    assert hint is not None and "1984, 1986, 1988, 2002, 2007, 2015" in hint
    assert (
        UI().hint(GAME.view(_state("answer"), 0), GAME.legal_actions(_state("answer"), 0)) is None
    )


# ----- showing -----------------------------------------------------------------------------


def test_board_grid_marks_bonuses_answers_and_rows() -> None:
    con, out = console()
    con.print(board_grid("A", [("music", 1987), ("news", 1987)], [Placement(4, 1986)], "Red"))
    lines = out.getvalue().splitlines()
    assert lines[0] == "Red"
    rows = [line for line in lines if line[:4].isdigit()]
    assert [r[:5] for r in rows] == ["1980s", "1990s", "2000s", "2010s"]
    assert "83+3" in rows[0] and "88+5" in rows[0] and "87MN" in rows[0]
    assert "02+5" in rows[2] and "15+3" in rows[3]
    assert len(rows[0].split()) == 11  # the decade and its 10 years


def test_show_keeps_the_other_teams_pending_answer_hidden() -> None:
    state = _state("answer")
    state = GAME.apply(state, 1, Answer(1999)).state
    con, out = console()
    UI().show(con, GAME.view(state, 1), 1, TABLE)
    assert "your answer, still hidden from the other team: 1999" in out.getvalue()
    con, out = console()
    UI().show(con, GAME.view(state, 0), 0, TABLE)
    text = out.getvalue()
    assert "1999" not in text and "still hidden" not in text
    assert "99B" not in text  # no answer letter on Blue's board yet
    assert "→ Births and Deaths: Question c0/births-deaths" in text


def test_show_lists_the_dealt_cards_and_then_the_hand() -> None:
    con, out = console()
    UI().show(con, GAME.view(_state("keep"), 0), 0, TABLE)
    assert "Your 7 action cards (keep 4):" in out.getvalue()
    assert "7. Blocked" in out.getvalue()
    con, out = console()
    UI().show(con, GAME.view(_state("card"), 0), 0, TABLE)
    text = out.getvalue()
    assert "Your action cards: 1. Remove the Year Extension token ×1" in text
    assert "3. Blocked ×2" in text
    assert "extension tokens: 4 years 1984-1987" in text
    assert "extension tokens: 2 years 1980-1981" in text


def test_round_breakdown_events_and_results() -> None:
    state = _state("target")
    state = GAME.apply(state, 0, RemoveToken(2)).state
    step = GAME.apply(state, 1, CancelAnswer("music"))
    con, out = console()
    UI().show_events(con, visible_to(step.events, None), TABLE)
    text = out.getvalue()
    assert "Red chooses: cancel Red's Music answer" not in text
    assert "Blue chooses: cancel Red's Music answer" in text
    assert "it was 1984" in text and "hit +8" in text
    con, out = console()
    UI().show(con, GAME.view(step.state, 0), 0, TABLE)
    text = out.getvalue()
    assert "Round 1 scoring" in text and "cancelled" in text
    assert "Blue: Cancel the answer → cancel Red's Music answer" in text


def test_a_whole_game_narrates_and_ends_with_standings() -> None:
    final, history = random_playout(GAME, 2, GAME.parse_options({"track": 40}), 4, probe=False)
    con, out = console()
    ui = UI()
    for _, _, events in history:
        typed: tuple[Any, ...] = events
        ui.show_events(con, visible_to(typed, None), TABLE)
    results = GAME.results(final)
    ui.show_results(con, results, GAME.view(final, None), TABLE)
    text = out.getvalue()
    assert "— Round 1 of 4 —" in text and "Boards revealed" in text and "Cards revealed" in text
    assert "Points per round" in text
    if len(results.winners) == 1:
        assert f"{TABLE.names[results.winners[0]]} wins" in text
    else:
        assert "A draw" in text
    # a bots' game, too
    results, final = play_match(GAME, [BOTS["expert"](1), BOTS["novice"](2)], seed=4)
    con, out = console()
    ui.show_results(con, results, GAME.view(final, None), TABLE)
    assert "Red wins" in out.getvalue()


def test_narration_of_private_events_names_the_team() -> None:
    state = _state("keep")
    events = GAME.apply(state, 0, Keep(KEEP)).events
    lines = [narrate(e, TABLE) for e in events]
    assert lines[0] is not None and lines[0].plain == "Red has chosen."
    assert lines[0].style == "" and {span.style for span in lines[0].spans} == {"dim"}
    assert lines[1] is not None and "Red chose (hidden from the other team): " in lines[1].plain
