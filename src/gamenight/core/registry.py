"""The game registry: one line per game, and each game's capabilities.

Each entry names a package under :mod:`gamenight.games` that provides
``game.py`` (``GAME``) and the rules doc ``rules.md``. The game's
:class:`~gamenight.core.game.GameInfo` declares its capabilities by name
("module:attribute"): bots, an advisor, a solver and live win odds. They are
imported on first use, so listing the games imports no bot, solver or numpy.

Front ends find their own per-game modules by the package's last name (e.g.
``gamenight.terminal.dice_duel``); the registry knows nothing of them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from importlib import resources
from typing import Any

from gamenight.core.errors import UnknownGameError
from gamenight.core.game import BotInfo, Game
from gamenight.core.solver import Solver

# The capabilities' signatures (GameInfo names each by a string, which mypy cannot
# follow: these types make every caller checked; tests/games/test_game_contract.py
# checks that what each string names takes these arguments).
Advisor = Callable[[Any, int, list[Any]], Any]  # (view, seat, legal) -> Advice | None
OddsFunction = Callable[[Any], Any]  # (spectator view) -> Odds | None
BotFactory = Callable[[int], Any]  # (seed) -> Agent

RANDOM_BOT = BotInfo(
    "random",
    "picks uniformly among the legal moves: a baseline, not an opponent",
    "gamenight.core.agents:RandomAgent",
)


def load(path: str) -> Any:
    """The object at ``"package.module:attribute"``."""
    module, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module), attribute)


@dataclass(frozen=True)
class GameEntry:
    id: str
    name: str
    package: str

    @property
    def module_name(self) -> str:
        """The package's last name, which front ends use for their per-game modules."""
        return self.package.rsplit(".", 1)[-1]

    @cached_property
    def game(self) -> Game[Any, Any]:
        """The game object (a :class:`gamenight.core.game.Game`)."""
        game: Game[Any, Any] = importlib.import_module(f"{self.package}.game").GAME
        return game

    @cached_property
    def bot_infos(self) -> Mapping[str, BotInfo]:
        """Every bot by name, ``random`` first; nothing is imported to list them."""
        return {b.name: b for b in (RANDOM_BOT, *self.game.info.bots)}

    @property
    def bots(self) -> Mapping[str, BotFactory]:
        """Bot factories by name; each takes a seed and returns an agent (imported lazily)."""
        return _LazyBots(self.bot_infos)

    def make_bot(self, name: str, seed: int) -> Any:
        """A new bot ``name`` seeded with ``seed``; raises UnknownGameError for no such bot."""
        info = self.bot_infos.get(name)
        if info is None:
            raise UnknownGameError(
                f"{self.name} has no bot '{name}' (choose from {', '.join(self.bot_infos)})"
            )
        return load(info.factory)(seed)

    @property
    def advisor(self) -> Advisor | None:
        """``advise(view, seat, legal) -> Advice | None``, if the game can advise."""
        path = self.game.info.advisor
        if path is None:
            return None
        advise: Advisor = load(path)
        return advise

    @property
    def odds(self) -> OddsFunction | None:
        """``odds(view) -> Odds | None`` (the spectator view), if the game has live odds."""
        path = self.game.info.odds
        if path is None:
            return None
        odds: OddsFunction = load(path)
        return odds

    @property
    def solver(self) -> Solver | None:
        """The game's :class:`~gamenight.core.solver.Solver`, if it has one. Typed, so
        mypy checks every call (a capability is named by a string: nothing else can);
        the contract tests check that what the string names has the signature."""
        path = self.game.info.solver
        if path is None:
            return None
        solver: Solver = load(path)
        return solver

    def rules_text(self) -> str:
        """The game's rules doc (``docs/rules/<id>.md``, shipped as ``rules.md``)."""
        try:
            return resources.files(self.package).joinpath("rules.md").read_text(encoding="utf-8")
        except OSError:
            raise UnknownGameError(f"the rules of {self.name} are not installed") from None


class _LazyBots(Mapping[str, Callable[[int], Any]]):
    """Bot names map to factories that import their module only when called."""

    def __init__(self, infos: Mapping[str, BotInfo]) -> None:
        self._infos = infos

    def __getitem__(self, name: str) -> Callable[[int], Any]:
        info = self._infos[name]
        return lambda seed: load(info.factory)(seed)

    def __iter__(self) -> Any:
        return iter(self._infos)

    def __len__(self) -> int:
        return len(self._infos)


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
