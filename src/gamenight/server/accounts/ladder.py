"""The bots' fixed ratings per pool (issue 43): fitted from their games, shipped with each
game as ``ladder.json`` beside its ``game.py`` and written by ``gamenight fit-bots``
(docs/accounts.md, "Bots on the leaderboards").

A bot with a declared ``BotInfo.rating`` may sit in rated rooms; its rating there is the
pool's fitted one, else the game's default pool's (a variant nobody fitted), else, for a
game that ships no fit, the declared number itself (sigma :data:`BOT_SIGMA`). An
operator's rows of ``bot_ratings`` win over all of these (``AccountStore.bot_ratings``).

>>> fixed = ladder("dice-duel")
>>> sorted(fixed), fixed["bot:turn-optimal"].mu > fixed["bot:random"].mu
(['bot:random', 'bot:turn-optimal'], True)
>>> ladder('dice-duel {"mode":"no-such-pool"}') == fixed  # no fit of its own: the game's
True
>>> ladder("no-such-game")
{}
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Annotated

import msgspec

from gamenight.core import registry
from gamenight.core.errors import GamenightError
from gamenight.server.accounts.ratings import Rating

FILE = "ladder.json"  # in the game's package, beside game.py and rules.md
BOT_SIGMA = 1.0  # a declared rating (no fit shipped) is taken as known closely


class FittedBot(msgspec.Struct, frozen=True):
    mu: Annotated[float, msgspec.Meta(ge=-1e4, le=1e4)]
    sigma: Annotated[float, msgspec.Meta(gt=0, le=1e4)]


class FittedPool(msgspec.Struct, frozen=True):
    """One pool's fit and how to make it again (``gamenight fit-bots``' arguments)."""

    seed: int
    games: int  # per line-up
    seats: int
    bots: dict[str, FittedBot]


class LadderFile(msgspec.Struct, frozen=True):
    about: str = ""
    pools: dict[str, FittedPool] = {}


ABOUT = (
    "The bots' fitted ratings per rating pool, written by `gamenight fit-bots GAME "
    "--ladder FILE` (docs/accounts.md)."
)


def read(path: Path) -> LadderFile:
    """The ladder file at ``path`` (an empty one if there is none)."""
    if not path.exists():
        return LadderFile(ABOUT)
    return msgspec.json.decode(path.read_bytes(), type=LadderFile)


def write(path: Path, pool: str, fitted: FittedPool) -> None:
    """Put ``pool``'s fit into the ladder file at ``path`` (its other pools kept)."""
    pools = {**read(path).pools, pool: fitted}
    data = LadderFile(ABOUT, dict(sorted(pools.items())))
    path.write_bytes(msgspec.json.format(msgspec.json.encode(data), indent=1) + b"\n")


@cache
def shipped(package: str) -> Mapping[str, FittedPool]:
    """The pools a game's package ships fits for (none if it has no ladder file)."""
    from importlib import resources

    try:
        data = resources.files(package).joinpath(FILE).read_bytes()
        return msgspec.json.decode(data, type=LadderFile).pools
    except (OSError, msgspec.DecodeError):  # none, or a plug-in's broken one: declared
        return {}


def game_of(pool: str) -> str:
    """The game id of a pool key (``rated.pool_of``: the id, then the options it sets).

    >>> game_of('decathlon {"variant":"championship"}'), game_of("wurfeltod")
    ('decathlon', 'wurfeltod')
    """
    return pool.partition(" ")[0]


def _entry(pool: str) -> registry.GameEntry | None:
    try:
        return registry.get(game_of(pool))
    except GamenightError:
        return None


def fitted_pool(pool: str) -> FittedPool | None:
    """The shipped fit of ``pool`` itself, if its game ships one."""
    entry = _entry(pool)
    return None if entry is None else shipped(entry.package).get(pool)


def ladder(pool: str) -> dict[str, Rating]:
    """The fixed ratings (``bot:NAME``) of the bots of ``pool``'s game that may sit in
    rated rooms (those with a declared ``BotInfo.rating``): the pool's shipped fit, else
    the game's default pool's, else the declared number with sigma :data:`BOT_SIGMA`."""
    entry = _entry(pool)
    if entry is None:
        return {}
    fits = shipped(entry.package)
    fit = fits.get(pool) or fits.get(entry.id)
    found = {} if fit is None else fit.bots
    out = {}
    for name, info in entry.bot_infos.items():
        if info.rating is None:
            continue
        got = found.get(name)
        out[f"bot:{name}"] = (
            Rating(info.rating, BOT_SIGMA) if got is None else Rating(got.mu, got.sigma)
        )
    return out
