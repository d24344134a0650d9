"""Regret against the optimum (issue 28): how far a policy plays below the best play.

Each game lists its yardsticks of one-seat play (``GameInfo.benchmarks``: a
:class:`~gamenight.core.solver.Benchmark` each), so a policy's mean score can be set
against one, with an interval, and not only against another bot; this module names no
game. gamenight's own games offer:

=====================  ===================================================  ==========
benchmark              the environment                                       yardstick
=====================  ===================================================  ==========
``decathlon:<event>``  ``gamenight/Decathlon-v0`` with ``events=<event>``   exact EV
``decathlon``          all ten events                                       exact EV
``wurfeltod``          ``gamenight/Wurfeltod-v0``                            exact EV
``dice-duel-solo``     ``gamenight/DiceDuelSolo-v0``                        turn-optimal
=====================  ===================================================  ==========

*Exact EV* is the solver's expected score of optimal play (the Decathlon: the sum of
the events' EVs, for they are scored apart; Wurfeltod: the solved value table, cached
as ``gamenight solve wurfeltod`` leaves it). The gap's interval is the mean's (the EV
is exact). A benchmark without a solved optimum names a bot instead (Dice Duel solo:
``bot:turn-optimal``, best chip this turn), played on the **same seeds**, so its gap
and interval are those of the paired differences, and a negative gap means the policy
beats it.

A policy is any callable ``policy(observation, mask) -> index`` over the environment's
encoding (``docs/rl.md``). Episodes are drawn from ``derive(seed, "evaluate", i)`` and
played through :class:`~gamenight.envs.episode.Episode` with ``redraw=False``: a game
over at the start counts as it fell (the yardstick's expectation includes it).

>>> from gamenight.envs.evaluate import evaluate
>>> first = lambda obs, mask: int(mask.nonzero()[0][0])
>>> r = evaluate(first, "decathlon:100m", episodes=200)
>>> round(r.optimum, 4), r.yardstick, r.gap > 0, r.gap_low < r.gap < r.gap_high
(23.9975, 'exact EV', True, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from gamenight.core import registry
from gamenight.core.agents import Agent
from gamenight.core.dice import SeededDice
from gamenight.core.errors import GamenightError, OptionsError
from gamenight.core.seeds import derive
from gamenight.core.solver import Benchmark
from gamenight.envs.codecs import Obs
from gamenight.envs.episode import Episode, Mask

Policy = Callable[[Obs, Mask], int]
Z95 = 1.959963984540054  # the normal 97.5 % quantile: a 95 % interval


def option_choices(game_id: str, option: str) -> tuple[str, ...]:
    """The choices of a game's option, as the game declares them (the envs name no
    game module: the Decathlon's events come from its ``events`` option).

    >>> option_choices("decathlon", "events")[:3]
    ('100m', 'long-jump', 'shot-put')
    """
    for spec in registry.get(game_id).game.info.options:
        if spec.name == option:
            return tuple(spec.choices)
    raise OptionsError("{game} has no option {option}", game=game_id, option=repr(option))


def benchmarks() -> tuple[str, ...]:
    """Every benchmark :func:`evaluate` knows: each game's (``GameInfo.benchmarks``), in
    the registry's order."""
    return tuple(_benchmarks())


def _benchmarks() -> dict[str, tuple[str, Benchmark]]:
    """Benchmark name -> (game id, benchmark), from every game that lists some."""
    found: dict[str, tuple[str, Benchmark]] = {}
    for entry in registry.available():
        path = entry.game.info.benchmarks
        for item in registry.listed(path) if path is not None else ():
            benchmark = registry.made(item, Benchmark, path or "")
            found[benchmark.name] = (entry.id, benchmark)
    return found


class PolicyError(GamenightError, ValueError):
    """The policy chose an index its mask forbids."""


@dataclass(frozen=True)
class Regret:
    """A policy's mean score against a yardstick, over ``episodes`` seeded episodes."""

    benchmark: str
    episodes: int
    mean: float
    se: float  # standard error of the mean
    optimum: float  # the yardstick's expected score (turn-optimal: its mean on the seeds)
    yardstick: str  # "exact EV" or "turn-optimal (same seeds)"
    gap: float  # optimum - mean
    gap_low: float  # 95 % interval of the gap
    gap_high: float
    # exact=True: the mean summed loss of the policy's decisions per episode, in the
    # game's review measure (gamenight.core.review: the players' review's definition);
    # for the solitaire yardsticks it estimates the gap with no dice noise in it
    loss: float | None = None
    loss_se: float | None = None

    @property
    def share(self) -> float:
        """The mean as a share of the optimum (1.0 = as good)."""
        return self.mean / self.optimum

    def line(self) -> str:
        """One line for a report."""
        return (
            f"{self.benchmark}: mean {self.mean:.3f} ± {Z95 * self.se:.3f} over "
            f"{self.episodes:,} episodes; {self.yardstick} {self.optimum:.3f}; gap "
            f"{self.gap:.3f} [{self.gap_low:.3f}, {self.gap_high:.3f}] "
            f"({100 * self.share:.1f} % of it)"
        )


