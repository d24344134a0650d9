"""The deck library (issue 9 §5): import by content hash, list, name decks by id, and
records that carry their deck so a replay works on a machine without it."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import pytest
from decades_helpers import deck_library, run_cli

from gamenight.core.dice import SeededDice
from gamenight.core.errors import OptionsError
from gamenight.core.record import RecordWriter, parse_record, replay
from gamenight.core.runner import play_match
from gamenight.games.decades import library
from gamenight.games.decades.bots import BOTS
from gamenight.games.decades.deck import (
    Deck,
    DeckError,
    deck_to_csv,
    deck_to_json,
    default_deck,
    load_deck,
)
from gamenight.games.decades.game import GAME

EXAMPLE = Path(__file__).parents[3] / "docs" / "examples" / "decades-deck-example.csv"


def _party_deck() -> Deck:
    """Six shipped cards under another name."""
    return Deck("party", default_deck().cards[:6])


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_import_stores_the_deck_under_the_sha256_of_its_content(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with deck_library(monkeypatch, tmp_path / "data") as folder:
        info = library.import_deck(_write(tmp_path, "party.json", deck_to_json(_party_deck())))
        stored = folder / f"{info.id}.json"
        assert hashlib.sha256(stored.read_bytes()).hexdigest() == info.id
        assert (info.name, info.cards, info.questions) == ("party", 6, 36)
        # the same deck as CSV (named by its file) is the same content, the same id
        again = library.import_deck(_write(tmp_path, "party.csv", deck_to_csv(_party_deck())))
        assert again.id == info.id and len(list(folder.iterdir())) == 1
        assert library.list_decks() == [info]
        assert library.load_deck_by_id(info.id[:8]) == load_deck(tmp_path / "party.json")


def test_a_changed_or_unknown_deck_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with deck_library(monkeypatch, tmp_path / "data") as folder:
        info = library.import_deck(EXAMPLE)
        stored = folder / f"{info.id}.json"
        stored.write_text(stored.read_text(encoding="utf-8").replace("1997", "1998"))
        library.forget()
        with pytest.raises(DeckError, match="was changed"):
            library.load_deck_by_id(info.id)
        assert library.list_decks() == []  # a damaged deck is not offered
        with pytest.raises(DeckError, match="no deck 'deadbeef00' in the library"):
            library.load_deck_by_id("deadbeef00")
        with pytest.raises(DeckError, match="not a deck id"):
            library.resolve_id("abc")


def test_a_bad_deck_file_is_refused_naming_field_and_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = json.loads(deck_to_json(_party_deck()))
    data["cards"][1]["questions"][2]["year"] = "1990"
    path = _write(tmp_path, "bad.json", json.dumps(data, indent=2))
    with deck_library(monkeypatch, tmp_path / "data") as folder:
        with pytest.raises(DeckError) as caught:
            library.import_deck(path)
        assert str(caught.value).startswith(f"{path} line ")
        assert "card 2 (id 'c02'), question 3, field 'year': \"1990\" is not a year" in str(
            caught.value
        )
        assert not folder.exists()


def test_the_deck_option_names_a_deck_by_id_never_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with deck_library(monkeypatch, tmp_path / "data"):
        path = _write(tmp_path, "party.json", deck_to_json(_party_deck()))
        with pytest.raises(OptionsError) as caught:
            GAME.parse_options({"deck": str(path)})
        message = str(caught.value)
        assert "\n" not in message and "import it first" in message
        assert f"gamenight decks import {path}" in message
        info = library.import_deck(path)
        assert GAME.parse_options({"deck": info.id[:12]})["deck"] == info.id
        assert GAME.parse_options({"deck": "default"})["deck"] == ""
        step = GAME.start(2, GAME.parse_options({"deck": info.id}), SeededDice(seed=1))
        assert {c.id for c in step.state.questions} <= {c.id for c in _party_deck().cards}


def test_attachments_carry_a_user_deck_and_nothing_for_the_shipped_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert GAME.attachments(GAME.parse_options()) == {}
    with deck_library(monkeypatch, tmp_path / "data"):
        info = library.import_deck(_write(tmp_path, "p.json", deck_to_json(_party_deck())))
        carried = GAME.attachments(GAME.parse_options({"deck": info.id}))
        assert carried["deck"]["id"] == info.id
        assert hashlib.sha256(carried["deck"]["content"].encode()).hexdigest() == info.id
        json.dumps(carried)  # plain JSON, ready for a record header
        bad = {"deck": {"id": info.id, "content": carried["deck"]["content"] + " "}}
        with pytest.raises(OptionsError, match="does not match its id"):
            GAME.attach(bad)
        with pytest.raises(OptionsError, match="carry only a deck"):
            GAME.attach({"music": 1})
        GAME.attach({})  # nothing to attach


def test_replay_on_a_machine_without_the_deck(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Import a deck on machine A, play a seeded game with a record; on machine B
    (an empty library) the record's attachments alone rebuild the same game."""
    buffer = io.StringIO()
    with deck_library(monkeypatch, tmp_path / "machine-a"):
        info = library.import_deck(_write(tmp_path, "p.json", deck_to_json(_party_deck())))
        options = GAME.parse_options({"deck": info.id})
        first = GAME.start(2, options, SeededDice(seed=42))
        carried = GAME.attachments(options)
        writer = RecordWriter(buffer)
        agents = [BOTS["expert"](1), BOTS["casual"](2)]
        results, final = play_match(GAME, agents, seed=42, options=options, record=writer)
    record_text = buffer.getvalue()
    with deck_library(monkeypatch, tmp_path / "machine-b"):
        with pytest.raises(OptionsError, match="no deck"):
            GAME.parse_options({"deck": info.id})
        GAME.attach(json.loads(json.dumps(carried)))  # as read back from a record
        again = GAME.start(2, GAME.parse_options({"deck": info.id}), SeededDice(seed=42))
        assert again.state == first.state and again.events == first.events
        report = replay(parse_record(record_text.splitlines()))
        assert report.final_state == final and report.results == results
        assert library.list_decks() == []  # attached in memory only, never stored


def test_cli_imports_and_lists_decks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def cli(*argv: str) -> tuple[int, str, str]:
        return run_cli(capsys, *argv)

    monkeypatch.setenv("COLUMNS", "120")
    with deck_library(monkeypatch, tmp_path / "data"):
        code, out, _ = cli("decks", "list")
        assert code == 0 and "No decks imported yet" in out
        code, out, _ = cli("decks", "import", str(EXAMPLE))
        info = library.list_decks()[0]
        assert code == 0 and info.short_id in out and "decades-deck-example" in out
        code, out, _ = cli("decks", "list")
        assert code == 0 and info.short_id in out and "decades-deck-example" in out
        bad = _write(tmp_path, "bad.csv", EXAMPLE.read_text().replace("1985", "19x5"))
        code, out, err = cli("decks", "import", str(bad))
        assert code == 2 and err.count("\n") == 1
        assert "row 3, field 'year': '19x5' is not a year" in err
