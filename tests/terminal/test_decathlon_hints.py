"""Terminal hints: `?` renders the advisor's Advice: every option's exact value,
the optimal choice (★) and the competitive one (☆) where it differs."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence

from decathlon_table import chain, new_game, play, shot_put_at_22
from rich.console import Console

from gamenight.games.decathlon.actions import Action, Freeze, Rethrow, Stop, Throw
from gamenight.games.decathlon.advisor import advise, recommend
from gamenight.games.decathlon.game import GAME
from gamenight.games.decathlon.rules import DecathlonState
from gamenight.games.decathlon.view import DecathlonView
from gamenight.terminal.decathlon import UI
from gamenight.terminal.ui import Prompter, Seating

NAMES = Seating(["Ann", "Bob", "Cy"], frozenset({0, 1, 2}))


def at(state: DecathlonState) -> tuple[DecathlonView, list[Action], int]:
    (seat,) = GAME.to_act(state)
    return GAME.view(state, seat), GAME.legal_actions(state, seat), seat


def ask(state: DecathlonState, typed: Sequence[str]) -> tuple[Action, str]:
    """Run the UI's ask loop on scripted keys; the action and everything printed."""
    view, legal, seat = at(state)
    out = io.StringIO()
    console = Console(file=out, width=110, color_system=None)
    keys = iter(typed)
    action = UI().ask(
        Prompter(console=console, reader=lambda _: next(keys)), view, legal, seat, NAMES
    )
    return action, out.getvalue()


def row(text: str, label: str) -> list[str]:
    """The cells of the hint row for option ``label``: mark, option, then the values."""
    for line in text.splitlines():
        cells = [c for c in re.split(r"\s{2,}", line.strip()) if c]
        if label in cells:
            at = cells.index(label)
            mark = cells[at - 1] if at else ""
            return [mark, *cells[at:]]
    raise AssertionError(f"no row {label!r} in\n{text}")


def test_question_mark_shows_every_option_and_the_optimal_one() -> None:
    state, _ = new_game([6, 6, 6, 6, 6], events="hurdles")
    action, text = ask(state, ["?", "f"])
    assert action == Freeze((0, 1, 2, 3, 4))
    assert "Hint: value of each option (exact solver)" in text
    assert row(text, "freeze (f)") == ["★", "freeze (f)", "30.00"]
    rethrow = row(text, "rethrow (r)")
    assert rethrow[0] == "" and 21 < float(rethrow[2]) < 22  # 4 rethrows left: ~21.3
    assert "Hint: the optimal play is to freeze (f): expected result 30.00." in text
    assert "P(result" not in text  # nobody else has posted


def test_h_also_hints_and_equal_freezes_are_one_row() -> None:
    state, _ = new_game([6, 3, 6, 2, 4] + [2] * 30, events="discus")
    action, text = ask(state, ["h", "1"])
    assert action == Freeze((0,))
    assert "freeze 1 (showing 6)" in text
    assert "freeze 3 (showing 6)" not in text  # the same option as freezing die 1
    view, legal, _ = at(state)
    advice = advise(view, 0, legal)
    assert advice is not None and len(advice.options) == 11  # distinct multisets of 6 6 2 4
    expected = [o.values[0] or 0.0 for o in advice.options]
    assert expected == sorted(expected, reverse=True)


def test_points_game_hint_shows_the_chance_to_reach_the_posted_best() -> None:
    action, text = ask(shot_put_at_22("points"), ["?", "s"])
    assert action == Stop()
    assert "P(result ≥ 26): Ann's best result so far" in text
    assert row(text, "stop (s)") == ["★", "stop (s)", "22.00", "0.0%"]
    throw = row(text, "throw (t)")
    assert throw[0] == "☆" and throw[3] == "77.8%"  # 7/9, competitive's choice
    assert "To play for a result of at least 26: throw (t)." in text


def test_championship_hint_shows_expected_honours() -> None:
    _, text = ask(shot_put_at_22("championship"), ["?", "t"])
    assert "E[honours]" in text
    assert row(text, "stop (s)")[0] == "★" and row(text, "stop (s)")[4:] == ["2.00"]
    assert row(text, "throw (t)")[0] == "☆☆" and row(text, "throw (t)")[4:] == ["2.33"]
    assert "To play for medals: throw (t)." in text


def test_hint_method_gives_one_line_or_nothing() -> None:
    state, _ = new_game([1, 1, 1, 1, 1] * 2, events="hurdles")
    view, legal, _ = at(state)
    assert UI().hint(view, legal) == (
        "Hint: the optimal play is to rethrow (r): expected result "
        f"{advise(view, 0, legal).options[0].values[0]:.2f}."  # type: ignore[union-attr]
    )
    assert UI().hint(view, []) is None
    assert Rethrow() in legal


def test_last_event_of_a_points_game_hints_the_result_that_ties_the_best_total() -> None:
    # 100 m: Ann 8, Bob 20. Shot Put: Bob puts 14, then every attempt fouls until
    # Ann's third, at 6 6 6 4 = 22. Ann needs 20 + 14 - 8 = 26 to tie Bob's total,
    # not Bob's 14 in this event (which stopping at 22 already beats).
    keep4 = Freeze((0, 1, 2, 3))
    dice = chain([1] * 8, [5, 5, 5, 5, 6, 3, 2, 1], [6, 6, 2], [1] * 4, [6, 6, 6, 4])
    state, _ = new_game(dice, players=2, events="100m,shot")
    state, _ = play(state, keep4, keep4, keep4, keep4, Throw(), Throw(), Stop(), *[Throw()] * 3)
    view, legal, seat = at(state)
    assert (seat, view.shot, view.totals, view.best) == (0, (6, 6, 6, 4), (8, 20), (None, 14))
    found = recommend(view, legal, ["Ann", "Bob"])
    assert found is not None
    assert [o.name for o in found.advice.objectives] == ["expected result", "P(result ≥ 26)"]
    assert found.advice.objectives[1].note == "the result that ties Bob's total"
    action, text = ask(state, ["?", "s"])
    assert action == Stop()
    assert "P(result ≥ 26): the result that ties Bob's total" in text
    assert row(text, "stop (s)")[3] == "0.0%"
    assert row(text, "throw (t)")[0] == "☆" and row(text, "throw (t)")[3] == "77.8%"  # 7/9
    assert "To play for a result of at least 26: throw (t)." in text
