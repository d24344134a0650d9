"""The record format: its name and versions, and what a parsed record holds.

Format version 4 (``docs/fairness.md`` says why it looks like this; version 3 is
version 2 with dice scheme 2, bound by the commitment; version 4 adds ``entropy``).
:mod:`gamenight.core.record` describes the lines.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeAlias

from gamenight.core.errors import RecordError
from gamenight.core.seeds import SERVER, dice_seed

Json: TypeAlias = "bool | int | float | str | list[Json] | dict[str, Json] | None"
"""A JSON value as :func:`json.loads` gives it: what a record's lines hold."""

FORMAT = "gamenight-record"
FORMAT_VERSION = 4  # 3: dice scheme 2 bound by the commitment; 4: the entropy scheme named
SUPPORTED_VERSIONS = (1, 2, 3, 4)
MAX_DEPTH = 64  # deeper JSON is damage, not a record (and would exhaust the stack)


@dataclass(frozen=True)
class RecordSeat:
    name: str
    agent: str  # "human" or "bot:<name>"


CONTRIBUTORS = ("player", "server", "bot")


@dataclass(frozen=True)
class Contribution:
    """One seat's part of a game's dice seed (entropy scheme PLAYERS): ``by`` the
    ``"player"`` (their client sent ``value``), the ``"server"`` (it sent none in time)
    or ``"bot"`` (a bot seat contributes nothing: ``value`` is None)."""

    seat: int
    by: str
    value: str | None

    def to_json(self) -> dict[str, Json]:
        return {"seat": self.seat, "by": self.by, "value": self.value}


@dataclass
class Record:
    """A parsed record; ``actions`` holds ``(seat, action JSON, events JSON)``; ``results``
    is None until the game's results line.

    ``seed`` is ``None`` while it is secret (a server record before its reveal).
    """

    game: str
    rules_version: str
    options: dict[str, Json]
    seed: int | None
    seats: list[RecordSeat]
    commitment: str | None = None
    attachments: dict[str, Json] = field(default_factory=dict)
    format_version: int = FORMAT_VERSION
    started: str | None = None
    start_events: list[Json] = field(default_factory=list)
    actions: list[tuple[int, Json, list[Json]]] = field(default_factory=list)
    results: Json = None
    entropy: str = SERVER
    contributions: list[Contribution] = field(default_factory=list)
    seed_chosen: bool = False  # the player chose the seed (--seed): not secret

    @property
    def finished(self) -> bool:
        return self.results is not None

    def dice_seed(self) -> int | None:
        """The seed the dice came from (None while the seed is secret)."""
        if self.seed is None or self.entropy == SERVER:
            return self.seed
        return dice_seed(self.seed, [c.value for c in self.contributions])


class RecordMovedError(RecordError):
    """The game of this record was saved elsewhere after a failed write; go on there."""

    @property
    def to(self) -> str:
        """The record the game went on in."""
        return str(self.fields["to"])
