"""``gamenight review FILE`` (issue 42) in a real terminal (tmux), and its one-line errors."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

from test_ux_tmux import GAMENIGHT, tmux_session


def _game(tmp_path: Path, players: str, seed: int, events: str) -> Path:
    record = tmp_path / "game.jsonl"
    subprocess.run(
        [str(GAMENIGHT), "play", "decathlon", "--players", players, "--seed", str(seed),
         "--record", str(record), "--quiet", "-o", f"events={events}"],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    return record


def test_review_in_a_terminal_names_the_costly_decisions(tmp_path: Path) -> None:
    record = _game(tmp_path, "bot:random,bot:optimal", 3, "100m,long-jump,shot-put")
    with tmux_session(tmp_path, f"gamenight review {record}; sleep 60") as tmux:
        seen = tmux.wait_for("costliest decisions")
    assert "Review of a game of Reiner Knizia's Decathlon" in seen
    assert "Random 1's costliest decisions:" in seen
    assert "Optimal 2's costliest" not in seen  # optimal play costs nothing
    assert "100.0%" in seen  # the optimal player's accuracy
    assert "expected final score" in seen


def test_review_json_and_bad_files(tmp_path: Path) -> None:
    record = _game(tmp_path, "bot:greedy", 2, "110m-hurdles")
    done = subprocess.run(
        [str(GAMENIGHT), "review", str(record), "--json"], capture_output=True, text=True,
        timeout=60, check=True,
    )  # fmt: skip
    found = json.loads(done.stdout)
    assert found["game"] == "decathlon" and found["players"][0]["name"] == "Greedy 1"
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(record.read_text().splitlines(keepends=True)[:2]))
    for path, words in ((bad, "invalid JSON"), (tmp_path / "none", "no such record file"),
                        (cut, "not finished")):  # fmt: skip
        failed = subprocess.run(
            [str(GAMENIGHT), "review", str(path)], capture_output=True, text=True, timeout=60
        )
        assert failed.returncode != 0
        assert words in failed.stderr
        assert len(failed.stderr.strip().splitlines()) == 1, failed.stderr
        assert "Traceback" not in failed.stderr
    assert sys.executable


def test_the_full_screen_review_in_a_terminal(tmp_path: Path) -> None:
    """Where the full screen runs, `gamenight review` is the decisions table: `c` keeps the
    costly ones, Enter shows the position and every option's value, Escape goes back."""
    record = _game(tmp_path, "bot:random,bot:optimal", 3, "100m,long-jump,shot-put")
    command = f"gamenight review {record}; sleep 60"
    with tmux_session(tmp_path, command, plain=False) as tmux:
        seen = tmux.wait_for("option taken")
        assert "Review of a game of Reiner Knizia's Decathlon" in seen
        tmux.keys("c")  # the first row is now a costly decision
        time.sleep(0.5)
        tmux.keys("Enter")
        tmux.wait_for("Every option")
        seen = tmux.screen()
        lost = re.search(r"took .+; lost (\d+\.\d)", seen)
        assert "Step " in seen and lost is not None, seen
        assert float(lost.group(1)) > 0.0
        tmux.keys("Escape")
        tmux.wait_for("option taken")
