"""Bots on the server: the process's worker pool and one-time builds (:class:`BotPool`),
and each room's bots (:class:`BotSeats`): the agents of its bot seats and takeovers, the
stand-ins for bots that cannot be built yet, and the one task that lets them move.

Bots never block the event loop: a decision runs in the worker pool (bots are
deterministic from ``derive(seed, "bot", seat)`` and only see views and the events
their seat may see).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar, TypeVarTuple

from gamenight.core import registry, seeds
from gamenight.core.agents import Decision, RandomAgent, Waiting
from gamenight.core.errors import BuildNeededError, StaleActionError, first_line
from gamenight.core.frames import Step
from gamenight.server import metrics
from gamenight.server.config import Config
from gamenight.server.faults import RoomError, log_fault
from gamenight.server.lifecycle import Lifecycle
from gamenight.server.roomface import RoomFace, Shared

NOT_BUILT_HERE = "not built on this server"  # a build refused by --no-table-build
BOT_RETRY = (0.25, 5.0)  # a bot whose move failed tries again after this, doubling, up to
_Args = TypeVarTuple("_Args")
_R = TypeVar("_R")
log = logging.getLogger("gamenight.server")


class BotServices(Shared, Protocol):
    """The process's shared services, its bots included (``room.Services``)."""

    @property
    def bots(self) -> BotPool: ...


class BotRoom(RoomFace, Protocol):
    """A room as its bots see it (``room.Room``)."""

    @property
    def bots(self) -> BotSeats: ...
    @property
    def services(self) -> BotServices: ...


@dataclass
class Build:
    """A game's one-time build (the solution its best bot needs), run once per process."""

    game: str
    target: str = ""  # what the game's preparation builds ("": its default)
    state: str = "building"  # building | ready | failed
    done: int = 0
    total: int = 0
    error: str = ""
    task: asyncio.Task[None] | None = None


class BotPool:
    """The process's worker threads (bots, hints, odds) and its one-time builds."""

    def __init__(self, config: Config, rooms: Callable[[], Iterable[BotRoom]]) -> None:
        self.config = config
        self.rooms = rooms  # every room held (a build's progress is shown in them)
        self.pool = ThreadPoolExecutor(max_workers=config.bot_workers, thread_name_prefix="bot")
        # (game id, target) -> its one-time build (bots need it); target "": the default
        self.builds: dict[tuple[str, str], Build] = {}

    async def run(self, fn: Callable[[*_Args], _R], *args: *_Args) -> _R:
        """``fn(*args)`` in a worker thread: the event loop goes on meanwhile."""
        return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)

    def stop(self) -> None:
        for build in self.builds.values():
            if build.task is not None:
                build.task.cancel()
        self.pool.shutdown(wait=False, cancel_futures=True)

    def advisor(self, entry: registry.GameEntry) -> registry.Advisor | None:
        """The game's ``advise(view, seat, legal)``, or None if it has none (or it fails
        to import)."""
        try:
            return entry.advisor
        except Exception as exc:
            log.warning("advisor of %s unavailable: %s", entry.id, exc)
            return None

    def odds_function(self, entry: registry.GameEntry) -> registry.OddsFunction | None:
        """The game's ``odds(view) -> Odds | None``, or None if it has none (or it fails to
        import)."""
        try:
            return entry.odds
        except Exception as exc:
            log.warning("odds of %s unavailable: %s", entry.id, exc)
            return None

    def build(self, entry: registry.GameEntry, target: str = "") -> Build:
        """The one-time build of ``entry``'s solution (``target``: what of it, as an
        agent's :class:`~gamenight.core.agents.Waiting` names it), started once per
        process (a worker process runs it: the event loop goes on)."""
        build = self.builds.get((entry.id, target))
        if build is None:
            build = self.builds[(entry.id, target)] = Build(entry.id, target)
            if self.config.build_tables:
                build.task = asyncio.create_task(self._run_build(build))
            else:
                build.state, build.error = "failed", NOT_BUILT_HERE
        return build

    def build_command(self, game: str, target: str = "") -> list[str]:
        """The worker process of a build (``gamenight.server.build``)."""
        return [sys.executable, "-m", "gamenight.server.build", game, *([target] if target else [])]

    async def _run_build(self, build: Build) -> None:
        log.warning("building the solution of %s in the background", build.game)
        shown = -1.0
        proc: asyncio.subprocess.Process | None = None
        metrics.BUILDS.inc()
        try:
            command = (
                self.build_command(build.game, build.target)
                if build.target
                else self.build_command(build.game)
            )
            proc = await asyncio.create_subprocess_exec(*command, stdout=asyncio.subprocess.PIPE)
            assert proc.stdout is not None
            async for raw in proc.stdout:
                kind, _, rest = raw.decode("utf-8", "replace").strip().partition(" ")
                if kind == "progress":
                    with contextlib.suppress(ValueError):
                        done, total = (int(x) for x in rest.split())
                        build.done, build.total = done, total
                elif kind == "error":
                    build.error = rest[:200]
                now = time.monotonic()
                if now - shown >= 0.5:  # at most two room updates a second
                    shown = now
                    self._show_build(build)
            code = await proc.wait()
        except asyncio.CancelledError:  # the server stops: so does its build
            if proc is not None and proc.returncode is None:
                proc.kill()
            raise
        except Exception as exc:
            code, build.error = -1, first_line(exc)
        finally:
            metrics.BUILDS.dec()
        build.state = "ready" if code == 0 else "failed"
        metrics.BUILDS_DONE.labels(build.state).inc()
        if code != 0 and not build.error:
            build.error = f"the build process exited with status {code}"
        if build.state == "ready":
            log.warning("the solution of %s is built", build.game)
        else:
            log.error("the build of %s failed: %s", build.game, build.error)
        self._show_build(build)
        if build.state == "ready":
            for room in list(self.rooms()):
                if room.entry.id == build.game and room.bots.fallback:
                    room.bots.kick(room)

    def _show_build(self, build: Build) -> None:
        """Every room waiting for ``build`` says how it is going."""
        for room in list(self.rooms()):
            bots = room.bots
            if room.entry.id != build.game:
                continue
            waiting = [(s, w.playing) for s, w in bots.waiting.items() if w.target == build.target]
            if build.target == "" and bots.fallback:
                waiting.insert(0, next(iter(bots.fallback.items())))
            if not waiting:
                continue
            seat, playing = waiting[0]
            note = (
                "" if build.state == "ready" else build_note(build, bots.name(room, seat), playing)
            )
            if note != bots.build_note:
                bots.build_note = note
                room.show()


