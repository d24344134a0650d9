"""The Kniffel Dice Duel state machine: states, actions and pure transitions.

A turn (K4) starts with an automatic roll of all five dice. After the 1st and
2nd roll the player either rolls again (:class:`Roll`, naming the dice to keep;
dice kept earlier may be taken back), takes a chip the dice earn (:class:`Take`,
which ends the turn), or ends the turn without one (:class:`Stop`; K4 revised:
a chip the dice earn may be declined). After the 3rd roll the player takes a
chip or declines; only dice that earn no chip end the turn by themselves, with
an event. A declined chip is no chip for K5.

Rules version 1 (K4 before its revision: every chip the dice earn must be taken,
and a single possible chip after the 3rd roll is taken automatically) lives on in
``DiceDuelState.may_decline = False``, so that older records replay.

A Kniffel (K2) takes any chip from the plate or the set-aside pile and gives
an extra turn; in solo it takes two chips (K7). Rounds (K5), the end the moment
the plate is empty (K6) and the solo set-aside after a chipless turn (K7) are
applied between turns.

The module speaks the rules dialect every game speaks: :func:`start`,
:func:`to_act`, :func:`legal_actions` and :func:`apply`, the first and last
returning a :class:`~gamenight.core.game.Transition` (the new state and its events).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Literal

import msgspec
from msgspec.structs import replace

from gamenight.core.dice import DiceSource
from gamenight.core.errors import IllegalActionError, Term
from gamenight.core.game import Transition
from gamenight.core.options import Options
from gamenight.core.umpire import Umpire
from gamenight.games.dice_duel.combinations import (
    CHIP_VALUE,
    CHIPS_PER_COMBINATION,
    COMBINATIONS,
    DICE,
    INDEX,
    LABEL,
    VALUES,
    Combination,
    is_kniffel,
    satisfied,
)
from gamenight.games.dice_duel.events import (
    ChipTaken,
    DiceDuelEvent,
    GameOver,
    NoChip,
    Rolled,
    SetAside,
    Source,
    StartPlayer,
    TurnBegan,
)
from gamenight.games.dice_duel.scoring import Score, score

Mode = Literal["multi", "solo"]
Phase = Literal["roll", "pick", "over"]
ROLLS_PER_TURN = 3  # K4
SOURCES: tuple[Source, ...] = ("plate", "set-aside")


class Roll(msgspec.Struct, frozen=True, tag="roll"):
    """Keep the dice at ``keep`` (positions 0–4, increasing) and roll the others."""

    keep: tuple[int, ...] = ()


class Take(msgspec.Struct, frozen=True, tag="take"):
    """End the turn and take a chip of ``combination`` from ``source``.

    Only a Kniffel may take from the set-aside pile, or a chip its dice do not make.
    """

    combination: Combination
    source: Source = "plate"


class Stop(msgspec.Struct, frozen=True, tag="stop"):
    """End the turn without a chip: the dice earn none, or the player declines it (K4).

    Not after a solo Kniffel's first chip (its second chip is part of the same award)."""


Action = Roll | Take | Stop

# Every keep choice that still rolls at least one die, in canonical form.
ALL_ROLLS: tuple[Roll, ...] = tuple(
    Roll(keep=keep) for size in range(DICE) for keep in combinations(range(DICE), size)
)


class DiceDuelState(msgspec.Struct, frozen=True):
    """Everything about a game in progress; per-combination tuples follow COMBINATIONS."""

    mode: Mode
    players: int
    dice: DiceSource
    starter: int  # K7: drawn at random in multiplayer
    current: int
    round: int  # K5: one turn by every player (in solo: one turn), extra turns included
    plate: tuple[int, ...]
    set_aside: tuple[int, ...]
    chips: tuple[tuple[int, ...], ...]  # per player, per combination
    phase: Phase
    faces: tuple[int, ...] = ()
    kept: tuple[bool, ...] = ()  # which dice were kept for the latest roll
    rolls_used: int = 0
    picks: int = 0  # chips taken so far this turn (a solo Kniffel takes two)
    round_chip: bool = False  # K5: somebody took a chip this round
    last_chip: int | None = None  # K6: who took the last chip from the plate
    end: str = ""  # why the game ended
    may_decline: bool = True  # K4 revised; False: rules version 1 (take whatever is earned)


# ----- what may be done ----------------------------------------------------------


