"""Two-player Decathlon played to win (issue 27): build cost, self-play, head to head.

    python bench/decathlon_win2p.py build [--events E,...]       # cold build: CPU, wall, peak
    python bench/decathlon_win2p.py selfplay --events E --games N
    python bench/decathlon_win2p.py h2h --events E --games N --opponent winner-points
    python bench/decathlon_win2p.py speed --events E --games N   # decision times, cached load
    python bench/decathlon_win2p.py cv --events E --games N --opponent winner-points
    python bench/decathlon_win2p.py exact1500 --opponent winner-points

The control variate (``cv``, :mod:`gamenight.games.decathlon.win_gaps`): each game of the
head to head also gives ``Y = 1/2 + the opponent's value gaps - winner's own (0) + the
rest after a lead beyond the bound``, unbiased for winner's share and free of the dice's
noise; both the raw share and the mean of ``Y`` are printed, with 95% intervals over the
seeds. ``exact1500`` evaluates winner against ``winner-points`` in the 1500 m alone
exactly (the first runner's points distribution under its own choices).

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
from gamenight.games.decathlon import bots, win_gaps
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


def selfplay(spec: str, games: int, jobs: int, start: int = 0) -> None:
    table = win2p_store.table_for(_events(spec), build=True)
    assert table is not None
    started, cpu = time.perf_counter(), time.process_time()
    shares: list[float] = []
    with _pool(jobs) as pool:
        work = [(spec, s) for s in range(start, start + games)]  # ``start``: extend a run
        for share in pool.imap(_selfplay_game, work, chunksize=50):
            shares.append(share)
            if len(shares) % 2000 == 0 and len(shares) < games:  # a long run reports as it goes
                se = statistics.stdev(shares) / math.sqrt(len(shares))
                print(f"  {len(shares)} games: {statistics.fmean(shares):.4f} ± {se:.4f}",
                      flush=True)  # fmt: skip
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


def _cv_pair(args: tuple[str, str, int]) -> tuple[float, float, float, int, int]:
    """One seed in both orders: (raw share, control-variate share, winner's own gaps,
    decisions valued, games stopped beyond the bound), the first two per-pair means."""
    spec, opponent, seed = args
    options = GAME.parse_options({"events": spec})
    table = win2p_store.table_for(_events(spec), build=False)
    assert table is not None
    raw = cv = own = 0.0
    decisions = stopped = 0
    for new_seat in (0, 1):
        ledger = win_gaps.Ledger(table, new_seat)
        agents: list[Any] = [None, None]
        agents[new_seat] = win_gaps.Reporting(bots.WinnerAgent(seed), ledger)
        agents[1 - new_seat] = win_gaps.Reporting(bots.BOTS[opponent](seed), ledger)
        results, _ = play_match(GAME, agents, seed=seed, options=options)
        share = _share(list(results.scores), new_seat)
        raw += share / 2
        cv += ledger.estimate(share) / 2
        own = max(own, abs(ledger.own_gaps))
        decisions += ledger.decisions
        stopped += ledger.stop_value is not None
    return raw, cv, own, decisions, stopped


def _interval(xs: list[float]) -> str:
    mean, se = statistics.fmean(xs), statistics.stdev(xs) / math.sqrt(len(xs))
    return f"{mean:.5f} ± {se:.5f} (SE), 95% [{mean - 1.96 * se:.5f}, {mean + 1.96 * se:.5f}]"


def cv(
    spec: str, games: int, opponent: str, jobs: int, start: int = 0, out: str | None = None
) -> None:
    """The head to head with the control variate, seeds ``10_000 + start`` on (the
    seeds of ``h2h`` from its pair ``start``: a run can extend another); ``out``: a
    file that gets one line per seed (seed, raw, control variate) as they come."""
    win2p_store.table_for(_events(spec), build=True)
    seeds = games // 2
    started = time.perf_counter()
    rows: list[tuple[float, float, float, int, int]] = []

    def report(final: bool) -> None:
        raws, cvs = [r[0] for r in rows], [r[1] for r in rows]
        own = max(r[2] for r in rows)
        decisions, stopped = sum(r[3] for r in rows), sum(r[4] for r in rows)
        print(
            f"{'cv' if final else '  '} {spec if final else ''} winner vs {opponent}, "
            f"{2 * len(rows)} games (pairs {start}..{start + len(rows) - 1}): "
            f"raw {_interval(raws)}; control variate {_interval(cvs)}; "
            f"largest own gap sum {own:.1e}; {decisions} decisions valued; "
            f"{stopped} games past the bound; "
            f"{time.perf_counter() - started:.0f} s wall",
            flush=True,
        )

    with _pool(jobs) as pool:
        work = [(spec, opponent, 10_000 + start + s) for s in range(seeds)]
        for row in pool.imap(_cv_pair, work, chunksize=10):
            rows.append(row)
            if out is not None:
                with open(out, "a", encoding="utf-8") as lines:
                    print(start + len(rows) - 1 + 10_000, row[0], repr(row[1]), file=lines)
            if len(rows) % 500 == 0 and len(rows) < seeds:  # a long run reports as it goes
                report(False)
    report(True)


def _objective(name: str, view: Any, table: Any) -> Any:
    """The objective ``name``'s bot plays a 1500 m runner's whole race for (its
    utility of the final result does not change during the race)."""
    from gamenight.games.decathlon import win_play

    if name == "winner":
        return win_play.segment_utility(view, table)
    return bots.BOTS[name](0).objective(view)  # type: ignore[attr-defined]


def _race_pmf(objective: Any) -> dict[int, float]:
    """The 1500 m result's distribution when every decision is the solver's best option
    under ``objective`` (the bots' own choice, tie rule included), die by die."""
    from functools import cache

    from gamenight.games.decathlon import advisor
    from gamenight.games.decathlon.disciplines import sprint_score
    from gamenight.games.decathlon.solver.races import RACES
    from gamenight.games.decathlon.solver.situations import SprintSituation

    sets = RACES["1500m"].sets

    @cache
    def pmf(i: int, r: int, total: int) -> tuple[tuple[int, float], ...]:
        if i == sets:
            return ((total, 1.0),)
        out: dict[int, float] = {}
        for die in range(1, 7):
            where = SprintSituation(i, r, (die,), total)
            best = advisor._best_option("1500m", where, objective) if r else "freeze"
            nxt = (
                pmf(i + 1, r, total + sprint_score((die,)))
                if best == "freeze"
                else pmf(i, r - 1, total)
            )
            for x, p in nxt:
                out[x] = out.get(x, 0.0) + p / 6
        return tuple(out.items())

    return dict(pmf(0, 5, 0))


def exact1500(opponent: str) -> None:
    """winner's exact expected share against ``opponent`` in the 1500 m alone, seats
    rotated (each order half the games): each runner's result distribution from its
    bot's own choices at every (set, rethrows, total, die), the second's per posted
    result."""
    import msgspec

    table = win2p_store.table_for(("1500m",), build=True)
    assert table is not None
    options = GAME.parse_options({"events": "1500m"})
    views: dict[int, Any] = {}

    class Grab(bots.WinnerAgent):
        def act(self, decision: Any) -> Any:
            view = decision.view
            views.setdefault(view.order.index(view.to_act), view)
            return super().act(decision)

    play_match(GAME, [Grab(0), Grab(1)], seed=1, options=options)
    first_view, second_view = views[0], views[1]
    shares = []
    for first_name, second_name in (("winner", opponent), (opponent, "winner")):
        first_pmf = _race_pmf(_objective(first_name, first_view, table))
        won = 0.0
        for s1, p1 in first_pmf.items():
            best = list(second_view.best)
            best[second_view.order[0]] = s1
            view = msgspec.structs.replace(second_view, best=tuple(best))
            second_pmf = _race_pmf(_objective(second_name, view, table))
            p_first = sum(p2 * (1.0 if s1 > s2 else 0.5 if s1 == s2 else 0.0)
                          for s2, p2 in second_pmf.items())  # fmt: skip
            won += p1 * p_first
        shares.append(won if first_name == "winner" else 1.0 - won)
        print(f"  {first_name} runs first, {second_name} second: winner's share {shares[-1]:.7f}")
    print(
        f"exact1500 winner vs {opponent}: winner's exact share, seats rotated "
        f"{statistics.fmean(shares):.7f} (the table's first-mover value "
        f"{table.start_value():.7f})"
    )


def build(spec: str) -> None:
    """A cold build; also each event's CPU (the build goes from the last event back,
    so the last ``j`` events' sum is what a chain of those ``j`` events costs)."""
    events = _events(spec)
    started, cpu = time.perf_counter(), time.process_time()
    marks: list[float] = []
    table = win2p_store.table_for(
        events, build=True, rebuild=True, progress=lambda d, t: marks.append(time.process_time())
    )
    assert table is not None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"build {spec}: {time.perf_counter() - started:.1f} s wall, "
        f"{time.process_time() - cpu:.1f} s CPU, peak RSS {peak:.0f} MiB, "
        f"leads kept {table.limits[:-1]}, bound {table.bound:.1e}"
    )
    if len(marks) == len(events):  # one mark per event, last event first
        before = [cpu, *marks[:-1]]
        costs = [m - b for m, b in zip(marks, before, strict=True)]
        chain = 0.0
        for event, cost in zip(reversed(events), costs, strict=True):
            chain += cost
            print(f"  {event}: {cost:.2f} s CPU; the chain from it on {chain:.2f} s")


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
    parser.add_argument("mode", choices=("build", "selfplay", "h2h", "speed", "cv", "exact1500"))
    parser.add_argument("--events", default=DECATHLON)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--opponent", default="winner-points")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--start", type=int, default=0, help="cv: the first seed pair; selfplay: seed"
    )
    parser.add_argument("--out", default=None, help="cv: a file for one line per seed")
    args = parser.parse_args()
    if args.mode == "build":
        build(args.events)
    elif args.mode == "selfplay":
        selfplay(args.events, args.games, args.jobs, args.start)
    elif args.mode == "h2h":
        h2h(args.events, args.games, args.opponent, args.jobs)
    elif args.mode == "cv":
        cv(args.events, args.games, args.opponent, args.jobs, args.start, args.out)
    elif args.mode == "exact1500":
        exact1500(args.opponent)
    else:
        speed(args.events, args.games)


if __name__ == "__main__":
    main()
