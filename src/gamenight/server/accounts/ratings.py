"""Ratings: OpenSkill (Plackett-Luce), one per account per pool (a game and its variant),
computed from the rated results alone.

A rating is a pure function of the *set* of results of its pool: they are folded in one
canonical order (when each room finished, then its id), whatever order they arrived in.
So an update is order-free, a result recorded twice is one row (its room's primary key),
and a server restarted mid-way has either written the row or not: nothing is lost or
counted twice. Bots keep their fixed rating (``bot_ratings``); a player whose account was
deleted plays as a fresh rating that is not kept.

>>> a = Result(1, 10.0, (Place("account:1", 1), Place("account:2", 2)))
>>> b = Result(2, 20.0, (Place("account:2", 1), Place("account:1", 2)))
>>> fold([a, b]).ratings == fold([b, a]).ratings == fold([a, b, a]).ratings
True
>>> fold([a]).ratings["account:1"].mu > fold([a]).ratings["account:2"].mu
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache

from openskill.models import PlackettLuce

DELETED = "deleted"  # a seat whose account is gone: "deleted player" in the records


@dataclass(frozen=True)
class Place:
    """Who sat in a seat (``account:ID``, ``bot:NAME`` or ``deleted``) and where they came
    (1 is first; ties share)."""

    who: str
    place: int


@dataclass(frozen=True)
class Result:
    room_id: int
    finished_at: float
    places: tuple[Place, ...]


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    games: int = 0

    @property
    def ordinal(self) -> float:
        """What leaderboards sort by: mu - 3 sigma, a conservative estimate."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class Point:
    """A player's rating just after one rated room: the profile's plot."""

    room_id: int
    finished_at: float
    mu: float
    sigma: float


@dataclass
class Standing:
    ratings: dict[str, Rating] = field(default_factory=dict)
    history: dict[str, list[Point]] = field(default_factory=dict)


@cache
def _model() -> PlackettLuce:
    return PlackettLuce()


def fresh() -> Rating:
    start = _model().rating()
    return Rating(float(start.mu), float(start.sigma))


def fold(results: Iterable[Result], bots: Mapping[str, Rating] | None = None) -> Standing:
    """The ratings (and their histories) after ``results``, in their canonical order;
    ``bots`` holds the bots' fixed ratings (``bot:NAME``)."""
    model = _model()
    fixed = dict(bots or {})
    unique = {r.room_id: r for r in results}
    standing = Standing()
    for result in sorted(unique.values(), key=lambda r: (r.finished_at, r.room_id)):
        before = [fixed.get(p.who) or standing.ratings.get(p.who) or fresh() for p in result.places]
        teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in before]
        after = model.rate(teams, ranks=[float(p.place) for p in result.places])
        for place, old, team in zip(result.places, before, after, strict=True):
            if place.who == DELETED or place.who in fixed:
                continue
            new = Rating(float(team[0].mu), float(team[0].sigma), old.games + 1)
            standing.ratings[place.who] = new
            point = Point(result.room_id, result.finished_at, new.mu, new.sigma)
            standing.history.setdefault(place.who, []).append(point)
    return standing
