"""Issue 41, as a new user meets the terminal: `make play` and the menu end with exit 0
when the player leaves with Ctrl-C (tmux, the full screen), and `solve` never cuts a
long cell (the cache's path) short."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from test_ux_tmux import tmux_session

from gamenight.cli.solve import solution_table

ROOT = Path(__file__).resolve().parents[2]


def test_leaving_the_menu_with_ctrl_c_exits_0(tmp_path: Path) -> None:
    command = "gamenight --lang en; echo EXIT=$?; sleep 60"
    with tmux_session(tmp_path, command, plain=False) as tmux:
        tmux.wait_for("Choose a game")
        tmux.keys("C-c")
        seen = tmux.wait_for("EXIT=")
        assert "EXIT=0" in seen, seen
        assert "Traceback" not in seen


def test_make_play_exits_0_when_the_player_leaves(tmp_path: Path) -> None:
    command = f"make -s -C {ROOT} play; echo EXIT=$?; sleep 60"
    with tmux_session(tmp_path, command, plain=False) as tmux:
        tmux.wait_for("Choose a game")
        tmux.keys("C-c")
        seen = tmux.wait_for("EXIT=")
        assert "EXIT=0" in seen and "Error 130" not in seen, seen


class Solved:
    title = "Wurfeltod: optimal solitaire play (exact)"
    path = "/home/someone/.cache/gamenight/" + "a-long-folder-name/" * 4 + "wurfeltod-values.bin"

    def columns(self) -> list[str]:
        return ["", "value"]

    def rows(self) -> list[list[str]]:
        return [["Expected score", "9,067.5764"], ["value table", self.path]]


def test_solve_never_cuts_the_cache_path() -> None:
    out = io.StringIO()
    solved: Any = Solved()
    Console(file=out, width=80).print(solution_table(solved))
    cells = "".join(
        part.strip() for line in out.getvalue().splitlines() for part in line.split("│")[2:3]
    )
    assert Solved.path in cells and "…" not in out.getvalue()


def test_play_decades_in_german_asks_the_german_deck(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: Any
) -> None:
    """`play decades` under --lang de picks the German deck, as the menu does (it asked
    the English deck's questions)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    players = "Red:bot:novice,Blue:bot:novice"
    code, out, err = cli(["--lang", "de", "play", "decades", "--players", players, "--seed", "1",
                          "--watch", "--track", "20"])  # fmt: skip
    assert code == 0, err
    assert "In welchem Jahr" in out and "In which year" not in out


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_the_wurfeltod_and_dice_duel_hints_speak_the_language(lang: str) -> None:
    """The hints' column names, option labels and notes are in the player's language."""
    from gamenight.core import registry
    from gamenight.core.dice import SeededDice
    from gamenight.core.game import to_json
    from gamenight.core.i18n import set_default_language
    from gamenight.games.dice_duel.advisor import NOTE, OBJECTIVE
    from gamenight.terminal.dice_duel import hint_renderable
    from gamenight.terminal.wurfeltod import keyed_advice

    set_default_language(lang)
    try:
        entry = registry.get("wurfeltod")
        view: Any = entry.game.view(entry.game.start(1, {}, SeededDice(seed=3)).state, 0)
        from gamenight.core.advice import Advice, Objective, Option

        legal = entry.game.legal_actions(entry.game.start(1, {}, SeededDice(seed=3)).state, 0)
        options = tuple(
            Option(action=to_json(a), label="set aside 4", values=(1.0, 0.0, None, None))
            for a in legal[:3]
        )
        names = ("expected final score", "vs best", "points now", "Wurfeltod now")
        objectives = tuple(Objective(name=n, unit="points", best=0) for n in names)
        advice = Advice(objectives=objectives, options=options, note="Booking now brings ...")
        shown = keyed_advice(advice, view)
        words = " ".join([*(o.name for o in shown.objectives), *(o.label for o in shown.options),
                          shown.note or ""])  # fmt: skip
        for english in ("expected final score", "vs best", "set aside", "Booking now"):
            assert english not in words, words
        out = io.StringIO()
        dd = Advice(
            objectives=(Objective(name=OBJECTIVE, unit="points", best=0, note=NOTE),),
            options=(Option(action=None, label="r", values=(1.0,)),),
        )
        Console(file=out, width=200).print(hint_renderable(dd, 200))
        assert (
            "expected chip value" not in out.getvalue() and "this turn only" not in out.getvalue()
        )
    finally:
        set_default_language("en")
