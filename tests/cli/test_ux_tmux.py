"""Hot-seat hidden information in a real terminal (T7): after the hand-over, nothing of
the previous team's secrets is left on screen or in the scrollback.

Runs `gamenight play decades` with two human teams in tmux and reads the whole pane
history with ``capture-pane -S -``. ``make test`` installs tmux when it is missing.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
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

    def screen(self) -> str:
        """The visible screen only."""
        return self.run("capture-pane", "-p", "-J", "-t", "game")

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", "game", *keys)

    def type(self, line: str) -> None:
        self.run("send-keys", "-t", "game", "-l", line)
        self.run("send-keys", "-t", "game", "Enter")


HOT_SEAT = "play decades --players Red:Ann,Blue:Bob --seed 11"


@contextlib.contextmanager
def tmux_session(
    tmp_path: Path, command: str, *, height: int = 40, plain: bool = True
) -> Iterator[Tmux]:
    """A tmux pane (120 columns) running ``command`` (a shell line; ``gamenight`` is
    this checkout's, with its data and cache folders under ``tmp_path``); the line mode
    unless ``plain`` is false (then the full screen, as on any terminal)."""
    if shutil.which("tmux") is None:
        pytest.fail("tmux is missing: `make system-deps` installs it (the hot-seat test needs it)")
    session = Tmux(f"gamenight-test-{os.getpid()}-{tmp_path.name}")
    env = {
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "GAMENIGHT_PLAIN": "1" if plain else "0",  # a tmux pane is a terminal: full screen
    }
    exports = " ".join(f"{key}={value}" for key, value in env.items())
    line = f"export {exports}; " + command.replace("gamenight ", f"{GAMENIGHT} ")
    size = ["-x", "120", "-y", str(height)]
    session.run("new-session", "-d", "-s", "game", *size, "bash", "--norc", "-c", line)
    session.run("set-option", "-t", "game", "history-limit", "10000")
    try:
        yield session
    finally:
        subprocess.run(["tmux", "-L", session.socket, "kill-server"], capture_output=True)


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Tmux]:
    with tmux_session(tmp_path, f"gamenight {HOT_SEAT}; sleep 60") as session:
        yield session


def _secret_cards(seen: str) -> list[str]:
    """The seven dealt cards' lines ("1. Cancel the answer"), and then each kind's
    effect line ("Cancel the answer: Choose one of ..."), as the screen shows them."""
    cards = re.findall(r"^\s+([1-7]\. .+)$", seen, flags=re.MULTILINE)
    effects = re.findall(r"^  ([A-Z][^:\n]+: [A-Z].+)$", seen, flags=re.MULTILINE)
    return cards + effects


def test_hand_over_leaves_no_secret_in_the_scrollback(tmux: Tmux) -> None:
    seen = tmux.wait_for("Pass the terminal to Red")
    assert "was chosen with --seed" in seen  # the start-up text stays until Enter (issue 25)
    tmux.type("")
    seen = tmux.wait_for("Keep which 4 cards?")
    cards = _secret_cards(seen)
    # Red's seven secret action cards, and what they do, are on screen now
    assert len([c for c in cards if c[0].isdigit()]) == 7 and len(cards) > 7, seen
    tmux.type("1 2 3 4")
    seen = tmux.wait_for("Pass the terminal to Blue")
    time.sleep(0.3)  # let the clear land before the final look
    seen = tmux.history()
    leaked = [card for card in cards if card in seen]
    assert leaked == [], f"Red's cards are still in the terminal:\n{seen}"
    assert "Keep which 4 cards?" not in seen
    assert "Password input may be echoed" not in seen


def _red_keeps_cards(tmux: Tmux, keep: str = "1 2 3 4") -> list[str]:
    """Red's seven secret cards as shown, after Red typed ``keep`` at the first prompt."""
    tmux.wait_for("Pass the terminal to Red")
    tmux.type("")
    seen = tmux.wait_for("Keep which 4 cards?")
    cards = _secret_cards(seen)
    assert len([c for c in cards if c[0].isdigit()]) == 7, seen
    tmux.type(keep)
    return cards


def test_a_dumb_terminal_gets_a_curtain_and_a_warning(tmp_path: Path) -> None:
    """Issue 25 item 8: TERM=dumb cannot clear; blank lines push Red's hand off the screen
    before Blue's prompt, and the players are told so at the start."""
    with tmux_session(tmp_path, f"TERM=dumb gamenight {HOT_SEAT}; sleep 60") as tmux:
        cards = _red_keeps_cards(tmux)
        tmux.wait_for("Pass the terminal to Blue")
        screen = tmux.screen()
        assert "Pass the terminal to Blue" in screen
        assert [card for card in cards if card in screen] == [], screen
        assert "Keep which 4 cards?" not in screen
        assert "cannot clear its screen (TERM=dumb)" in " ".join(tmux.history().split())


def _echo_is_off(tmux: Tmux) -> bool:
    tty = tmux.run("display-message", "-p", "-t", "game", "#{pane_tty}").strip()
    modes = subprocess.run(["stty", "-a", "-F", tty], capture_output=True, text=True).stdout
    return " -echo " in f" {modes.replace(chr(10), ' ')} "


def test_a_secret_stays_unechoed_after_ctrl_z_and_fg(tmp_path: Path) -> None:
    """Issue 25 item 10: suspend at a secret prompt, resume with fg, and type the secret:
    it is not echoed (bash gives a continued job the terminal modes it saved before the
    job started, echo on)."""
    with tmux_session(tmp_path, "exec bash --norc --noprofile -i", height=60) as tmux:
        tmux.type(f"{GAMENIGHT} {HOT_SEAT}")
        tmux.wait_for("Pass the terminal to Red")
        tmux.type("")
        tmux.wait_for("Keep which 4 cards?")
        assert _wait(lambda: _echo_is_off(tmux))
        tmux.keys("C-z")
        tmux.wait_for("Stopped")
        tmux.type("fg")
        assert _wait(lambda: _echo_is_off(tmux)), "echo is on again after fg"
        tmux.type("1   2   3   4")
        seen = tmux.wait_for("Pass the terminal to Blue")
        assert "1   2   3   4" not in seen


def _wait(condition: Callable[[], bool], timeout: float = 30) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_full_screen_secret_stays_hidden_after_ctrl_z_and_fg(tmp_path: Path) -> None:
    """Issue 25, full screen: Ctrl-Z at a secret entry, then fg: the terminal is back in
    the app's raw mode (no echo), the secret shows as dots only, and the curtain still
    comes before the other team sees the screen."""
    with tmux_session(tmp_path, "exec bash --norc --noprofile -i", height=24, plain=False) as tmux:
        tmux.type(f"{GAMENIGHT} {HOT_SEAT}")
        tmux.wait_for("Pass to Red")
        tmux.keys("Enter")
        tmux.wait_for("Keep which 4 cards?")
        assert _wait(lambda: _echo_is_off(tmux))
        tmux.keys("C-z")
        tmux.wait_for("Stopped")
        tmux.type("fg")
        assert _wait(lambda: "Keep which 4 cards?" in tmux.screen()), tmux.screen()
        assert _wait(lambda: _echo_is_off(tmux)), "echo is on again after fg"
        tmux.run("send-keys", "-t", "game", "-l", "1 2 3 4")
        assert _wait(lambda: "•••" in tmux.screen()), tmux.screen()
        assert "1 2 3 4" not in tmux.history()
        tmux.keys("Enter")
        seen = tmux.wait_for("Pass to Blue")
        assert "1 2 3 4" not in seen and "Remove the" not in tmux.screen()


def test_the_full_screen_follows_a_real_resize(tmp_path: Path) -> None:
    """Issue 41, v2's open item end to end: the terminal window shrinks mid-question
    (a real SIGWINCH through tmux, not the pilot's resize): the Decades board is drawn
    narrow with the question still on screen, wide again when the window grows, and
    the question is still answered as typed."""
    game = "gamenight play decades --players Red:Ann,Blue:bot:novice --seed 11; sleep 60"
    with tmux_session(tmp_path, game, plain=False) as tmux:
        tmux.run("resize-window", "-t", "game", "-x", "120", "-y", "40")
        tmux.wait_for("Keep which 4 cards?")
        tmux.type("1 2 3 4")
        assert _wait(lambda: "Year?" in tmux.screen()), tmux.screen()
        assert _wait(lambda: " x0 " in tmux.screen()), tmux.screen()  # the wide grid
        tmux.run("resize-window", "-t", "game", "-x", "60", "-y", "30")

        def narrow(screen: str) -> bool:
            """The narrow grid drawn (each decade in two rows of five years, 85 begins
            the second) with the question under it: the whole redraw, not a frame of it
            (a capture can land while the board is still blank)."""
            rows = [line.strip("│ ") for line in screen.splitlines()]
            return (
                " x0 " not in screen and "Year?" in screen and any(r.startswith("85") for r in rows)
            )

        assert _wait(lambda: narrow(tmux.screen())), tmux.screen()
        lines = tmux.screen().splitlines()
        assert len(lines) <= 30 and all(len(line) <= 60 for line in lines)
        tmux.run("resize-window", "-t", "game", "-x", "120", "-y", "40")
        assert _wait(lambda: " x0 " in tmux.screen()), tmux.screen()
        tmux.type("1987")
        assert _wait(lambda: "Red · Year? 1987" in tmux.history()), tmux.screen()
