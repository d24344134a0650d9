"""A game's one-time preparation in a worker process: ``python -m gamenight.server.build GAME``.

A game that needs something prepared before a capability works (Wurfeltod's value
table for its ``optimal`` bot: it raises :class:`~gamenight.core.errors.BuildNeededError`
until then; the Decathlon's two-player win table for ``winner``, which plays
``winner-points`` meanwhile and says what it waits for as a
:class:`~gamenight.core.agents.Waiting`) declares it as ``GameInfo.preparation``:
``"module:attribute"`` of a function ``prepare(progress: (done, total) -> None) -> None``
that raises on failure. ``python -m gamenight.server.build GAME TARGET`` calls
``prepare(progress, TARGET)`` instead: the part the waiting agent named.
The server runs this module for any game that declares one (the server names no
game); it reports on stdout, one line each, ``progress DONE TOTAL`` (at most once per
percent) and, if it fails, ``error MESSAGE`` (one line). The exit status is 0 once the
game is prepared, 1 if preparing failed, 2 for a game with nothing to prepare.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import cast

from gamenight.core import registry
from gamenight.core.errors import GamenightError, first_line

Prepare = Callable[[Callable[[int, int], None]], None]  # what GameInfo.preparation names


def main(argv: list[str]) -> int:
    if len(argv) not in (1, 2):
        print("error usage: python -m gamenight.server.build GAME [TARGET]", flush=True)
        return 2
    try:
        entry = registry.get(argv[0])
        named = entry.game.info.preparation
        if named is None:
            print(f"error {entry.name} has nothing to prepare", flush=True)
            return 2
        prepare = cast(Prepare, registry.load_callable(named))  # contract-tested signature
    except GamenightError as exc:
        print(f"error {first_line(exc)}", flush=True)
        return 2
    shown = -1

    def report(done: int, total: int) -> None:
        nonlocal shown
        percent = 100 * done // total if total else 0
        if percent != shown:
            shown = percent
            print(f"progress {done} {total}", flush=True)

    try:
        if len(argv) == 2:
            # a preparation may take a target (GameInfo.preparation)
            prepare(report, argv[1])  # type: ignore[call-arg]
        else:
            prepare(report)
    except Exception as exc:  # any failure is one line for the server (its log, the room)
        print(f"error {first_line(exc)}", flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
