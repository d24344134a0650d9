"""How long a game review takes (issue 42): a full two-player Decathlon (win table
cached) and a Wurfeltod game (value table built), each in a fresh process.

Each game is played by bots on a fixed seed and saved as a record; then a fresh
process times, for each record, the first review (loading the cached tables and
solving the Decathlon's events included), then the same review again (warm), and a
plain replay of the record (what the base commit can do with it: ``--replay-only``,
run with the base's ``src`` first on ``PYTHONPATH``, pairs the two).

    .venv/bin/python bench/review_speed.py [--games 5] [--base ../base/src]

The tables must be built first: ``gamenight solve decathlon --two-player-win`` and
``gamenight solve wurfeltod``.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GAMES: tuple[tuple[str, list[str], dict[str, str]], ...] = (
    ("decathlon", ["winner", "greedy"], {}),
    ("wurfeltod", ["optimal", "greedy"], {}),
)


def make_records(folder: Path, games: int) -> list[tuple[str, Path]]:
    from gamenight.core import registry
    from gamenight.core.record import RecordWriter
    from gamenight.core.runner import play_match

    made = []
    for game_id, bots, raw in GAMES:
        entry = registry.get(game_id)
        for i in range(games):
            stream = io.StringIO()
            play_match(
                entry.game,
                [entry.make_bot(b, j) for j, b in enumerate(bots)],
                seed=1000 + i,
                options=entry.game.parse_options(raw),
                record=RecordWriter(stream),
                names=bots,
            )
            path = folder / f"{game_id}-{i}.jsonl"
            path.write_text(stream.getvalue())
            made.append((game_id, path))
    return made


def measure(paths: list[str], replay_only: bool) -> list[dict[str, float]]:
    """In this process: per record, the first review, a second (warm), a plain replay."""
    from gamenight.core.record import read_record, replay

    out = []
    for path in paths:
        row: dict[str, float] = {}
        record = read_record(Path(path))
        tick = time.perf_counter()
        replay(record)  # first, cold: the same work on the base commit
        row["replay"] = time.perf_counter() - tick
        if not replay_only:
            from gamenight.core.review import review

            tick = time.perf_counter()
            found = review(record, build=False)
            row["first"] = time.perf_counter() - tick
            tick = time.perf_counter()
            review(record, build=False)
            row["warm"] = time.perf_counter() - tick
            row["decisions"] = len(found.decisions)
        out.append(row)
    return out


def child(paths: list[str], replay_only: bool, pythonpath: str | None) -> list[dict[str, float]]:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    code = (
        "import json, sys; sys.path.insert(0, 'bench'); import review_speed as r; "
        f"print(json.dumps(r.measure({paths!r}, {replay_only!r})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    result: list[dict[str, float]] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--base", default=None, help="the base commit's src folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        records = make_records(Path(folder), args.games)
        print("| game | records | decisions | replay (fresh process) | replay, base | "
              "first review after it | review again (warm) |")  # fmt: skip
        print("|---|---:|---:|---:|---:|---:|---:|")
        for game_id, _bots, _raw in GAMES:
            paths = [str(p) for g, p in records if g == game_id]
            if not paths:
                continue
            rows = [child([p], False, None)[0] for p in paths]  # a fresh process each
            base = [child([p], True, args.base)[0] for p in paths] if args.base else []

            def ms(values: list[float]) -> str:
                return f"{1000 * statistics.median(values):.0f} ms (max {1000 * max(values):.0f})"

            decisions = statistics.median(r["decisions"] for r in rows)
            print(
                f"| {game_id} | {len(paths)} | {decisions:.0f} "
                f"| {ms([r['replay'] for r in rows])} "
                f"| {ms([r['replay'] for r in base]) if base else '–'} "
                f"| {ms([r['first'] for r in rows])} | {ms([r['warm'] for r in rows])} |"
            )


if __name__ == "__main__":
    main()
