"""Issue 41, as a new user meets the terminal: `make play` and the menu end with exit 0
when the player leaves with Ctrl-C (tmux, the full screen), and `solve` never cuts a
long cell (the cache's path) short."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

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
