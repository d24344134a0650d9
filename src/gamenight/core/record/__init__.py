"""Game records in JSON Lines: write durably, load, replay and verify.

Format version 4 (``docs/fairness.md`` says why it looks like this; version 3 is
version 2 with dice scheme 2, bound by the commitment; version 4 adds ``entropy``):

1. a header: game id, rules version, options, ``attachments`` (content the
   options name, e.g. a user deck, so the record replays on any machine), the
   seats, the ``commitment`` (:func:`gamenight.core.seeds.commitment` over the
   seed, the game, its rules version and the options) and, in a local record,
   the ``seed`` itself (decimal string) so the game can be resumed; the
   ``entropy`` scheme (:data:`~gamenight.core.seeds.SERVER`: the seed is the dice
   seed; :data:`~gamenight.core.seeds.PLAYERS`: the dice seed is
   :func:`~gamenight.core.seeds.dice_seed` of the seed and the ``contributions``,
   one per seat, each with who made it);
2. the events of the start;
3. one line per action with the events it caused;
4. a finished game's ``results``;
5. optionally a last ``{"type": "reveal", "seed": "..."}`` line: a record written
   by a server keeps the seed out of the header and reveals it only here.

A record replays exactly because dice come from the seed: :func:`replay` checks
that the seed matches the commitment, re-derives every roll and card, and
compares every event with the recorded one. Version 1 records (seed in the
header, no commitment) still replay, without the commitment check.

One module per purpose, each importable on its own; this package gathers them:

* :mod:`~gamenight.core.record.format`: the format's versions and :class:`Record`;
* :mod:`~gamenight.core.record.disk`: opening, durable writes and reads of the file;
* :mod:`~gamenight.core.record.writer`: :class:`RecordWriter` and :func:`write_moves`;
* :mod:`~gamenight.core.record.reading`: :func:`read_record` and :func:`parse_record`;
* :mod:`~gamenight.core.record.fairness`: the commitment and server-part checks;
* :mod:`~gamenight.core.record.replay`: :func:`replay` and :func:`first_difference`;
* :mod:`~gamenight.core.record.resume`: :func:`resume_record`.
"""

from __future__ import annotations

from gamenight.core.record.format import (
    CONTRIBUTORS,
    FORMAT,
    FORMAT_VERSION,
    MAX_DEPTH,
    SUPPORTED_VERSIONS,
    Contribution,
    Json,
    Record,
    RecordMovedError,
    RecordSeat,
)
from gamenight.core.record.reading import parse_record, read_record
from gamenight.core.record.replay import ReplayReport, first_difference, replay
from gamenight.core.record.resume import Resumed, resume_record
from gamenight.core.record.writer import FailureHandler, RecordWriter, write_moves

__all__ = [
    "CONTRIBUTORS",
    "FORMAT",
    "FORMAT_VERSION",
    "MAX_DEPTH",
    "SUPPORTED_VERSIONS",
    "Contribution",
    "FailureHandler",
    "Json",
    "Record",
    "RecordMovedError",
    "RecordSeat",
    "RecordWriter",
    "ReplayReport",
    "Resumed",
    "first_difference",
    "parse_record",
    "read_record",
    "replay",
    "resume_record",
    "write_moves",
]
