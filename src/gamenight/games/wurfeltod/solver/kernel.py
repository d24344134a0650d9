"""The compiled turn DP of the Wurfeltod solver: :mod:`.kernel_ir`, compiled by LLVM.

The IR is compiled for this machine's CPU on first use in a process (about 0.1 s,
so nothing is cached on disk) and called through ctypes, which releases the GIL:
the builder runs one call per core from plain Python threads. Both entries take
the turn's structure (:class:`~.structure.TurnStructure`) and check every array's
type and the states' range first, so the compiled code only reads and writes
inside the arrays it is given.

A last turn with only Face Value Total open (points: ten times the dice, W3) is
worth ten times the best expected total of six dice with up to six rolls:

>>> from gamenight.games.wurfeltod.solver.kernel_ir import FACE
>>> from gamenight.games.wurfeltod.solver.structure import turn_structure
>>> column_value = np.full(N_COLUMNS, CLOSED)
>>> column_value[FACE] = 0.0  # nothing after the booking
>>> round(float(turn_values(column_value, turn_structure())[0]), 6)
301.519767
"""

from __future__ import annotations

import ctypes
import threading
import weakref
from typing import Any

import numpy as np
import numpy.typing as npt

from gamenight.games.wurfeltod.solver import kernel_ir
from gamenight.games.wurfeltod.solver.kernel_ir import CLOSED, LANES, N_COLUMNS
from gamenight.games.wurfeltod.solver.structure import TurnStructure

__all__ = ["CLOSED", "LANES", "N_COLUMNS", "ready", "solve_states", "turn_values"]

Array = npt.NDArray[Any]
LINE = 64  # bytes in a cache line

_lock = threading.Lock()
_entries: dict[str, Any] = {}  # function name -> ctypes function; "engine" keeps the code alive
_checked: weakref.WeakSet[TurnStructure] = weakref.WeakSet()


def _compile() -> dict[str, Any]:
    """JIT-compile :func:`.kernel_ir.module` for the host CPU; the functions by name."""
    import llvmlite.binding as llvm  # only a solve or a query needs LLVM

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    try:
        features = llvm.get_host_cpu_features().flatten()
    except RuntimeError:  # not every platform reports them: the CPU name alone
        features = ""
    target = llvm.Target.from_triple(llvm.get_process_triple())
    machine = target.create_target_machine(
        cpu=llvm.get_host_cpu_name(), features=features, opt=3, jit=True
    )
    module = llvm.parse_assembly(str(kernel_ir.module()))
    module.verify()
    passes = llvm.create_pass_builder(machine, llvm.create_pipeline_tuning_options(speed_level=3))
    passes.getModulePassManager().run(module, passes)
    engine = llvm.create_mcjit_compiler(module, machine)
    engine.finalize_object()

    def entry(name: str, params: tuple[str, ...]) -> Any:
        kinds = [ctypes.c_int64 if p in kernel_ir.COUNTS else ctypes.c_void_p for p in params]
        return ctypes.CFUNCTYPE(None, *kinds)(engine.get_function_address(name))

    return {
        "engine": engine,
        kernel_ir.TURN: entry(kernel_ir.TURN, kernel_ir.TURN_PARAMS),
        kernel_ir.SOLVE: entry(kernel_ir.SOLVE, kernel_ir.SOLVE_PARAMS),
    }


def _entry(name: str) -> Any:
    if not _entries:
        with _lock:
            if not _entries:
                _entries.update(_compile())
    return _entries[name]


def _pointer(array: Array, dtype: type, what: str) -> int:
    if array.dtype != dtype or not array.flags.c_contiguous:
        raise TypeError(f"{what} must be a C-contiguous {np.dtype(dtype).name} array")
    return int(array.ctypes.data)


