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
from typing import Literal, TypeVar

import msgspec

from gamenight.core.errors import IllegalActionError
from gamenight.games.decathlon.actions import Action, Jump, Retire, Skip, Vault
from gamenight.games.decathlon.disciplines import (
    HEIGHT_RULES,
    JUMPS_PER_HEIGHT,
    MAX_VAULT_DICE,
    TERMS,
)
from gamenight.games.decathlon.events import (
    Bar,
    Cleared,
    Jumped,
    Missed,
    Out,
    Retired,
    Rolled,
    Skipped,
    Ump,
)

Status = Literal["in", "out", "retired"]
T = TypeVar("T")


class HeightsStage(msgspec.Struct, frozen=True, gc=False, tag="heights"):
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


class Over(msgspec.Struct, frozen=True, gc=False):
    """The event is over; ``cleared`` is each seat's highest height cleared (``None``: none).

    It carries the results of the final stage, so a clear on the very last jump
    (the top height, D8/D9) counts.
    """

    cleared: tuple[int | None, ...]


def begin(discipline: str, players: int, ump: Ump) -> HeightsStage:
    first = HEIGHT_RULES[discipline].first
    everyone_in: tuple[Status, ...] = tuple("in" for _ in range(players))
    ump.announce(Bar(height=first))
    return HeightsStage(first, 0, everyone_in, (None,) * players, marks=((),) * players)


# actions are values: these serve every list
_VAULTS: tuple[Action, ...] = tuple(Vault(n) for n in range(1, MAX_VAULT_DICE + 1))
_AT_THE_BAR: tuple[Action, ...] = (Jump(), Skip(), Retire())


def legal(discipline: str, stage: HeightsStage) -> list[Action]:
    if stage.committed:  # only a pole vaulter waits here, to choose the dice
        return list(_VAULTS)
    return list(_AT_THE_BAR)


def act(
    discipline: str, order: Sequence[int], stage: HeightsStage, action: Action, ump: Ump
) -> HeightsStage | Over:
    """The stage after ``action`` by the acting player, or :class:`Over` with the results."""
    seat, rule, event = order[stage.turn], HEIGHT_RULES[discipline], TERMS[discipline]
    if stage.committed:
        if not isinstance(action, Vault):
            raise IllegalActionError(
                "you chose to jump {height} in the {event}: there is no bail-out; "  # D9
                "choose how many dice to throw, 1 to {most}",
                height=stage.height,
                event=event,
                most=MAX_VAULT_DICE,
            )
        if not 1 <= action.dice <= MAX_VAULT_DICE:
            raise IllegalActionError(
                "a pole vaulter throws 1 to {most} dice, not {n}",
                most=MAX_VAULT_DICE,
                n=action.dice,
            )
        return _jump(discipline, order, stage, action.dice, ump)
    if isinstance(action, Skip):
        ump.announce(Skipped(player=seat, height=stage.height))
        return _next(discipline, order, _mark(stage, seat, "-"), ump)
    if isinstance(action, Retire):
        ump.announce(Retired(player=seat, height=stage.height))
        status = _set(stage.status, seat, "retired")
        return _next(
            discipline, order, msgspec.structs.replace(_mark(stage, seat, "r"), status=status), ump
        )
    if isinstance(action, Jump):
        ump.announce(Jumped(player=seat, height=stage.height))
        stage = msgspec.structs.replace(stage, committed=True)
        if rule.fixed_dice is None:
            return stage  # D9: the vaulter now chooses the dice for the first jump
        return _jump(discipline, order, stage, rule.fixed_dice, ump)
    raise IllegalActionError(
        "at height {height} in the {event} you may jump, skip or retire",
        height=stage.height,
        event=event,
    )


def _jump(
    discipline: str, order: Sequence[int], stage: HeightsStage, dice: int, ump: Ump
) -> HeightsStage | Over:
    rule, seat, height = HEIGHT_RULES[discipline], order[stage.turn], stage.height
    jump = stage.jumps + 1
    faces = ump.roll(dice)
    ump.announce(Rolled(player=seat, dice=faces, what="height", height=height, jump=jump))
    total = sum(faces)
    stage = msgspec.structs.replace(stage, jumps=jump, last=faces)
    faults = [f"total {total} < {height}"] if total < height else []
    if rule.ones_fail and 1 in faces:  # D9: any 1 fails the jump
        faults.append(f"a 1 shows (total {total})" if not faults else "a 1 shows")
    if faults:
        ump.announce(Missed(player=seat, height=height, jump=jump, reason=" and ".join(faults)))
    else:
        ump.announce(Cleared(player=seat, height=height, jump=jump, total=total))
        cleared = _set(stage.cleared, seat, height)
        stage = _mark(msgspec.structs.replace(stage, cleared=cleared), seat, "x" * (jump - 1) + "o")
        return _next(discipline, order, stage, ump)
    if jump == JUMPS_PER_HEIGHT:  # D8: three failures end this player's event
        ump.announce(Out(player=seat, height=height, best=stage.cleared[seat]))
        status = _set(stage.status, seat, "out")
        stage = _mark(msgspec.structs.replace(stage, status=status), seat, "xxx")
        return _next(discipline, order, stage, ump)
    if rule.fixed_dice is None:
        return stage  # D9: the vaulter chooses the dice for the next jump
    return _jump(discipline, order, stage, rule.fixed_dice, ump)  # D8: no bail-out after a miss


def _next(
    discipline: str, order: Sequence[int], stage: HeightsStage, ump: Ump
) -> HeightsStage | Over:
    """Hand the bar to the next player still in, raising it after the last one."""
    rule = HEIGHT_RULES[discipline]
    height, pos = stage.height, stage.turn + 1
    while "in" in stage.status:
        if pos == len(order):
            height, pos = height + rule.step, 0
            if height > rule.top:
                return Over(stage.cleared)  # D8/D9: the bar has passed its top height
            ump.announce(Bar(height=height))
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
    return (*values[:seat], value, *values[seat + 1 :])
