"""Soak of one server process on SQLite under churn (issue 38, item 6): does its memory
stay flat while finished rooms are replaced by new ones?

``--rooms`` rooms are kept live: each is a game between two bots (``bot:random``, a
readable ``--pace`` between bot steps), and each finished room is replaced by a new one,
so the server sees a steady stream of rooms beginning and finishing. Each room is polled
over HTTP (``GET /api/rooms/<code>``) round robin; the server's RSS (``VmRSS``) is read
every 5 s. After ``--warmup`` seconds (the first rooms fill memory once), the run
measures ``--seconds`` and reports RSS at the start and end of the measured part, the
growth, the rooms finished meanwhile, and the growth per finished room.

``--old DIR`` runs the same soak, alternately, against another checkout (its ``src``
first on ``PYTHONPATH``; ``git archive <commit> | tar -x -C DIR``), each side on its
own fresh database, so both are measured on the same machine in the same run.

    .venv/bin/python bench/soak_rooms.py --old /tmp/base --rooms 500 --seconds 150

Bounded: each side stops by itself after ``--warmup + --seconds``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from gamenight.server.testing import ProcessServer

NEW = Path(__file__).resolve().parent.parent


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def soak(base: str, pid: int, args: argparse.Namespace) -> dict[str, Any]:
    body = {
        "game": args.game,
        "seats": ["bot:random", "bot:random"],
        "room": {"bot_pace": args.pace},
    }
    limits = httpx.Limits(max_connections=16)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client:

        async def new_room() -> str:
            answer = await client.post("/api/rooms", json=body)
            answer.raise_for_status()
            code: str = answer.json()["code"]
            return code

        rooms = [await new_room() for _ in range(args.rooms)]
        began = time.monotonic()
        finished = measured_finished = 0
        samples: list[tuple[float, float]] = []
        last_sample = -1e9
        measuring_from: float | None = None
        position = 0
        while time.monotonic() - began < args.warmup + args.seconds:
            batch = [(position + i) % len(rooms) for i in range(16)]
            position = (position + 16) % len(rooms)
            answers = await asyncio.gather(*(client.get(f"/api/rooms/{rooms[i]}") for i in batch))
            for i, answer in zip(batch, answers, strict=True):
                if answer.status_code == 200 and answer.json()["status"] == "finished":
                    rooms[i] = await new_room()
                    finished += 1
                    if measuring_from is not None:
                        measured_finished += 1
            now = time.monotonic()
            if measuring_from is None and now - began >= args.warmup:
                measuring_from = now
            if now - last_sample >= 5:
                last_sample = now
                samples.append((now - began, rss_mib(pid)))
        samples.append((time.monotonic() - began, rss_mib(pid)))
    at_start = min(samples, key=lambda s: abs(s[0] - args.warmup))[1]
    at_end = samples[-1][1]
    return {
        "rss_start": at_start,
        "rss_end": at_end,
        "growth": at_end - at_start,
        "finished": measured_finished,
        "finished_total": finished,
        "per_room_kib": 1024 * (at_end - at_start) / max(measured_finished, 1),
        "samples": samples,
    }


def run_side(source: Path, args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONPATH": str(source / "src")}
        server = ProcessServer(f"sqlite:///{tmp}/soak.sqlite3", env=env).start()
        try:
            assert server.proc is not None
            return asyncio.run(soak(server.url, server.proc.pid, args))
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=150)
    parser.add_argument("--warmup", type=float, default=45)
    parser.add_argument("--pace", type=float, default=0.3, help="seconds between bot steps")
    parser.add_argument("--game", default="dice-duel")
    parser.add_argument("--old", type=Path, help="another checkout, measured alternately")
    args = parser.parse_args()
    sides = [("this checkout", NEW)] + ([("old", args.old)] if args.old else [])
    for name, source in sides:
        result = run_side(source, args)
        trail = " ".join(f"{t:.0f}s:{r:.0f}" for t, r in result["samples"][::6])
        print(
            f"{name:14s} RSS {result['rss_start']:.0f} -> {result['rss_end']:.0f} MiB "
            f"({result['growth']:+.0f} MiB) over {args.seconds:.0f} s, "
            f"{result['finished']} rooms finished ({result['finished_total']} in all), "
            f"{result['per_room_kib']:.0f} KiB per finished room\n    RSS trail (MiB): {trail}",
            flush=True,
        )


if __name__ == "__main__":
    main()
