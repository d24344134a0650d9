"""Where the games of a series or a tournament are played: here, on a process pool, on Ray.

A :class:`Job` names one game completely (game, line-up, options, series seed,
game index), and :func:`play_game` is a pure function of it, so every backend
gives the same :class:`GameRow` for the same job; only the order in which rows
arrive and their ``seconds`` differ.

* ``jobs=1``: played in this process, one after another.
* ``jobs=N`` (local): a pool of N worker processes. Each worker builds every
  bot of the run once when it starts (solver tables, compiled kernels), ignores
  Ctrl-C (the parent handles it) and reports its peak resident memory.
* ``backend="ray"``: the same work on Ray actors (one per CPU of the cluster,
  or ``jobs``), started with ``ray.init(address)``.

Ctrl-C in the parent stops the workers and returns the rows finished so far,
marked partial. While games run, Ctrl-C only raises a flag that the loop reads
between results (:class:`_StopFlag`): a KeyboardInterrupt let loose inside the
pool's own bookkeeping could leave it unable to shut down.

>>> row = play_game(Job("wurfeltod", ("greedy", "random"), {}, 7, 0, 0))
>>> row == play_game(Job("wurfeltod", ("greedy", "random"), {}, 7, 0, 0)).timed(row.seconds)
True
"""

from __future__ import annotations

import contextlib
import multiprocessing
import resource
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, overload

from gamenight.core.errors import GamenightError, OptionsError
from gamenight.core.options import Options
from gamenight.core.registry import get as get_entry
from gamenight.core.runner import play_match
from gamenight.core.seeds import derive
from gamenight.sim.design import entrant_at, seat_orders, seated

# At most this many games per task: big enough to hide the pipe, small enough
# for a smooth progress bar and a prompt stop.
MAX_CHUNK = 64


class SimulationError(GamenightError):
    """A worker failed or went over its memory bound."""


@dataclass(frozen=True)
class Job:
    """One game: ``index`` picks the dice (``derive(seed, "game", index)``); ``key`` is
    the caller's id for the row (the position in its list); ``bots`` are in seat order,
    the line-up in seat order number ``rotation`` (:func:`.design.seat_orders`)."""

    game: str
    bots: tuple[str, ...]
    options: Options
    seed: int
    index: int
    key: int
    rotation: int = 0


@dataclass(frozen=True)
class GameRow:
    """The result of one game. Everything but ``seconds`` is the same on every backend."""

    key: int
    index: int
    seed: int  # the game's dice seed
    bots: tuple[str, ...]
    scores: tuple[float, ...]
    ranks: tuple[int, ...]
    winners: tuple[int, ...]
    seconds: float
    # the seat order (gamenight.sim.design.seat_orders): seat s holds entrant
    # seat_orders(K)[rotation][s] of the line-up ((s + rotation) mod K for the first K)
    rotation: int = 0

    @property
    def lineup(self) -> tuple[str, ...]:
        """The line-up in its own order (the seats put back by the seat order).

        >>> GameRow(0, 0, 0, ("b", "c", "a"), (0.0,) * 3, (1,) * 3, (0,), 0.0, 1).lineup
        ('a', 'b', 'c')
        >>> GameRow(0, 0, 0, ("a", "c", "b"), (0.0,) * 3, (1,) * 3, (0,), 0.0, 3).lineup
        ('a', 'b', 'c')
        """
        k = len(self.bots)
        out = [""] * k
        for s, bot in enumerate(self.bots):
            out[self.entrant(s)] = bot
        return tuple(out)

    def entrant(self, seat: int) -> int:
        """The line-up position of the bot at ``seat`` (:func:`.design.entrant_at`)."""
        return entrant_at(len(self.bots), self.rotation, seat)

    def share(self, seat: int) -> float:
        """Seat's win share: 1/k for a k-way shared win, else 0."""
        return 1 / len(self.winners) if seat in self.winners else 0.0

    def timed(self, seconds: float) -> GameRow:
        """The same row with another duration (to compare rows across backends)."""
        return replace(self, seconds=seconds)

    def outcome(self) -> tuple[object, ...]:
        """Everything but the duration."""
        return (self.key, self.index, self.seed, self.bots, self.scores, self.ranks, self.winners,
                self.rotation)  # fmt: skip


