"""The fairness checks of a record: its seed against the commitment made before the
game, and the parts the server made for silent seats (``docs/fairness.md``)."""

from __future__ import annotations

from gamenight.core.errors import RecordError
from gamenight.core.record.format import Record
from gamenight.core.seeds import PLAYERS, committed_scheme, fingerprint, server_part


def check_commitment(record: Record, seed: int, name: str) -> int:
    """The dice scheme the record's revealed ``seed`` was committed with (1 for a
    format-1 record, which predates commitments). :class:`RecordError` if the seed
    does not match the commitment, or the scheme does not match the format version
    (scheme 1 for formats 1 and 2, scheme 2 from format 3)."""
    if record.commitment is None:
        return 1
    bound = committed_scheme(
        record.commitment, seed, record.game, record.rules_version, record.options,
        entropy=record.entropy,
    )  # fmt: skip
    if bound is None or (bound == 1) != (record.format_version < 3):
        raise RecordError(
            "{name}: the seed does not match the commitment {commitment} "
            "made before the game; this record's dice were changed",
            name=name,
            commitment=fingerprint(record.commitment),
        )
    return bound


def check_server_parts(record: Record, name: str) -> None:
    """Under :data:`~gamenight.core.seeds.PLAYERS` every part the server made for a
    silent seat is :func:`~gamenight.core.seeds.server_part` of the revealed seed: the
    server could not choose it after seeing the players' parts."""
    if record.entropy != PLAYERS or record.seed is None:
        return
    for part in record.contributions:
        if part.by == "server" and part.value != server_part(record.seed, part.seat):
            raise RecordError(
                "{name}: seat {seat}'s part, made by the server, is not the one "
                "its committed seed gives; this record's dice were changed",
                name=name,
                seat=part.seat + 1,
            )
