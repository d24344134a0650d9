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
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Protocol

import msgspec
import platformdirs

from gamenight.core.files import FileProblem, check_depth, read_bytes
from gamenight.core.i18n import _, said

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


def rate_games(
    names: Sequence[str], rows: Sequence[GameRow], start: Mapping[str, Rating] | None = None
) -> dict[str, Rating]:
    """The ratings of ``names`` after ``rows`` in order, from ``start`` (a bot's earlier
    rating and game count; fresh ratings for bots it lacks). A bot seated twice in one
    game gets the mean of its seats' updates and counts the game once."""
    model = _model()
    fresh = model.rating()
    ratings = {n: Rating(float(fresh.mu), float(fresh.sigma)) for n in names}
    ratings.update({n: r for n, r in (start or {}).items() if n in ratings})
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


MAX_STORE_BYTES = 16 << 20
MAX_STORE_DEPTH = 8  # {"players": {name: {"mu": ...}}} is 3 deep


class StoredRating(msgspec.Struct, frozen=True):
    mu: Annotated[float, msgspec.Meta(ge=-1e6, le=1e6)]
    sigma: Annotated[float, msgspec.Meta(gt=0, le=1e6)]
    games: Annotated[int, msgspec.Meta(ge=0)] = 0


class StoredRatings(msgspec.Struct, frozen=True):
    """The ratings file's shape (what :meth:`RatingStore.save` writes)."""

    players: dict[str, StoredRating] = {}
    game: str = ""
    model: str = MODEL


def _decode_store(data: bytes) -> StoredRatings:
    """The typed content of a ratings file, or :class:`FileProblem` saying what is wrong.

    >>> _decode_store(b'{"players": {"Ann": {"mu": 25.0, "sigma": 8.3, "games": 1}}}').players
    {'Ann': StoredRating(mu=25.0, sigma=8.3, games=1)}
    >>> _decode_store(b"[]")
    Traceback (most recent call last):
    ...
    gamenight.core.files.FileProblem: Expected `object`, got `array`
    """
    try:
        check_depth(data.decode("utf-8"), MAX_STORE_DEPTH)
        return msgspec.json.decode(data, type=StoredRatings)
    except UnicodeDecodeError:
        raise FileProblem("not UTF-8 text") from None
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        # msgspec's own English (third-party text, not translated)
        raise FileProblem("{reason}", reason=str(exc).splitlines()[0]) from None


class RatingStore:
    """The persisted ratings of one game (player name -> :class:`Rating`)."""

    def __init__(self, game: str, root: Path | None = None) -> None:
        self.game = game
        self.path = (root or ratings_dir()) / f"{game}.json"
        self.players: dict[str, Rating] = {}
        self.set_aside: Path | None = None  # where a damaged store was moved, if it was
        self.problem: str | None = None  # one line saying so
        if self.path.exists() or self.path.is_symlink():
            try:
                stored = _decode_store(read_bytes(self.path, limit=MAX_STORE_BYTES))
            except FileProblem as exc:
                self._set_aside(said(exc))
            else:
                self.players = {
                    name: Rating(r.mu, r.sigma, r.games) for name, r in stored.players.items()
                }

    def _set_aside(self, reason: str) -> None:
        """Move a damaged store out of the way (kept, renamed ``.bad-<time>``) and start
        afresh; the reason is kept in :attr:`problem` for the front end to say."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = self.path.with_name(f"{self.path.name}.bad-{stamp}")
        for n in range(1, 100):  # never over an earlier damaged copy
            if not target.exists():
                break
            target = self.path.with_name(f"{self.path.name}.bad-{stamp}-{n}")
        try:
            os.replace(self.path, target)
        except OSError:
            problem = FileProblem(
                "ratings file {path} is damaged ({reason}) and cannot be moved",
                path=str(self.path),
                reason=reason,
            )
            self.problem = said(problem)
            raise problem from None
        self.set_aside = target
        self.problem = _(
            "ratings file {path} was damaged ({reason}); kept as {kept}, ratings start afresh"
        ).format(path=self.path, reason=reason, kept=target.name)

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

    def record_games(self, bots: Sequence[str], rows: Sequence[GameRow]) -> None:
        """Rate a tournament's games (``rows``, in game order) on top of the stored
        ratings of its ``bots`` (kept as ``bot:NAME``): the ratings and game counts
        accumulate over tournaments. (Replacing them with the tournament's own fresh
        ratings forgot every earlier game.)"""
        start = {b: self.players[f"bot:{b}"] for b in bots if f"bot:{b}" in self.players}
        for bot, rating in rate_games(bots, rows, start).items():
            self.players[f"bot:{bot}"] = rating

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
    game: str,
    seats: Sequence[SeatLike],
    ranks: Sequence[int],
    root: Path | None = None,
    *,
    say: Callable[[str], None] | None = None,
) -> RatingStore | None:
    """Rate a finished terminal game if humans played against bots (a seat: ``name``,
    ``bot`` or None for humans, human ``members``). Bots are rated as ``bot:NAME``,
    humans by name. Returns the saved store; None when the game was not humans
    against bots or the store could not be written (a game never fails for it).
    ``say`` hears one line when the store was damaged (and set aside) or not saved."""
    humans = [s for s in seats if s.bot is None]
    if not humans or len(humans) == len(seats):
        return None
    try:
        store = RatingStore(game, root)
        if store.problem and say is not None:
            say(store.problem)
        players = [[f"bot:{s.bot}"] if s.bot else list(s.members or (s.name,)) for s in seats]
        store.record(players, ranks)
        store.save()
    except (OSError, ValueError, KeyError, ArithmeticError) as exc:  # odd stored numbers too
        if say is not None:
            say(f"the ratings were not updated: {getattr(exc, 'strerror', None) or exc}")
        return None
    return store
