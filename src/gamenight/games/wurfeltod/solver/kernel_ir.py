"""The Wurfeltod turn DP as LLVM IR, written with llvmlite's IR builder.

:mod:`.kernel` compiles this module once per process (about 0.1 s) and calls it
through ctypes. Two functions are exported:

- ``wurfeltod_turn`` solves one batch of ``LANES`` states from their box values:
  after it, ``aside_value[a]`` holds, per lane, the expected value of rolling
  with aside ``a``, and ``aside_value[0]`` the value of the whole turn.
- ``wurfeltod_solve`` solves a list of states with the same number of used boxes:
  it gathers each batch's box values from ``values``, calls the turn, and writes
  each state's value back into ``values``.

Every per-state quantity is one ``<LANES x double>`` vector, so the batch's 8
states are solved by the same instructions (one AVX-512 or two AVX2 registers
per value). The arithmetic is plain IEEE (no fast-math flags, no fused
multiply-add), so the table is the same bit for bit on every machine.

Per turn (W2): after a roll with aside ``A`` and roll ``R`` the player books an
open box (W3), or sets aside ``A < A' < A + R`` and rolls the rest; after the
first roll they may also scratch. ``best[p]`` holds, for each pair ``p`` of a
level, the best aside value reachable from it (first without, then with its own
aside), so a whole level of keep choices costs one max per distinct rolled value.
See :mod:`.structure` for the index arrays.

>>> text = str(module())
>>> 'define void @"wurfeltod_turn"' in text, 'define void @"wurfeltod_solve"' in text
(True, True)
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from llvmlite import ir

from gamenight.games.wurfeltod.categories import CATEGORIES, WURFELTOD_PENALTY, Category

__all__ = [
    "CLOSED",
    "COUNTS",
    "FLOATS",
    "LANES",
    "SOLVE",
    "SOLVE_PARAMS",
    "STRUCTURE",
    "TURN",
    "TURN_PARAMS",
    "module",
]

# One AVX-512 (two AVX2) vector per value, and one 64-byte cache line per row: the
# kernel is bound by the rows it streams from L2. 8 lanes solved 5-8% faster than 16
# and 30% faster than 32, when the rows are aligned (kernel.py aligns them); 16 lanes
# on numpy's 16-byte alignment were 20-25% slower (issue 29's fifth pass). A power of
# two: LLVM pads other vector sizes and splits them badly (4-5x slower at 12 and 24).
LANES = 8
CLOSED = -1.0e18  # value of a closed box: finite, so max and sums stay ordinary
PENALTY = float(WURFELTOD_PENALTY)  # W3
N_COLUMNS = len(CATEGORIES)
FACE = CATEGORIES.index(Category.FACE_VALUE)
LAST_LEVEL = 5  # five dice aside: one die rolled, the player must book (W2)
TURN = "wurfeltod_turn"
SOLVE = "wurfeltod_solve"

# The structure arrays the turn reads (see .structure), in argument order, then
# their two lengths the loops need: the final multisets and the booking classes.
STRUCTURE = (
    "aside_level_start",
    "aside_pair_start",
    "pair_class",
    "pair_probability",
    "class_final",
    "class_start",
    "class_column",
    "class_points",
    "final_start",
    "final_column",
    "final_points",
    "final_face_points",
    "succ_start",
    "succ_pair",
)
FLOATS = frozenset({"pair_probability", "class_points", "final_points", "final_face_points"})
SCRATCH = ("box_value", "book_final", "book_class", "best", "aside_value")
GATHER = ("states", "n", "values", "n_single", "face_boxes", "column_bit")
TURN_PARAMS = (*SCRATCH, *STRUCTURE, "n_final", "n_class")
SOLVE_PARAMS = (*GATHER, *TURN_PARAMS)
COUNTS = frozenset({"n", "n_single", "face_boxes", "n_final", "n_class"})  # int64; the rest
# are pointers: the arrays of FLOATS and the scratch float64, the other arrays uint32,
# states and column_bit int64

F64 = ir.DoubleType()
I64 = ir.IntType(64)
I32 = ir.IntType(32)
PTR = ir.PointerType()
ROW = ir.VectorType(F64, LANES)  # one value per lane


class _Emitter:
    """An IR builder for one function, with the few shapes the DP needs.

    Loop counters and running values live in stack slots; LLVM's first passes
    promote them to registers, so the IR can read like the loops it replaces.
    """

    def __init__(self, function: ir.Function) -> None:
        self.function = function
        self.entry = function.append_basic_block("entry")
        self.b = ir.IRBuilder(self.entry)
        self.arg = {a.name: a for a in function.args}

    def slot(self, value: ir.Value) -> ir.AllocaInstr:
        """A variable holding ``value``, allocated in the entry block."""
        with self.b.goto_block(self.entry):
            if self.entry.instructions:
                self.b.position_before(self.entry.instructions[0])
            slot = self.b.alloca(value.type)
        self.b.store(value, slot)
        return slot

    def get(self, slot: ir.AllocaInstr) -> ir.Value:
        return self.b.load(slot, typ=slot.allocated_type)

    @contextlib.contextmanager
    def loop(self, start: ir.Value, stop: ir.Value) -> Iterator[ir.Value]:
        """``for i in range(start, stop)``: the body is emitted inside the block."""
        b = self.b
        counter = self.slot(start)
        test = self.function.append_basic_block("test")
        body = self.function.append_basic_block("body")
        done = self.function.append_basic_block("done")
        b.branch(test)
        b.position_at_end(test)
        i = self.get(counter)
        b.cbranch(b.icmp_unsigned("<", i, stop), body, done)
        b.position_at_end(body)
        yield i
        b.store(b.add(i, I64(1)), counter)
        b.branch(test)
        b.position_at_end(done)

    def element(self, array: str | ir.Value, i: ir.Value, typ: ir.Type) -> ir.Value:
        base = self.arg[array] if isinstance(array, str) else array
        return self.b.gep(base, [i], source_etype=typ)

    def index(self, array: str, i: ir.Value) -> ir.Value:
        """An element of a ``uint32`` structure array, widened to a 64-bit index."""
        return self.b.zext(self.b.load(self.element(array, i, I32), typ=I32), I64)

    def scalar(self, array: str, i: ir.Value) -> ir.Value:
        return self.b.load(self.element(array, i, F64), typ=F64)

    def _row(self, array: str, i: ir.Value) -> ir.Value:
        # Indexed in doubles, not in ROWs: LLVM pads a vector type to a power of two.
        return self.element(array, self.b.mul(i, I64(LANES)), F64)

    def row(self, array: str, i: ir.Value) -> ir.Value:
        """Row ``i`` of a ``(rows, LANES)`` float64 array."""
        return self.b.load(self._row(array, i), typ=ROW, align=8)

    def put(self, array: str, i: ir.Value, value: ir.Value) -> None:
        self.b.store(value, self._row(array, i), align=8)

    def splat(self, x: ir.Value) -> ir.Value:
        """``x`` in every lane."""
        one = self.b.insert_element(ir.Constant(ROW, ir.Undefined), x, I32(0))
        zeros = ir.Constant(ir.VectorType(I32, LANES), [0] * LANES)
        return self.b.shuffle_vector(one, ir.Constant(ROW, ir.Undefined), zeros)

    def max(self, x: ir.Value, y: ir.Value) -> ir.Value:
        return self.b.select(self.b.fcmp_ordered(">", x, y), x, y)

    def add_product(self, total: ir.AllocaInstr, p: ir.Value, x: ir.Value) -> None:
        """``total += p * x``, rounded twice (no fused multiply-add: same bits everywhere)."""
        self.b.store(self.b.fadd(self.get(total), self.b.fmul(p, x)), total)


def _function(m: ir.Module, name: str, params: tuple[str, ...]) -> ir.Function:
    kinds = [I64 if p in COUNTS else PTR for p in params]
    function = ir.Function(m, ir.FunctionType(ir.VoidType(), kinds), name)
    for arg, param in zip(function.args, params, strict=True):
        arg.name = param
        if param not in COUNTS:
            arg.add_attribute("noalias")  # every array is its own buffer
    return function


def _bookings(e: _Emitter) -> ir.Value:
    """Fill ``book_class``: the best booking of each booking class (via
    ``book_final``, per final multiset). Returns the best scratch (W2)."""
    b = e.b
    scratch = e.row("box_value", I64(0))
    for c in range(1, N_COLUMNS):
        scratch = e.max(scratch, e.row("box_value", I64(c)))
    face = e.row("box_value", I64(FACE))
    wurfeltod = b.fsub(scratch, e.splat(F64(PENALTY)))  # any open box, with a Wurfeltod (W3)

    # Bookings that bring a Wurfeltod, and Face Value Total: per final multiset.
    with e.loop(I64(0), e.arg["n_final"]) as f:
        face_points = e.splat(e.scalar("final_face_points", f))
        first = e.max(wurfeltod, b.fadd(face_points, face))
        e.put("book_final", f, _best_of_row(e, "final", f, first))
    # All bookings: per booking class, adding the Wurfeltod-free categories.
    with e.loop(I64(0), e.arg["n_class"]) as cl:
        first = e.row("book_final", e.index("class_final", cl))
        e.put("book_class", cl, _best_of_row(e, "class", cl, first))
    return scratch


def _best_of_row(e: _Emitter, table: str, i: ir.Value, first: ir.Value) -> ir.Value:
    """The best of ``first`` and each booking in row ``i`` of the CSR table ``table``
    (``final`` or ``class``): its points plus the value after booking its column."""
    b = e.b
    best = e.slot(first)
    start = e.index(f"{table}_start", i)
    stop = e.index(f"{table}_start", b.add(i, I64(1)))
    with e.loop(start, stop) as x:
        points = e.splat(e.scalar(f"{table}_points", x))
        value = e.row("box_value", e.index(f"{table}_column", x))
        b.store(e.max(e.get(best), b.fadd(points, value)), best)
    return e.get(best)


def _level(e: _Emitter, k: int, scratch: ir.Value | None) -> None:
    """The asides with ``k`` dice; the level with ``k + 1`` is done. ``scratch`` is
    the best scratch on the first roll (``k == 0``), the only roll allowing it (W2)."""
    b = e.b
    start = e.index("aside_level_start", I64(k))
    stop = e.index("aside_level_start", I64(k + 1))
    with e.loop(start, stop) as a:
        total = e.slot(ir.Constant(ROW, [0.0] * LANES))
        first, last = e.index("aside_pair_start", a), e.index("aside_pair_start", b.add(a, I64(1)))
        with e.loop(first, last) as p:
            probability = e.splat(e.scalar("pair_probability", p))
            booking = e.row("book_class", e.index("pair_class", p))
            if k == LAST_LEVEL:  # one die rolled: the player must book (W2)
                e.add_product(total, probability, booking)
            else:  # book, or keep one more die at least (max over one added die)
                s = e.index("succ_start", p)
                best = e.slot(e.row("best", e.index("succ_pair", s)))
                with e.loop(b.add(s, I64(1)), e.index("succ_start", b.add(p, I64(1)))) as x:
                    b.store(e.max(e.get(best), e.row("best", e.index("succ_pair", x))), best)
                keep = e.get(best)
                if k > 0:  # the first roll's pairs are no one's successors
                    e.put("best", p, keep)
                choice = e.max(booking, keep)
                if scratch is not None:
                    choice = e.max(choice, scratch)
                e.add_product(total, probability, choice)
        value = e.get(total)
        e.put("aside_value", a, value)
        if k > 0:  # the best aside reachable from each pair of this aside, it included
            with e.loop(first, last) as p:
                e.put("best", p, value if k == LAST_LEVEL else e.max(e.row("best", p), value))


def _turn(m: ir.Module) -> ir.Function:
    function = _function(m, TURN, TURN_PARAMS)
    e = _Emitter(function)
    scratch = _bookings(e)
    for k in range(LAST_LEVEL, -1, -1):
        _level(e, k, scratch if k == 0 else None)
    e.b.ret_void()
    return function


def _gather(e: _Emitter, state: ir.Value, lane: ir.Value) -> None:
    """``box_value[c, lane]``: the value after booking column ``c`` from ``state``
    (``CLOSED`` for a used or absent box). A state's bits below ``n_single`` are
    its used single boxes, the number above them its used Face Value Total boxes."""
    b = e.b
    closed = F64(CLOSED)
    for c in range(N_COLUMNS):
        if c == FACE:
            shut = b.icmp_signed(">=", b.lshr(state, e.arg["n_single"]), e.arg["face_boxes"])
            after = b.add(state, b.shl(I64(1), e.arg["n_single"]))
        else:
            bit = b.load(e.element("column_bit", I64(c), I64), typ=I64)
            absent = b.icmp_signed("<", bit, I64(0))
            bit = b.select(absent, I64(0), bit)
            used = b.trunc(b.lshr(state, bit), ir.IntType(1))
            shut = b.or_(absent, used)
            after = b.or_(state, b.shl(I64(1), bit))
        value = b.load(e.element("values", b.select(shut, I64(0), after), F64), typ=F64)
        slot = e.element("box_value", b.add(I64(c * LANES), lane), F64)
        b.store(b.select(shut, closed, value), slot)


def _solve(m: ir.Module, turn: ir.Function) -> None:
    function = _function(m, SOLVE, SOLVE_PARAMS)
    e = _Emitter(function)
    b = e.b
    n = e.arg["n"]
    with b.if_then(b.icmp_unsigned(">", n, I64(0))):
        batches = b.udiv(b.add(n, I64(LANES - 1)), I64(LANES))
        with e.loop(I64(0), batches) as batch:
            first = b.mul(batch, I64(LANES))
            with e.loop(I64(0), I64(LANES)) as lane:  # the last batch repeats its last state
                i = b.add(first, lane)
                i = b.select(b.icmp_unsigned("<", i, n), i, b.sub(n, I64(1)))
                _gather(e, b.load(e.element("states", i, I64), typ=I64), lane)
            b.call(turn, [e.arg[name] for name in TURN_PARAMS])
            with e.loop(I64(0), I64(LANES)) as lane:
                i = b.add(first, lane)
                with b.if_then(b.icmp_unsigned("<", i, n)):
                    state = b.load(e.element("states", i, I64), typ=I64)
                    value = b.load(e.element("aside_value", lane, F64), typ=F64)
                    b.store(value, e.element("values", state, F64))
    b.ret_void()


def module() -> ir.Module:
    """The IR module with both functions (see the module docstring)."""
    m = ir.Module("wurfeltod_turns")
    _solve(m, _turn(m))
    return m