def take_options(
    faces: Sequence[int], plate: Sequence[int], set_aside: Sequence[int]
) -> list[Take]:
    """The chips these final dice may take (K2, K4, K5)."""
    if is_kniffel(faces):
        # K2: a Kniffel takes any chip, from the plate or the set-aside pile.
        return [Take(c, "plate") for c, n in zip(COMBINATIONS, plate, strict=True) if n] + [
            Take(c, "set-aside") for c, n in zip(COMBINATIONS, set_aside, strict=True) if n
        ]
    return [Take(combination=c) for c in satisfied(faces) if plate[INDEX[c]]]


def legal_for(
    phase: str,
    faces: Sequence[int],
    plate: Sequence[int],
    set_aside: Sequence[int],
    picks: int = 0,
    may_decline: bool = True,
) -> list[Action]:
    """The legal actions of the player to act, from public information only (a view's):
    the chips the dice earn, stopping (without a chip: when they earn none, or to decline,
    K4) and, with rolls left, every keep."""
    if phase == "over":
        return []
    takes: list[Action] = list(take_options(faces, plate, set_aside))
    stop: list[Action] = [Stop()] if can_stop(phase, bool(takes), picks, may_decline) else []
    if phase == "pick":
        return [*takes, *stop]
    return [*takes, *stop, *ALL_ROLLS]


def can_stop(phase: str, earned: bool, picks: int, may_decline: bool) -> bool:
    """Whether the turn may end without a(nother) chip (K4). Version 1: only on dice
    that earn nothing. A solo Kniffel's second chip is part of its award (K7)."""
    if picks:
        return False
    if phase == "roll":
        return may_decline or not earned
    return phase == "pick" and may_decline


def scores(state: DiceDuelState) -> tuple[Score, ...]:
    """Every player's running total, bonuses included."""
    return tuple(score(held, state.last_chip == p) for p, held in enumerate(state.chips))


# ----- starting ------------------------------------------------------------------

Referee = Umpire[DiceDuelEvent]


def start(
    players: int, options: Options, dice: DiceSource
) -> Transition[DiceDuelState, DiceDuelEvent]:
    """Fill the plate, draw the starting player (K7) and play the first roll.

    ``options`` are parsed; only ``mode`` (multi or solo) matters here.
    """
    mode: Mode = options["mode"]
    return begin(players, mode, dice, may_decline=True)


def begin(
    players: int, mode: Mode, dice: DiceSource, *, may_decline: bool
) -> Transition[DiceDuelState, DiceDuelEvent]:
    """:func:`start` under either reading of K4 (``may_decline`` False: rules version 1)."""
    umpire: Referee = Umpire(dice)
    starter = 0
    if mode == "multi":
        draw = umpire.roll(1, sides=players)[0]
        starter = draw - 1
        umpire.announce(StartPlayer(player=starter, draw=draw, players=players))
    state = DiceDuelState(
        mode=mode,
        players=players,
        dice=dice,
        starter=starter,
        current=starter,
        round=1,
        plate=(CHIPS_PER_COMBINATION,) * len(COMBINATIONS),
        set_aside=(0,) * len(COMBINATIONS),
        chips=((0,) * len(COMBINATIONS),) * players,
        phase="roll",
        may_decline=may_decline,
    )
    state = _start_turn(state, umpire, starter, extra=False)
    return Transition(replace(state, dice=umpire.dice), umpire.events)


# ----- applying an action ----------------------------------------------------------


def to_act(state: DiceDuelState) -> tuple[int, ...]:
    """The seat to act: the current player's, none once the game is over."""
    return () if state.phase == "over" else (state.current,)


def legal_actions(state: DiceDuelState, seat: int) -> list[Action]:
    """Everything ``seat`` may do now (nothing unless it is to act)."""
    if seat not in to_act(state):
        return []
    return legal_for(
        state.phase, state.faces, state.plate, state.set_aside, state.picks, state.may_decline
    )


def apply(
    state: DiceDuelState, seat: int, action: Action
) -> Transition[DiceDuelState, DiceDuelEvent]:
    """Validate ``action`` by ``seat`` and apply it; raises IllegalActionError.

    ``seat`` must be the one to act (Game.apply checks the turn and the action's class).
    """
    if isinstance(action, Roll):
        _check_roll(state, action)
    elif isinstance(action, Take):
        _check_take(state, action)
    else:
        _check_stop(state)
    umpire: Referee = Umpire(state.dice)
    if isinstance(action, Roll):
        new = _roll(state, action.keep, umpire)
    elif isinstance(action, Take):
        new = _take(state, action, umpire, auto=False)
    else:
        earned = bool(take_options(state.faces, state.plate, state.set_aside))
        umpire.announce(NoChip(player=state.current, reason="declined" if earned else "stopped"))
        new = _end_turn(state, umpire)
    return Transition(replace(new, dice=umpire.dice), umpire.events)


