"""The Decathlon's RL codec (``GameInfo.codec``; ``docs/rl.md`` lists every slot).

Indices are fixed by the rules, not by the order of ``legal_actions``:

>>> from gamenight.games.decathlon.actions import Freeze, Rethrow
>>> codec = make({})
>>> codec.n_actions, codec.index(Rethrow()), codec.index(Freeze((0, 2)))
(269, 0, 18)
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from gamenight.core.codec import CACHE_LIMIT, Codec, Obs, fill, order_from, pack
from gamenight.core.options import Options


class DecathlonCodec(Codec):
    """Decathlon: 0 Rethrow, 1 Jump, 2 Stop, 3 Throw, 4 Skip, 5 Retire, 6-13 Vault(1..8),
    14-268 Freeze: index 13 + bit mask of the frozen positions (bit i = position i)."""

    game_id = "decathlon"
    solo_options: ClassVar[dict[str, Any]] = {"variant": "points"}
    solo_hint = (
        " (a Championship alone always wins the same honours; "
        "use aec_env('decathlon', variant='championship') with 2+ seats)"
    )
    PHASES = (
        "keep-or-rethrow",
        "run-up-freeze",
        "rethrow-or-jump",
        "jump-freeze",
        "throw-or-stop",
        "freeze",
        "rethrow-or-stop",
        "jump-or-skip",
        "vault-dice",
        "game-over",
    )
    STATUS = ("in", "out", "retired")
    SLOTS = 8  # dice slots of every dice block
    HEAD = 10 + 10 + 9 + 6 * 8 + 2  # event, phase, scalars, dice blocks, to-act flags
    PER_SEAT = 2 + 3 + 3 + 2 + 10  # best, tries, status, totals, sheet

    def __init__(self) -> None:
        super().__init__()
        from gamenight.games.decathlon.actions import (
            Freeze,
            Jump,
            Rethrow,
            Retire,
            Skip,
            Stop,
            Throw,
            Vault,
        )
        from gamenight.games.decathlon.disciplines import EVENT_IDS

        for action in (Rethrow(), Jump(), Stop(), Throw(), Skip(), Retire()):
            self._add(action)
        for n in range(1, 9):
            self._add(Vault(n))
        for mask in range(1, 256):
            self._add(Freeze(tuple(i for i in range(8) if mask >> i & 1)))
        self.n_actions = len(self._actions)
        self._event = {e: i for i, e in enumerate(EVENT_IDS)}
        self._phase = {p: i for i, p in enumerate(self.PHASES)}
        self._status = {s: i for i, s in enumerate(self.STATUS)}
        # caches of the fast path (bytes of float32 blocks), see observe_state
        self._sheets: dict[tuple[object, int, int, str], tuple[list[bytes], float]] = {}
        self._last_sheet: tuple[object, int, str, tuple[list[bytes], float]] = (
            None, -1, "", ([], 0.0)
        )  # fmt: skip
        self._packed: dict[int, dict[Any, bytes]] = {8: {}}
        self._heads: dict[Any, bytes] = {}
        self._freezable: dict[tuple[int, ...], bytes] = {}
        self._heights_seat: dict[Any, bytes] = {}
        self._tries: dict[Any, bytes] = {}
        self._allowed: dict[Any, tuple[int, ...]] = {}
        self._sets_frozen: dict[Any, bytes] = {}
        self._none8 = struct.pack("8f", *[0.0] * 8)
        self._all_freezable = [self._flag_block(tuple(range(n))) for n in range(9)]
        self._to_act = {
            acting: {p: struct.pack("2f", acting, p) for p in range(-1, 8)}
            for acting in (False, True)
        }
        from gamenight.games.decathlon.disciplines import SET_RULES, attempts
        from gamenight.games.decathlon.heights import HeightsStage
        from gamenight.games.decathlon.long_jump import LongJumpAttempt
        from gamenight.games.decathlon.rules import AttemptsStage
        from gamenight.games.decathlon.sets import SetsAttempt
        from gamenight.games.decathlon.shot_put import ShotPutAttempt
        from gamenight.games.decathlon.throws import ThrowAttempt, allowed_positions

        self._attempts = {e: attempts(e) for e in EVENT_IDS}
        self._set_rules = {e: (r.sets, r.set_size) for e, r in SET_RULES.items()}
        self._rules = (SET_RULES, attempts, allowed_positions)
        # exact types (isinstance on msgspec structs goes through the metaclass: slower)
        self._stages = (
            HeightsStage,
            AttemptsStage,
            LongJumpAttempt,
            ShotPutAttempt,
            SetsAttempt,
            ThrowAttempt,
        )
        # the part of observe_state for the heights stage and each kind of attempt
        self._parts: dict[type, Callable[[Any, Any, int], tuple[bytes, Any, float]]] = {
            HeightsStage: self._heights,
            LongJumpAttempt: self._long_jump,
            ShotPutAttempt: self._shot_put,
            SetsAttempt: self._sets,
            ThrowAttempt: self._throws,
        }

    def obs_size(self, players: int) -> int:
        return self.HEAD + self.PER_SEAT * players

    def score(self, view: Any, seat: int) -> float:
        """The points (in the Championship: honours) ``seat`` holds now."""
        totals = view.honour_totals if view.variant == "championship" else view.totals
        return float(totals[seat])

    def encode(self, view: Any, seat: int, out: Obs) -> None:
        out[:] = 0
        if view.discipline is not None:
            out[self._event[view.discipline]] = 1
        out[10 + self._phase[view.phase]] = 1
        at = 20
        for v in (
            view.attempt,
            view.attempts,
            view.rethrows_left,
            view.set_no,
            view.sets,
            view.set_size,
            view.height,
            view.jumps_at_height,
            len(view.disciplines),
        ):
            out[at] = -1 if v is None else v
            at += 1
        for block in (view.thrown, view.frozen, view.run_up, view.shot, view.last_jump):
            fill(out, at, block, 8)
            at += 8
        for pos in view.freezable:
            out[at + pos] = 1
        at += 8
        out[at] = view.to_act == seat
        out[at + 1] = view.order.index(seat) if seat in view.order else -1
        at += 2
        players = view.players
        for s in order_from(seat, players):
            if view.best:
                b = view.best[s]
                out[at] = 0 if b is None else b
                out[at + 1] = b is not None
            if view.tries:
                fill(out, at + 2, view.tries[s], 3)
            if view.status:
                out[at + 5 + self._status[view.status[s]]] = 1
            out[at + 8] = view.totals[s]
            out[at + 9] = view.honour_totals[s]
            for e, row in enumerate(view.sheet):
                r = row[s]
                out[at + 10 + e] = -1 if r is None else r
            at += self.PER_SEAT

    # ----- the fast path (Decathlon has no secrets but the dice source) -------------------
    # The observation is assembled from float32 byte blocks cached by the few values each
    # block shows (event and phase and counters, each dice tuple, each seat's tries, the
    # score sheet), joined once per step: no per-slot numpy writes, no list conversion.
    fast = True

    def _block(self, values: tuple[float, ...], width: int) -> bytes:
        """``values`` (None as -1) padded with zeros to ``width`` float32s (cached)."""
        cache = self._packed[width]
        hit = cache.get(values)
        if hit is None:
            if len(cache) > CACHE_LIMIT:
                cache.clear()
            hit = cache[values] = pack(values, width)
        return hit

    def _flag_block(self, positions: tuple[int, ...]) -> bytes:
        """Eight float32s, 1 at each of ``positions`` (the freezable dice)."""
        hit = self._freezable.get(positions)
        if hit is None:
            row = [0.0] * 8
            for pos in positions:
                row[pos] = 1.0
            hit = self._freezable[positions] = struct.pack("8f", *row)
        return hit

    def _sheet_block(self, state: Any, seat: int) -> tuple[list[bytes], float]:
        """Per seat (from ``seat``): points total, honours total and the ten sheet slots
        as float32 bytes, and ``seat``'s running score; cached, since the sheet (and the
        totals the rules keep with it) only change when an event ends."""
        sheet, variant = state.sheet, state.variant
        last = self._last_sheet
        if last[0] is sheet and last[1] == seat and last[2] == variant:
            return last[3]
        players = state.players
        key = (sheet, players, seat, variant)
        hit = self._sheets.get(key)
        if hit is None:
            tot, hon = state.totals, state.honour_totals
            blocks = [
                pack((tot[s], hon[s], *(r[s] for r in sheet)), 12)
                for s in order_from(seat, players)
            ]
            score = float((hon if variant == "championship" else tot)[seat])
            if len(self._sheets) > 64:  # a sheet lasts one event: keep its seats' blocks
                self._sheets.clear()
            hit = self._sheets[key] = (blocks, score)
        self._last_sheet = (sheet, seat, variant, hit)
        return hit

    def _height_seat(self, cleared: int | None, status: str) -> bytes:
        """A seat's first 8 slots in a height event: best cleared, flag, status."""
        key = (cleared, status)
        hit = self._heights_seat.get(key)
        if hit is None:
            row = [0.0] * 8
            if cleared is not None:
                row[0], row[1] = float(cleared), 1.0
            row[5 + self._status[status]] = 1.0
            hit = self._heights_seat[key] = struct.pack("8f", *row)
        return hit

    def _tries_seat(self, tries: tuple[int | None, ...]) -> bytes:
        """A seat's first 8 slots in an attempt event: best valid try, flag, the tries."""
        hit = self._tries.get(tries)
        if hit is None:
            valid = [t for t in tries if t is not None]
            row = [float(max(valid)), 1.0] if valid else [0.0, 0.0]
            row += [-1.0 if t is None else float(t) for t in tries[:3]]
            row += [0.0] * (8 - len(row))
            if len(self._tries) > CACHE_LIMIT:
                self._tries.clear()
            hit = self._tries[tries] = struct.pack("8f", *row)
        return hit

    def _frozen_sets(self, frozen_sets: tuple[tuple[int, ...], ...]) -> bytes:
        """The frozen-dice block of a set event: every frozen set's dice in order."""
        hit = self._sets_frozen.get(frozen_sets)
        if hit is None:
            hit = self._block(tuple(d for fs in frozen_sets for d in fs), 8)
            if len(self._sets_frozen) > CACHE_LIMIT:
                self._sets_frozen.clear()
            self._sets_frozen[frozen_sets] = hit
        return hit

    def _allowed_positions(self, event: str, thrown: tuple[int, ...]) -> tuple[int, ...]:
        """D10: the positions of ``thrown`` that may be frozen in a throw event (cached)."""
        key = (event, thrown)
        hit = self._allowed.get(key)
        if hit is None:
            hit = self._rules[2](event, thrown)
            if len(self._allowed) > CACHE_LIMIT:
                self._allowed.clear()
            self._allowed[key] = hit
        return hit

    def observe_state(self, state: Any, seat: int) -> tuple[bytes, Any, float]:
        """``seat``'s observation of ``state`` as float32 bytes (exactly the encoding of
        ``Game.view(state, seat)``), a *mask key* and ``seat``'s running score.

        The mask key is None when ``seat`` has nothing to choose; otherwise the legal
        actions depend on nothing but the key (the event, the phase, the number of dice
        thrown, the freezable positions, whether a rethrow is left), so a mask learnt
        from ``Game.legal_actions`` once per key serves every position with that key
        (tests/envs checks this on many random positions). Each stage and attempt kind
        has its own part (:meth:`_heights`, :meth:`_sets`, ...): the head and the dice
        blocks; :meth:`_joined` adds the seats' blocks and the sheet.
        """
        stage = state.stage
        if stage is None:
            return self._game_over(state, seat)
        kind = type(stage)
        part = self._parts.get(type(stage.attempt) if kind is self._stages[1] else kind)
        if part is None:  # a stage the fast path does not know (none today)
            return self._observe_view(state, seat)
        return part(state, stage, seat)

    def _joined(
        self, parts: list[bytes], state: Any, seat: int, seats: list[bytes], key: Any
    ) -> tuple[bytes, Any, float]:
        """The observation: ``parts`` (head and dice blocks), then per seat (from ``seat``)
        its block of ``seats`` and its sheet block; ``key`` is the mask key if ``seat``
        acts (else None), and ``seat``'s running score."""
        last = self._last_sheet
        if last[0] is state.sheet and last[1] == seat and last[2] == state.variant:
            sheet_blocks, score = last[3]
        else:
            sheet_blocks, score = self._sheet_block(state, seat)
        for k in range(state.players):
            parts += (seats[k], sheet_blocks[k])
        return b"".join(parts), key, score

    def _game_over(self, state: Any, seat: int) -> tuple[bytes, Any, float]:
        """The game is over: the sheet, and nobody acts."""
        e8, order = self._none8, state.order
        head = (None, "game-over", 0, 0, None, None, None, None, None, None,
                len(state.disciplines))  # fmt: skip
        parts = [self._heads.get(head) or self._head(head), e8 * 6]
        parts.append(self._to_act[False][order.index(seat) if seat in order else -1])
        return self._joined(parts, state, seat, [e8] * state.players, None)

    def _heights(self, state: Any, stage: Any, seat: int) -> tuple[bytes, Any, float]:
        event = state.disciplines[state.discipline_no]
        phase = "vault-dice" if stage.committed else "jump-or-skip"
        head = (event, phase, 0, 0, None, None, None, None, stage.height, stage.jumps,
                len(state.disciplines))  # fmt: skip
        order = state.order
        acting = order[stage.turn] == seat
        flags = self._to_act[acting][order.index(seat) if seat in order else -1]
        last, e8 = stage.last, self._none8
        parts = [self._heads.get(head) or self._head(head), e8 * 4,
                 self._packed[8].get(last) or self._block(last, 8), e8, flags]  # fmt: skip
        players, cleared, status = state.players, stage.cleared, stage.status
        height_seat = self._height_seat
        seats = [height_seat(cleared[s], status[s]) for s in order_from(seat, players)]
        return self._joined(parts, state, seat, seats, (event, phase) if acting else None)

    def _tries_seats(self, stage: Any, seat: int, players: int) -> list[bytes]:
        tries = stage.tries
        if players == 1:
            return [self._tries.get(tries[0]) or self._tries_seat(tries[0])]
        tries_seat = self._tries_seat
        return [tries_seat(tries[s]) for s in order_from(seat, players)]

    def _sets(self, state: Any, stage: Any, seat: int) -> tuple[bytes, Any, float]:
        event = state.disciplines[state.discipline_no]
        attempt = stage.attempt
        thrown, left = attempt.thrown, attempt.rethrows_left
        frozen_sets = attempt.frozen_sets
        head = (event, "keep-or-rethrow", stage.round, self._attempts[event], left,
                len(frozen_sets) + 1, *self._set_rules[event], None, None,
                len(state.disciplines))  # fmt: skip
        order = state.order
        acting = order[stage.turn] == seat
        flags = self._to_act[acting][order.index(seat) if seat in order else -1]
        parts = [
            self._heads.get(head) or self._head(head),
            self._packed[8].get(thrown) or self._block(thrown, 8),
            self._sets_frozen.get(frozen_sets) or self._frozen_sets(frozen_sets),
            self._none8 * 4,
            flags,
        ]
        seats = self._tries_seats(stage, seat, state.players)
        key = (event, "keep-or-rethrow", len(thrown), left > 0) if acting else None
        return self._joined(parts, state, seat, seats, key)

    def _long_jump(self, state: Any, stage: Any, seat: int) -> tuple[bytes, Any, float]:
        event = state.disciplines[state.discipline_no]
        attempt, d8 = stage.attempt, self._packed[8]
        phase, thrown, run_up = attempt.phase, attempt.thrown, attempt.run_up
        frozen = attempt.jump if phase == "jump-freeze" else run_up
        head = (event, phase, stage.round, self._attempts[event], None, None, None, None, None,
                None, len(state.disciplines))  # fmt: skip
        order = state.order
        acting = order[stage.turn] == seat
        flags = self._to_act[acting][order.index(seat) if seat in order else -1]
        parts = [
            self._heads.get(head) or self._head(head),
            d8.get(thrown) or self._block(thrown, 8),
            d8.get(frozen) or self._block(frozen, 8),
            d8.get(run_up) or self._block(run_up, 8),
            self._none8 * 2,
            self._all_freezable[len(thrown)],
            flags,
        ]
        seats = self._tries_seats(stage, seat, state.players)
        key = (event, phase, len(thrown)) if acting else None
        return self._joined(parts, state, seat, seats, key)

    def _shot_put(self, state: Any, stage: Any, seat: int) -> tuple[bytes, Any, float]:
        event = state.disciplines[state.discipline_no]
        shot, e8 = stage.attempt.dice, self._none8
        head = (event, "throw-or-stop", stage.round, self._attempts[event], None, None, None,
                None, None, None, len(state.disciplines))  # fmt: skip
        order = state.order
        acting = order[stage.turn] == seat
        flags = self._to_act[acting][order.index(seat) if seat in order else -1]
        parts = [self._heads.get(head) or self._head(head), e8 * 3,
                 self._packed[8].get(shot) or self._block(shot, 8), e8 * 2, flags]  # fmt: skip
        seats = self._tries_seats(stage, seat, state.players)
        key = (event, "throw-or-stop") if acting else None
        return self._joined(parts, state, seat, seats, key)

    def _throws(self, state: Any, stage: Any, seat: int) -> tuple[bytes, Any, float]:
        event = state.disciplines[state.discipline_no]
        attempt, d8 = stage.attempt, self._packed[8]
        phase, thrown, frozen = attempt.phase, attempt.thrown, attempt.frozen
        freezable = (
            (self._allowed.get((event, thrown)) or self._allowed_positions(event, thrown))
            if thrown
            else ()
        )
        head = (event, phase, stage.round, self._attempts[event], None, None, None, None, None,
                None, len(state.disciplines))  # fmt: skip
        order = state.order
        acting = order[stage.turn] == seat
        flags = self._to_act[acting][order.index(seat) if seat in order else -1]
        parts = [
            self._heads.get(head) or self._head(head),
            d8.get(thrown) or self._block(thrown, 8),
            d8.get(frozen) or self._block(frozen, 8),
            self._none8 * 3,
            self._freezable.get(freezable) or self._flag_block(freezable),
            flags,
        ]
        seats = self._tries_seats(stage, seat, state.players)
        key = (event, phase, freezable) if acting else None
        return self._joined(parts, state, seat, seats, key)

    def _observe_view(self, state: Any, seat: int) -> tuple[bytes, Any, float]:
        """The general path, for a stage the fast path does not know (none today):
        encode ``Game.view``; the mask key is then the legal indices themselves."""
        from gamenight.games.decathlon.game import GAME

        view = GAME.view(state, seat)
        out = np.zeros(self.obs_size(state.players), np.float32)
        self.encode(view, seat, out)
        totals = view.honour_totals if view.variant == "championship" else view.totals
        legal = GAME.legal_actions(state, seat)
        key = ("legal", *sorted({self.index(a) for a in legal})) if legal else None
        return out.tobytes(), key, float(totals[seat])

    def _head(self, head: tuple[Any, ...]) -> bytes:
        """Slots 0-28: event and phase one-hot, the eight counters, the event count."""
        hit = self._heads.get(head)
        if hit is None:
            event, phase, *counters = head
            row = [0.0] * 29
            if event is not None:
                row[self._event[event]] = 1.0
            row[10 + self._phase[phase]] = 1.0
            row[20:29] = [-1.0 if v is None else float(v) for v in counters]
            hit = self._heads[head] = struct.pack("29f", *row)
        return hit


def make(options: Options) -> DecathlonCodec:
    """The ``codec`` capability: a fresh codec (the same for every option)."""
    return DecathlonCodec()
