"""The shared vocabulary (issue 26): each game's terms by stable key, in every language."""

from __future__ import annotations

import pytest

from gamenight.core import registry
from gamenight.core.errors import UnknownGameError
from gamenight.core.languages import LANGUAGES, LanguageError
from gamenight.core.vocabulary import vocabulary
from gamenight.games.decades.cards import CARDS
from gamenight.games.decades.deck import CATEGORY_NAMES
from gamenight.games.decathlon.disciplines import NAMES as EVENT_NAMES
from gamenight.games.dice_duel.combinations import LABEL
from gamenight.games.wurfeltod.categories import CATEGORY_LABELS

OWN = ("decathlon", "dice-duel", "wurfeltod", "decades")


@pytest.mark.parametrize("game_id", OWN)
def test_every_language_has_every_key(game_id: str) -> None:
    english = vocabulary(game_id, "en")
    for lang in LANGUAGES:
        terms = vocabulary(game_id, lang)
        assert terms.keys() == english.keys()
        assert all(terms.values())


@pytest.mark.parametrize("game_id", OWN)
def test_the_game_its_options_and_their_choices_have_terms(game_id: str) -> None:
    info = registry.get(game_id).game.info
    terms = vocabulary(game_id, "en")
    assert terms[f"game.{game_id}.name"] == info.name
    assert terms[f"game.{game_id}.summary"] == info.summary
    for option in info.options:
        assert f"opt.{game_id}.{option.name}" in terms
        assert f"opt.{game_id}.{option.name}.help" in terms
        for choice in option.choices:
            assert f"opt.{game_id}.{option.name}.{choice}" in terms


def test_the_english_is_the_games_own_names() -> None:
    """One source of truth: the vocabulary says what the games' own tables say."""
    dec = vocabulary("decathlon", "en")
    assert {k: dec[f"dec.event.{k}"] for k in EVENT_NAMES} == EVENT_NAMES
    assert {k: dec[f"opt.decathlon.events.{k}"] for k in EVENT_NAMES} == EVENT_NAMES
    dd = vocabulary("dice-duel", "en")
    assert {k: dd[f"dd.combo.{k}"] for k in LABEL} == LABEL
    wt = vocabulary("wurfeltod", "en")
    assert {c: wt[f"wt.cat.{c.value}"] for c in CATEGORY_LABELS} == CATEGORY_LABELS
    dc = vocabulary("decades", "en")
    assert {k: dc[f"dc.cat.{k}"] for k in CATEGORY_NAMES} == CATEGORY_NAMES
    assert {k: dc[f"dc.card.{k}"] for k in CARDS} == {k: c.name for k, c in CARDS.items()}
    assert {k: dc[f"dc.card_help.{k}"] for k in CARDS} == {k: c.text for k, c in CARDS.items()}


def test_the_field_s_terms() -> None:
    assert vocabulary("decathlon", "de")["dec.event.pole-vault"] == "Stabhochsprung"
    assert vocabulary("decathlon", "pl")["dec.event.110m-hurdles"] == "Bieg na 110 m przez płotki"
    assert vocabulary("dice-duel", "de")["dd.combo.small-straight"] == "Kleine Straße"
    assert vocabulary("dice-duel", "de")["dd.combo.three-of-a-kind"] == "Dreierpasch"


def test_bad_requests_are_one_line_errors() -> None:
    with pytest.raises(UnknownGameError, match="unknown game 'chess'"):
        vocabulary("chess", "de")
    with pytest.raises(LanguageError, match="unknown language 'fr'"):
        vocabulary("decathlon", "fr")


def test_a_game_without_a_vocabulary_has_no_terms() -> None:
    assert vocabulary("toy", "de") == {}
