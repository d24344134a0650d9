"""Drive the full-screen table headless (Textual's pilot), as a player would.

:func:`table_app` builds the app around one game session; :func:`play_out` answers
every question by typing, at the prompt line, a command that the game's own key
parser maps to a legal action (found by trying short words of the games' vocabulary:
the player's keys, never an action object), presses Enter at every hand-over curtain
and at the end. It waits for the app by polling its state, never with fixed sleeps.
"""

from __future__ import annotations

import importlib
import itertools
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Input

from gamenight.cli.players import is_team_game, parse_players
from gamenight.cli.session import Session
from gamenight.core import registry
from gamenight.core.i18n import game_name
from gamenight.core.runner import Match
from gamenight.terminal import ui_for
from gamenight.terminal.full.app import TableApp
from gamenight.terminal.ui import Prompter

TIMEOUT = 120.0  # seconds for one question to come: only a hang gets near it

DIGITS = ["".join(c) for n in (1, 2, 3) for c in itertools.combinations("123456", n)]
FOURS = [" ".join(c) for c in itertools.combinations("1234567", 4)]  # keep 4 cards of 7
VOCABULARY = [
    "", "f", "r", "s", "t", "j", "k", "x", "a", "b", "none", "all", "keep", "2p", "fh", "ls",
    "pp", "4k", "3p", "tt", "5k", "p", "sk", "ss", "lb", "ch", "kn", "y", "n", "-",
    *DIGITS, *FOURS, *(f"s {d}" for d in DIGITS),
    *(f"x {w}" for w in ("p", "pp", "1", "2", "3", "4")),
    *(str(year) for year in range(1900, 2030)),
]  # fmt: skip


def spelled(game_id: str, legal: tuple[Any, ...]) -> list[str]:
    """How the game's UI spells each legal action, where it says (``command_text``)."""
    module = registry.get(game_id).game.info.terminal
    assert module is not None
    spell = getattr(importlib.import_module(module.partition(":")[0]), "command_text", None)
    return [] if spell is None else [str(spell(action)) for action in legal]


def parser(game_id: str) -> Callable[[str, Any, Any], Any]:
    """The game's key parser: its terminal UI's ``parse_command`` (one lookup, shared
    with the keyboard fuzzer)."""
    parse: Callable[[str, Any, Any], Any] = ui_for(registry.get(game_id)).parse_command
    return parse


@dataclass
class Table:
    """One game on the full screen, and what the test needs to answer for its humans."""

    app: TableApp[None]
    game_id: str
    match: list[Match] = field(default_factory=list)
    humans: frozenset[int] = frozenset()

    def answer(self, rng: random.Random) -> str:
        """Keys the player to act would type for some legal action."""
        (match,) = self.match
        table = match.table
        assert table is not None
        (seat,) = [s for s in table.to_act() if s in self.humans][:1]
        position = table.position(seat)
        parse = parser(self.game_id)
        words = [*VOCABULARY, *spelled(self.game_id, position.legal)]
        rng.shuffle(words)
        for word in words:
            try:
                action = parse(word, position.view, list(position.legal))
            except Exception:  # a parser may refuse by raising: try another word
                continue
            if not isinstance(action, str) and action in position.legal:
                return word
        raise AssertionError(f"no word of the vocabulary is legal for {position.legal[:3]}")


def table_app(
    game_id: str,
    players: str,
    folder: Path,
    *,
    seed: int = 7,
    options: dict[str, Any] | None = None,
) -> Table:
    """The app for one game (``players`` as for ``--players``), recorded in ``folder``."""
    entry = registry.get(game_id)
    parsed = entry.game.parse_options(options or {})
    seats = parse_players(players, list(entry.bots), teams=is_team_game(entry.game.info))
    humans = frozenset(i for i, s in enumerate(seats) if s.bot is None)
    made: list[Match] = []

    def target(console: Console, prompter: Prompter) -> None:
        session = Session(
            entry, seats, parsed, seed, console, prompter, folder / "game.jsonl",
            seed_public=True,
        )  # fmt: skip
        match = session.build()
        made.append(match)
        if session.play(match) is None:  # left before the end: as `gamenight play` does
            raise SystemExit(130)

    return Table(TableApp(target, title=game_name(game_id, entry.name)), game_id, made, humans)


async def until(pilot: Pilot[None], ready: Callable[[], bool]) -> None:
    """Let the app run until ``ready()``; fails after :data:`TIMEOUT` seconds."""
    deadline = time.monotonic() + TIMEOUT
    while not ready():
        if time.monotonic() > deadline:
            raise AssertionError("the table never got there")
        await pilot.pause(0.01)


async def settled(pilot: Pilot[None], app: App[Any]) -> str:
    """The screen once it stops changing (widgets lay out, the log and the hint panel
    scroll over a few refreshes; the prompt runs in its own thread): the same picture
    over three frames in a row, at least 0.15 s apart in all, so that a starved thread
    on a loaded machine is not taken for a finished screen."""
    for box in app.query(Input):  # a blinking cursor would be on or off by the clock
        box.cursor_blink = False
    same, last = 0, ""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        await pilot.wait_for_scheduled_animations()
        await pilot.pause(0.05)
        now = screen_text(app)
        same = same + 1 if now == last else 0
        last = now
        if same >= 3:
            return now
    raise AssertionError("the screen never settled")


async def type_line(pilot: Pilot[None], text: str) -> None:
    """Type ``text`` at the prompt line, then Enter; no Enter when a key alone already
    answered (a small question's single-key choice)."""
    app = pilot.app
    asked = getattr(app, "questions", None)
    for char in text:
        await pilot.press("space" if char == " " else char)
        if asked is not None and getattr(app, "waiting", "line") != "line":
            return  # answered by the key alone
        if asked is not None and getattr(app, "questions", asked) != asked:
            return
    await pilot.press("enter")


async def play_out(
    pilot: Pilot[None], table: Table, rng: random.Random, *, limit: int = 5000
) -> int:
    """Answer every question until the game is over; the number of questions answered."""
    app = table.app
    for answered in range(limit):
        await until(pilot, lambda: app.waiting is not None or app.worker_done)
        if app.waiting == "close" or app.worker_done:
            return answered
        asked = app.questions
        if app.waiting == "curtain":
            await pilot.press("enter")
        else:
            await type_line(pilot, table.answer(rng))
        await until(pilot, lambda: app.questions > asked or app.worker_done)  # noqa: B023
    raise AssertionError(f"the game did not end after {limit} answers")


async def answer_until(
    pilot: Pilot[None],
    table: Table,
    rng: random.Random,
    done: Callable[[], bool],
    *,
    limit: int = 20,
) -> None:
    """Answer questions (typed lines) until ``done()`` holds at a question."""
    app = table.app
    for _ in range(limit):
        await until(pilot, lambda: app.waiting == "line")
        if done():
            return
        asked = app.questions
        await type_line(pilot, table.answer(rng))
        await until(pilot, lambda: app.questions > asked)  # noqa: B023
    raise AssertionError(f"not there after {limit} answers")


def view_of_the_one_to_act(table: Table) -> Any:
    """The view of the (first) seat to act in the table's match."""
    match = table.match[0]
    assert match.table is not None
    return match.table.position(match.table.to_act()[0]).view


def screen_text(app: App[Any]) -> str:
    """What the screen shows now, line by line, as plain text (the composed screen:
    exactly what a player would see)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)