def _rows(count: int) -> Array:
    """``(count, LANES)`` float64, each row on a cache line of its own (numpy only
    promises 16-byte alignment; a row across two lines made the solve 20% slower)."""
    size = count * LANES
    raw = np.empty(size + LINE // 8)
    skip = (-raw.ctypes.data % LINE) // 8
    return raw[skip : skip + size].reshape(count, LANES)


def _check(structure: TurnStructure) -> None:
    """Every index the kernel follows stays inside the array it indexes (once per
    structure object): the compiled code trusts them."""
    if structure in _checked:
        return
    s = structure
    n_pairs, n_asides = int(s.level_start[-1]), len(s.aside_pair_start) - 1
    n_final, n_class = len(s.final_face_points), len(s.class_final)

    def csr(start: Array, flat: Array, rows: int, bound: int) -> bool:
        return (
            len(start) == rows + 1
            and int(start[0]) == 0
            and bool(np.all(np.diff(start.astype(np.int64)) >= 0))
            and int(start[-1]) == len(flat)
            and (len(flat) == 0 or int(flat.max()) < bound)
        )

    levels = s.aside_level_start.astype(np.int64)
    last = kernel_ir.LAST_LEVEL
    fine = (
        len(s.level_start) == len(levels) == last + 2
        and levels[0] == 0
        and bool(np.all(np.diff(levels) >= 0))
        and levels[-1] == n_asides
        and csr(s.aside_pair_start, s.pair_class, n_asides, n_class)
        and len(s.pair_class) == len(s.pair_probability) == n_pairs
        and int(s.aside_pair_start[levels[last]]) == int(s.level_start[last])
        and csr(s.class_start, s.class_column, n_class, N_COLUMNS)
        and len(s.class_points) == len(s.class_column)
        and int(s.class_final.max()) < n_final
        and csr(s.final_start, s.final_column, n_final, N_COLUMNS)
        and len(s.final_points) == len(s.final_column)
        and csr(s.succ_start, s.succ_pair, int(s.level_start[-2]), n_pairs)
    )
    if not fine:
        raise ValueError("the turn structure's indices are inconsistent")
    _checked.add(structure)


def _structure(structure: TurnStructure) -> tuple[list[Array], list[int]]:
    """The scratch arrays of one call (each thread its own) and the argument tail
    both entries share: scratch, structure pointers, their two lengths."""
    _check(structure)
    scratch = [
        _rows(N_COLUMNS),  # box_value
        _rows(len(structure.final_face_points)),  # book_final
        _rows(len(structure.class_final)),  # book_class
        _rows(int(structure.level_start[-1])),  # best, one row per pair
        _rows(len(structure.aside_pair_start) - 1),  # aside_value
    ]
    pointers = [_pointer(a, np.float64, "a scratch array") for a in scratch]
    for name in kernel_ir.STRUCTURE:
        dtype = np.float64 if name in kernel_ir.FLOATS else np.uint32
        pointers.append(_pointer(getattr(structure, name), dtype, f"structure.{name}"))
    pointers += [len(structure.final_face_points), len(structure.class_final)]
    return scratch, pointers


def ready() -> None:
    """Compile the kernel now (the builder does it once, before its threads start)."""
    _entry(kernel_ir.SOLVE)


def solve_states(
    states: Array,
    values: Array,
    n_single: int,
    face_boxes: int,
    column_bit: Array,
    structure: TurnStructure,
) -> None:
    """Set ``values[s]`` for every ``s`` in ``states``; their successors must be solved.

    ``values`` holds every state of a box set with ``n_single`` single boxes (bit
    ``column_bit[c]`` of a state, -1 for none) and ``face_boxes`` Face Value Total
    boxes (the count above those bits). All states must have the same number of
    used boxes, so they depend only on states with one more; they are solved
    ``LANES`` at a time.
    """
    if len(values) != (face_boxes + 1) << n_single:
        raise ValueError("values must hold one value per state of the box set")
    if len(column_bit) != N_COLUMNS or not all(-1 <= b < n_single for b in column_bit.tolist()):
        raise ValueError(f"column_bit must give each of the {N_COLUMNS} columns a bit or -1")
    if len(states) and (int(states.min()) < 0 or int(states.max()) >= len(values)):
        raise ValueError("a state is out of range")
    _scratch, tail = _structure(structure)  # the scratch arrays must outlive the call
    head = [
        _pointer(states, np.int64, "states"),
        len(states),
        _pointer(values, np.float64, "values"),
        n_single,
        face_boxes,
        _pointer(column_bit, np.int64, "column_bit"),
    ]
    _entry(kernel_ir.SOLVE)(*head, *tail)


def turn_values(column_value: Array, structure: TurnStructure) -> Array:
    """The value of rolling with each aside (by aside id) in one state, from
    ``column_value[c]``, the value after booking column ``c`` (``CLOSED`` if none);
    entry 0, nothing aside, is the value of the whole turn."""
    scratch, tail = _structure(structure)
    box_value, aside_value = scratch[0], scratch[-1]
    box_value[:] = np.asarray(column_value, dtype=np.float64).reshape(N_COLUMNS, 1)
    _entry(kernel_ir.TURN)(*tail)
    return aside_value[:, 0].copy()