def game_seed(series_seed: int, index: int) -> int:
    """The dice seed of game ``index`` of a series."""
    return derive(series_seed, "game", index)


def play_game(job: Job) -> GameRow:
    """Play one game of ``job``: a pure function of the job (but for ``seconds``)."""
    entry = get_entry(job.game)
    dice = game_seed(job.seed, job.index)
    started = time.perf_counter()
    agents = [entry.make_bot(b, derive(dice, "bot", s)) for s, b in enumerate(job.bots)]
    results, _ = play_match(entry.game, agents, seed=dice, options=job.options)
    return GameRow(
        job.key,
        job.index,
        dice,
        job.bots,
        tuple(float(x) for x in results.scores),
        tuple(int(r) for r in results.ranks),
        tuple(int(w) for w in results.winners),
        time.perf_counter() - started,
        job.rotation,
    )


def warm_up(game: str, bots: Sequence[str]) -> None:
    """Build each bot once so that its tables and compiled kernels are loaded."""
    entry = get_entry(game)
    for name in dict.fromkeys(bots):
        entry.make_bot(name, 0)


def peak_rss_mb() -> float:
    """This process's peak resident memory in MB (Linux reports KiB)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1024 if sys.platform != "darwin" else peak / 2**20


@dataclass
class Outcome:
    rows: list[GameRow]
    partial: bool
    jobs: int
    worker_peak_mb: list[float]


def chunk_size(total: int, workers: int) -> int:
    """About eight tasks per worker, at most :data:`MAX_CHUNK` games each.

    >>> chunk_size(10, 2), chunk_size(1_000_000, 2)
    (1, 64)
    """
    return max(1, min(MAX_CHUNK, total // (workers * 8)))


def chunked(work: Sequence[Job], workers: int) -> Iterator[list[Job]]:
    """The work in chunks of :func:`chunk_size`, built lazily (a million-game series
    never holds a million jobs)."""
    size = chunk_size(len(work), workers)
    for start in range(0, len(work), size):
        yield [work[i] for i in range(start, min(start + size, len(work)))]


class Series(Sequence[Job]):
    """The jobs of a series, made on demand. With ``rotate`` (K seats) the games come in
    blocks on one deal, one per seat order of :func:`.design.seat_orders` (K! orders up
    to 4 seats, a balanced Latin square beyond): game i plays the dice of deal
    i // B (B orders) in seat order i mod B, so every deal is played once in every seat
    order (a paired comparison of the seats). Without it, game i plays deal i in the
    line-up's own order."""

    def __init__(self, game: str, bots: tuple[str, ...], options: Options, seed: int,
                 games: int, rotate: bool = True) -> None:  # fmt: skip
        self.game, self.bots, self.options, self.seed, self.games = game, bots, options, seed, games
        self.turns = len(seat_orders(len(bots))) if rotate and bots else 1

    def __len__(self) -> int:
        return self.games

    @overload
    def __getitem__(self, i: int) -> Job: ...

    @overload
    def __getitem__(self, i: slice) -> list[Job]: ...

    def __getitem__(self, i: int | slice) -> Job | list[Job]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self.games))]
        if not -self.games <= i < self.games:
            raise IndexError(i)
        i %= self.games
        deal, turn = divmod(i, self.turns)
        bots = seated(self.bots, turn)
        return Job(self.game, bots, self.options, self.seed, deal, i, turn)


