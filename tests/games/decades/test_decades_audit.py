"""Audit additions: edge cases of T3, T5 and T6 the other test files left open."""

from __future__ import annotations

import pytest
from decades_helpers import (
    act,
    answer_all,
    card,
    data,
    keep_all,
    kind,
    play_cards,
    round_until_cards,
    scores_of,
    start,
    tokens,
)

from gamenight.games.decades.boards import SIDES
from gamenight.games.decades.game import GAME
from gamenight.games.decades.rules import CancelAnswer, DecadesState, Keep, RemoveToken
from gamenight.games.decades.scoring import score_answer
from gamenight.games.decades.tokens import Placement
from gamenight.terminal.decades_text import narrate
from gamenight.terminal.ui import Seating

A = SIDES["A"]  # +5 on 1988 and 2002; +3 on 1983, 1991, 2007, 2015
YEARS = (1985, 1995, 2005, 2015, 1988, 2002)
CARDS = [card("c1", YEARS)] + [
    card(f"c{i}", (1981, 1991, 2001, 2011, 1982, 1992)) for i in range(2, 5)
]
KEEP0 = ("remove-token", "cancel-answer", "blocked", "blocked")
KEEP1 = ("cancel-answer", "cancel-answer", "blocked", "blocked")


@pytest.mark.parametrize(
    ("answer", "token", "correct", "outcome", "points"),
    [
        # T5: distances are measured from the nearest covered year, not the answer
        (1986, Placement(4, 1986), 1985, "near", 4),  # 1 before the token's first year
        (1984, Placement(2, 1984), 1987, "far", -1),  # 2 after the token's last year
        (1986, Placement(4, 1986), 1990, "other-decade", -5),  # 1 after it, over the line
        (2011, Placement(3, 2011), 2009, "other-decade", -5),  # 2 before it, over the line
        # the middle answer of a shared token covers the whole token, before it too
        (1988, Placement(4, 1986), 1986, "hit", 8),
        (1988, Placement(4, 1986), 1985, "near", 4),
    ],
)
def test_nearest_covered_year_decides_near_and_far(
    answer: int, token: Placement, correct: int, outcome: str, points: int
) -> None:
    scored = score_answer(answer, (token,), correct, A)
    assert (scored.outcome, scored.points) == (outcome, points)
    assert scored.bonus == 0  # no covered bonus space is the correct year here


def _cards_step(years1: tuple[int, ...], *, track: int = 100, shared: bool = False) -> DecadesState:
    """Round 1 up to the cards: team 0 hits every year with no token; team 1 answers
    ``years1``, with one 4-year token under 1986 if ``shared``."""
    state, _ = start(CARDS, track=track)
    state, _ = keep_all(state, KEEP0, KEEP1)
    extend1 = tokens((4, 1986)) if shared else tokens()
    state, _ = round_until_cards(state, YEARS, years1, tokens(), extend1)
    return state


def test_one_team_reaching_the_end_wins_at_once_with_the_other_negative() -> None:
    # T6: team 0 has 8, 16, 24, 35 after four categories; the track ends at 35, and
    # reaching the last space exactly is enough. Team 1 is wrong every time.
    state = _cards_step((1999, 2009, 2019, 1989, 1999, 1980), track=35)
    state, events = play_cards(state, "blocked", "blocked")
    lines = scores_of(events)
    assert len(lines) == 4
    assert state.finished and state.early_win
    assert state.scores == (35, -20)  # scores go below 0 (T6)
    assert GAME.results(state).winners == (0,)
    assert [data(e)["winners"] for e in events if kind(e) == "end"] == [[0]]


def test_cancel_takes_away_a_penalty_too() -> None:
    # T3: a cancelled answer scores 0, so cancelling a wrong decade saves 5 points.
    state = _cards_step((1999, 1995, 2005, 2015, 1988, 2002))
    state, _ = play_cards(state, "cancel-answer", "blocked")
    assert state.phase == "answer"  # team 1's Blocked stopped team 0's card
    state = _cards_step((1999, 1995, 2005, 2015, 1988, 2002))
    state, _ = play_cards(state, "cancel-answer", "cancel-answer")
    state, _ = act(state, 1, CancelAnswer("music"))
    state, events = act(state, 0, CancelAnswer("births-deaths"))  # a -5 for team 1
    first = scores_of(events)[0]["scores"][1]
    assert (first["outcome"], first["base"], first["bonus"]) == ("cancelled", 0, 0)


def test_removing_a_shared_token_shrinks_every_answer_on_it() -> None:
    # Team 1 answers 1986 and 1989 under one 4-year token (1986-1989). Births 1985 is
    # 1 before it (+4); sport 1988 is covered (+8). Once removed, 1989 is 1 off 1988.
    state = _cards_step((1986, 1995, 2005, 2015, 1989, 2002), shared=True)
    state, _ = play_cards(state, "remove-token", "blocked")  # blocked: token counts
    with_token = state.log[-1].categories
    assert [c.scores[1].outcome for c in with_token][::4] == ["near", "hit"]
    state = _cards_step((1986, 1995, 2005, 2015, 1989, 2002), shared=True)
    state, _ = play_cards(state, "remove-token", "cancel-answer")
    state, _ = act(state, 1, CancelAnswer("news"))
    state, events = act(state, 0, RemoveToken(4))
    lines = scores_of(events)
    assert [(s["low"], s["high"]) for s in (lines[0]["scores"][1], lines[4]["scores"][1])] == [
        (1986, 1986),
        (1989, 1989),
    ]
    assert [lines[0]["scores"][1]["outcome"], lines[4]["scores"][1]["outcome"]] == [
        "near",
        "near",
    ]


def test_a_teams_own_choice_is_narrated_readably() -> None:
    table = Seating(["Red", "Blue"], frozenset({0, 1}))
    state, _ = start(CARDS)
    state, events = act(state, 0, Keep(KEEP0))
    chosen = next(e for e in events if kind(e) == "chosen")
    assert chosen.audience == (0,)
    line = narrate(chosen, table)
    assert line is not None and line.plain == (
        "Red chose (hidden from the other team): Remove the Year Extension token, "
        "Cancel the answer, Blocked, Blocked"
    )
    state, _ = act(state, 1, Keep(KEEP1))
    state, _ = answer_all(state, YEARS, YEARS)
    _, events = act(state, 1, tokens((4, 1985)))
    chosen = next(e for e in events if kind(e) == "chosen")
    line = narrate(chosen, table)
    assert line is not None and line.plain == (
        "Blue chose (hidden from the other team): 4 years 1985-1988"
    )