class BotSeats:
    """One room's bots: an agent per seat a bot plays (its own or a takeover), the
    stand-ins playing for bots not available yet, and the one task that moves them."""

    def __init__(self) -> None:
        self.agents: dict[int, Any] = {}  # seat -> bot (bot seats, takeovers)
        self.fallback: dict[int, str] = {}  # seat -> the stand-in bot playing
        self.waiting: dict[int, Waiting] = {}  # seat -> what its bot waits for (Waiting)
        self.build_note = ""  # how the build a bot of this room waits for is going
        self.notes: list[str] = []
        self.task: asyncio.Task[None] | None = None

    def plays(self, room: BotRoom, seat: int) -> bool:
        return room.seats[seat].kind == "bot" or seat in room.takeover

    def name(self, room: BotRoom, seat: int) -> str:
        """The bot meant to play ``seat`` (a human's seat: the room's takeover bot)."""
        s = room.seats[seat]
        return s.bot if s.kind == "bot" else room.default_bot()

    def observe(self, step: Step) -> None:
        """Each bot sees the events its seat may see (``Step.events_for``)."""
        for seat, agent in self.agents.items():
            _observe(agent, seat, step.events_for(seat))

    def stand_in(self, seat: int) -> str:
        """The bot playing ``seat`` until its own bot's solution is built ("": none)."""
        waiting = self.waiting.get(seat)
        return self.fallback.get(seat) or (waiting.playing if waiting else "")

    def forget(self, seat: int) -> None:
        """A human took ``seat`` back: its bot goes."""
        self.agents.pop(seat, None)
        self.fallback.pop(seat, None)
        self.waiting.pop(seat, None)

    def cancel(self) -> None:
        if self.task is not None:
            self.task.cancel()

    def kick(self, room: BotRoom) -> None:
        """Let the bots of ``room`` act if one is to act (one bot task per room)."""
        if room.status is not Lifecycle.PLAYING or room.table is None:
            return
        if self.task is not None and not self.task.done():
            return
        if any(self.plays(room, s) for s in room.table.to_act()):
            self.task = asyncio.create_task(self._run(room))

    async def _run(self, room: BotRoom) -> None:
        """The room's bots move while one is to act. A move that fails (the database is
        down, the disk is full...) changed nothing: the bots catch up with the database
        and try again, waiting longer each time (``BOT_RETRY``), until the room goes on."""
        failures = 0
        while room.status is Lifecycle.PLAYING and room.table is not None:
            try:
                if failures:
                    await room.catch_up_locked()
                    if room.status is not Lifecycle.PLAYING or room.table is None:
                        return
                seats = [s for s in room.table.to_act() if self.plays(room, s)]
                if not seats:
                    return
                if room.room_options.bot_pace:
                    await asyncio.sleep(room.room_options.bot_pace)
                await self.move(room, seats[0], "bot")
                if failures:
                    log.warning("bots of room %s go on after %d failures", room.code, failures)
                    failures = 0
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                failures += 1
                wait = min(BOT_RETRY[0] * 2 ** (failures - 1), BOT_RETRY[1])
                if failures == 1:
                    log_fault(f"bots of room {room.code}", exc, "; retrying")
                await asyncio.sleep(wait)

    async def move(self, room: BotRoom, seat: int, by: str) -> None:
        """``seat``'s bot acts once (``by``: "bot", or "clock" for the turn clock)."""
        table = room.table
        if table is None:
            return
        position = table.position(seat)
        if not position.legal:
            return
        agent = self.agent(room, seat)
        decision = Decision(room.entry.id, seat, position.view, position.legal)
        metrics.BOTS_THINKING.inc()
        try:
            action = await room.services.bots.run(agent.act, decision)
        finally:
            metrics.BOTS_THINKING.dec()
        self._note_waiting(room, seat, getattr(agent, "waiting", None))
        with contextlib.suppress(StaleActionError, RoomError):
            await room.apply(seat, action, position.seq, by)

    def _note_waiting(self, room: BotRoom, seat: int, waiting: Waiting | None) -> None:
        """A bot playing a simpler method until its game's preparation for ``waiting``
        is built (:class:`~gamenight.core.agents.Waiting`): the build starts in the
        background (once per process) and the room says so; a bot that stops waiting
        (the build is done) clears that."""
        if waiting == self.waiting.get(seat) or not isinstance(waiting, Waiting | None):
            return
        if waiting is None:
            self.waiting.pop(seat)
            if not self.waiting and not self.fallback:
                self.build_note = ""
            room.show()
            return
        if room.entry.game.info.preparation is None:
            return
        self.waiting[seat] = waiting
        build = room.services.bots.build(room.entry, waiting.target)
        self.build_note = build_note(build, self.name(room, seat), waiting.playing)
        room.show()

    def agent(self, room: BotRoom, seat: int) -> Any:
        agent = self.agents.get(seat)
        build = room.services.bots.builds.get((room.entry.id, ""))
        retry = seat in self.fallback and build is not None and build.state == "ready"
        if agent is not None and not retry:
            return agent
        name = self.name(room, seat)
        seed = seeds.derive(room.seed, "bot", seat)
        try:
            agent = room.entry.make_bot(name, seed)
            if hasattr(agent, "may_wait"):  # the seat shows its stand-in (core.agents.Ready)
                agent.may_wait = True
            if self.fallback.pop(seat, None) is not None:  # the real bot plays from now on
                room.show()
        except Exception as exc:
            agent = self._stand_in(room, seat, name, seed, exc)
        if room.table is not None:  # a bot made mid-game sees what its seat saw so far
            _observe(agent, seat, [s.event for s in room.table.events_since(seat, -1)])
        self.agents[seat] = agent
        return agent

    def _stand_in(self, room: BotRoom, seat: int, name: str, seed: int, exc: Exception) -> Any:
        """A bot that could not be built (its game's solution is not built yet...) is
        played by another; the seat says which (``SeatInfo.stand_in``)."""
        agent: Any = None
        # the game's own bots first (the random bot is a baseline, not an opponent)
        for other in [*(b.name for b in room.entry.game.info.bots), "random"]:
            if other != name:
                with contextlib.suppress(Exception):
                    agent, playing = room.entry.make_bot(other, seed), other
                    break
        if agent is None:
            agent, playing = RandomAgent(seed), "random"
        self.fallback[seat] = playing
        if isinstance(exc, BuildNeededError) and room.entry.game.info.preparation is not None:
            build = room.services.bots.build(room.entry)
            self.build_note = build_note(build, name, playing)
        else:
            log.warning("bot %s of room %s failed: %s", name, room.code, first_line(exc))
            note = f"The {name} bot is unavailable; the {playing} bot plays its seat."
            if note not in self.notes:
                self.notes.append(note)
        room.show()
        return agent


def _observe(agent: Any, seat: int, events: tuple[Any, ...] | list[Any]) -> None:
    """Events ``seat`` may see (already filtered by the table) to its bot."""
    if events:
        with contextlib.suppress(Exception):
            agent.observe(seat, list(events))


def build_note(build: Build, bot: str, playing: str) -> str:
    """What a room says while its ``bot`` waits for ``build``; ``playing`` stands in."""
    if build.state == "failed" and build.error == NOT_BUILT_HERE:
        return (
            f"The {bot} bot's solution is not built on this server; "
            f"the {playing} bot plays instead."
        )
    if build.state == "failed":
        return (
            f"The {bot} bot cannot play: its solution could not be built ({build.error}); "
            f"the {playing} bot plays instead."
        )
    if build.state == "ready":
        return ""
    done = f" ({100 * build.done // build.total}% done)" if build.total else ""
    return (
        f"The {bot} bot's solution is being built in the background{done}; "
        f"the {playing} bot plays until it is ready."
    )