def run_jobs(
    work: Sequence[Job],
    *,
    jobs: int,
    backend: str = "local",
    address: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    worker_memory_mb: float | None = None,
) -> Outcome:
    """Play every job; rows come back in completion order (sort by ``key``)."""
    if backend not in ("local", "ray"):
        raise OptionsError("--backend: choose local or ray, not {backend}", backend=repr(backend))
    total = len(work)
    rows: list[GameRow] = []
    peaks: dict[int, float] = {}

    def take(batch: list[GameRow], worker: int, peak: float) -> None:
        rows.extend(batch)
        peaks[worker] = max(peaks.get(worker, 0.0), peak)
        if worker_memory_mb is not None and peak > worker_memory_mb:
            raise SimulationError(
                f"a worker used {peak:.0f} MB, over the {worker_memory_mb:.0f} MB bound"
            )
        if progress is not None:
            progress(len(rows), total)

    workers = max(1, min(jobs, total))
    partial = False
    try:
        with _StopFlag() as stop:
            if backend == "ray":
                workers = _run_ray(work, jobs, address, take, stop)
            elif workers == 1:
                for job in work:
                    stop.check()
                    take([play_game(job)], 0, peak_rss_mb())
            else:
                # here first: a bot that cannot be made (its table is not built) says so
                # in one line, not in every worker; its tables are shared copy-on-write
                warm_up(work[0].game, _bots_of(work))
                _run_pool(work, workers, take, stop)
    except KeyboardInterrupt:
        partial = True
    return Outcome(rows, partial, workers, [peaks[w] for w in sorted(peaks)])


STOPPED_BY: list[int] = []  # the signal that stopped the last run early (CLI's footer)


def stopped_by() -> int | None:
    """The signal (SIGINT or SIGTERM) that stopped the last run early, if one did."""
    return STOPPED_BY[-1] if STOPPED_BY else None


class _StopFlag:
    """Ctrl-C (or SIGTERM: ``kill``, a service manager) as a flag, read at safe points
    (:meth:`check`), for as long as the block runs: either stops the run with the
    games finished so far.

    Outside the main thread signals can't be caught, and the flag then never rises.

    >>> import os
    >>> with _StopFlag() as stop:
    ...     stop.check()  # nothing asked: no error
    ...     os.kill(os.getpid(), signal.SIGINT)  # Ctrl-C: no KeyboardInterrupt here
    ...     time.sleep(0.01)  # (the handler runs between bytecodes)
    >>> stop.raised
    True
    """

    # How often a waiting loop looks at the flag: short enough for a prompt stop.
    POLL = 0.1

    def __init__(self) -> None:
        self.raised = False
        self._old: Any = None
        self._old_term: Any = None

    def __enter__(self) -> _StopFlag:
        import threading

        STOPPED_BY.clear()
        if threading.current_thread() is threading.main_thread():
            self._old = signal.signal(signal.SIGINT, self._raise)
            self._old_term = signal.signal(signal.SIGTERM, self._raise)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)
            signal.signal(signal.SIGTERM, self._old_term)

    def _raise(self, signum: int, frame: object) -> None:
        self.raised = True
        STOPPED_BY[:] = [signum]

    def check(self) -> None:
        if self.raised:
            raise KeyboardInterrupt


# --- local process pool ---------------------------------------------------------------


# Forked with these blocked (:func:`_forking_blocked`), a worker unblocks them once its
# own handlers are set. Otherwise a SIGTERM from Pool.terminate landing between the fork
# and this initializer ran the parent's handler (_StopFlag: a flag, no exit) in the
# worker, which then waited for work forever, and Pool.terminate for it (a CI hang).
_STOPPING = {signal.SIGINT, signal.SIGTERM}


def _pool_init(game: str, bots: Sequence[str]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops us
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # and ends us so (Pool.terminate)
    if hasattr(signal, "pthread_sigmask"):  # a SIGTERM already pending ends us here
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPPING)
    warm_up(game, bots)


