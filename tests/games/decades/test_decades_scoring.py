"""T5 scoring of one answer, and the action cards' effects on a round's scoring (T3)."""

from __future__ import annotations

import pytest
from decades_helpers import (
    act,
    card,
    data,
    keep_all,
    kind,
    kinds,
    play_cards,
    round_until_cards,
    scores_of,
    start,
    tokens,
)

from gamenight.games.decades.boards import SIDES
from gamenight.games.decades.game import GAME
from gamenight.games.decades.rules import CancelAnswer, DecadesState, Extend, RemoveToken
from gamenight.games.decades.scoring import score_answer
from gamenight.games.decades.tokens import Placement

A, B = SIDES["A"], SIDES["B"]  # A: +5 on 1988 and 2002, +3 on 1983 1991 2007 2015


def test_exact_hit_scores_8() -> None:
    s = score_answer(1987, (), 1987, A)
    assert (s.outcome, s.base, s.bonus, s.points) == ("hit", 8, 0, 8)


def test_hit_through_an_extension_token() -> None:
    s = score_answer(1985, (Placement(3, 1985),), 1987, A)
    assert (s.low, s.high, s.outcome, s.points) == (1985, 1987, "hit", 8)


def test_one_year_off_in_the_same_decade_scores_4() -> None:
    assert score_answer(1986, (), 1987, A).points == 4
    assert score_answer(1986, (), 1985, A).points == 4
    # measured from the nearest covered year: the token's end
    s = score_answer(1984, (Placement(2, 1984),), 1986, A)
    assert (s.outcome, s.points) == ("near", 4)


def test_one_year_off_across_a_decade_line_scores_minus_5() -> None:
    s = score_answer(1989, (), 1990, A)
    assert (s.outcome, s.points) == ("other-decade", -5)
    assert score_answer(2010, (), 2009, A).points == -5


def test_two_or_more_off_in_the_same_decade_scores_minus_1() -> None:
    assert score_answer(1984, (), 1987, A).points == -1
    assert score_answer(1980, (), 1989, A).points == -1
    s = score_answer(1980, (Placement(4, 1980),), 1985, A)
    assert (s.low, s.high, s.outcome, s.points) == (1980, 1983, "far", -1)


def test_other_decade_far_away_scores_minus_5() -> None:
    assert score_answer(1980, (), 2019, A).points == -5


def test_bonus_counts_when_the_correct_year_is_covered() -> None:
    assert score_answer(1988, (), 1988, A).points == 13  # T5's example: exact hit on +5
    s = score_answer(1986, (Placement(4, 1986),), 1988, A)  # reaches the +5 space
    assert (s.base, s.bonus, s.points) == (8, 5, 13)
    assert score_answer(1991, (), 1991, A).points == 11  # +3 space
    assert score_answer(1991, (), 1991, B).points == 8  # side B has no bonus on 1991
    assert score_answer(1997, (), 1997, B).points == 13


def test_no_bonus_when_the_correct_year_is_not_covered() -> None:
    s = score_answer(1987, (), 1988, A)  # 1 off a +5 space
    assert (s.outcome, s.bonus, s.points) == ("near", 0, 4)
    # an answer *on* a bonus space earns nothing when the correct year is elsewhere
    assert score_answer(1988, (), 1987, A).points == 4
    assert score_answer(1988, (), 1985, A).points == -1
    # a token over a bonus space does not pay if the answer is missed
    s = score_answer(1986, (Placement(4, 1986),), 1981, A)
    assert (s.bonus, s.points) == (0, -1)


def test_a_token_shared_by_two_answers_extends_both() -> None:
    shared = (Placement(4, 1985),)  # under the answers 1985 and 1987: covers 1985-1988
    first = score_answer(1985, shared, 1988, A)
    assert (first.low, first.high, first.points) == (1985, 1988, 13)  # hit + bonus
    # the answer in the middle covers the token's earlier years too (our T4 reading)
    second = score_answer(1987, shared, 1985, A)
    assert (second.low, second.high, second.outcome, second.points) == (1985, 1988, "hit", 8)
    assert score_answer(1987, shared, 1989, A).points == 4


def test_cancelled_answer_scores_0_even_when_it_would_hit() -> None:
    s = score_answer(1988, (), 1988, A, cancelled=True)
    assert (s.outcome, s.points) == ("cancelled", 0)
    assert score_answer(1980, (), 2019, A, cancelled=True).points == 0


# ----- whole rounds through the engine ---------------------------------------------------

YEARS = (1985, 1995, 2005, 2015, 1988, 2002)  # the round-1 answers
OTHERS = [card(f"c{i}", (1981, 1991, 2001, 2011, 1982, 1992)) for i in range(2, 5)]
CARDS = [card("c1", YEARS), *OTHERS]


def _round_one(extend1: Extend | None = None) -> DecadesState:
    state, _ = start(CARDS)
    # Team 0 keeps Remove, Cancel, Blocked, Blocked; team 1 keeps Cancel x2 + Blocked x2.
    state, _ = keep_all(
        state,
        ("remove-token", "cancel-answer", "blocked", "blocked"),
        ("cancel-answer", "cancel-answer", "blocked", "blocked"),
    )
    # Team 0 answers every year exactly; team 1 one year late, with a shared token.
    state, _ = round_until_cards(
        state,
        YEARS,
        (1986, 1998, 2006, 2019, 1987, 2003),
        tokens((2, 1985)),
        extend1 or tokens((4, 1986), (3, 2003)),
    )
    return state


