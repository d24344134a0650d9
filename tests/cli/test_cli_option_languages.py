"""A refused option or line-up on the command line in German and Polish (issue 26): the
CLI's error line says the OptionsError's sentence in the player's language
(`gamenight.core.i18n.said`), not the English that `str()` keeps for logs."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from cli_process import run_gamenight

# (arguments, the English a German or Polish player must not see, what each language says)
CASES = [
    (
        ["play", "decathlon", "--variant", "bogus", "--players", "Ann,bot:greedy"],
        "is not one of",
        {
            "de": "Option „variant“: 'bogus' ist keiner der Werte points, championship",
            "pl": "opcja „variant”: 'bogus' nie jest żadną z wartości points, championship",
        },
    ),
    (
        ["play", "dice-duel", "--players", "Ann"],
        "takes 2 to 6 players",
        {
            "de": "Kniffel Würfelduell: 2 bis 6 Spieler, nicht 1 (für einen Spieler wähle",
            "pl": "liczba graczy od 2 do 6, nie 1 (dla jednego gracza wybierz tryb solo",
        },
    ),
    (
        ["play", "decathlon", "--players", "Ann,,Bob"],
        "empty seat",
        {"de": "--players: leerer Platz in 'Ann,,Bob'", "pl": "--players: puste miejsce w"},
    ),
    (
        ["play", "dice-duel", "--mode", "solo", "--players", "Ann,Bob"],
        "solo variant",
        {"de": "die Solo-Variante ist für 1 Spieler", "pl": "wariant solo jest dla 1 gracza"},
    ),
    (
        ["sim", "decathlon", "--bots", "random,random", "--games", "0"],
        "play at least one game",
        {"de": "--games: spiele mindestens eine Partie", "pl": "rozegraj co najmniej jedną"},
    ),
]


def gamenight(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return run_gamenight(args, home=tmp_path, columns=200)


@pytest.mark.parametrize("lang", ["de", "pl"])
@pytest.mark.parametrize(("args", "english", "says"), CASES, ids=[c[1] for c in CASES])
def test_a_refused_option_is_told_in_the_player_s_language(
    tmp_path: Path, lang: str, args: list[str], english: str, says: dict[str, str]
) -> None:
    done = gamenight(["--lang", lang, *args], tmp_path)
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip().splitlines()[-1]
    assert says[lang] in line, line
    assert english not in line and "error:" not in line
    assert "Traceback" not in done.stderr


def test_english_stays_the_same_sentence(tmp_path: Path) -> None:
    done = gamenight(["--lang", "en", *CASES[0][0]], tmp_path)
    assert done.returncode == 2
    assert done.stderr.strip().endswith(
        "error: option 'variant': 'bogus' is not one of points, championship"
    )
