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

from collections.abc import Callable, Sequence
from itertools import combinations, pairwise
from typing import Any

import numpy as np
import numpy.typing as npt

Obs = npt.NDArray[np.float32]

BIG = 100_000.0  # bound of every observation slot (scores stay far below it)


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

    def encode_state(self, state: Any, seat: int, out: Obs) -> float:
        """Encode ``seat``'s view of ``state`` into ``out``; returns its running score."""
        raise NotImplementedError


def _fill(out: Obs, at: int, values: Sequence[int | float | None], width: int) -> None:
    """Copy up to ``width`` values into ``out[at:]`` (None becomes -1)."""
    for i, v in enumerate(values[:width]):
        out[at + i] = -1 if v is None else v


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
        self._sheets: dict[Any, Any] = {}
        self._last_sheet: tuple[Any, int, str, Any] = (None, -1, "", None)
        self._zeros = {p: [0.0] * self.obs_size(p) for p in range(1, 9)}
        from gamenight.games.decathlon.disciplines import SET_RULES, attempts
        from gamenight.games.decathlon.heights import HeightsStage
        from gamenight.games.decathlon.long_jump import LongJumpAttempt
        from gamenight.games.decathlon.sets import SetsAttempt
        from gamenight.games.decathlon.shot_put import ShotPutAttempt
        from gamenight.games.decathlon.throws import allowed_positions

        self._rules = (SET_RULES, attempts, allowed_positions)
        self._bases = {p: [self.HEAD + self.PER_SEAT * k for k in range(p)] for p in range(1, 9)}
        self._stages = (HeightsStage, LongJumpAttempt, ShotPutAttempt, SetsAttempt)

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
    fast = True

    def _sheet_block(self, sheet: Any, players: int, seat: int, variant: str) -> Any:
        """Per seat (from ``seat``): totals, honour totals and the sheet slots, plus the
        running score; cached, since the sheet only changes when an event ends."""
        last = self._last_sheet
        if last[0] is sheet and last[1] == seat and last[2] == variant:
            return last[3]
        key = (sheet, players, seat)
        hit = self._sheets.get(key)
        if hit is None:
            from gamenight.games.decathlon.scoring import honour_totals, totals

            tot, hon = totals(sheet, players), honour_totals(sheet, players)
            blocks = []
            for s in _order(seat, players):
                row = [float(tot[s]), float(hon[s])]
                row += [-1.0 if r[s] is None else float(r[s]) for r in sheet]
                blocks.append(row)
            score = float((hon if variant == "championship" else tot)[seat])
            if len(self._sheets) > 4096:
                self._sheets.clear()
            hit = self._sheets[key] = (blocks, score)
        self._last_sheet = (sheet, seat, variant, hit)
        return hit

    def encode_state(self, state: Any, seat: int, out: Obs) -> float:
        SET_RULES, attempts, allowed_positions = self._rules
        HeightsStage, LongJumpAttempt, ShotPutAttempt, SetsAttempt = self._stages
        players, stage, order = state.players, state.stage, state.order
        buf = self._zeros[players][:]
        blocks, score = self._sheet_block(state.sheet, players, seat, state.variant)
        buf[28] = len(state.disciplines)
        base = self._bases[players]
        for k in range(players):
            b = blocks[k]
            buf[base[k] + 8 : base[k] + 10 + len(b) - 2] = b
        buf[self.HEAD - 1] = order.index(seat) if seat in order else -1
        if stage is None:
            buf[10 + self._phase["game-over"]] = 1
            buf[20:28] = [0, 0, -1, -1, -1, -1, -1, -1]
            return self._flush(buf, out, score)
        event = state.disciplines[state.discipline_no]
        buf[self._event[event]] = 1
        buf[self.HEAD - 2] = order[stage.turn] == seat
        rows = _order(seat, players) if players > 1 else (0,)
        thrown: tuple[int, ...] = ()
        frozen: tuple[int, ...] = ()
        run_up: tuple[int, ...] = ()
        shot: tuple[int, ...] = ()
        last: tuple[int, ...] = ()
        freezable: Any = ()
        scalars: list[float] = [0, 0, -1, -1, -1, -1, -1, -1]
        if isinstance(stage, HeightsStage):
            phase = "vault-dice" if stage.committed else "jump-or-skip"
            scalars[6], scalars[7] = stage.height, stage.jumps
            last = stage.last
            for k, s in enumerate(rows):
                b = stage.cleared[s]
                buf[base[k]] = 0 if b is None else b
                buf[base[k] + 1] = b is not None
                buf[base[k] + 5 + self._status[stage.status[s]]] = 1
        else:
            scalars[0], scalars[1] = stage.round, attempts(event)
            for k, s in enumerate(rows):
                tries = stage.tries[s]
                valid = [t for t in tries if t is not None]
                if valid:
                    buf[base[k]], buf[base[k] + 1] = max(valid), 1
                for i, t in enumerate(tries[:3]):
                    buf[base[k] + 2 + i] = -1 if t is None else t
            attempt = stage.attempt
            if isinstance(attempt, SetsAttempt):
                rule = SET_RULES[event]
                phase = "keep-or-rethrow"
                scalars[2], scalars[3] = attempt.rethrows_left, attempt.set_no
                scalars[4], scalars[5] = rule.sets, rule.set_size
                thrown = attempt.thrown
                frozen = tuple(d for fs in attempt.frozen_sets for d in fs)
            elif isinstance(attempt, LongJumpAttempt):
                phase, thrown, run_up = attempt.phase, attempt.thrown, attempt.run_up
                frozen = attempt.jump if phase == "jump-freeze" else attempt.run_up
                freezable = range(len(thrown))
            elif isinstance(attempt, ShotPutAttempt):
                phase, shot = "throw-or-stop", attempt.dice
            else:
                phase, thrown, frozen = attempt.phase, attempt.thrown, attempt.frozen
                freezable = allowed_positions(event, thrown)
        buf[10 + self._phase[phase]] = 1
        buf[20:28] = scalars
        at = 29
        for block in (thrown, frozen, run_up, shot, last):
            n = min(len(block), 8)
            buf[at : at + n] = block[:n]
            at += 8
        for pos in freezable:
            buf[at + pos] = 1
        return self._flush(buf, out, score)

    def _flush(self, buf: list[float], out: Obs, score: float) -> float:
        out[:] = buf
        return score


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
