"""The terminal in German and Polish (issue 26): `--lang`, the POSIX locale, and a whole
Decathlon played through the real CLI in each language with a fixed seed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

GAME = [
    "play",
    "decathlon",
    "--players",
    "Ann,bot:greedy",
    "--seed",
    "7",
    "--events",
    "100m,shot-put",
]
ENGLISH = ["Final standings", "Score sheet", "to act", "Starting order", "throws", "freeze"]
SEEN = {
    "de": [
        "Endstand",
        "Wertungsblatt",
        "100-m-Lauf",
        "Kugelstoßen",
        "ist am Zug",
        "Startreihenfolge",
    ],
    "pl": [
        "Klasyfikacja końcowa",
        "Tabelka wyników",
        "Bieg na 100 m",
        "Pchnięcie kulą",
        "Ruch: Ann",
    ],
}


def gamenight(
    args: list[str], tmp_path: Path, answers: str | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    """The real `gamenight` command (line mode), Ann answering every question with Enter
    or "s" (freeze the set; stop the shot put) unless ``answers`` says otherwise, the
    locale as ``env`` says."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    environ.pop("LANG", None)
    environ.update(XDG_DATA_HOME=str(tmp_path), GAMENIGHT_PLAIN="1", COLUMNS="100", **env)
    if answers is None:
        answers = "\n" * 4 + "t\n" * 2 + "s\n" * 60
    return subprocess.run(
        [sys.executable, "-c", "from gamenight.cli.main import run; run()", *args],
        input=answers,
        capture_output=True,
        text=True,
        env=environ,
        timeout=300,
    )


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_a_decathlon_in_each_language(lang: str, tmp_path: Path) -> None:
    done = gamenight(["--lang", lang, *GAME, "--record", str(tmp_path / "g.jsonl")], tmp_path)
    assert done.returncode == 0, done.stderr
    for words in SEEN[lang]:
        assert words in done.stdout, words
    for words in ENGLISH:
        assert words not in done.stdout, words
    # the record stays language-neutral: it replays, and in English
    replayed = gamenight(["replay", str(tmp_path / "g.jsonl")], tmp_path)
    assert replayed.returncode == 0 and "every event and the result match" in replayed.stdout


def test_the_posix_locale_chooses_when_there_is_no_flag(tmp_path: Path) -> None:
    done = gamenight(GAME, tmp_path, LANG="de_DE.UTF-8")
    assert done.returncode == 0, done.stderr
    assert "Endstand" in done.stdout
    english = gamenight(GAME, tmp_path, LANG="C")
    assert "Final standings" in english.stdout


def test_an_unknown_language_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = gamenight(["--lang", "fr", "list"], tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "gamenight: error: unknown language 'fr': choose one of en, de, pl"
    ]


def test_errors_are_in_the_players_language(tmp_path: Path) -> None:
    done = gamenight(["--lang", "de", "resume"], tmp_path)
    assert done.returncode == 2
    assert done.stderr.startswith("gamenight: Fehler: nenne eine gespeicherte Spieldatei")


# The Decades: Ann keeps cards 1-4, then answers every prompt from a cycle that holds a
# year, "none" (no extension token), a card number and token lengths; what a prompt cannot
# use is refused (in the player's language) and the next line is read.
DECADES = ["play", "decades", "--players", "Red:Ann,Blue:bot:novice", "--seed", "3"]
DECADES_ANSWERS = "1234\n" + "87\nnone\n1\n2\n3\n4\n" * 80
DECADES_ENGLISH = [
    "Scores:",
    "Round ",
    "action card",
    "Year?",
    "board",
    "extension token",
    "Births and Deaths",
    "wrong decade",
    "Category",
    "bonus spaces",
    "has chosen",
    "Keep which",
    " wins",
    "type a year",
    "Cancel the answer",
    "Total after",
]
DECADES_SEEN = {
    "de": [
        "Die Jahrzehnte · Runde 1 von 4 · Frage 1 von 6",
        "Deine 7 Aktionskarten (behalte 4):",
        "Verlängerungsplättchen",
        "Geburt und Tod",
        "Wertung der Runde 4",
        "tippe ein Jahr von 1980 bis 2019",
        "Blue gewinnt (nach Runde 4).",
    ],
    "pl": [
        "Dekady · Runda 1 z 4 · pytanie 1 z 6",
        "Twoje 7 kart akcji (zatrzymaj 4):",
        "żetony przedłużenia",
        "Narodziny i zgony",
        "Punktacja rundy 4",
        "wpisz rok od 1980 do 2019",
        "Blue wygrywa (po rundzie 4).",
    ],
}


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_a_decades_game_in_each_language(lang: str, tmp_path: Path) -> None:
    record = str(tmp_path / "g.jsonl")
    done = gamenight(
        ["--lang", lang, *DECADES, "--record", record], tmp_path, answers=DECADES_ANSWERS
    )
    assert done.returncode == 0, done.stderr
    for words in DECADES_SEEN[lang]:
        assert words in done.stdout, words
    for words in DECADES_ENGLISH:
        assert words not in done.stdout, words
    # `replay` speaks the language too; the record stays the same
    replayed = gamenight(["--lang", lang, "replay", record], tmp_path)
    said = {"de": "71 Züge nachgespielt", "pl": "odtworzono 71 ruchów"}[lang]
    text = " ".join(replayed.stdout.split())  # the line wraps at COLUMNS
    assert replayed.returncode == 0 and said in text, text
    assert "every event" not in text
