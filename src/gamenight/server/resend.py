"""Re-sent actions: a client that lost its socket while an action was on its way cannot
know whether it arrived, so it sends the same action again for the same position
(docs/protocol.md, "Re-sent actions"). The position it names is then behind the table;
if the action the log holds right after that position is this seat's and the same, the
re-send is the action already applied: it is answered with that action's ``ack``, never
applied twice, and never refused as though it had not happened.

The identity of an action is its position and its content: at one position only one
action is applied, so the same seat's same action there is the one the client sent.

>>> from types import SimpleNamespace
>>> table = SimpleNamespace(seq=3, moves=lambda: [(0, "roll"), (1, "keep"), (0, "stop")])
>>> applied_as(table, 1, "keep", 1)
2
>>> applied_as(table, 0, "keep", 1) is None  # another seat's move there
True
>>> applied_as(table, 0, "stop", 3) is None  # not behind: nothing to find
True
"""

from __future__ import annotations

from typing import Any, Protocol


class Moves(Protocol):
    @property
    def seq(self) -> int: ...
    def moves(self) -> list[tuple[int, Any]]: ...


def applied_as(table: Moves, seat: int, action: Any, expected_seq: int) -> int | None:
    """The seq of ``seat``'s ``action`` made for position ``expected_seq`` if the table
    already holds it there, else None."""
    if not 0 <= expected_seq < table.seq:
        return None
    moved, done = table.moves()[expected_seq]
    return expected_seq + 1 if moved == seat and done == action else None
