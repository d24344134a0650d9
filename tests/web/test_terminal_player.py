"""A browser player and a terminal player at one online table (issue 41): the room is
made with `gamenight host`, the terminal player sits with `gamenight join` on the full
screen (in tmux, a real terminal), the browser player in Debian's chromium; they play
a whole Kniffel Dice Duel and both check the dice at the end."""

from __future__ import annotations

import os
import random
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from web import webui as ui
from web.webui import Server

GAMENIGHT = [
    sys.executable,
    "-c",
    "import sys; from gamenight.cli.main import run; run(sys.argv[1:])",
]


class Tmux:
    """A tmux server of this test's own (``-L``) with one window, 100×32."""

    def __init__(self, home: Path) -> None:
        self.socket = f"gamenight-join-{os.getpid()}"
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("GAMENIGHT_", "TMUX"))}
        self.env.update(XDG_DATA_HOME=str(home / "data"), LANG="C.UTF-8", TERM="xterm-256color")

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, env=self.env,
            timeout=60, check=True,
        )  # fmt: skip
        return done.stdout

    def start(self, argv: list[str]) -> None:
        command = shlex.join(argv) + "; echo EXITED $?; sleep 3600"
        self.tmux("new-session", "-d", "-s", "t", "-x", "100", "-y", "32", command)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", "t")

    def asking(self, name: str) -> bool:
        """Whether the prompt line asks ``name`` now: it shows the name (the log's echoes
        sit inside their panel's borders) and the footer offers help, which it does only
        while a question waits (the label stays after the answer, the input disabled)."""
        bottom = self.tmux("capture-pane", "-p", "-t", "t").rstrip("\n").splitlines()[-3:]
        # the prompt names the player, then the keys: "Tess: 134 keep, r roll, ... >"
        asks = any(line.strip().startswith(f"{name}: ") for line in bottom)
        return asks and "Help" in bottom[-1]

    def refusal(self) -> str | None:
        """The full screen's error line (just above the prompt line), if one shows."""
        bottom = self.tmux("capture-pane", "-p", "-t", "t").rstrip("\n").splitlines()[-4:]
        return next((line.strip() for line in bottom if line.strip().startswith("✗")), None)

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "t", *keys)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], env=self.env, check=False)


def until(condition: Callable[[], object], what: str, page: Any, term: Tmux | None = None) -> None:
    """Poll ``condition`` (letting the page's sockets run) until it holds; on failure
    the terminal's screen is in the message."""
    deadline = time.monotonic() + ui.TIMEOUT_S
    while not condition():
        if time.monotonic() > deadline:
            screen = "" if term is None else term.tmux("capture-pane", "-p", "-t", "t")
            raise AssertionError(f"{what} within {ui.TIMEOUT_S} s\n{screen}")
        page.wait_for_timeout(50)  # a polling interval, not a wait for something


@pytest.fixture
def term(tmp_path: Path) -> Iterator[Tmux]:
    t = Tmux(tmp_path)
    yield t
    t.close()


def test_a_browser_and_a_terminal_player_finish_a_dice_duel_both_checking_the_dice(
    browser: Any, server: Server, term: Tmux, tmp_path: Path
) -> None:
    made = subprocess.run(
        [*GAMENIGHT, "host", "dice-duel", "--server", server.url, "--seats", "human,human"],
        capture_output=True, text=True, env=term.env, timeout=120,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    link = next(w for w in made.stdout.split() if "/r/" in w)
    term.start([*GAMENIGHT, "join", link, "--name", "Tess"])
    page_ctx = ui.new_context(browser, ui.DESKTOP)
    try:
        page = page_ctx.new_page()
        until(lambda: "Waiting for players" in term.screen(), "the terminal seated", page)
        page.goto(link)
        page.wait_for_selector("[data-key=claim-1]")
        page.fill("#claim-name", "Bo")
        page.click("[data-key=claim-1]")
        page.wait_for_selector("body[data-status=playing]")
        rng = random.Random(3)
        moves = 0
        while not page.locator("body[data-status=finished]").count():
            seq = page.get_attribute("body", "data-seq")
            if page.locator("body[data-my-turn=true]").count():
                assert ui.dice_duel(page, rng), page.locator("#table").inner_text()
            else:
                until(lambda: term.asking("Tess"), "the terminal's question", page, term)
                _terminal_move(term, page, seq)
            moves += 1
            page.wait_for_selector(f"body:not([data-seq='{seq}']), body[data-status=finished]")
        assert moves > 10
        # the browser checked the dice by itself
        page.wait_for_selector("#end .fair-check[data-checked]")
        check = page.locator("#end .fair-check")
        assert check.get_attribute("data-checked") == "ok", check.inner_text()
        assert "Your own contribution is in the record" in check.inner_text()
        ui.shoot(page, "terminal-and-browser-end")
        # ... and so did the terminal: its verdict stays printed once the table is closed
        until(lambda: "Enter closes the table" in term.screen(), "the terminal's end", page)
        term.keys("Enter")
        until(lambda: "EXITED" in term.screen(), "the terminal closed", page)
        shown = " ".join(term.screen().split())
        assert "EXITED 0" in shown, shown[-2000:]
        assert "Fair dice: checked." in shown, shown[-2000:]
        assert "Your own contribution is in the record, unchanged." in shown
        (ui.ARTIFACTS / "terminal-and-browser-end.txt").write_text(term.screen(), encoding="utf-8")
    finally:
        page_ctx.close()


def _terminal_move(term: Tmux, page: Any, seq: str | None) -> None:
    """One move typed at the terminal's prompt: ``s`` (the only chip, or the end of the
    turn); when the dice earn several chips the refusal names their keys and the first is
    typed; when no chip is left to take, the dice are rolled again."""
    term.keys("s", "Enter")

    def moved_or_refused() -> bool:
        return page.get_attribute("body", "data-seq") != seq or term.refusal() is not None

    until(moved_or_refused, "the terminal's move", page, term)
    if page.get_attribute("body", "data-seq") != seq:
        return
    keys = re.search(r"take one \(([a-z0-9]+)", term.refusal() or "")
    term.keys(keys.group(1) if keys else "r", "Enter")
