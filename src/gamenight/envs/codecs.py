"""Numeric encodings of each game's actions and views (``docs/rl.md`` lists every slot).

A :class:`Codec` turns a game's actions into fixed indices of a ``Discrete(n)``
space and one seat's *view* (never the state) into a flat ``float32`` vector.
Per-seat blocks are ordered from the observing seat: its own block first, then
the seats after it in seat order, so a policy learnt for seat 0 reads any seat.

Indices are fixed by the rules, not by the order of ``legal_actions``:

>>> from gamenight.games.decathlon.actions import Freeze, Rethrow
>>> codec = codec_for("decathlon")
>>> codec.n_actions, codec.index(Rethrow()), codec.index(Freeze((0, 2)))
(269, 0, 18)
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from itertools import combinations, pairwise
from typing import Any

import numpy as np
import numpy.typing as npt

Obs = npt.NDArray[np.float32]

BIG = 100_000.0  # bound of every observation slot (scores stay far below it)
# Entries per cache of the Decathlon fast path before it starts again (a few MB at most
# per environment; the common dice tuples come back within a few episodes).
CACHE_LIMIT = 1 << 14


class Codec:
    """Action indices and view encoder of one game (subclasses fill the tables)."""

    game_id: str = ""
    n_actions: int = 0

    def __init__(self) -> None:
        self._index: dict[Any, int] = {}
        self._actions: list[Any] = []

    def _add(self, action: Any) -> None:
        self._index[action] = len(self._actions)
        self._actions.append(action)

    def index(self, action: Any) -> int:
        """The fixed index of ``action`` (raises KeyError for a non-action)."""
        return self._index[action]

    def index_at(self, view: Any, seat: int, action: Any) -> int:
        """The index of ``action`` where ``seat`` sees ``view`` (most games: :meth:`index`)."""
        return self._index[action]

    def action(self, index: int) -> Any:
        """The action a fixed index stands for (a template; legality is the game's)."""
        return self._actions[index]

    def obs_size(self, players: int) -> int:
        raise NotImplementedError

    def encode(self, view: Any, seat: int, out: Obs) -> None:
        """Write ``seat``'s ``view`` into ``out`` (length :meth:`obs_size`), zeros first."""
        raise NotImplementedError

    # A fast path may encode straight from the public fields of a state; it must give
    # exactly ``encode(game.view(state, seat))`` (tests/envs check it on many positions).
    fast = False

    def observe_state(self, state: Any, seat: int) -> tuple[bytes, Any, float]:
        """Fast codecs: ``seat``'s observation of ``state`` as float32 bytes, a mask key
        (None: nothing to choose; equal keys, equal legal actions) and the running score."""
        raise NotImplementedError

    def encode_state(self, state: Any, seat: int, out: Obs) -> float:
        """Encode ``seat``'s view of ``state`` into ``out``; returns its running score."""
        data, _key, score = self.observe_state(state, seat)
        out[:] = np.frombuffer(data, np.float32)
        return score


def _fill(out: Obs, at: int, values: Sequence[int | float | None], width: int) -> None:
    """Copy up to ``width`` values into ``out[at:]`` (None becomes -1)."""
    for i, v in enumerate(values[:width]):
        out[at + i] = -1 if v is None else v


def _pack(values: Sequence[int | float | None], width: int) -> bytes:
    """Up to ``width`` values (None as -1) as float32 bytes, padded with zeros."""
    row = [-1.0 if v is None else float(v) for v in values[:width]]
    return struct.pack(f"{width}f", *row, *[0.0] * (width - len(row)))


def _order(seat: int, players: int) -> list[int]:
    return [(seat + k) % players for k in range(players)]


# ----- Decathlon ---------------------------------------------------------------------------------
class DecathlonCodec(Codec):
    """Decathlon: 0 Rethrow, 1 Jump, 2 Stop, 3 Throw, 4 Skip, 5 Retire, 6-13 Vault(1..8),
    14-268 Freeze: index 13 + bit mask of the frozen positions (bit i = position i)."""

    game_id = "decathlon"
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
        self._sheets: dict[Any, Any] = {}
        self._last_sheet: tuple[Any, int, str, Any] = (None, -1, "", None)
        self._packed: dict[int, dict[Any, bytes]] = {8: {}}
        self._heads: dict[Any, bytes] = {}
        self._freezable: dict[tuple[int, ...], bytes] = {}
        self._heights_seat: dict[Any, bytes] = {}
        self._tries: dict[Any, bytes] = {}
        self._allowed: dict[Any, tuple[int, ...]] = {}
        self._sets_frozen: dict[Any, bytes] = {}
        self._none8 = struct.pack("8f", *[0.0] * 8)
        self._all_freezable = [self._flags(tuple(range(n))) for n in range(9)]
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

    def obs_size(self, players: int) -> int:
        return self.HEAD + self.PER_SEAT * players

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
            _fill(out, at, block, 8)
            at += 8
        for pos in view.freezable:
            out[at + pos] = 1
        at += 8
        out[at] = view.to_act == seat
        out[at + 1] = view.order.index(seat) if seat in view.order else -1
        at += 2
        players = view.players
        for s in _order(seat, players):
            if view.best:
                b = view.best[s]
                out[at] = 0 if b is None else b
                out[at + 1] = b is not None
            if view.tries:
                _fill(out, at + 2, view.tries[s], 3)
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
            hit = cache[values] = _pack(values, width)
        return hit

    def _flags(self, positions: tuple[int, ...]) -> bytes:
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
            return last[3]  # type: ignore[no-any-return]
        players = state.players
        key = (sheet, players, seat, variant)
        hit = self._sheets.get(key)
        if hit is None:
            tot, hon = state.totals, state.honour_totals
            blocks = [
                _pack((tot[s], hon[s], *(r[s] for r in sheet)), 12) for s in _order(seat, players)
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
        (tests/envs checks this on many random positions).
        """
        stage = state.stage
        Heights, Attempts, LongJump, ShotPut, Sets, Throws = self._stages
        kind = type(stage)
        if kind is not Heights and kind is not Attempts and stage is not None:
            return self._observe_view(state, seat)
        d8, heads, e8 = self._packed[8], self._heads, self._none8
        players, order = state.players, state.order
        sheet_blocks, score = self._sheet_block(state, seat)
        n_events = len(state.disciplines)
        if stage is None:  # the game is over: the sheet, and nobody acts
            head: tuple[Any, ...] = (None, "game-over", 0, 0, None, None, None, None, None, None)
            head += (n_events,)
            parts = [heads.get(head) or self._head(head), e8 * 6]
            parts.append(self._to_act[False][order.index(seat) if seat in order else -1])
            for k in range(players):
                parts += (e8, sheet_blocks[k])
            return b"".join(parts), None, score
        event = state.disciplines[state.discipline_no]
        acting = order[stage.turn] == seat
        flags = self._to_act[acting][order.index(seat) if seat in order else -1]
        if kind is Heights:
            phase = "vault-dice" if stage.committed else "jump-or-skip"
            head = (event, phase, 0, 0, None, None, None, None, stage.height, stage.jumps)
            head += (n_events,)
            last = stage.last
            dice = [e8 * 4, d8.get(last) or self._block(last, 8), e8, flags]
            if players == 1:
                seat_blocks = [self._height_seat(stage.cleared[0], stage.status[0])]
            else:
                height_seat, cleared, status = self._height_seat, stage.cleared, stage.status
                seat_blocks = [height_seat(cleared[s], status[s]) for s in _order(seat, players)]
            mask_key: Any = (event, phase)
        else:
            tries = stage.tries
            if players == 1:
                seat_blocks = [self._tries.get(tries[0]) or self._tries_seat(tries[0])]
            else:
                tries_seat = self._tries_seat
                seat_blocks = [tries_seat(tries[s]) for s in _order(seat, players)]
            attempt = stage.attempt
            akind, n_tries = type(attempt), self._attempts[event]
            if akind is Sets:
                rule = self._set_rules[event]
                thrown, left = attempt.thrown, attempt.rethrows_left
                frozen_sets = attempt.frozen_sets
                phase = "keep-or-rethrow"
                head = (event, phase, stage.round, n_tries, left, len(frozen_sets) + 1, *rule,
                        None, None, n_events)  # fmt: skip
                dice = [
                    d8.get(thrown) or self._block(thrown, 8),
                    self._sets_frozen.get(frozen_sets) or self._frozen_sets(frozen_sets),
                    e8 * 4,
                    flags,
                ]
                mask_key = (event, phase, len(thrown), left > 0)
            elif akind is LongJump:
                phase, thrown, run_up = attempt.phase, attempt.thrown, attempt.run_up
                frozen = attempt.jump if phase == "jump-freeze" else run_up
                head = (event, phase, stage.round, n_tries, None, None, None, None, None, None,
                        n_events)  # fmt: skip
                dice = [
                    d8.get(thrown) or self._block(thrown, 8),
                    d8.get(frozen) or self._block(frozen, 8),
                    d8.get(run_up) or self._block(run_up, 8),
                    e8 * 2,
                    self._all_freezable[len(thrown)],
                    flags,
                ]
                mask_key = (event, phase, len(thrown))
            elif akind is ShotPut:
                shot = attempt.dice
                phase = "throw-or-stop"
                head = (event, phase, stage.round, n_tries, None, None, None, None, None, None,
                        n_events)  # fmt: skip
                dice = [e8 * 3, d8.get(shot) or self._block(shot, 8), e8 * 2, flags]
                mask_key = (event, phase)
            elif akind is Throws:
                phase, thrown, frozen = attempt.phase, attempt.thrown, attempt.frozen
                freezable = (
                    (self._allowed.get((event, thrown)) or self._allowed_positions(event, thrown))
                    if thrown
                    else ()
                )
                head = (event, phase, stage.round, n_tries, None, None, None, None, None, None,
                        n_events)  # fmt: skip
                dice = [
                    d8.get(thrown) or self._block(thrown, 8),
                    d8.get(frozen) or self._block(frozen, 8),
                    e8 * 3,
                    self._freezable.get(freezable) or self._flags(freezable),
                    flags,
                ]
                mask_key = (event, phase, freezable)
            else:
                return self._observe_view(state, seat)
        parts = [heads.get(head) or self._head(head), *dice]
        for k in range(players):
            parts += (seat_blocks[k], sheet_blocks[k])
        return b"".join(parts), mask_key if acting else None, score

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


# ----- Kniffel Dice Duel -------------------------------------------------------------------------
class DiceDuelCodec(Codec):
    """Dice Duel: 0 Stop, 1-31 Roll(keep) in ``rules.ALL_ROLLS`` order (keep 0-4 dice),
    32-38 Take(c, plate) and 39-45 Take(c, set-aside) in ``COMBINATIONS`` order."""

    game_id = "dice-duel"
    HEAD = 5 + 5 + 3 + 3 + 1 + 7 + 7 + 2 + 2  # faces, kept, counters, phase, kniffel, ...
    PER_SEAT = 7 + 2 + 1  # chips, total, last chip, current

    def __init__(self) -> None:
        super().__init__()
        from gamenight.games.dice_duel.combinations import COMBINATIONS
        from gamenight.games.dice_duel.rules import ALL_ROLLS, Stop, Take

        self._add(Stop())
        for roll in ALL_ROLLS:
            self._add(roll)
        for source in ("plate", "set-aside"):
            for c in COMBINATIONS:
                self._add(Take(c, source))
        self.n_actions = len(self._actions)
        self._phase = {"roll": 0, "pick": 1, "over": 2}

    def obs_size(self, players: int) -> int:
        return self.HEAD + self.PER_SEAT * players

    def encode(self, view: Any, seat: int, out: Obs) -> None:
        out[:] = 0
        _fill(out, 0, view.faces, 5)
        _fill(out, 5, view.kept, 5)
        out[10], out[11], out[12] = view.rolls_used, view.rolls_left, view.picks
        out[13 + self._phase[view.phase]] = 1
        out[16] = view.kniffel
        _fill(out, 17, view.plate, 7)
        _fill(out, 24, view.set_aside, 7)
        out[31] = view.round
        out[32] = view.round_chip
        out[33] = view.mode == "solo"
        out[34] = view.current == seat
        at = self.HEAD
        for s in _order(seat, view.players):
            _fill(out, at, view.chips[s], 7)
            out[at + 7] = view.scores[s].total
            out[at + 8] = view.last_chip == s
            out[at + 9] = view.current == s
            at += self.PER_SEAT


# ----- Wurfeltod ---------------------------------------------------------------------------------
class WurfeltodCodec(Codec):
    """Wurfeltod: 0-18 Book(c), 19-37 Scratch(c) in ``CATEGORIES`` order,
    38-99 SetAside: index 37 + bit mask of the positions set aside (1..62)."""

    game_id = "wurfeltod"
    HEAD = 6 + 6 + 6 + 19 + 1  # rolled, aside, counters, open boxes, to-act
    PER_SEAT = 20 * 3 + 3  # per box: booked, points, Wurfeltod; points, Wurfeltods, total

    def __init__(self) -> None:
        super().__init__()
        from gamenight.games.wurfeltod.categories import CATEGORIES
        from gamenight.games.wurfeltod.rules import Book, Scratch, SetAside

        for c in CATEGORIES:
            self._add(Book(c))
        for c in CATEGORIES:
            self._add(Scratch(c))
        for mask in range(1, 63):
            self._add(SetAside(tuple(i for i in range(6) if mask >> i & 1)))
        self.n_actions = len(self._actions)
        self._category = {c: i for i, c in enumerate(CATEGORIES)}

    def obs_size(self, players: int) -> int:
        return self.HEAD + self.PER_SEAT * players

    def encode(self, view: Any, seat: int, out: Obs) -> None:
        out[:] = 0
        _fill(out, 0, view.rolled, 6)
        _fill(out, 6, view.aside, 6)
        out[12], out[13], out[14] = view.turn, view.turns, view.roll
        out[15], out[16], out[17] = view.first_roll, view.must_book, view.finished
        for c in view.open_boxes:
            out[18 + self._category[c]] = 1
        out[37] = view.current == seat and not view.finished
        at = self.HEAD
        for s in _order(seat, len(view.cards)):
            card = view.cards[s]
            for i, entry in enumerate(card.boxes):
                if entry is not None:
                    out[at + 3 * i] = 1
                    out[at + 3 * i + 1] = entry.points
                    out[at + 3 * i + 2] = entry.wurfeltod
            out[at + 60], out[at + 61], out[at + 62] = card.points, card.wurfeltods, card.total
            at += self.PER_SEAT


# ----- The Decades -------------------------------------------------------------------------------
class DecadesCodec(Codec):
    """The Decades, one ``Discrete(411)`` space:

    * 0-14 Keep: the 15 multisets of 4 cards (counts of remove-token, cancel-answer,
      blocked), in the order of :func:`keep_counts`;
    * 15-54 Answer(year), 1980..2019;
    * 55-397 Extend: 55 + 49*a2 + 7*a3 + a4, where aL = 0 places no L-year token and
      aL = k+1 starts it under this round's answer in category k (0-5);
    * 398-400 PlayCard(card) in deck order; 401-403 RemoveToken(2, 3, 4);
    * 404-409 CancelAnswer(category) in category order;
    * 410 Wait: only in the parallel environment, for a team with nothing to choose.
    """

    game_id = "decades"
    WAIT = 410
    PHASES = ("keep", "answer", "extend", "card", "target", "over")
    PER_TEAM = 2 + 1 + 6 + 4 + 4 + 1 + 9 + 1 + 1  # side, score, answers, tokens, card, ...
    HEAD = 6 + 6 + 3 + 3 + 1 + 6  # phase, scalars, dealt, hand, pending, questions

    def __init__(self, questions: dict[tuple[str, str], int] | None = None) -> None:
        super().__init__()
        from gamenight.games.decades.cards import ACTION_CARDS
        from gamenight.games.decades.deck import CATEGORIES

        self.cards = tuple(card.id for card in ACTION_CARDS)
        self.categories = tuple(CATEGORIES)
        self.n_actions = 411
        self.keeps = keep_counts(len(self.cards))
        self._keep = {k: i for i, k in enumerate(self.keeps)}
        self.questions = questions or {}

    def obs_size(self, players: int) -> int:
        return self.HEAD + 2 * self.PER_TEAM

    def index_at(self, view: Any, seat: int, action: Any) -> int:
        """Extend's index needs this round's answers, so the view comes along."""
        tag = type(action).__name__
        if tag == "Keep":
            counts = tuple(action.cards.count(c) for c in self.cards)
            return self._keep[counts]
        if tag == "Answer":
            return 15 + int(action.year) - 1980
        if tag == "Extend":
            answers = view.teams[seat].answers
            code = [0, 0, 0]
            for token in action.tokens:
                code[token.length - 2] = answers.index(token.start) + 1
            return 55 + 49 * code[0] + 7 * code[1] + code[2]
        if tag == "PlayCard":
            return 398 + self.cards.index(action.card)
        if tag == "RemoveToken":
            return 401 + int(action.length) - 2
        if tag == "CancelAnswer":
            return 404 + self.categories.index(action.category)
        raise KeyError(action)

    def index(self, action: Any) -> int:
        raise TypeError("Decades indices depend on the view: use index_at(view, seat, action)")

    def encode(self, view: Any, seat: int, out: Obs) -> None:
        out[:] = 0
        out[self.PHASES.index(view.phase)] = 1
        out[6], out[7], out[8] = view.round, view.category, view.track
        out[9], out[10], out[11] = view.early_win, view.finished, len(view.log)
        for i, c in enumerate(self.cards):
            out[12 + i] = view.dealt.count(c)
            out[15 + i] = view.hand.count(c)
        out[18] = view.pending is not None
        for i, q in enumerate(view.questions):
            out[19 + i] = self.questions.get((q.category, q.text), -1) + 1
        at = self.HEAD
        for s in (seat, 1 - seat):
            team = view.teams[s]
            out[at + (0 if team.side == "A" else 1)] = 1
            out[at + 2] = team.score
            _fill(out, at + 3, [y - 1979 for y in team.answers], 6)
            if team.tokens is not None:
                out[at + 9] = 1
                for token in team.tokens:
                    out[at + 10 + token.length - 2] = token.start - 1979
            if team.card is not None:
                out[at + 13 + self.cards.index(team.card)] = 1
            out[at + 17] = team.effective
            target = team.target
            if target is not None:
                if type(target).__name__ == "RemoveToken":
                    out[at + 18 + target.length - 2] = 1
                else:
                    out[at + 21 + self.categories.index(target.category)] = 1
            out[at + 27] = team.cards_left
            out[at + 28] = team.to_act
            at += self.PER_TEAM


def keep_counts(kinds: int, kept: int = 4) -> list[tuple[int, ...]]:
    """Every way to keep ``kept`` cards of ``kinds`` kinds, as counts per kind.

    >>> len(keep_counts(3)), keep_counts(3)[:2]
    (15, [(0, 0, 4), (0, 1, 3)])
    """
    out = []
    for bars in combinations(range(kept + kinds - 1), kinds - 1):
        cuts = (-1, *bars, kept + kinds - 1)
        out.append(tuple(b - a - 1 for a, b in pairwise(cuts)))
    return out


def codec_for(game_id: str, **extra: Any) -> Codec:
    """A fresh codec for ``game_id``."""
    codecs: dict[str, Callable[..., Codec]] = {
        "decathlon": DecathlonCodec,
        "dice-duel": DiceDuelCodec,
        "wurfeltod": WurfeltodCodec,
        "decades": DecadesCodec,
    }
    return codecs[game_id](**extra)
