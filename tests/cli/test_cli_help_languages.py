"""`--help` in the reader's language (issue 26): click builds the help while it parses,
before the group reads `--lang`, so `run` reads the language from the arguments or the
locale first. Click's own words, our commands' help and the metavars are translated;
English stays as it was, and a translated `--help` loads nothing heavy (issue 29)."""

from __future__ import annotations

import inspect
import subprocess
from pathlib import Path

import click
import pytest
from cli_process import run_gamenight
from test_cli_imports import HEAVY_FOR_HELP, heavy_in, loaded

from gamenight.core.languages import LANGUAGES


def gamenight(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    return run_gamenight(args, env=env)


ENGLISH = ["Usage:", "Options:", "Show this message and exit.", "[OPTIONS]", "the language"]
TOP = {
    "de": ["Aufruf: gamenight [OPTIONEN] [BEFEHL] [ARGUMENTE]...", "Optionen:", "Befehle:",
           "Diese Hilfe zeigen und beenden.", "Version zeigen und beenden.",
           "die Spielsprache", "Spielt GAME im Terminal"],
    "pl": ["Użycie: gamenight [OPCJE] [POLECENIE] [ARGUMENTY]...", "Opcje:", "Polecenia:",
           "Pokaż tę pomoc i zakończ.", "Pokaż wersję i zakończ.", "język gry",
           "Gra w GAME w terminalu"],
}  # fmt: skip


def test_english_help_is_as_it_was() -> None:
    done = gamenight(["--help"])
    assert done.returncode == 0, done.stderr
    for words in [*ENGLISH, "Commands:", "Play GAME in the terminal"]:
        assert words in done.stdout, words
    # the languages the help names are the ones gamenight speaks
    assert f"the language to play in: {', '.join(LANGUAGES)} " in done.stdout


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_the_group_help_under_lang(lang: str) -> None:
    done = gamenight(["--lang", lang, "--help"])
    assert done.returncode == 0, done.stderr
    flat = " ".join(done.stdout.split())
    for words in TOP[lang]:
        assert " ".join(words.split()) in flat, words
    for words in ENGLISH:
        assert words not in done.stdout, words


PLAY = {
    "de": ["Aufruf: gamenight play [OPTIONEN] GAME", "--seed GANZZAHL", "--record DATEI",
           "Würfel-Seed (zufällig, wenn weggelassen)", "[Pflicht]", "Jede Option des Spiels"],
    "pl": ["Użycie: gamenight play [OPCJE] GAME", "--seed LICZBA", "--record PLIK",
           "ziarno kości (losowe, gdy pominięte)", "[wymagane]", "Każdą opcję gry"],
}  # fmt: skip


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_a_command_s_help_follows_the_locale_or_lang(lang: str) -> None:
    by_locale = gamenight(["play", "--help"], LANG=f"{lang}_{lang.upper()}.UTF-8")
    by_flag = gamenight(["--lang", lang, "play", "--help"], LANG="C")
    assert by_locale.returncode == by_flag.returncode == 0, by_locale.stderr
    assert by_locale.stdout == by_flag.stdout
    for words in PLAY[lang]:
        assert words in by_flag.stdout, words
    for words in [*ENGLISH, "dice seed", "[required]", "INTEGER", "Any option of the game"]:
        assert words not in by_flag.stdout, words


def test_every_command_s_help_is_translated() -> None:
    """No command's own help is left in English (a new command must be marked)."""
    from gamenight.cli.main import app

    names = ["--help", *[f"{name} --help" for name in app.list_commands(click.Context(app))]]
    for args in names:
        english = gamenight(args.split()).stdout.splitlines()
        german = gamenight(["--lang", "de", *args.split()]).stdout.splitlines()
        assert english[2] != german[2], (args, german[2])  # the command's first help line


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_click_s_usage_errors_speak_the_language(lang: str) -> None:
    done = gamenight(["--lang", lang, "sim", "decathlon", "--games", "x", "--bots", "random"])
    assert done.returncode == 2
    said = {"de": "Ungültiger Wert für '--games'", "pl": "Nieprawidłowa wartość dla '--games'"}
    assert said[lang] in done.stderr and "Invalid value" not in done.stderr


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_a_mistyped_name_is_answered_with_a_guess_in_the_language(lang: str) -> None:
    """Click's "Did you mean" (one guess, several guesses) is in the language too."""
    one = gamenight(["--lang", lang, "solve", "decathlon", "--evnts", "x"])
    several = gamenight(["--lang", lang, "pley"])
    said = {
        "de": ("Meintest du '--event'?", "(Meintest du eines von: 'play', 'replay'?)"),
        "pl": ("Czy chodziło o '--event'?", "(Czy chodziło o jedno z: 'play', 'replay'?)"),
    }
    for done, words in zip((one, several), said[lang], strict=True):
        assert done.returncode == 2
        assert words in done.stderr and "Did you mean" not in done.stderr, done.stderr


def test_a_translated_help_loads_nothing_heavy() -> None:
    out, modules = loaded(["--lang", "pl", "--help"])
    assert "Użycie:" in out
    assert heavy_in(modules, HEAVY_FOR_HELP) == []
    assert "babel" not in {m.split(".")[0] for m in modules}


def test_the_help_extractor_finds_every_command_docstring() -> None:
    from gamenight.cli.help_extract import help_texts
    from gamenight.cli.main import app

    root = Path(__file__).resolve().parents[2] / "src" / "gamenight" / "cli"
    found = {text for path in root.glob("*.py") for _, text in help_texts(path.read_bytes())}
    for command in app.commands.values():
        assert command.help is None or inspect.cleandoc(command.help) in found, command.name
