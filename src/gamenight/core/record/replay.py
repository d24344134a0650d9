"""Replaying a record through a :class:`~gamenight.core.table.Table`: every roll and
card re-derived from the seed, every event and the results compared with the
recorded ones. :func:`replay` hands the steps to visitors (python-chess's pgn
visitor is the model), once."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import msgspec

from gamenight.core import registry
from gamenight.core.dice import DICE_SCHEME, SeededDice
from gamenight.core.errors import (
    GamenightError,
    IllegalActionError,
    OptionsError,
    Phrase,
    RecordError,
)
from gamenight.core.events import Event
from gamenight.core.game import AnyGame, Results, to_json
from gamenight.core.record.fairness import check_commitment, check_server_parts
from gamenight.core.record.format import Json, Record
from gamenight.core.table import Listener, Table


@dataclass
class ReplayReport:
    game: str
    actions: int
    results: Results
    final_state: msgspec.Struct
    finished: bool = True
    committed: bool = False  # the seed was checked against the header's commitment
    table: Table | None = None
    dice_scheme: int = DICE_SCHEME  # the dice the record was played with (core.dice)


def replay(
    record: Record,
    name: str = "record",
    *,
    require_finished: bool = True,
    visitors: Sequence[Listener] = (),
    results_optional: bool = False,
) -> ReplayReport:
    """Replay ``record`` through a :class:`Table`, checking the seed against the
    commitment, every event and the results. Each of ``visitors`` gets every
    :class:`~gamenight.core.frames.Step` once, in order: the start (step 0), then
    each action after it is checked (so a visitor takes what it needs, e.g. a seat's
    :meth:`~gamenight.core.frames.Step.frame`). ``results_optional``: a finished game
    may lack its results line (the write of it failed).

    Raises :class:`RecordError` on the first difference, naming the action.
    """
    game = _rules(record, name)
    if record.seed is None:
        raise RecordError(
            "{name}: the seed is not revealed yet (the game is still secret), "
            "so its dice cannot be checked",
            name=name,
        )
    scheme = check_commitment(record, record.seed, name)
    check_server_parts(record, name)
    table = _table(record, game, scheme, name)
    _compare(table.start_events, record.start_events, Phrase("{name}: start of game", name=name))
    for visit in visitors:
        visit(table.opening)
    for index, (seat, raw_action, raw_events) in enumerate(record.actions, start=1):
        where = Phrase("{name}: action {index}", name=name, index=index)
        try:
            step = table.prepare(seat, game.decode_action(raw_action))
        except IllegalActionError as exc:
            raise RecordError("{where}: {reason}", where=where, reason=exc) from None
        _compare(step.events, raw_events, where)
        table.commit(step)
        for visit in visitors:
            visit(step)
    report = ReplayReport(
        game.info.id, len(record.actions), Results((), (), ()), table.state, False,
        record.commitment is not None, table, scheme,
    )  # fmt: skip
    if not table.finished:
        if require_finished or record.results is not None:
            raise RecordError(
                "{name}: the game is not finished after {count} actions",
                name=name,
                count=len(record.actions),
            )
        return report
    report.results, report.finished = game.results(table.state), True
    _check_results(record, report.results, name, optional=results_optional)
    return report


def _rules(record: Record, name: str) -> AnyGame:
    """The game the record was played under, in its recorded rules version (a
    revised game keeps its old reading)."""
    try:
        game: AnyGame = registry.get(record.game).game
    except (GamenightError, ModuleNotFoundError) as exc:
        raise RecordError("{name}: {reason}", name=name, reason=exc) from None
    if record.rules_version == game.info.rules_version:
        return game
    older = game.older_rules(record.rules_version)
    if older is None or older.info.rules_version != record.rules_version:
        raise RecordError(
            "{name}: recorded with {game} rules version {version}, this gamenight has {ours}",
            name=name,
            game=game.info.id,
            version=record.rules_version,
            ours=game.info.rules_version,
        )
    return older


def _table(record: Record, game: AnyGame, scheme: int, name: str) -> Table:
    """The table at the start of the recorded game (its header's options and
    attachments, the dice from its seed)."""
    try:
        dice = record.dice_seed()
        assert dice is not None  # the seed is revealed
        game.attach(record.attachments)
        options = game.parse_options(record.options)
        return Table.start(game, len(record.seats), options, SeededDice(seed=dice, scheme=scheme))
    except (OptionsError, ValueError, TypeError) as exc:
        raise RecordError("{name}: header: {reason}", name=name, reason=exc) from None


def _check_results(record: Record, results: Results, name: str, *, optional: bool) -> None:
    """The recorded results line against the replay's (``optional``: it may be missing)."""
    if record.results is None:
        if not optional:
            raise RecordError(
                "{name}: the game is over but the record has no results line", name=name
            )
        return
    mine: Json = to_json(results)
    if mine != record.results:
        where, ours, theirs = first_difference(mine, record.results)
        raise RecordError(
            "{name}: results differ at {at}: replay gives {ours}, record says {theirs}",
            name=name,
            at=where,
            ours=repr(ours),
            theirs=repr(theirs),
        )


def _compare(events: Sequence[Event], recorded: list[Json], where: Phrase) -> None:
    produced: list[Json] = [to_json(e) for e in events]
    if produced == recorded:
        return
    for i, (mine, theirs) in enumerate(zip(produced, recorded, strict=False), start=1):
        if mine != theirs:
            at, ours, recorded_value = first_difference(mine, theirs)
            raise RecordError(
                "{where}: event {number} differs at {at}: replay gives {ours}, "
                "record says {theirs}",
                where=where,
                number=i,
                at=at,
                ours=repr(ours),
                theirs=repr(recorded_value),
            )
    raise RecordError(
        "{where}: replay gives {produced} events, record has {recorded}",
        where=where,
        produced=len(produced),
        recorded=len(recorded),
    )


def first_difference(mine: Json, theirs: Json, at: str = "$") -> tuple[str, Json, Json]:
    """The first place two JSON values differ, as (path, mine, theirs).

    >>> first_difference({"scores": [3, 5]}, {"scores": [3, 6]})
    ('$.scores[1]', 5, 6)
    >>> first_difference({"a": 1}, {"b": 1})
    ('$.a', 1, None)
    """
    if isinstance(mine, dict) and isinstance(theirs, dict):
        for key in [*mine, *(k for k in theirs if k not in mine)]:
            if mine.get(key) != theirs.get(key):
                return first_difference(mine.get(key), theirs.get(key), f"{at}.{key}")
    elif isinstance(mine, list) and isinstance(theirs, list) and len(mine) == len(theirs):
        for index, (a, b) in enumerate(zip(mine, theirs, strict=True)):
            if a != b:
                return first_difference(a, b, f"{at}[{index}]")
    return at, mine, theirs