def evaluate(
    policy: Policy,
    benchmark: str,
    *,
    episodes: int = 1_000,
    seed: int = 0,
    optimum: float | None = None,
    exact: bool = False,
) -> Regret:
    """``policy``'s mean score on ``benchmark`` (one of :func:`benchmarks`) and its gap to
    the yardstick with a 95 % interval. ``optimum`` replaces the exact EV (default: the
    game's solver capability, which loads the cached Wurfeltod table or builds it, as
    ``gamenight solve`` does). ``exact``: also review every episode's decisions
    (:func:`decision_loss`) and report their mean summed loss."""
    known = _benchmarks()
    if benchmark not in known:
        raise OptionsError(
            "no benchmark {benchmark}; choose one of {benchmarks}",
            benchmark=repr(benchmark),
            benchmarks=", ".join(known),
        )
    if not isinstance(episodes, int) or episodes < 2:
        raise OptionsError(
            "episodes must be a whole number of at least 2, not {episodes}", episodes=repr(episodes)
        )
    game_id, bench = known[benchmark]
    seeds = [derive(seed, "evaluate", i) for i in range(episodes)]
    session = Episode(game_id, 1, bench.options, redraw=False)  # one: its mask cache is kept
    losses: list[float] = []
    scores = np.array([_play(session, s, policy, losses if exact else None) for s in seeds])
    mean, se = _mean_se(scores)
    loss, loss_se = _mean_se(losses) if exact else (None, None)
    if bench.bot is not None:
        bot = registry.get(game_id).make_bot(bench.bot, seed)
        reference = np.array([_play_bot(session, s, bot) for s in seeds])
        diff_mean, diff_se = _mean_se(reference - scores)
        return Regret(
            benchmark, episodes, mean, se, float(reference.mean()), bench.yardstick, diff_mean,
            diff_mean - Z95 * diff_se, diff_mean + Z95 * diff_se, loss, loss_se,
        )  # fmt: skip
    if optimum is None:
        assert bench.optimum is not None  # a Benchmark has an optimum or a bot
        optimum = bench.optimum()
    gap = optimum - mean
    return Regret(
        benchmark, episodes, mean, se, optimum, bench.yardstick, gap, gap - Z95 * se,
        gap + Z95 * se, loss, loss_se,
    )  # fmt: skip


def _mean_se(values: Sequence[float] | np.ndarray) -> tuple[float, float]:
    data = np.asarray(values, dtype=np.float64)
    return float(data.mean()), float(data.std(ddof=1) / math.sqrt(len(data)))


def _play(session: Episode, seed: int, policy: Policy, losses: list[float] | None = None) -> float:
    session.reset(seed)
    while not session.finished:
        obs, mask, _ = session.step_view(0)
        index = int(policy(obs, mask))
        if not (0 <= index < len(mask) and mask[index]):
            raise PolicyError(f"the policy chose index {index}, which the mask forbids")
        session.play(0, index)
    if losses is not None:
        losses.append(decision_loss(session))
    return float(session.results().scores[0])


def decision_loss(session: Episode, seat: int = 0) -> float:
    """The summed exact loss of ``seat``'s decisions in the episode just played, in the
    first measure of the game's review (expected final score for the Decathlon and
    Wurfeltod, the turn's expected chip for Dice Duel): :mod:`gamenight.core.review`,
    the same code that tells players what their decisions cost."""
    from gamenight.core.review import review_steps
    from gamenight.core.table import Table

    table = Table.start(
        session.game, session.players, session.options, SeededDice(seed=session.game_seed)
    )
    steps = [table.opening]
    table.listen(steps.append)
    for who, action in session.moves:
        table.submit(who, action)
    names = [f"agent {i + 1}" for i in range(session.players)]
    found = review_steps(session.game, session.options, steps, names, build=True)
    return float(found.players[seat].loss[0])


def _play_bot(session: Episode, seed: int, bot: Agent) -> float:
    session.reset(seed)
    session.seat_agents({0: bot})  # the table's path: its decisions, its events
    while not session.finished:
        session.agent_plays(0)
    return float(session.results().scores[0])
