"""Table throughput: random games through the table, with every seat's frame made per action.

This is the per-action work a server does for a room with a socket per seat and a
spectator: validate and apply the action, then give each viewer its events, the
action as it may see it and its position (view, legal actions, who acts). Since
issue 22 that is ``Table.prepare``/``commit`` with a listener taking
``step.frame(viewer)``; before it the server took ``table.snapshot(viewer)`` and
filtered the events itself. Run against an older checkout (``PYTHONPATH=old/src``)
the script takes that older path, so the two can be paired in one run.

    .venv/bin/python bench/table_throughput.py [--seconds 3]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from gamenight.core import registry
from gamenight.core.dice import SeededDice
from gamenight.core.table import Table

CONFIGS: tuple[tuple[str, int], ...] = (
    ("decathlon", 1),
    ("decathlon", 8),
    ("dice-duel", 2),
    ("wurfeltod", 4),
    ("decades", 2),
)
NEW_PATH = hasattr(Table, "position")


def play(game: Any, players: int, seed: int) -> int:
    """One random game with every viewer's frame made after each action; the actions."""
    rng = random.Random(seed)
    table: Any = Table.start(game, players, game.parse_options(), SeededDice(seed=seed))
    viewers: list[int | None] = [*range(players), None]
    sent: list[Any] = []
    if NEW_PATH:
        table.listen(lambda step: sent.extend(step.frame(v) for v in viewers))
        position = table.position
    else:
        position = table.snapshot
    while not table.finished:
        seat = table.to_act()[0]
        action = rng.choice(position(seat).legal)
        if NEW_PATH:
            table.submit(seat, action)
        else:
            events = table.submit(seat, action)
            for viewer in viewers:
                mine = [e for e in events if e.visible_to(viewer)]
                shown = action if viewer == seat else game.public_action(table.state, seat, action)
                sent.append((mine, shown, table.snapshot(viewer)))
        sent.clear()
    return int(table.seq)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    print(f"path: {'steps and frames' if NEW_PATH else 'snapshots (before issue 22)'}")
    print("| game | players | games | actions/s |")
    print("|---|---:|---:|---:|")
    for game_id, players in CONFIGS:
        game = registry.get(game_id).game
        play(game, players, 0)  # warm-up
        games = actions = 0
        began = time.perf_counter()
        while time.perf_counter() - began < args.seconds:
            actions += play(game, players, games)
            games += 1
        rate = actions / (time.perf_counter() - began)
        print(f"| {game_id} | {players} | {games} | {rate:,.0f} |")


if __name__ == "__main__":
    main()