def _check_roll(state: DiceDuelState, action: Roll) -> None:
    if state.phase != "roll":
        raise IllegalActionError("no rolls left this turn: take a chip")
    keep = action.keep
    if not isinstance(keep, tuple) or not all(
        isinstance(i, int) and not isinstance(i, bool) for i in keep
    ):
        raise IllegalActionError("keep must list dice positions 0–4, got {keep}", keep=repr(keep))
    if any(not 0 <= i < DICE for i in keep):
        raise IllegalActionError("keep {keep}: dice positions run from 0 to 4", keep=list(keep))
    if list(keep) != sorted(set(keep)):
        raise IllegalActionError("keep {keep}: list each position once, in order", keep=list(keep))
    if len(keep) == DICE:
        raise IllegalActionError("keeping all five dice rolls nothing: take a chip or stop")


def _check_take(state: DiceDuelState, action: Take) -> None:
    combination, source = action.combination, action.source
    if not isinstance(combination, str) or combination not in INDEX:
        raise IllegalActionError(
            "unknown combination {combination} (one of {combinations})",
            combination=repr(combination),
            combinations=", ".join(COMBINATIONS),
        )
    if not isinstance(source, str) or source not in SOURCES:
        raise IllegalActionError(
            "unknown chip source {source} (plate or set-aside)", source=repr(source)
        )
    label = _combination(combination)
    if not is_kniffel(state.faces):
        if source == "set-aside":
            # K5: set-aside chips are won with a Kniffel only.
            raise IllegalActionError("set-aside chips can only be taken with a Kniffel")
        if combination not in satisfied(state.faces):
            raise IllegalActionError(
                "the dice {dice} do not make a {combination}",
                dice=_faces(state.faces),
                combination=label,
            )
    held = state.plate if source == "plate" else state.set_aside
    if not held[INDEX[combination]]:
        if source == "plate":
            raise IllegalActionError(
                "no {combination} chip is left on the plate", combination=label
            )
        raise IllegalActionError(
            "no {combination} chip is left on the set-aside pile", combination=label
        )


def _check_stop(state: DiceDuelState) -> None:
    takes = take_options(state.faces, state.plate, state.set_aside)
    if can_stop(state.phase, bool(takes), state.picks, state.may_decline):
        return
    if state.picks:
        raise IllegalActionError("a solo Kniffel takes two chips: take the second one")
    # rules version 1: a turn ends empty-handed only when the dice earn nothing
    earned = tuple(
        _combination(c) for c in sorted({t.combination for t in takes}, key=lambda c: INDEX[c])
    )
    raise IllegalActionError(
        "the dice earn a chip, so take one: {combinations}", combinations=earned
    )


def _combination(combination: Combination) -> Term:
    """A combination's name, as a term the player's language says."""
    return Term("dd.combo." + combination, LABEL[combination])  # the vocabulary has the key


# ----- transitions (pure: each returns a new state; the umpire throws and narrates) ---------
#
# Inside one call the umpire holds the dice; ``state.dice`` is stale until the
# call puts the umpire's dice back (start, apply).


def _start_turn(
    state: DiceDuelState, umpire: Referee, player: int, *, extra: bool
) -> DiceDuelState:
    state = replace(state, current=player, phase="roll", faces=(), kept=(), rolls_used=0, picks=0)
    umpire.announce(TurnBegan(player=player, round=state.round, extra=extra))
    return _roll(state, (), umpire)


def _roll(state: DiceDuelState, keep: Sequence[int], umpire: Referee) -> DiceDuelState:
    rolled = umpire.roll(DICE - len(keep))
    fresh = iter(rolled)
    faces = tuple(state.faces[i] if i in keep else next(fresh) for i in range(DICE))
    state = replace(
        state,
        faces=faces,
        kept=tuple(i in keep for i in range(DICE)),
        rolls_used=state.rolls_used + 1,
    )
    makes = (*satisfied(faces), *(("kniffel",) if is_kniffel(faces) else ()))
    umpire.announce(
        Rolled(
            player=state.current,
            roll=state.rolls_used,
            kept=tuple(keep),
            rolled=rolled,
            dice=faces,
            makes=makes,
        )
    )
    if state.rolls_used == ROLLS_PER_TURN:
        return _settle(state, umpire)
    return state


