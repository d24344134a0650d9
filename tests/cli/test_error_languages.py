"""Issue 41: the CLI's errors about files, decks and records are said in the player's
language, as one line. Each bad file goes through the real command (`decks import`,
`replay`, `review`, `resume`) under German, Polish and the pseudo-locale; no English
word of the error's own sentence may be left (a library's own reason, such as json's
"Expecting value", and data such as a path or a field name are not ours to translate).
The exit code is the one the English run gives."""

from __future__ import annotations

import json
import pickle
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from gamenight.core import i18n
from gamenight.core.errors import Phrase, RecordError
from gamenight.core.files import FileProblem
from gamenight.games.decades.questions import DeckError

CliRunner = Callable[[list[str]], tuple[int, str, str]]
WORD = re.compile(r"[A-Za-z]{4,}")
TECHNICAL = {"json", "gamenight"}  # tokens kept as they are in every language
LOANWORDS = {"de": {"seed", "deck"}, "pl": set(), i18n.PSEUDO: set()}  # the catalogue's own

BAD_DECK = '{"format": "gamenight-decades-deck", "version": 1, "cards": [], "colour": 1}'


@pytest.fixture
def files(tmp_path: Path, cli: CliRunner, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The bad files, and a real record whose revealed seed was changed afterwards."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "f1.json").write_text('{"a": x}')
    (tmp_path / "f2.json").write_text(BAD_DECK)
    (tmp_path / "f3.csv").write_text("card,category,year,question,source\nc1,music,19x7,Q,S\n")
    (tmp_path / "f4.jsonl").write_text('{"type": "header", oops\n')
    code, _, err = cli(
        ["play", "dice-duel", "--players", "bot:turn-optimal,bot:random", "--record", "g.jsonl",
         "--quiet"]
    )  # fmt: skip
    assert code == 0, err
    rows = [json.loads(line) for line in (tmp_path / "g.jsonl").read_text().splitlines()]
    revealed = [row for row in rows if "seed" in row][-1]
    revealed["seed"] = str(int(str(revealed["seed"])) + 1)
    (tmp_path / "f7.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    yield tmp_path
    i18n.set_default_language("en")


# (command, the English sentences the error is made of: their words must not be left)
CASES = [
    (["decks", "import", "f5.json"], ["{path}: no such deck file"]),
    (["decks", "import", "f1.json"],
     ["{file} line {line}, column {column}: malformed JSON ({reason})"]),
    (["decks", "import", "f2.json"],
     ["{file} {at}, field {field}: {problem}", "line {line}", "unknown field"]),
    (["decks", "import", "f3.csv"],
     ["{file} {at}, field {field}: {problem}", "{file} row {row}", "{value} is not a year"]),
    (["replay", "f6.jsonl"], ["no such record file: {path}"]),
    (["review", "f6.jsonl"], ["no such record file: {path}"]),
    (["resume", "f6.jsonl"], ["no such record file: {path}"]),
    (["replay", "f4.jsonl"], ["{where}: invalid JSON ({reason})", "{name} line {line}"]),
    (["review", "f1.json"], ["{where}: invalid JSON ({reason})", "{name} line {line}"]),
    (["resume", "f4.jsonl"], ["{where}: invalid JSON ({reason})", "{name} line {line}"]),
    (["replay", "f7.jsonl"],
     ["{name}: the seed does not match the commitment {commitment} made before the game; "
      "this record's dice were changed"]),
]  # fmt: skip


def _english(sentences: list[str], lang: str) -> set[str]:
    words = {w.lower() for s in sentences for w in WORD.findall(re.sub(r"\{\w+\}", "", s))}
    return words - TECHNICAL - LOANWORDS[lang]


@pytest.mark.parametrize("lang", ["de", "pl", i18n.PSEUDO])
def test_every_bad_file_is_refused_in_the_language_in_one_line(
    lang: str, files: Path, cli: CliRunner
) -> None:
    for args, sentences in CASES:
        code, _, english = cli(["--lang", "en", *args])
        assert code in (1, 2) and english.startswith("gamenight: error: "), (args, english)
        for sentence in sentences[-1:]:  # the innermost sentence is the English there
            assert WORD.findall(re.sub(r"\{\w+\}", "", sentence))[0] in english, (args, english)
        said_code, _, said = cli(["--lang", lang, *args])
        assert said_code == code, (args, said)
        assert len(said.strip().splitlines()) == 1, (args, said)
        unquoted = re.sub(r"'[^']*'", "", said)  # a quoted field name or value is data
        left = _english(sentences, lang) & {w.lower() for w in WORD.findall(unquoted)}
        assert not left, (lang, args, said, left)


def test_a_wrong_seed_is_caught_and_said_in_german(files: Path, cli: CliRunner) -> None:
    code, _, said = cli(["--lang", "de", "replay", "f7.jsonl"])
    assert code == 1
    assert "der Seed passt nicht zur vor dem Spiel gemachten Festlegung" in said
    assert "die Würfel dieses Protokolls wurden verändert" in said


def test_an_error_keeps_its_fields_and_its_place_across_processes() -> None:
    """A worker process's error (a pickled Sentence) is still said in the language."""
    where = Phrase("{name} line {line}", name="g.jsonl", line=3)
    error = RecordError("{where}: data after the results line", where=where)
    for again in (pickle.loads(pickle.dumps(error)), pickle.loads(pickle.dumps(DeckError(
        "{path}: no such deck file", path="d.json"))), pickle.loads(pickle.dumps(FileProblem(
        "{path}: no such file", path="x")))):  # fmt: skip
        assert again.fields and type(again).__name__ in {"RecordError", "DeckError", "FileProblem"}
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is RecordError and again.message == error.message
    assert type(again.fields["where"]) is Phrase and again.fields["where"].fields == where.fields
    assert str(again) == "g.jsonl line 3: data after the results line"
    with i18n.use_language("de"):
        assert i18n.said(again) == "g.jsonl Zeile 3: Daten nach der Ergebniszeile"
    with i18n.use_language("pl"):
        assert i18n.said(again) == "g.jsonl wiersz 3: dane po wierszu wyników"


def test_a_deck_place_is_said_part_by_part() -> None:
    """A deck's place (line, card, question) is a tuple of Phrases, each said."""
    problem = Phrase("{value} is not a year", value="'19x7'")
    at = (Phrase("line {line}", line=4), Phrase("card {number}", number=2))
    error = DeckError("{file} {at}, field {field}: {problem}", file="d.json", at=at,
                      field="'year'", problem=problem)  # fmt: skip
    assert str(error) == "d.json line 4, card 2, field 'year': '19x7' is not a year"
    with i18n.use_language("de"):
        assert (
            i18n.said(error) == "d.json Zeile 4, Karte 2, Feld 'year': '19x7' ist keine Jahreszahl"
        )
