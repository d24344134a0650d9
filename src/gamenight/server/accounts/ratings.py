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

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

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


def fit(games: Iterable[Sequence[Place]]) -> dict[str, Rating]:
    """The bots' ratings from their games (``games``: a tournament's, each its seats'
    places), all at once: issue 43's "bots get ratings from the same system".

    Each player starts as a new account does (OpenSkill's prior, mu 25 and sigma 25/3)
    and its mu is the most likely one given every game (a MAP fit, by Newton's method).
    A game's seats are compared pairwise, the one ahead winning, a tie half each way,
    with the chance OpenSkill's Plackett-Luce gives a pair in a game of K seats,
    ``1 / (1 + exp((mu_b - mu_a) / c))`` where ``c = beta * sqrt(K)`` (a bot's own
    sigma left out: a fixed bot is what is being measured). The fit depends on the
    games only through those counts, so it is order-free; the prior makes it finite
    when a player never lost (how far above depends on how many games it won); and
    since the likelihood only sees differences, the players' mean mu is the prior's,
    25 exactly: a new account starts at the mean of the bots it is rated against.
    sigma is the posterior's standard deviation of each mu about that mean (the mean
    being the anchor, not an unknown); pairs of one game are taken as independent,
    so it is somewhat narrow.

    >>> duel = lambda a, b: (Place(a, 1), Place(b, 2))
    >>> games = [duel("bot:b", "bot:a")] * 30 + [duel("bot:a", "bot:b")] * 10
    >>> rated = fit(games)
    >>> rated["bot:b"].mu > 25 > rated["bot:a"].mu, round(rated["bot:a"].mu + rated["bot:b"].mu, 9)
    (True, 50.0)
    >>> fit(reversed(games)) == rated, rated["bot:a"].games
    (True, 40)
    """
    import numpy as np

    model = _model()
    seen = [tuple(game) for game in games]
    names = sorted({p.who for game in seen for p in game})
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    # wins[k][a, b]: how often a finished ahead of b in a game of k seats (ties: one half)
    wins: dict[int, Any] = {}
    played = [0] * n
    for game in seen:
        counts = wins.setdefault(len(game), np.zeros((n, n)))
        for p in {index[p.who] for p in game}:
            played[p] += 1
        for s, t in itertools.combinations(game, 2):
            a, b = index[s.who], index[t.who]
            if a == b:
                continue
            if s.place == t.place:
                counts[a, b] += 0.5
                counts[b, a] += 0.5
            elif s.place < t.place:
                counts[a, b] += 1
            else:
                counts[b, a] += 1
    prior = 1 / model.sigma**2
    mu = np.full(n, float(model.mu))

    def slope(mu: Any) -> tuple[Any, Any]:
        """The log posterior's gradient and (negated) Hessian at ``mu``."""
        grad = -(mu - model.mu) * prior
        info = np.eye(n) * prior
        for k, counts in wins.items():
            c = model.beta * math.sqrt(k)
            ahead = 1 / (1 + np.exp((mu[None, :] - mu[:, None]) / c))  # P(a ahead of b)
            total = counts + counts.T
            grad = grad + (counts - total * ahead).sum(axis=1) / c
            w = total * ahead * (1 - ahead) / c**2
            info = info + np.diag(w.sum(axis=1)) - w
        return grad, info

    for _ in range(100):  # concave: Newton's steps converge
        grad, info = slope(mu)
        step = np.linalg.solve(info, grad)
        mu = mu + step
        if float(np.abs(step).max()) < 1e-12:
            break
    _grad, info = slope(mu)
    centre = np.eye(n) - np.ones((n, n)) / n
    cov = centre @ np.linalg.inv(info) @ centre
    return {
        name: Rating(float(mu[i]), math.sqrt(max(0.0, float(cov[i, i]))), played[i])
        for i, name in enumerate(names)
    }