@contextlib.contextmanager
def _forking_blocked() -> Iterator[None]:
    """SIGINT and SIGTERM held back in this thread (and the pool's threads and workers it
    starts) while the pool is made; the parent takes any that came once it is made.

    >>> with _forking_blocked():
    ...     pass
    """
    if not hasattr(signal, "pthread_sigmask"):  # no fork there (spawn): no window
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPPING)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _pool_task(chunk: list[Job]) -> tuple[list[GameRow], int, float]:
    import os

    return [play_game(job) for job in chunk], os.getpid(), peak_rss_mb()


def _run_pool(
    work: Sequence[Job],
    workers: int,
    take: Callable[[list[GameRow], int, float], None],
    stop: _StopFlag,
) -> None:
    """At most a few chunks per worker in flight, so jobs are made as they are needed."""
    import queue

    method = "fork" if sys.platform.startswith("linux") else "spawn"
    ctx = multiprocessing.get_context(method)
    bots = _bots_of(work)
    with _forking_blocked():
        pool = ctx.Pool(workers, initializer=_pool_init, initargs=(work[0].game, bots))
    done: queue.SimpleQueue[tuple[list[GameRow], int, float] | BaseException] = queue.SimpleQueue()
    chunks = chunked(work, workers)
    in_flight = 0
    try:
        for _ in range(workers * 3):
            chunk = next(chunks, None)
            if chunk is None:
                break
            pool.apply_async(_pool_task, (chunk,), callback=done.put, error_callback=done.put)
            in_flight += 1
        while in_flight:
            stop.check()
            try:
                result = done.get(timeout=stop.POLL)
            except queue.Empty:
                continue
            in_flight -= 1
            if isinstance(result, BaseException):
                raise result
            take(*result)
            chunk = next(chunks, None)
            if chunk is not None:
                pool.apply_async(_pool_task, (chunk,), callback=done.put, error_callback=done.put)
                in_flight += 1
        pool.close()
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


def _bots_of(work: Sequence[Job]) -> list[str]:
    """Every bot of the run (each worker builds each once)."""
    if isinstance(work, Series):
        return sorted(set(work.bots))
    return sorted({b for job in work for b in job.bots})


# --- Ray ---------------------------------------------------------------------------------


def _run_ray(
    work: Sequence[Job],
    jobs: int | None,
    address: str | None,
    take: Callable[[list[GameRow], int, float], None],
    stop: _StopFlag,
) -> int:
    from gamenight.core.extras import load

    ray: Any = load("ray", "--backend ray", "ray")  # optional extra; typed loosely on purpose
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        workers = max(1, min(jobs or cpus, cpus, len(work)))
        actor_class = ray.remote(num_cpus=1)(_RayWorker)
        bots = _bots_of(work)
        actors = [actor_class.remote(work[0].game, bots) for _ in range(workers)]
        chunks = chunked(work, workers)
        running: dict[Any, int] = {}
        for n, actor in enumerate(actors):
            chunk = next(chunks, None)
            if chunk is not None:
                running[actor.play.remote(chunk)] = n
        try:
            while running:
                stop.check()
                done, _ = ray.wait(list(running), num_returns=1, timeout=stop.POLL)
                if not done:
                    continue
                n = running.pop(done[0])
                batch, peak = ray.get(done[0])
                take(batch, n, peak)
                chunk = next(chunks, None)
                if chunk is not None:
                    running[actors[n].play.remote(chunk)] = n
        finally:
            for ref in running:
                ray.cancel(ref, force=True)
            for actor in actors:
                ray.kill(actor)
        return workers
    finally:
        if started_here:
            ray.shutdown()


class _RayWorker:
    """A Ray actor: warms the bots up once, then plays chunks of jobs."""

    def __init__(self, game: str, bots: Sequence[str]) -> None:
        warm_up(game, bots)

    def play(self, chunk: list[Job]) -> tuple[list[GameRow], float]:
        return [play_game(job) for job in chunk], peak_rss_mb()
