"""Exact optimal solitaire solver for Wurfeltod, its persisted value table and queries.

Build the table once (``build_table``; the CLI runs it as ``gamenight solve
wurfeltod``), load it (``load_table``), then ask what each option is worth
(``option_values``, ``best_option``) or what a new game is worth
(``expected_score``). See docs/solvers-wurfeltod.md.
"""

from gamenight.games.wurfeltod.solver.boxes import FULL_GAME, BoxSet, UsedBoxes
from gamenight.games.wurfeltod.solver.build import build_table, solve_values
from gamenight.games.wurfeltod.solver.policy import (
    Book,
    Option,
    Scratch,
    SetAside,
    best_option,
    expected_score,
    option_values,
    state_value,
)
from gamenight.games.wurfeltod.solver.table import (
    TYPICAL_BUILD_SECONDS,
    ValueTable,
    ValueTableCorruptError,
    ValueTableError,
    ValueTableMissingError,
    ValueTableStaleError,
    build_time_text,
    default_table_path,
    load_table,
    require_table,
)

__all__ = [
    "FULL_GAME",
    "TYPICAL_BUILD_SECONDS",
    "Book",
    "BoxSet",
    "Option",
    "Scratch",
    "SetAside",
    "UsedBoxes",
    "ValueTable",
    "ValueTableCorruptError",
    "ValueTableError",
    "ValueTableMissingError",
    "ValueTableStaleError",
    "best_option",
    "build_table",
    "build_time_text",
    "default_table_path",
    "expected_score",
    "load_table",
    "option_values",
    "require_table",
    "solve_values",
    "state_value",
]
