"""A game's one-time build in a worker process: ``python -m gamenight.server.build GAME``.

A bot that needs its game's solution built first (it raised
:class:`~gamenight.core.errors.BuildNeededError`) gets it from here: the server runs
this module, which calls the game's :class:`~gamenight.core.solver.Solver` (the
game's own ``GameInfo.solver``; the server names no game) and reports on stdout, one
line each, ``progress DONE TOTAL`` (at most once per percent) and, if it fails,
``error MESSAGE`` (one line). The exit status is 0 once the solution is built.
"""

from __future__ import annotations

import sys

from gamenight.core import registry
from gamenight.core.errors import GamenightError, first_line


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("error usage: python -m gamenight.server.build GAME", flush=True)
        return 2
    try:
        solver = registry.get(argv[0]).solver
    except GamenightError as exc:
        print(f"error {first_line(exc)}", flush=True)
        return 2
    if solver is None:
        print(f"error {argv[0]} has nothing to build", flush=True)
        return 2
    shown = -1

    def report(done: int, total: int) -> None:
        nonlocal shown
        percent = 100 * done // total if total else 0
        if percent != shown:
            shown = percent
            print(f"progress {done} {total}", flush=True)

    try:
        solver.solve({}, progress=report)
    except GamenightError as exc:
        print(f"error {first_line(exc)}", flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
