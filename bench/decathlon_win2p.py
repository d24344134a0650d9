"""Two-player Decathlon played to win (issue 27): build cost, self-play, head to head.

    python bench/decathlon_win2p.py build [--events E,...]       # cold build: CPU, wall, peak
    python bench/decathlon_win2p.py selfplay --events E --games N
    python bench/decathlon_win2p.py h2h --events E --games N --opponent winner-points
    python bench/decathlon_win2p.py speed --events E --games N   # decision times, cached load

Self-play: ``winner`` against ``winner``; the first mover of the first event wins with
the table's start value ``W[0][0]`` (ties a half), checked within 4 standard errors.
Head to head: every seed is played twice with the seats swapped (the same dice in both
orders); the new ``winner``'s share of the wins with a 95% interval from the per-seed
pair means (the two games of a seed are not independent). Set GAMENIGHT_CACHE_DIR to
keep the tables apart from the user cache.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import resource
import statistics
import time
from typing import Any

from gamenight.core.runner import play_match
from gamenight.games.decathlon import bots
from gamenight.games.decathlon.game import GAME
from gamenight.games.decathlon.solver import win2p_store

DECATHLON = ",".join(win2p_store.DECATHLON)


def _events(spec: str) -> tuple[str, ...]:
    options = GAME.parse_options({"events": spec})
    return tuple(options["events"])


class _FirstOrder(bots.WinnerAgent):
    """``winner`` that remembers the first event's order."""

    first: tuple[int, ...] | None = None

    def act(self, decision: Any) -> Any:
        if _FirstOrder.first is None:
            _FirstOrder.first = decision.view.order
        return super().act(decision)


def _share(scores: list[float], seat: int) -> float:
    mine, other = scores[seat], scores[1 - seat]
    return 1.0 if mine > other else 0.5 if mine == other else 0.0


def _selfplay_game(args: tuple[str, int]) -> float:
    spec, seed = args
    options = GAME.parse_options({"events": spec})
    _FirstOrder.first = None
    results, _ = play_match(
        GAME, [_FirstOrder(seed), _FirstOrder(seed + 1)], seed=seed, options=options
    )
    assert _FirstOrder.first is not None
    return _share(list(results.scores), _FirstOrder.first[0])


def _pair(args: tuple[str, str, int]) -> float:
    spec, opponent, seed = args
    options = GAME.parse_options({"events": spec})
    total = 0.0
    for new_seat in (0, 1):
        agents: list[Any] = [None, None]
        agents[new_seat] = bots.WinnerAgent(seed)
        agents[1 - new_seat] = bots.BOTS[opponent](seed)
        results, _ = play_match(GAME, agents, seed=seed, options=options)
        total += _share(list(results.scores), new_seat)
    return total / 2


def _pool(jobs: int) -> Any:
    return multiprocessing.get_context("fork").Pool(jobs)


def selfplay(spec: str, games: int, jobs: int) -> None:
    table = win2p_store.table_for(_events(spec), build=True)
    assert table is not None
    started, cpu = time.perf_counter(), time.process_time()
    with _pool(jobs) as pool:
        shares = pool.map(_selfplay_game, [(spec, s) for s in range(games)], chunksize=50)
    mean = statistics.fmean(shares)
    se = statistics.stdev(shares) / math.sqrt(games)
    z = (mean - table.start_value()) / se
    print(
        f"selfplay {spec}: {games} games, first mover wins {mean:.4f} ± {se:.4f} (SE); "
        f"table {table.start_value():.4f}; z = {z:+.2f}; "
        f"{time.perf_counter() - started:.0f} s wall, parent CPU {time.process_time() - cpu:.0f} s"
    )


def h2h(spec: str, games: int, opponent: str, jobs: int) -> None:
    win2p_store.table_for(_events(spec), build=True)
    seeds = games // 2
    started = time.perf_counter()
    pairs: list[float] = []
    with _pool(jobs) as pool:
        work = [(spec, opponent, 10_000 + s) for s in range(seeds)]
        for share in pool.imap(_pair, work, chunksize=10):
            pairs.append(share)
            if len(pairs) % 1000 == 0 and len(pairs) < seeds:  # a long run reports as it goes
                se = statistics.stdev(pairs) / math.sqrt(len(pairs))
                print(f"  {2 * len(pairs)} games: {statistics.fmean(pairs):.4f} ± {se:.4f}",
                      flush=True)  # fmt: skip
    mean = statistics.fmean(pairs)
    se = statistics.stdev(pairs) / math.sqrt(seeds)
    low, high = mean - 1.96 * se, mean + 1.96 * se
    print(
        f"h2h {spec}: winner vs {opponent}, {2 * seeds} games ({seeds} seeds x both orders): "
        f"winner's share {mean:.4f}, 95% [{low:.4f}, {high:.4f}]; "
        f"{time.perf_counter() - started:.0f} s wall"
    )


def build(spec: str) -> None:
    started, cpu = time.perf_counter(), time.process_time()
    table = win2p_store.table_for(_events(spec), build=True, rebuild=True)
    assert table is not None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"build {spec}: {time.perf_counter() - started:.1f} s wall, "
        f"{time.process_time() - cpu:.1f} s CPU, peak RSS {peak:.0f} MiB, "
        f"leads kept {table.limits[:-1]}, bound {table.bound:.1e}"
    )


def speed(spec: str, games: int) -> None:
    events = _events(spec)
    win2p_store._loaded.clear()
    started, cpu = time.perf_counter(), time.process_time()
    win2p_store.table_for(events, build=False)
    load_wall, load_cpu = time.perf_counter() - started, time.process_time() - cpu
    options = GAME.parse_options({"events": spec})
    times: list[float] = []

    class Timed(bots.WinnerAgent):
        def act(self, decision: Any) -> Any:
            t = time.process_time()
            action = super().act(decision)
            times.append(time.process_time() - t)
            return action

    warm = Timed(0)
    play_match(GAME, [warm, Timed(1)], seed=99, options=options)  # solvers warm
    times.clear()
    for seed in range(games):
        play_match(GAME, [Timed(seed), Timed(seed + 1)], seed=seed, options=options)
    times.sort()
    p = [times[int(q * (len(times) - 1))] * 1e3 for q in (0.5, 0.9, 0.99)]
    print(
        f"speed {spec}: cached load {load_wall:.2f} s wall / {load_cpu:.2f} s CPU; "
        f"{len(times)} decisions, CPU ms p50 {p[0]:.3f} p90 {p[1]:.3f} p99 {p[2]:.2f} "
        f"max {times[-1] * 1e3:.1f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=("build", "selfplay", "h2h", "speed"))
    parser.add_argument("--events", default=DECATHLON)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--opponent", default="winner-points")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    if args.mode == "build":
        build(args.events)
    elif args.mode == "selfplay":
        selfplay(args.events, args.games, args.jobs)
    elif args.mode == "h2h":
        h2h(args.events, args.games, args.opponent, args.jobs)
    else:
        speed(args.events, args.games)


if __name__ == "__main__":
    main()
