"""The compiled kernel is generated from kernel_source's template (issue 29): the
committed file must be its output, and compiling must leave numba's settings alone."""

from __future__ import annotations

import os
from typing import Any

import numba
import numpy as np
import pytest

from gamenight.games.wurfeltod.solver import kernel, kernel_source
from gamenight.games.wurfeltod.solver.build import structure_args
from gamenight.games.wurfeltod.solver.structure import turn_structure


def test_committed_kernel_is_the_templates_output() -> None:
    committed = kernel_source.KERNEL_PATH.read_text(encoding="utf-8")
    assert committed == kernel_source.render(), (
        "kernel.py is stale: run python -m gamenight.games.wurfeltod.solver.kernel_source"
    )


def test_every_lane_line_is_written_once_per_lane() -> None:
    two, three = kernel_source.render(2), kernel_source.render(3)
    lane_lines = sum(kernel_source.TOKEN in line for line in kernel_source.TEMPLATE.splitlines())
    assert lane_lines >= 20
    assert len(three.splitlines()) - len(two.splitlines()) == lane_lines
    assert kernel_source.TOKEN not in three and "{lanes}" not in three
    assert "LANES = 3\n" in three and "m2 = max(m2, best[n, 2])\n" in three and "m3" not in three


def test_compiling_turns_slp_on_only_for_the_kernels_and_then_freezes_them() -> None:
    config: Any = numba.config
    default = int(os.environ.get("NUMBA_SLP_VECTORIZE", "0"))
    structure = structure_args(turn_structure())
    kernel.ready(structure)
    column = np.full(kernel.N_COLUMNS, kernel.CLOSED)
    column[0] = 100.0
    values = kernel.turn_values(column, structure)
    assert default == config.SLP_VECTORIZE
    assert values.shape == (len(structure[2]) - 1,) and values[0] >= 100.0 - 1e-9  # a scratch
    entries: tuple[Any, ...] = (kernel._solve_states, kernel._turn)
    for entry in entries:
        assert len(entry.signatures) == 1 and entry._can_compile is False
    # Another argument type would need a build without SLP: refused, never compiled.
    box_value, *buffers = kernel.scratch(structure)
    with pytest.raises(TypeError):
        kernel._turn(box_value.astype(np.float32), *buffers, *structure)
    assert len(entries[1].signatures) == 1
