"""Ratings: openskill Plackett-Luce (mu, sigma, ordinal = mu - 3 sigma), kept per game.

The store is one JSON file per game in the user data directory
(``<user data>/gamenight/ratings/<game>.json``). Tournaments rate their bots
(as ``bot:NAME``); a terminal game between humans and bots rates everyone at
the table (humans by name), so a player can see where they stand against the
bots with ``gamenight ratings GAME``.

>>> store = RatingStore.__new__(RatingStore)
>>> store.game, store.players = "wurfeltod", {}
>>> store.record([["Ann"], ["bot:greedy"]], ranks=[1, 2])
>>> store.get("Ann").mu > store.get("bot:greedy").mu
True
>>> store.get("Ann").games
1
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import platformdirs

if TYPE_CHECKING:
    from gamenight.sim.engine import GameRow

MODEL = "openskill PlackettLuce"


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        """A conservative estimate: mu - 3 sigma (what leaderboards sort by)."""
        return self.mu - 3 * self.sigma


def _model() -> Any:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def _rate(model: Any, current: list[Rating], ranks: Sequence[int]) -> list[Rating]:
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in current]
    new = model.rate(teams, ranks=list(ranks))
    return [
        Rating(float(team[0].mu), float(team[0].sigma), r.games + 1)
        for team, r in zip(new, current, strict=True)
    ]


def rate_games(names: Sequence[str], rows: Sequence[GameRow]) -> dict[str, Rating]:
    """Fresh ratings of ``names`` after ``rows`` in order (a bot seated twice in one
    game gets the mean of its seats' updates)."""
    model = _model()
    start = model.rating()
    ratings = {n: Rating(float(start.mu), float(start.sigma)) for n in names}
    for row in rows:
        updated = _rate(model, [ratings[b] for b in row.bots], row.ranks)
        by_bot: dict[str, list[Rating]] = {}
        for bot, rating in zip(row.bots, updated, strict=True):
            by_bot.setdefault(bot, []).append(rating)
        for bot, got in by_bot.items():
            ratings[bot] = Rating(
                sum(r.mu for r in got) / len(got),
                sum(r.sigma for r in got) / len(got),
                ratings[bot].games + 1,
            )
    return ratings


def ratings_dir() -> Path:
    return Path(platformdirs.user_data_dir("gamenight")) / "ratings"


class RatingStore:
    """The persisted ratings of one game (player name -> :class:`Rating`)."""

    def __init__(self, game: str, root: Path | None = None) -> None:
        self.game = game
        self.path = (root or ratings_dir()) / f"{game}.json"
        self.players: dict[str, Rating] = {}
        if self.path.exists():
            data = json.loads(self.path.read_text(encoding="utf-8"))
            self.players = {
                name: Rating(float(r["mu"]), float(r["sigma"]), int(r["games"]))
                for name, r in data.get("players", {}).items()
            }

    def get(self, name: str) -> Rating:
        if name in self.players:
            return self.players[name]
        start = _model().rating()
        return Rating(float(start.mu), float(start.sigma))

    def record(self, seats: Sequence[Sequence[str]], ranks: Sequence[int]) -> None:
        """Rate one game: ``seats[i]`` are the players at seat i (a team may hold
        several), ``ranks[i]`` its rank (1 = best, ties share)."""
        model = _model()
        teams = [
            [model.rating(mu=self.get(n).mu, sigma=self.get(n).sigma) for n in s] for s in seats
        ]
        new = model.rate(teams, ranks=list(ranks))
        for names, team in zip(seats, new, strict=True):
            for name, rating in zip(names, team, strict=True):
                self.players[name] = Rating(
                    float(rating.mu), float(rating.sigma), self.get(name).games + 1
                )

    def merge(self, ratings: dict[str, Rating]) -> None:
        """Replace players' ratings (a tournament's result for its bots)."""
        self.players.update(ratings)

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = {
            "game": self.game,
            "model": MODEL,
            "players": {
                name: {"mu": r.mu, "sigma": r.sigma, "games": r.games}
                for name, r in sorted(self.players.items())
            },
        }
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, self.path)

    def table(self) -> list[tuple[str, Rating]]:
        """Every player, best ordinal first."""
        return sorted(self.players.items(), key=lambda item: -item[1].ordinal)


class SeatLike(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def bot(self) -> str | None: ...
    @property
    def members(self) -> tuple[str, ...]: ...


def rate_table_game(
    game: str, seats: Sequence[SeatLike], ranks: Sequence[int], root: Path | None = None
) -> RatingStore | None:
    """Rate a finished terminal game if humans played against bots (a seat: ``name``,
    ``bot`` or None for humans, human ``members``). Bots are rated as ``bot:NAME``,
    humans by name. Returns the saved store; None when the game was not humans
    against bots or the store could not be written (a game never fails for it)."""
    humans = [s for s in seats if s.bot is None]
    if not humans or len(humans) == len(seats):
        return None
    try:
        store = RatingStore(game, root)
        players = [[f"bot:{s.bot}"] if s.bot else list(s.members or (s.name,)) for s in seats]
        store.record(players, ranks)
        store.save()
    except (OSError, ValueError, KeyError):
        return None
    return store