def test_plain_round_scores_every_category_in_order() -> None:
    state = _round_one()
    # Both play Blocked: neither card does anything, no target is asked (T3).
    state, events = play_cards(state, "blocked", "blocked")
    cards_event = next(e for e in events if kind(e) == "cards")
    assert data(cards_event)["effective"] == [False, False]
    assert data(cards_event)["notes"] == ["both-blocked", "both-blocked"]
    lines = scores_of(events)
    assert [line["category"] for line in lines] == [
        "births-deaths",
        "screen",
        "music",
        "technology",
        "sport",
        "news",
    ]
    team0 = [line["scores"][0]["base"] + line["scores"][0]["bonus"] for line in lines]
    # exact hits; side A bonuses: 2015 +3, 1988 +5, 2002 +5
    assert team0 == [8, 8, 8, 11, 13, 13]
    team1 = [line["scores"][1]["base"] + line["scores"][1]["bonus"] for line in lines]
    # 1986/1987 share the 4-token 1986-1989: births 1985 is 1 off (+4), sport 1988 a hit
    # (side B has no bonus on 1988); 1998 and 2019 are 3 and 4 off (-1); music 2006 is
    # past the 2003-2005 token, 1 off 2005 (+4); news 2002 is 1 before that token (+4).
    assert team1 == [4, -1, 4, -1, 8, 4]
    assert state.scores == (61, 18)
    assert lines[-1]["totals"] == [61, 18]
    assert state.round == 2 and state.phase == "answer"


def test_cancel_the_answer_scores_the_target_0() -> None:
    state = _round_one()
    state, events = play_cards(state, "cancel-answer", "cancel-answer")
    assert state.phase == "target" and set(state.effective) == {True}
    state, events = act(state, 0, CancelAnswer("sport"))  # team 1's +8
    assert kind(events[0]) == "target" and data(events[0])["target"]["category"] == "sport"
    state, events = act(state, 1, CancelAnswer("news"))  # team 0's 13
    lines = scores_of(events)
    assert lines[4]["scores"][1]["outcome"] == "cancelled"
    assert lines[5]["scores"][0]["outcome"] == "cancelled"
    assert state.scores == (61 - 13, 18 - 8)


def test_remove_the_extension_token_for_this_round() -> None:
    state = _round_one()
    state, events = play_cards(state, "remove-token", "blocked")
    # Team 1's Blocked stops team 0's Remove: no target is asked.
    assert state.phase == "answer" and "target" not in kinds(events)
    assert state.scores == (61, 18)

    state = _round_one()
    state, events = play_cards(state, "remove-token", "cancel-answer")
    assert GAME.to_act(state) == (0, 1)
    state, _ = act(state, 0, RemoveToken(4))
    state, events = act(state, 1, CancelAnswer("births-deaths"))
    lines = scores_of(events)
    # Without the 4-token, 1986 is 1 off 1985 (+4 still), 1987 is 1 off 1988 (+4, not 8).
    sport = lines[4]["scores"][1]
    assert (sport["low"], sport["high"], sport["outcome"]) == (1987, 1987, "near")
    assert lines[0]["scores"][0]["outcome"] == "cancelled"
    assert state.scores == (61 - 8, 18 - 8 + 4)
    # the token is only gone for this round's scoring
    assert state.log[-1].tokens[1] == tokens((3, 2003), (4, 1986)).tokens


def test_blocked_stops_the_other_card_but_not_itself() -> None:
    state = _round_one()
    state, events = play_cards(state, "blocked", "cancel-answer")
    revealed = data(next(e for e in events if kind(e) == "cards"))
    assert revealed["effective"] == [True, False]
    assert revealed["notes"] == ["blocks", "blocked"]
    assert state.scores == (61, 18)  # nothing cancelled, nothing asked


def test_remove_without_any_token_has_no_effect() -> None:
    state = _round_one(extend1=tokens())
    state, events = play_cards(state, "remove-token", "blocked")
    assert "target" not in kinds(events)

    state = _round_one(extend1=tokens())
    state, events = play_cards(state, "remove-token", "cancel-answer")
    assert state.effective == (False, True)
    assert data(next(e for e in events if kind(e) == "cards"))["notes"][0] == "no-token"
    assert state.phase == "target"
    assert GAME.to_act(state) == (1,)


@pytest.mark.parametrize("track", [20, 30])
def test_early_win_stops_scoring_mid_round(track: int) -> None:
    state, _ = start(CARDS, track=track)
    state, _ = keep_all(
        state,
        ("remove-token", "cancel-answer", "blocked", "blocked"),
        ("cancel-answer", "cancel-answer", "blocked", "blocked"),
    )
    state, _ = round_until_cards(state, YEARS, YEARS)
    state, events = play_cards(state, "blocked", "blocked")
    lines = scores_of(events)
    # both teams hit every year; A: 8, 16, 24, 35; B (no bonus there): 8, 16, 24, 32
    expected = {20: 3, 30: 4}[track]
    assert len(lines) == expected
    assert state.finished and state.early_win
    end = next(e for e in events if kind(e) == "end")
    if track == 20:
        assert data(end)["winners"] == [0, 1]  # both reach 24 together: a draw
    else:
        assert data(end)["winners"] == [0]  # 35 beats 32 on the same category
