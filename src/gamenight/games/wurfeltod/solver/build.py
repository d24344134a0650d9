"""Solve solitaire Wurfeltod exactly: the value of every set of used boxes.

``values[s]`` is the expected score of the rest of the game (points minus 250
per Wurfeltod, W5) from the start of a turn in state ``s`` under optimal play.
States are solved from the end backwards, one count of used boxes at a time,
since booking always uses one more box (W1); states with the same count are
independent and are spread over the CPU cores.

Progress is reported through a :data:`gamenight.core.solver.Progress` callback
``(done, total)`` in states; front ends draw it (the terminal as a bar).
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

import numpy as np
import numpy.typing as npt

from gamenight.core.solver import Progress
from gamenight.core.threads import usable_cores
from gamenight.games.wurfeltod.categories import CATEGORIES, Category
from gamenight.games.wurfeltod.solver import kernel
from gamenight.games.wurfeltod.solver.boxes import FULL_GAME, BoxSet
from gamenight.games.wurfeltod.solver.structure import turn_structure
from gamenight.games.wurfeltod.solver.table import (
    UNSAVED,
    ValueTable,
    ValueTableError,
    default_table_path,
    load_table,
    prepare_table_dir,
    write_table,
)

__all__ = [
    "build_table",
    "column_bits",
    "level_chunks",
    "solve_values",
    "states_by_used_count",
]

CHUNK = 2048  # states per compiled call: a smooth progress bar, the cores kept busy


def level_chunks(states: int, threads: int) -> int:
    """How many chunks a level of ``states`` states is split into: at most ``CHUNK``
    states each, a multiple of ``threads`` in number, so that equal shares end
    together (a lone last chunk would leave the other cores idle at every level).

    >>> level_chunks(136136, 2), level_chunks(19, 2), level_chunks(1, 2)
    (68, 2, 1)
    """
    chunks = -(-states // CHUNK)
    return min(states, -(-chunks // threads) * threads)


def column_bits(boxes: BoxSet) -> npt.NDArray[np.int64]:
    """For each category column, its bit in the state mask; -1 if it has no single box."""
    bits = np.full(len(CATEGORIES), -1, dtype=np.int64)
    for i, category in enumerate(boxes.singles):
        bits[CATEGORIES.index(category)] = i
    return bits


def states_by_used_count(boxes: BoxSet) -> list[npt.NDArray[np.int64]]:
    """``result[u]`` lists the states with ``u`` used boxes, in increasing order."""
    n = len(boxes.singles)
    masks = np.arange(1 << n, dtype=np.int64)
    popcount = np.zeros(1 << n, dtype=np.int64)
    for bit in range(n):
        popcount += (masks >> bit) & 1
    levels = []
    for used in range(boxes.turns + 1):
        parts = [
            (face << n) | masks[popcount == used - face]
            for face in range(boxes.face_value_boxes + 1)
            if 0 <= used - face <= n
        ]
        levels.append(np.sort(np.concatenate(parts)))
    return levels


def solve_values(
    boxes: BoxSet = FULL_GAME, *, progress: Progress | None = None, threads: int | None = None
) -> npt.NDArray[np.float64]:
    """The value of every state of ``boxes`` (see :mod:`.boxes` for the numbering).

    The full game takes seconds on two cores; ``progress(done, total)`` is called
    with the states solved so far, once before the first and after every chunk.
    ``threads`` defaults to one per usable core (:func:`~gamenight.core.threads.usable_cores`).
    """
    if Category.FACE_VALUE in boxes.singles:  # pragma: no cover - BoxSet refuses it
        raise ValueError("Face Value Total cannot be a single box")
    threads = max(1, threads or usable_cores())
    values = np.zeros(boxes.state_count, dtype=np.float64)
    levels = states_by_used_count(boxes)
    to_solve = sum(len(levels[u]) for u in range(boxes.turns))
    bits = column_bits(boxes)
    with ThreadPoolExecutor(threads) as pool:
        # LLVM compiles without the GIL: the kernel is compiled in the pool while Python
        # builds the turn's structure (each about 0.1 s), once, before any chunk is solved.
        compiled = pool.submit(kernel.ready)
        structure = turn_structure()
        compiled.result()

        def solve(chunk: npt.NDArray[np.int64]) -> int:
            kernel.solve_states(
                chunk, values, len(boxes.singles), boxes.face_value_boxes, bits, structure
            )
            return len(chunk)

        done = 0
        if progress is not None:
            progress(done, to_solve)
        for used in range(boxes.turns - 1, -1, -1):
            states = levels[used]  # depend only on the level solved before
            chunks = np.array_split(states, level_chunks(len(states), threads))
            for solved in as_completed([pool.submit(solve, chunk) for chunk in chunks]):
                done += solved.result()
                if progress is not None:
                    progress(done, to_solve)
    return values


def build_table(
    path: str | os.PathLike[str] | None = None,
    *,
    force: bool = False,
    progress: Progress | None = None,
) -> Path:
    """Solve the full game and save its value table; returns the table's path.

    ``path`` defaults to :func:`~.table.default_table_path`. A valid table
    already there is kept unless ``force``; a corrupt or stale one is rebuilt.
    ``progress(done, total)`` follows the solve. A folder known to be unwritable is
    refused before solving; a table that still cannot be written after the solve (a
    read-only or full disk) is kept in memory for this process (:data:`~.table.UNSAVED`,
    which :func:`~.table.read_table` consults first): a solve is never thrown away.
    """
    target = Path(path) if path is not None else default_table_path()
    if not force:
        try:
            if load_table(target, boxes=FULL_GAME) is not None:
                return target
        except ValueTableError:
            pass  # unusable: rebuild below
    prepare_table_dir(target)  # fail now, not after the solve
    started = time.perf_counter()
    values = solve_values(FULL_GAME, progress=progress)
    info = {
        "build_seconds": round(time.perf_counter() - started, 2),
        "expected_score": float(values[0]),
    }
    table = ValueTable(FULL_GAME, values, info=info)
    try:
        written = write_table(table, target)
    except ValueTableError as exc:  # e.g. a read-only cache: keep the solve for this run
        UNSAVED[target] = (table, str(exc))
        return target
    UNSAVED.pop(target, None)
    return written