def _settle(state: DiceDuelState, umpire: Referee) -> DiceDuelState:
    """Rolling is over: end empty-handed when the dice earn nothing, else ask (take a
    chip or decline it, K4). Where there is no choice (rules version 1, or a solo
    Kniffel's second chip) a single possible chip is taken at once."""
    takes = take_options(state.faces, state.plate, state.set_aside)
    if not takes:
        umpire.announce(NoChip(player=state.current, reason="no chip for these dice"))
        return _end_turn(state, umpire)
    if len(takes) == 1 and not can_stop("pick", True, state.picks, state.may_decline):
        return _take(state, takes[0], umpire, auto=True)
    return replace(state, phase="pick")


def _take(state: DiceDuelState, take: Take, umpire: Referee, *, auto: bool) -> DiceDuelState:
    i, player = INDEX[take.combination], state.current
    plate, set_aside = list(state.plate), list(state.set_aside)
    (plate if take.source == "plate" else set_aside)[i] -= 1
    held = list(state.chips[player])
    held[i] += 1
    chips = tuple(tuple(held) if p == player else c for p, c in enumerate(state.chips))
    emptied = take.source == "plate" and not any(plate)
    kniffel = is_kniffel(state.faces)
    umpire.announce(
        ChipTaken(
            player=player,
            combination=take.combination,
            source=take.source,
            value=CHIP_VALUE[take.combination],
            kniffel=kniffel,
            auto=auto,
        )
    )
    state = replace(
        state,
        plate=tuple(plate),
        set_aside=tuple(set_aside),
        chips=chips,
        picks=state.picks + 1,
        round_chip=True,
        last_chip=player if emptied else state.last_chip,
    )
    if kniffel:
        # K7: a solo Kniffel takes two chips. If the first empties the plate, the
        # second may still come from the set-aside pile before the game ends.
        wanted = 2 if state.mode == "solo" else 1
        if state.picks < wanted and (any(state.plate) or any(state.set_aside)):
            return _settle(replace(state, phase="pick"), umpire)
    if not any(state.plate):
        return _finish(state, umpire, "the plate is empty")  # K6: at once
    if kniffel:
        return _start_turn(state, umpire, player, extra=True)  # K2: another turn
    return _end_turn(state, umpire)


def _end_turn(state: DiceDuelState, umpire: Referee) -> DiceDuelState:
    if state.mode == "solo":
        # K7: every turn without a chip sets aside the highest chip on the plate.
        if not state.picks:
            state = _set_aside(state, umpire, "turn")
            if not any(state.plate):
                return _finish(state, umpire, "the last chip on the plate was set aside")
        # Each solo turn is a round of its own, so the round's chip flag starts afresh.
        state = replace(state, round=state.round + 1, round_chip=False)
        return _start_turn(state, umpire, 0, extra=False)
    following = (state.current + 1) % state.players
    if following == state.starter:
        # K5: a round without any chip taken sets aside the highest chip on the plate.
        if not state.round_chip:
            state = _set_aside(state, umpire, "round")
            if not any(state.plate):
                return _finish(state, umpire, "the last chip on the plate was set aside")
        state = replace(state, round=state.round + 1, round_chip=False)
    return _start_turn(state, umpire, following, extra=False)


def _set_aside(
    state: DiceDuelState, umpire: Referee, chipless: Literal["round", "turn"]
) -> DiceDuelState:
    i = max(j for j, n in enumerate(state.plate) if n)  # chips ascend in value
    plate, set_aside = list(state.plate), list(state.set_aside)
    plate[i] -= 1
    set_aside[i] += 1
    umpire.announce(SetAside(combination=COMBINATIONS[i], value=VALUES[i], chipless=chipless))
    return replace(state, plate=tuple(plate), set_aside=tuple(set_aside))


def _finish(state: DiceDuelState, umpire: Referee, reason: str) -> DiceDuelState:
    state = replace(state, phase="over", end=reason)
    totals = tuple(s.total for s in scores(state))
    umpire.announce(GameOver(reason=reason, last_chip=state.last_chip, totals=totals))
    return state


def _faces(faces: Sequence[int]) -> str:
    return "-".join(str(f) for f in faces)
