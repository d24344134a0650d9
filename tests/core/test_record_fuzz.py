"""Damaged records are refused with RecordError, never with another exception."""

from __future__ import annotations

import contextlib
import io
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.core import RecordError, registry
from gamenight.core.record import RecordWriter, parse_record, replay
from gamenight.core.runner import play_match


def _record(game_id: str, seats: int, options: dict[str, Any]) -> list[str]:
    entry = registry.get(game_id)
    buffer = io.StringIO()
    agents = [entry.bots["random"](i) for i in range(seats)]
    play_match(entry.game, agents, seed=3, options=entry.game.parse_options(options),
               record=RecordWriter(buffer))  # fmt: skip
    return buffer.getvalue().splitlines()


RECORDS = {
    "decathlon": _record("decathlon", 2, {"events": "long-jump,high-jump"}),
    "dice-duel": _record("dice-duel", 2, {}),
    "wurfeltod": _record("wurfeltod", 1, {}),
    "decades": _record("decades", 2, {}),
}
JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 100), st.text(max_size=6),
    st.lists(st.integers(-1, 7), max_size=4), st.dictionaries(st.text(max_size=4), st.integers()),
)  # fmt: skip


def _paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a JSON object."""
    found = [at]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*at, index))
    return found


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[head] = _set(value[head], rest, new)
    return copy


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_any_single_damage_is_refused_cleanly(data: st.DataObject) -> None:
    lines = list(RECORDS[data.draw(st.sampled_from(sorted(RECORDS)))])
    index = data.draw(st.integers(0, len(lines) - 1))
    kind = data.draw(st.sampled_from(["value", "drop", "truncate"]))
    if kind == "drop":
        del lines[index]
    elif kind == "truncate":
        lines[index] = lines[index][: data.draw(st.integers(0, len(lines[index])))]
    else:
        row = json.loads(lines[index])
        path = data.draw(st.sampled_from(_paths(row)))
        lines[index] = json.dumps(_set(row, path, data.draw(JUNK)))
    # Refused with a message (RecordError) is what a damaged record should get; any
    # other exception fails the test. A harmless change may still replay.
    with contextlib.suppress(RecordError):
        replay(parse_record(lines))
