"""How much a bot knows: a noisy memory of each answer, turned into a belief (bots only).

A bot plays a person who knows each fact imperfectly. Its *memory* of a
question's year is the true year plus an error drawn from a discretised normal
distribution: ``error = floor(N(0, sd) + 0.5)``, clamped to the board. The error
is a deterministic function of (bot seed, level, question text), so a bot
remembers a question the same way every time it sees it in a game.

The true year is looked up in the deck the game is played with (``view.deck``).
This is the only place a bot touches an answer, and it is not a view leak: it
*is* the bot's knowledge, degraded by the noise. The bot then forgets the true
year and reasons only from its memory: its belief is the exact posterior
``P(year | memory)`` under a uniform prior over the 40 board years.

Levels (standard deviation of the error, in years; exact memory / memory within
3 years, before clamping):

==========  =====  =====  =====
level       sd     exact  <= 3
==========  =====  =====  =====
``novice``  6.0    7%     44%
``casual``  3.0    13%    76%
``expert``  1.5    26%    98%
==========  =====  =====  =====

>>> LEVELS["expert"] < LEVELS["novice"]
True
>>> b = belief(1995, LEVELS["expert"])
>>> round(sum(b), 9), max(range(40), key=b.__getitem__) + 1980
(1.0, 1995)
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Mapping
from functools import lru_cache
from statistics import NormalDist

from gamenight.games.decades.boards import FIRST_YEAR, LAST_YEAR, YEARS

LEVELS: Mapping[str, float] = {"novice": 6.0, "casual": 3.0, "expert": 1.5}

Belief = tuple[float, ...]  # P(year) for 1980..2019, index year - 1980


def recall(true_year: int, text: str, sd: float, salt: str) -> int:
    """The year a bot remembers for the question ``text`` (deterministic per salt)."""
    digest = hashlib.blake2b(f"{salt}|{text}".encode(), digest_size=8).digest()
    uniform = (int.from_bytes(digest, "big") + 0.5) / 2**64
    error = math.floor(NormalDist(0.0, sd).inv_cdf(uniform) + 0.5)
    return min(LAST_YEAR, max(FIRST_YEAR, true_year + error))


@lru_cache(maxsize=1024)
def belief(memory: int, sd: float) -> Belief:
    """Exact posterior over the board years given a memory (uniform prior, clamped noise)."""
    noise = NormalDist(0.0, sd)
    weights = []
    for year in YEARS:
        if memory == FIRST_YEAR:
            w = noise.cdf(memory - year + 0.5)
        elif memory == LAST_YEAR:
            w = 1.0 - noise.cdf(memory - year - 0.5)
        else:
            w = noise.cdf(memory - year + 0.5) - noise.cdf(memory - year - 0.5)
        weights.append(w)
    total = sum(weights)
    return tuple(w / total for w in weights)


UNIFORM: Belief = tuple(1.0 / len(YEARS) for _ in YEARS)
