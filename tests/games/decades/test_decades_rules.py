"""The Decades flow with scripted dice: dealing, simultaneous steps, reveals, the end (T1-T6)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from decades_helpers import (
    HAND_0,
    act,
    answer_all,
    both,
    card,
    data,
    deck_library,
    keep_all,
    kind,
    kinds,
    play_cards,
    round_until_cards,
    start,
    tokens,
)

from gamenight.core.dice import ScriptedDice, SeededDice
from gamenight.core.errors import IllegalActionError, OptionsError
from gamenight.core.umpire import Umpire
from gamenight.games.decades import library, rules
from gamenight.games.decades.deck import Deck, deck_to_json, default_deck
from gamenight.games.decades.game import GAME
from gamenight.games.decades.rules import (
    Answer,
    CancelAnswer,
    Extend,
    Keep,
    PlayCard,
    RemoveToken,
    draw_index,
)

CARDS = [card(f"c{i}", (1981 + i, 1991 + i, 2001 + i, 2011 + i, 1985, 2015)) for i in range(5)]
KEEP_0 = ("remove-token", "cancel-answer", "blocked", "blocked")
KEEP_1 = ("remove-token", "cancel-answer", "cancel-answer", "blocked")


def test_setup_deals_questions_and_seven_cards_each_in_secret() -> None:
    state, events = start(CARDS)
    assert [c.id for c in state.questions] == ["c0", "c1", "c2", "c3"]  # 4 of 5, by the dice
    assert state.dealt[0] == HAND_0
    assert sorted(state.dealt[0] + state.dealt[1]) == sorted(
        ("remove-token",) * 5 + ("cancel-answer",) * 5 + ("blocked",) * 4
    )
    assert kinds(events) == ["setup", "deal", "deal", "hand", "hand", "keep"]
    assert [e.audience for e in events] == [None, (), (), (0,), (1,), None]
    assert GAME.to_act(state) == (0, 1) and state.phase == "keep"


def test_question_cards_are_drawn_without_replacement_by_the_dice() -> None:
    faces = (5, 1, 3, 1) + (1,) * 7  # 5 cards: take the 5th, then the 1st, the 4th, the 2nd
    state = rules.deal(
        CARDS, deck="", deck_name="t", track=100, sides=("A", "B"), dice=ScriptedDice(faces)
    ).state
    assert [c.id for c in state.questions] == ["c4", "c0", "c3", "c1"]


def test_keeping_four_of_seven() -> None:
    state, _ = start(CARDS)
    with pytest.raises(IllegalActionError, match="keep exactly 4 cards, not 3"):
        GAME.apply(state, 0, Keep(KEEP_0[:3]))
    with pytest.raises(IllegalActionError, match="you were dealt 2 'Blocked' cards, not 3"):
        GAME.apply(state, 0, Keep(("blocked",) * 3 + ("remove-token",)))
    with pytest.raises(IllegalActionError, match="no action card 'joker'"):
        GAME.apply(state, 0, Keep(("joker",) * 4))
    assert len(GAME.legal_actions(state, 0)) == len(set(GAME.legal_actions(state, 0)))
    state, events = act(state, 0, Keep(tuple(reversed(KEEP_0))))
    assert GAME.to_act(state) == (1,)
    assert kinds(events) == ["ready", "chosen"]
    with pytest.raises(IllegalActionError, match="not seat 0's turn"):
        GAME.apply(state, 0, Keep(KEEP_0))
    state, events = act(state, 1, Keep(KEEP_1))
    assert state.hands == (KEEP_0, KEEP_1)
    assert kinds(events)[-3:] == ["kept", "round", "question"]
    assert data(events[-1])["category"] == "births-deaths"
    assert data(events[-1])["text"] == CARDS[0].questions[0].text
    assert "year" not in data(events[-1])


def test_answers_are_revealed_together_after_each_category() -> None:
    state, _ = start(CARDS)
    state, _ = keep_all(state, KEEP_0, KEEP_1)
    with pytest.raises(IllegalActionError, match="this is the answer step: choose a year"):
        GAME.apply(state, 0, PlayCard("blocked"))
    with pytest.raises(IllegalActionError, match="2020 is not on the board"):
        GAME.apply(state, 0, Answer(2020))
    state, events = act(state, 1, Answer(1999))
    assert GAME.to_act(state) == (0,) and state.answers == ((), ())
    state, events = act(state, 0, Answer(1981))
    reveal = next(e for e in events if kind(e) == "answers")
    assert data(reveal) == {"category": "births-deaths", "years": [1981, 1999]}
    assert kind(events[-1]) == "question" and data(events[-1])["category"] == "screen"
    state, events = answer_all(state, (1991,) * 5, (1992,) * 5)
    assert state.phase == "extend" and kinds(events)[-1] == "extend"
    assert state.answers[0] == (1981, 1991, 1991, 1991, 1991, 1991)


def test_boards_and_cards_are_revealed_together() -> None:
    state, _ = start(CARDS)
    state, _ = keep_all(state, KEEP_0, KEEP_1)
    state, _ = answer_all(state, (1981,) * 6, (1990,) * 6)
    state, events = act(state, 0, tokens((4, 1981)))
    assert state.tokens is None
    state, events = act(state, 1, Extend(()))
    boards = next(e for e in events if kind(e) == "boards")
    assert data(boards)["tokens"] == [[{"length": 4, "start": 1981}], []]
    assert state.phase == "card"
    with pytest.raises(IllegalActionError, match="you hold no 'joker' card"):
        GAME.apply(state, 0, PlayCard("joker"))
    state, events = play_cards(state, "cancel-answer", "remove-token")
    cards = next(e for e in events if kind(e) == "cards")
    assert data(cards)["cards"] == ["cancel-answer", "remove-token"]
    assert state.hands == (("remove-token", "blocked", "blocked"), KEEP_1[1:])
    # both cards work; targets are chosen in the open, in any order
    assert GAME.to_act(state) == (0, 1)
    assert GAME.legal_actions(state, 1) == [RemoveToken(4)]
    with pytest.raises(IllegalActionError, match="no 2-year token"):
        GAME.apply(state, 1, RemoveToken(2))
    with pytest.raises(IllegalActionError, match="your card cancels an answer"):
        GAME.apply(state, 0, RemoveToken(4))
    state, events = act(state, 1, RemoveToken(4))
    assert events[0].audience is None and data(events[0]) == {
        "team": 1,
        "card": "remove-token",
        "target": {"type": "remove-token", "length": 4},
    }
    state, events = act(state, 0, CancelAnswer("music"))
    assert state.round == 2 and len(state.log) == 1


def test_a_full_game_ends_after_round_4_and_cards_run_out() -> None:
    state, _ = start(CARDS, track=1000)
    state, _ = keep_all(state, KEEP_0, KEEP_1)
    for number in range(1, 5):
        assert state.round == number
        state, _ = round_until_cards(state, (1985,) * 6, (1980,) * 6)
        assert len(GAME.legal_actions(state, 0)) == len(set(state.hands[0]))
        state, _ = play_cards(
            state, state.hands[0][-1], "blocked" if number == 1 else state.hands[1][0]
        )
        while state.phase == "target":
            seat = GAME.to_act(state)[0]
            state, _ = act(state, seat, GAME.legal_actions(state, seat)[0])
    assert state.finished and not state.early_win
    assert state.hands == ((), ())
    assert [past.round for past in state.log] == [1, 2, 3, 4]
    # Team 0 always answers 1985 (a hit on each card's sport question), team 1 answers
    # 1980 (never a hit); the cards played cannot close that gap.
    assert state.scores[0] > state.scores[1]
    results = GAME.results(state)
    assert results.winners == (0,) and results.scores == state.scores
    assert results.detail == {"early_win": False, "rounds_played": 4}


def test_results_before_the_end_are_refused() -> None:
    state, _ = start(CARDS)
    with pytest.raises(ValueError, match="not over"):
        GAME.results(state)


def test_equal_scores_after_round_4_draw() -> None:
    state, _ = start(CARDS, track=1000, sides=("A", "A"))
    same = ("cancel-answer", "cancel-answer", "blocked", "blocked")
    state, _ = keep_all(state, same, same)
    for card_id in ("blocked", "blocked", "cancel-answer", "cancel-answer"):
        state, _ = round_until_cards(state, (1985,) * 6, (1985,) * 6)
        state, _ = play_cards(state, card_id, card_id)
        if state.phase == "target":
            state, _ = both(state, CancelAnswer("music"), CancelAnswer("music"))
    assert state.finished
    assert state.scores[0] == state.scores[1]
    results = GAME.results(state)
    assert results.winners == (0, 1) and results.ranks == (1, 1)


def test_options() -> None:
    options = GAME.parse_options({"sides": "b, a", "track": "60"})
    assert options["sides"] == "B,A" and options["track"] == 60
    step = GAME.start(2, options, SeededDice(seed=1))
    assert step.state.sides == ("B", "A") and step.state.track == 60
    with pytest.raises(OptionsError, match="option 'sides': 'C' is not one of A, B"):  # per-seat
        GAME.parse_options({"sides": "A,C"})
    with pytest.raises(OptionsError, match="one board side per team"):
        GAME.parse_options({"sides": "A"})
    with pytest.raises(OptionsError, match="below the minimum"):
        GAME.parse_options({"track": 0})
    with pytest.raises(OptionsError, match=r"option 'deck'.*is a file; import it first"):
        GAME.parse_options({"deck": "/nonexistent/deck.json"})
    with pytest.raises(OptionsError, match=r"option 'deck'.*is a file; import it first"):
        GAME.parse_options({"deck": "mine.csv"})
    with pytest.raises(OptionsError, match=r"option 'deck': 'cafe' is not a deck id"):
        GAME.parse_options({"deck": "cafe"})
    assert GAME.parse_options({"deck": "default"})["deck"] == ""
    with pytest.raises(OptionsError, match="takes 2 teams"):
        GAME.start(3, GAME.parse_options(), SeededDice(seed=1))


def test_a_user_deck_is_played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "mine.json"
    path.write_text(deck_to_json(Deck("mine", tuple(CARDS))), encoding="utf-8")
    with deck_library(monkeypatch, tmp_path / "data"):
        info = library.import_deck(path)
        options = GAME.parse_options({"deck": info.id[:10]})
        step = GAME.start(2, options, SeededDice(seed=3))
    assert {c.id for c in step.state.questions} <= {c.id for c in CARDS}
    assert len({c.id for c in step.state.questions}) == 4
    assert data(step.events[0])["deck"] == "mine" and data(step.events[0])["deck_cards"] == 5
    assert step.state.deck == info.id


def test_the_shipped_deck_is_the_default() -> None:
    step = GAME.start(2, GAME.parse_options(), SeededDice(seed=5))
    ids = {c.id for c in default_deck().cards}
    assert {c.id for c in step.state.questions} <= ids
    assert data(step.events[0])["deck_cards"] == len(ids)


def test_draw_index_for_large_decks_is_uniform_and_in_range() -> None:
    umpire: Umpire[Any] = Umpire(SeededDice(seed=9))
    seen = []
    for _ in range(600):
        index, faces = draw_index(umpire, 300)
        assert 0 <= index < 300 and len(faces) % 2 == 0
        seen.append(index)
    assert len(set(seen)) > 250  # spread over the whole deck
    scripted: Umpire[Any] = Umpire(ScriptedDice((256, 256, 1, 2)))
    index, faces = draw_index(scripted, 300)
    # 65535 is rejected (>= 65400, the largest multiple of 300), then 0*256 + 1 = 1
    assert (index, faces) == (1, (256, 256, 1, 2))
    assert scripted.dice == ScriptedDice((256, 256, 1, 2), position=4)
