"""The game registry: one line per game.

Each entry names a package under :mod:`gamenight.games` that provides, by
convention, ``game.py`` (``GAME``), ``bots.py`` (``BOTS``) and ``terminal.py``
(``UI``), plus the rules doc ``rules.md``. Packages are imported lazily, so
listing the games stays fast.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from typing import Any

from gamenight.core.errors import UnknownGameError


@dataclass(frozen=True)
class GameEntry:
    id: str
    name: str
    package: str

    @cached_property
    def game(self) -> Any:
        """The game object (a :class:`gamenight.core.game.Game`)."""
        return importlib.import_module(f"{self.package}.game").GAME

    @cached_property
    def bots(self) -> Mapping[str, Callable[[int], Any]]:
        """Bot factories by name; each takes a seed and returns an agent."""
        from gamenight.core.agents import RandomAgent

        module = importlib.import_module(f"{self.package}.bots")
        bots: dict[str, Callable[[int], Any]] = {"random": RandomAgent}
        bots.update(module.BOTS)
        return bots

    def terminal_ui(self) -> Any:
        """The game's terminal presentation (``terminal.UI``)."""
        return importlib.import_module(f"{self.package}.terminal").UI()

    def rules_text(self) -> str:
        """The game's rules doc (``docs/rules/<id>.md``, shipped as ``rules.md``)."""
        try:
            return resources.files(self.package).joinpath("rules.md").read_text(encoding="utf-8")
        except OSError:
            raise UnknownGameError(f"the rules of {self.name} are not installed") from None


# One line per game. Order is the order `gamenight list` shows.
GAMES: dict[str, GameEntry] = {
    entry.id: entry
    for entry in (
        GameEntry("decathlon", "Reiner Knizia's Decathlon", "gamenight.games.decathlon"),
        GameEntry("dice-duel", "Kniffel Dice Duel", "gamenight.games.dice_duel"),
        GameEntry("wurfeltod", "Wurfeltod", "gamenight.games.wurfeltod"),
        GameEntry("decades", "The Decades", "gamenight.games.decades"),
    )
}


def available() -> list[GameEntry]:
    """Registered games whose package is installed and importable."""
    found = []
    for entry in GAMES.values():
        try:
            importlib.import_module(f"{entry.package}.game")
        except ModuleNotFoundError:
            continue
        found.append(entry)
    return found


def get(game_id: str) -> GameEntry:
    """The entry for ``game_id``; raises :class:`UnknownGameError` naming the choices."""
    entry = GAMES.get(game_id.strip().lower())
    if entry is None:
        raise UnknownGameError(
            f"unknown game '{game_id}' (choose from {', '.join(e.id for e in available())})"
        )
    return entry
