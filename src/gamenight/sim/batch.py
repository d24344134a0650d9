"""An order-independent batch fit of a tournament: Bradley-Terry by maximum likelihood.

openskill updates its ratings game by game, so the same games in another order give
other ratings (and, between close bots, another ranking). This fit looks at all the
games at once: every pair of seats in a game is one comparison (the one finishing
ahead wins; a tie counts one half each way), and each bot's strength ``theta``
maximises the Bradley-Terry likelihood ``P(a ahead of b) = 1 / (1 + exp(theta_b -
theta_a))``. For two seats that is exactly the Bradley-Terry model of the games; for
more seats it is Plackett-Luce's full rank breaking, which estimates the same
strengths consistently, though its intervals treat a game's pairs as independent and
so are somewhat narrow.

The point estimate is choix's (``ilsr_pairwise_dense`` on the matrix of counts, which
converges to the maximum-likelihood estimate; when none exists, because a bot never
lost or never won, a small prior rate ``ALPHA`` keeps the strengths finite and the
intervals say how little is known); the 95% intervals come from the
observed Fisher information at the estimate, with the strengths' mean fixed at 0.
Strengths are reported on the Elo scale (400 / ln 10 per unit of ``theta``): a bot
100 points above another finishes ahead of it about 64% of the time.

>>> from gamenight.sim.engine import GameRow
>>> rows = [GameRow(0, i, 0, ("a", "b"), (0.0, 0.0), (1, 2) if i % 4 else (2, 1), (0,), 0.0)
...         for i in range(40)]
>>> fit = batch_fit(["a", "b"], rows)
>>> round(fit["a"].elo + fit["b"].elo, 6), round(fit["a"].p_ahead(fit["b"]), 3)
(0.0, 0.75)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gamenight.core.extras import load

if TYPE_CHECKING:
    from gamenight.sim.engine import GameRow

ELO = 400 / math.log(10)  # Elo points per unit of log-strength
ALPHA = 0.01  # choix's prior rate when no ML estimate exists (a bot that never lost)
Z95 = 1.959963984540054
MODEL = "Bradley-Terry (maximum likelihood, every pair of seats a comparison; choix)"


@dataclass(frozen=True)
class Strength:
    """A bot's fitted strength on the Elo scale (the bots' mean is 0), with its 95%
    interval and standard error."""

    elo: float
    low: float
    high: float
    se: float

    def p_ahead(self, other: Strength) -> float:
        """The fitted chance of finishing ahead of ``other``."""
        return 1 / (1 + math.exp((other.elo - self.elo) / ELO))


def comparisons(names: Sequence[str], rows: Sequence[GameRow]) -> list[list[float]]:
    """``wins[a][b]``: how often bot a finished ahead of bot b (ties count one half),
    over every pair of seats of every game; seats of one bot are not compared."""
    index = {b: i for i, b in enumerate(names)}
    wins = [[0.0] * len(names) for _ in names]
    for row in rows:
        for s, t in itertools.combinations(range(len(row.bots)), 2):
            a, b = index[row.bots[s]], index[row.bots[t]]
            if a == b:
                continue
            if row.ranks[s] == row.ranks[t]:
                wins[a][b] += 0.5
                wins[b][a] += 0.5
            elif row.ranks[s] < row.ranks[t]:
                wins[a][b] += 1
            else:
                wins[b][a] += 1
    return wins


def batch_fit(names: Sequence[str], rows: Sequence[GameRow]) -> dict[str, Strength]:
    """Every bot's Bradley-Terry strength from all of ``rows`` at once.

    The fit depends on the games only through :func:`comparisons` (counts), so it is
    the same for the games in any order.
    """
    import numpy as np

    choix = load("choix", "tournament", "sim")  # choix needs scipy

    n = len(names)
    wins = np.array(comparisons(names, rows), dtype=float)
    theta = np.zeros(n)
    if wins.any():
        # ILSR on the matrix of counts converges to the ML estimate; it exists when
        # every bot can be reached from every other through wins (else a ridge).
        alpha = 0.0 if _strongly_connected(wins > 0) else ALPHA
        theta = np.asarray(
            choix.ilsr_pairwise_dense(wins, alpha=alpha, max_iter=10_000, tol=1e-12), dtype=float
        )
    theta = theta - theta.mean()
    # Observed information of the (undoubled) log-likelihood, ridge included; the
    # pseudo-inverse gives the covariance with the mean held at 0.
    info = np.zeros((n, n))
    for a, b in itertools.combinations(range(n), 2):
        games = wins[a][b] + wins[b][a]
        p = 1 / (1 + math.exp(theta[b] - theta[a]))
        w = games * p * (1 - p)
        info[a, a] += w
        info[b, b] += w
        info[a, b] -= w
        info[b, a] -= w
    if not _strongly_connected((wins + wins.T) > 0):
        # bots never compared, directly or through others: their difference is unknown,
        # and a vanishing ridge makes its variance huge rather than zero
        info += 1e-6 * np.eye(n)
    centre = np.eye(n) - np.ones((n, n)) / n
    cov = centre @ np.linalg.pinv(info) @ centre
    fit = {}
    for i, name in enumerate(names):
        se = math.sqrt(max(0.0, float(cov[i, i]))) * ELO
        elo = float(theta[i]) * ELO
        fit[name] = Strength(elo, elo - Z95 * se, elo + Z95 * se, se)
    return fit


def _strongly_connected(beats: Any) -> bool:
    """Whether every bot reaches every other along "finished ahead of" edges."""
    import numpy as np

    n = len(beats)
    reach = np.eye(n, dtype=bool) | beats
    for _ in range(max(1, n.bit_length())):
        reach = reach | ((reach.astype(int) @ reach.astype(int)) > 0)
    return bool(reach.all())
