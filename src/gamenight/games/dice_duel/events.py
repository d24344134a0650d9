"""What happens in Kniffel Dice Duel, as typed events (the JSON ``"kind"`` is the tag).

Everything on the table is public, so no event has an audience. Per-combination
names follow :data:`~gamenight.games.dice_duel.combinations.COMBINATIONS`.

>>> import msgspec
>>> e = Rolled(player=1, roll=2, kept=(0, 3), rolled=(4, 4, 2), dice=(6, 4, 4, 6, 2), makes=())
>>> msgspec.json.encode(e)[:40]
b'{"kind":"roll","player":1,"roll":2,"kept'
>>> msgspec.json.decode(msgspec.json.encode(e), type=DiceDuelEvent) == e
True
"""

from __future__ import annotations

from typing import Literal

from gamenight.core.events import Event
from gamenight.games.dice_duel.combinations import Combination

Source = Literal["plate", "set-aside"]


class StartPlayer(Event, frozen=True, tag="start-player"):
    """Multiplayer only (K7): die ``draw`` of ``players`` sides chose who starts."""

    player: int
    draw: int
    players: int


class TurnBegan(Event, frozen=True, tag="turn"):
    """``player`` starts a turn in ``round``; ``extra`` after a Kniffel (K2)."""

    player: int
    round: int
    extra: bool


class Rolled(Event, frozen=True, tag="roll"):
    """Roll ``roll`` (1–3) of a turn: the dice at positions ``kept`` stayed, the
    others came up ``rolled``; ``dice`` are all five faces after the roll, and
    ``makes`` the combinations they make (``"kniffel"`` included)."""

    player: int
    roll: int
    kept: tuple[int, ...]
    rolled: tuple[int, ...]
    dice: tuple[int, ...]
    makes: tuple[str, ...]


class ChipTaken(Event, frozen=True, tag="take"):
    """``player`` took a chip; ``auto`` when it was the only chip the final dice earned."""

    player: int
    combination: Combination
    source: Source
    value: int
    kniffel: bool
    auto: bool


class NoChip(Event, frozen=True, tag="no-chip"):
    """``player``'s turn ended without a chip: they stopped on dice that earned none,
    declined the chip the dice earned (K4), or the final dice earned none."""

    player: int
    reason: Literal["stopped", "declined", "no chip for these dice"]


class SetAside(Event, frozen=True, tag="set-aside"):
    """The plate's highest chip went to the set-aside pile after a ``chipless`` round
    (multiplayer, K5) or turn (solo, K7)."""

    combination: Combination
    value: int
    chipless: Literal["round", "turn"]


class GameOver(Event, frozen=True, tag="game-over"):
    """The plate is empty (K6): why, who took the last chip (if anybody), the totals."""

    reason: str
    last_chip: int | None
    totals: tuple[int, ...]


DiceDuelEvent = StartPlayer | TurnBegan | Rolled | ChipTaken | NoChip | SetAside | GameOver
