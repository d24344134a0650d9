"""Deck wording (issue 10): reworded questions, and pairs of cards that answer each
other never dealt in one game (the data-driven ``apart`` list of the shipped deck)."""

from __future__ import annotations

from pathlib import Path

import pytest
from decades_helpers import card

from gamenight.core.dice import SeededDice
from gamenight.games.decades import rules
from gamenight.games.decades.deck import (
    Deck,
    DeckError,
    Question,
    deck_to_json,
    default_deck,
    load_deck,
)
from gamenight.games.decades.game import GAME

PAIRS = {("c01.1", "c16.2"), ("c01.5", "c40.3"), ("c12.5", "c38.5"), ("c16.1", "c19.1")}


def _question(ref: str) -> Question:
    ident, _, number = ref.partition(".")
    found = next(c for c in default_deck().cards if c.id == ident)
    return found.questions[int(number) - 1]


def test_reworded_questions_are_unambiguous_and_give_nothing_away() -> None:
    helens = _question("c12.6")
    assert "Mount St. Helens" in helens.text and "catastrophically" in helens.text
    assert "57 people" in helens.text and helens.year == 1980
    queen_mother = _question("c27.1")
    assert "Queen Mother" in queen_mother.text and "101" not in queen_mother.text
    assert "aged" not in queen_mother.text
    mandela = _question("c36.6")
    assert "Mandela" in mandela.text and "27" not in mandela.text and mandela.year == 1990


def test_the_pairs_that_answer_each_other_are_data_in_the_shipped_deck() -> None:
    assert set(default_deck().apart) == PAIRS
    for first, second in PAIRS:  # each pair really shares its year
        assert _question(first).year == _question(second).year or {first, second} == {
            "c12.5",
            "c38.5",
        }


def test_no_pair_is_ever_dealt_together_and_the_deal_is_a_pure_function_of_the_seed() -> None:
    options = GAME.parse_options()
    apart_cards = [tuple(ref.partition(".")[0] for ref in pair) for pair in PAIRS]
    for seed in range(3000):
        dealt = {c.id for c in GAME.start(2, options, SeededDice(seed=seed)).state.questions}
        for a, b in apart_cards:
            assert not {a, b} <= dealt, (seed, a, b)
    for seed in (0, 7, 2**127 + 5):
        first = GAME.start(2, options, SeededDice(seed=seed))
        assert GAME.start(2, options, SeededDice(seed=seed)) == first


def test_without_the_list_some_seed_would_deal_a_pair() -> None:
    """The seed range above is wide enough to matter: with no exclusions, pairs come up."""
    deck = default_deck()
    pairs = [tuple(ref.partition(".")[0] for ref in pair) for pair in PAIRS]
    hits = 0
    for seed in range(3000):
        state = rules.deal(
            deck.cards, deck="", deck_name="x", track=100, sides=("A", "B"),
            dice=SeededDice(seed=seed),
        ).state  # fmt: skip
        dealt = {c.id for c in state.questions}
        hits += any(set(pair) <= dealt for pair in pairs)
    assert hits > 0


def test_apart_pairs_are_checked_when_a_deck_is_loaded(tmp_path: Path) -> None:
    cards = tuple(card(f"k{i}", (1981 + i, 1992, 2003, 2014, 1985, 2016)) for i in range(6))
    good = Deck("mine", cards, apart=(("k0.1", "k1.1"),))
    path = tmp_path / "mine.json"
    path.write_text(deck_to_json(good), encoding="utf-8")
    assert load_deck(path).apart == (("k0.1", "k1.1"),)
    # the deal honours a user deck's pairs too
    for seed in range(300):
        state = rules.deal(
            cards, deck="", deck_name="mine", track=100, sides=("A", "B"),
            dice=SeededDice(seed=seed), apart=good.apart,
        ).state  # fmt: skip
        assert not {"k0", "k1"} <= {c.id for c in state.questions}
    bad = Deck("mine", cards, apart=(("k0.1", "k9.1"),))
    path.write_text(deck_to_json(bad), encoding="utf-8")
    with pytest.raises(DeckError, match=r"pair 1 of 'apart', field 'apart': 'k9.1' names no"):
        load_deck(path)


def test_pairs_that_could_leave_too_few_cards_to_deal_are_refused(tmp_path: Path) -> None:
    cards = tuple(card(f"k{i}", (1981 + i, 1992, 2003, 2014, 1985, 2016)) for i in range(5))
    # drawing k0 first takes k1, k2 and k3 out: only 2 cards could be dealt
    crowded = Deck("crowded", cards, apart=(("k0.1", "k1.1"), ("k0.2", "k2.2"), ("k0.3", "k3.3")))
    path = tmp_path / "crowded.json"
    path.write_text(deck_to_json(crowded), encoding="utf-8")
    with pytest.raises(DeckError, match=r"field 'apart': with these pairs kept apart, 5 cards"):
        load_deck(path)
    roomy = Deck("roomy", cards, apart=(("k0.1", "k1.1"),))
    path.write_text(deck_to_json(roomy), encoding="utf-8")
    deck = load_deck(path)
    for seed in range(200):  # and it always deals
        state = rules.deal(
            deck.cards, deck="", deck_name="roomy", track=100, sides=("A", "B"),
            dice=SeededDice(seed=seed), apart=deck.apart,
        ).state  # fmt: skip
        assert len(state.questions) == 4
