"""The study commands and a session's last lines in German and Polish (issue 26): `ratings`,
`tournament`, `sim`, `solve` and `resume` run through the real CLI under `--lang`; the
English phrases they printed before are gone, the translated ones are there."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import run_gamenight

LANGS = ["de", "pl"]


def gamenight(args: list[str], home: Path) -> subprocess.CompletedProcess[str]:
    """The real `gamenight` in line mode, its data in ``home``; it must succeed."""
    done = run_gamenight(args, home=home, columns=250)
    assert done.returncode == 0, done.stderr
    return done


def flat(text: str) -> str:
    return " ".join(text.split())


TOURNAMENT = ["tournament", "decathlon", "--events", "100m", "--bots", "random,greedy"]
TOURNAMENT += ["--games", "2", "-j", "1"]
RATED = {
    "de": ["Wertungen (openskill", "Spieler", "Können μ", "Unsicherheit σ", "Wertung = μ − 3σ"],
    "pl": ["rankingi (openskill", "gracz", "umiejętność μ", "niepewność σ", "ocena = μ − 3σ"],
}
RATED_ENGLISH = ["ratings (openskill", "player", " mu ", "sigma", "ordinal", "stored in"]
TOURNEY = {
    "de": ["Können μ", "Unsicherheit σ", "Wertung", "(Punkte)", "Reiner Knizias Zehnkampf"],
    "pl": ["umiejętność μ", "niepewność σ", "ocena", "(punkty)", "Dziesięciobój Reinera Knizii"],
}
TOURNEY_ENGLISH = [" mu ", "sigma", "ordinal", "(points)", "Decathlon", "Head to head"]


@pytest.mark.parametrize("lang", LANGS)
def test_tournament_and_ratings_in_each_language(lang: str, tmp_path: Path) -> None:
    tourney = flat(gamenight(["--lang", lang, *TOURNAMENT], tmp_path).stdout)
    for words in TOURNEY[lang]:
        assert words in tourney, words
    for words in TOURNEY_ENGLISH:
        assert words not in tourney, words
    assert "1,000 [0,342; 1,000]" in tourney  # the greedy bot's win share, decimal commas
    rated = flat(gamenight(["--lang", lang, "ratings", "decathlon"], tmp_path).stdout)
    for words in RATED[lang]:
        assert words in rated, words
    for words in RATED_ENGLISH:
        assert words not in rated, words
    assert "29,66" in rated  # the greedy bot's mu
    # --json stays English and language-neutral
    data = gamenight(["--lang", lang, "ratings", "decathlon", "--json"], tmp_path).stdout
    assert '"ordinal": 6.19' in data or '"ordinal": 6.18' in data
    none = flat(gamenight(["--lang", lang, "ratings", "dice-duel"], tmp_path).stdout)
    assert "No ratings" not in none and "Kniffel" in none
    assert {"de": "Noch keine Wertungen", "pl": "Brak jeszcze rankingów"}[lang] in none


@pytest.mark.parametrize("lang", LANGS)
def test_sim_names_its_unit_in_each_language(lang: str, tmp_path: Path) -> None:
    args = ["sim", "decathlon", "--events", "100m", "--bots", "random,greedy", "--games", "4"]
    shown = flat(gamenight(["--lang", lang, *args, "-j", "1", "--variant", "championship"],
                           tmp_path).stdout)  # fmt: skip
    unit = {"de": "mittlere Punktzahl (Ehrenpunkte)", "pl": "średni wynik (punkty honorowe)"}
    assert unit[lang] in shown
    assert (
        "honours" not in shown and "0.375" not in shown and "0,375 ± 0,125" in shown
    )  # deals as the unit (issue 45)


SOLVED = {
    "de": ["Zehnkampf: optimales Spiel", "Disziplin", "EW", "SA", "100-m-Lauf", "Speerwurf"],
    "pl": ["Dziesięciobój: optymalna gra", "konkurencja", "WO", "OS", "Bieg na 100 m"],
}
SOLVED_ENGLISH = ["optimal expected-score", "event", "EV", "SD", "valid result", "Metres"]


@pytest.mark.parametrize("lang", LANGS)
def test_solve_tables_in_each_language(lang: str, tmp_path: Path) -> None:
    args = ["--lang", lang, "solve", "decathlon", "--event", "100m", "--event", "javelin"]
    shown = flat(gamenight(args, tmp_path).stdout)
    for words in SOLVED[lang]:
        assert words in shown, words
    for words in SOLVED_ENGLISH:
        assert words not in shown, words
    assert "23,9975" in shown and "23.9975" not in shown  # the 100 m's expected score
    # --json is the same in every language
    english = gamenight(["solve", "decathlon", "--event", "100m", "--json"], tmp_path).stdout
    assert gamenight([*args[:5], "100m", "--json"], tmp_path).stdout == english


def test_the_two_player_win_table_speaks_the_language() -> None:
    """Its table without the minutes-long solve: the rows come from the stored values."""
    from gamenight.core.i18n import use_language
    from gamenight.games.decathlon.solver.capability import WinChainSolution

    solution = WinChainSolution(("100m", "1500m"), ((0.5, 0.75), (0.5,)), 1e-9, 1.0)
    with use_language("de"):
        assert solution.title.startswith("Zehnkampf, zwei Spieler")
        assert solution.columns()[:2] == ("vor", "Vorsprung 0")
        assert solution.rows()[0][:3] == ("100-m-Lauf", "0,5000", "1,0000")
    with use_language("pl"):
        assert solution.rows()[1][0] == "Bieg na 1500 m"
    assert solution.rows()[0][0] == "100 Metres"


@pytest.mark.parametrize("lang", LANGS)
def test_a_resumed_game_says_so_and_where_its_record_is(lang: str, tmp_path: Path) -> None:
    record = tmp_path / "g.jsonl"
    play = ["play", "decathlon", "--players", "bot:greedy,bot:random", "--seed", "3"]
    done = gamenight(["--lang", lang, *play, "--events", "100m,long-jump", "--record",
                      str(record)], tmp_path)  # fmt: skip
    said = {"de": "Aufzeichnung: ", "pl": "Zapis partii: "}[lang]
    assert said + str(record) in flat(done.stdout) and "Record:" not in done.stdout
    cut = tmp_path / "cut.jsonl"  # the game as a crash would have left it: unfinished
    cut.write_text("".join(record.read_text().splitlines(keepends=True)[:30]))
    resumed = flat(gamenight(["--lang", lang, "resume", str(cut)], tmp_path).stdout)
    again = {
        "de": "Reiner Knizias Zehnkampf nach 28 Zügen fortgesetzt.",
        "pl": "Wznowiono grę Dziesięciobój Reinera Knizii po 28 ruchach.",
    }
    assert again[lang] in resumed and said + str(cut) in resumed
    assert "Resumed" not in resumed and "Record:" not in resumed


@pytest.mark.parametrize("lang", LANGS)
def test_replay_odds_of_a_game_without_them_in_each_language(lang: str, tmp_path: Path) -> None:
    record = tmp_path / "w.jsonl"
    play = ["play", "wurfeltod", "--players", "bot:greedy", "--seed", "2", "--record"]
    gamenight([*play, str(record)], tmp_path)
    shown = flat(gamenight(["--lang", lang, "replay", "--odds", str(record)], tmp_path).stdout)
    said = {"de": "Siegchancen gibt es nur für", "pl": "Szanse wygranej są dostępne tylko"}
    assert said[lang] in shown and "Win odds" not in shown


def test_a_bad_game_option_is_one_line_in_the_language(tmp_path: Path) -> None:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    environ.update(XDG_DATA_HOME=str(tmp_path), LANG="C")
    args = ["--lang", "de", "play", "decathlon", "--players", "Ann", "--mode", "solo"]
    done = subprocess.run(
        [sys.executable, "-c", "from gamenight.cli.main import run; run()", *args],
        capture_output=True, text=True, env=environ, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "gamenight: Fehler: Reiner Knizias Zehnkampf hat keine Option --mode "
        "(seine Optionen: --variant, --events)"
    )
