"""The High Jump (D8) and the Pole Vault (D9): the bar rises by 2 each round.

At each height every player still in, in player order, chooses to jump, skip
or retire. A jumper takes up to 3 jumps before the next player acts and may not
bail out after a miss; a clear ends their turn at that height, three misses end
their event. High jumpers throw 5 dice, so their jumps after a miss are thrown
automatically; pole vaulters choose 1-8 dice before every jump and fail on any
1. The event ends when nobody is still in or the bar passes its top height.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

import msgspec

from gamenight.core.errors import IllegalActionError
from gamenight.games.decathlon.actions import Action, Jump, Retire, Skip, Vault
from gamenight.games.decathlon.disciplines import (
    HEIGHT_RULES,
    JUMPS_PER_HEIGHT,
    MAX_VAULT_DICE,
    NAMES,
)
from gamenight.games.decathlon.umpire import Umpire

Status = Literal["in", "out", "retired"]
T = TypeVar("T")


class HeightsStage(msgspec.Struct, frozen=True, tag="heights"):
    """A height event in progress.

    ``turn`` indexes the event's player order; ``jumps`` counts the acting
    player's jumps at this height, ``committed`` says they chose to jump it.
    ``marks`` per seat: (height, mark) with "-" skipped, "o"/"xo"/"xxo" cleared,
    "xxx" failed, "r" retired there.
    """

    height: int
    turn: int
    status: tuple[Status, ...]
    cleared: tuple[int | None, ...]
    jumps: int = 0
    committed: bool = False
    marks: tuple[tuple[tuple[int, str], ...], ...] = ()
    last: tuple[int, ...] = ()


@dataclass(frozen=True)
class Over:
    """The event is over; ``cleared`` is each seat's highest height cleared (``None``: none).

    It carries the results of the final stage, so a clear on the very last jump
    (the top height, D8/D9) counts.
    """

    cleared: tuple[int | None, ...]


def begin(event: str, players: int, ump: Umpire) -> HeightsStage:
    first = HEIGHT_RULES[event].first
    everyone_in: tuple[Status, ...] = tuple("in" for _ in range(players))
    ump.announce("bar", height=first)
    return HeightsStage(first, 0, everyone_in, (None,) * players, marks=((),) * players)


def legal(event: str, stage: HeightsStage) -> list[Action]:
    if stage.committed:  # only a pole vaulter waits here, to choose the dice
        return [Vault(n) for n in range(1, MAX_VAULT_DICE + 1)]
    return [Jump(), Skip(), Retire()]


def act(
    event: str, order: Sequence[int], stage: HeightsStage, action: Action, ump: Umpire
) -> HeightsStage | Over:
    """The stage after ``action`` by the acting player, or :class:`Over` with the results."""
    seat, rule, name = order[stage.turn], HEIGHT_RULES[event], NAMES[event]
    if stage.committed:
        if not isinstance(action, Vault):
            raise IllegalActionError(
                f"you chose to jump {stage.height} in the {name}: there is no bail-out (D9); "
                f"choose how many dice to throw, 1 to {MAX_VAULT_DICE}"
            )
        if not 1 <= action.dice <= MAX_VAULT_DICE:
            raise IllegalActionError(
                f"a pole vaulter throws 1 to {MAX_VAULT_DICE} dice, not {action.dice}"
            )
        return _jump(event, order, stage, action.dice, ump)
    if isinstance(action, Skip):
        ump.announce("skip", seat, height=stage.height)
        return _next(event, order, _mark(stage, seat, "-"), ump)
    if isinstance(action, Retire):
        ump.announce("retire", seat, height=stage.height)
        status = _set(stage.status, seat, "retired")
        return _next(
            event, order, msgspec.structs.replace(_mark(stage, seat, "r"), status=status), ump
        )
    if isinstance(action, Jump):
        ump.announce("jump", seat, height=stage.height)
        stage = msgspec.structs.replace(stage, committed=True)
        if rule.fixed_dice is None:
            return stage  # D9: the vaulter now chooses the dice for the first jump
        return _jump(event, order, stage, rule.fixed_dice, ump)
    raise IllegalActionError(f"at height {stage.height} in the {name} you may jump, skip or retire")


def _jump(
    event: str, order: Sequence[int], stage: HeightsStage, dice: int, ump: Umpire
) -> HeightsStage | Over:
    rule, seat, height = HEIGHT_RULES[event], order[stage.turn], stage.height
    jump = stage.jumps + 1
    faces = ump.throw(seat, dice, what="height", height=height, jump=jump)
    total = sum(faces)
    stage = msgspec.structs.replace(stage, jumps=jump, last=faces)
    faults = [f"total {total} < {height}"] if total < height else []
    if rule.ones_fail and 1 in faces:  # D9: any 1 fails the jump
        faults.append(f"a 1 shows (total {total})" if not faults else "a 1 shows")
    if faults:
        ump.announce("miss", seat, height=height, jump=jump, reason=" and ".join(faults))
    else:
        ump.announce("clear", seat, height=height, jump=jump, total=total)
        cleared = _set(stage.cleared, seat, height)
        stage = _mark(msgspec.structs.replace(stage, cleared=cleared), seat, "x" * (jump - 1) + "o")
        return _next(event, order, stage, ump)
    if jump == JUMPS_PER_HEIGHT:  # D8: three failures end this player's event
        ump.announce("out", seat, height=height, best=stage.cleared[seat])
        status = _set(stage.status, seat, "out")
        stage = _mark(msgspec.structs.replace(stage, status=status), seat, "xxx")
        return _next(event, order, stage, ump)
    if rule.fixed_dice is None:
        return stage  # D9: the vaulter chooses the dice for the next jump
    return _jump(event, order, stage, rule.fixed_dice, ump)  # D8: no bail-out after a miss


def _next(
    event: str, order: Sequence[int], stage: HeightsStage, ump: Umpire
) -> HeightsStage | Over:
    """Hand the bar to the next player still in, raising it after the last one."""
    rule = HEIGHT_RULES[event]
    height, pos = stage.height, stage.turn + 1
    while "in" in stage.status:
        if pos == len(order):
            height, pos = height + rule.step, 0
            if height > rule.top:
                return Over(stage.cleared)  # D8/D9: the bar has passed its top height
            ump.announce("bar", height=height)
        if stage.status[order[pos]] == "in":
            return msgspec.structs.replace(
                stage, height=height, turn=pos, jumps=0, committed=False, last=()
            )
        pos += 1
    return Over(stage.cleared)  # D8: nobody is still in


def _mark(stage: HeightsStage, seat: int, mark: str) -> HeightsStage:
    marks = list(stage.marks)
    marks[seat] = (*marks[seat], (stage.height, mark))
    return msgspec.structs.replace(stage, marks=tuple(marks))


def _set(values: tuple[T, ...], seat: int, value: T) -> tuple[T, ...]:
    return tuple(value if i == seat else v for i, v in enumerate(values))
