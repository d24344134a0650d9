"""Hot-seat hidden information in a real terminal (T7): after the hand-over, nothing of
the previous team's secrets is left on screen or in the scrollback.

Runs `gamenight play decades` with two human teams in tmux and reads the whole pane
history with ``capture-pane -S -``. ``make test`` installs tmux when it is missing.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

GAMENIGHT = Path(sys.executable).parent / "gamenight"


class Tmux:
    def __init__(self, socket: str) -> None:
        self.socket = socket

    def run(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, "-f", "/dev/null", *args],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        )
        return done.stdout

    def history(self) -> str:
        """Everything in the pane: the visible screen and the whole scrollback."""
        return self.run("capture-pane", "-p", "-J", "-S", "-", "-t", "game")

    def wait_for(self, text: str, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            seen = self.history()
            if text in seen:
                return seen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared; the pane shows:\n{self.history()}")

    def type(self, line: str) -> None:
        self.run("send-keys", "-t", "game", "-l", line)
        self.run("send-keys", "-t", "game", "Enter")


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Tmux]:
    if shutil.which("tmux") is None:
        pytest.fail("tmux is missing: `make system-deps` installs it (the hot-seat test needs it)")
    session = Tmux(f"gamenight-test-{os.getpid()}")
    env = {
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "GAMENIGHT_PLAIN": "1",  # the line mode (a tmux pane is a terminal: full screen)
    }
    command = " ".join(
        [
            *(f"{key}={value}" for key, value in env.items()),
            str(GAMENIGHT),
            "play decades --players Red:Ann,Blue:Bob --seed 11; sleep 60",
        ]
    )
    session.run("new-session", "-d", "-s", "game", "-x", "120", "-y", "40", command)
    session.run("set-option", "-t", "game", "history-limit", "10000")
    try:
        yield session
    finally:
        subprocess.run(["tmux", "-L", session.socket, "kill-server"], capture_output=True)


def test_hand_over_leaves_no_secret_in_the_scrollback(tmux: Tmux) -> None:
    tmux.wait_for("Pass the terminal to Red")
    tmux.type("")
    seen = tmux.wait_for("Keep which 4 cards?")
    cards = re.findall(r"^\s+[1-7]\. (.+ — .+)$", seen, flags=re.MULTILINE)
    assert len(cards) == 7, seen  # Red's seven secret action cards are on screen now
    tmux.type("1 2 3 4")
    seen = tmux.wait_for("Pass the terminal to Blue")
    time.sleep(0.3)  # let the clear land before the final look
    seen = tmux.history()
    leaked = [card for card in cards if card in seen]
    assert leaked == [], f"Red's cards are still in the terminal:\n{seen}"
    assert "Keep which 4 cards?" not in seen
    assert "Password input may be echoed" not in seen
