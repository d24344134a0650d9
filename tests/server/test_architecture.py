"""The server's shape (issue 45): no class over 300 lines, and a room's status changed
only by the one guarded move (``Room.become``, ``lifecycle.transition``)."""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from gamenight.server.bots import BotPool
from gamenight.server.config import Config
from gamenight.server.lifecycle import (
    TRANSITIONS,
    IllegalTransitionError,
    Lifecycle,
    transition,
)
from gamenight.server.room import Room, Services
from gamenight.server.storage.rows import RoomRow, SeatRow
from gamenight.server.storage.store import Store

SERVER = Path(__file__).resolve().parents[2] / "src" / "gamenight" / "server"
MAX_CLASS_LINES = 300
STATUS = ("status", "_status")

# sorted: TRANSITIONS holds sets, and every xdist worker must collect the same order
LEGAL = sorted(((a, b) for a, targets in TRANSITIONS.items() for b in targets), key=str)
ILLEGAL = [(a, b) for a, b in itertools.product(Lifecycle, Lifecycle) if b not in TRANSITIONS[a]]


def _modules() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(SERVER.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def test_no_class_in_the_server_is_over_300_lines() -> None:
    assert len(list(_modules())) > 40  # the walk finds the server's modules
    over = [
        f"{path.relative_to(SERVER)}: {node.name} has {size} lines"
        for path, tree in _modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        and (size := (node.end_lineno or node.lineno) - node.lineno + 1) > MAX_CLASS_LINES
    ]
    assert not over, over


def test_the_class_size_check_can_fail() -> None:
    """The walk measures a class as the AST spans it (decorators apart)."""
    body = "\n".join(f"    x{n} = {n}" for n in range(MAX_CLASS_LINES))
    (node,) = ast.parse(f"class Big:\n{body}\n").body
    assert isinstance(node, ast.ClassDef)
    assert (node.end_lineno or 0) - node.lineno + 1 == MAX_CLASS_LINES + 1


def test_only_become_writes_a_rooms_status() -> None:
    """No module assigns ``.status`` or ``._status`` of anything but a RoomError (its
    HTTP status) and Room's own two places: its constructor and ``become``."""
    writes = []
    for path, tree in _modules():
        owners: list[tuple[str, ast.AST]] = [("-", tree)]
        owners += [(n.name, n) for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
        for owner, scope in owners:
            for fn in ast.iter_child_nodes(scope):
                if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                for node in ast.walk(fn):
                    if isinstance(node, ast.Assign):
                        targets = node.targets
                    elif isinstance(node, ast.AugAssign | ast.AnnAssign):
                        targets = [node.target]
                    else:
                        continue
                    for target in targets:
                        if isinstance(target, ast.Attribute) and target.attr in STATUS:
                            writes.append((path.name, owner, fn.name))
    allowed = {
        ("room.py", "Room", "__init__"),
        ("room.py", "Room", "become"),
        ("faults.py", "RoomError", "__init__"),
    }
    assert set(writes) <= allowed, sorted(set(writes) - allowed)
    assert ("room.py", "Room", "become") in writes


@pytest.mark.parametrize(("current", "to"), ILLEGAL, ids=lambda s: str(s))
def test_every_move_outside_the_table_is_refused(current: Lifecycle, to: Lifecycle) -> None:
    with pytest.raises(IllegalTransitionError, match=f"from {current} to {to}$"):
        transition(current, to)


@pytest.mark.parametrize(("current", "to"), LEGAL, ids=lambda s: str(s))
def test_every_move_of_the_table_is_taken(current: Lifecycle, to: Lifecycle) -> None:
    assert transition(current, to) is to


def test_the_table_is_the_lifecycle() -> None:
    """Waiting and playing rooms move; finished, closed and broken ones are final."""
    assert set(TRANSITIONS) == set(Lifecycle)
    movers = {status for status, targets in TRANSITIONS.items() if targets}
    assert movers == {Lifecycle.WAITING, Lifecycle.PLAYING}
    assert all(not status.is_over for status in movers)
    assert (Lifecycle.PLAYING, Lifecycle.WAITING) in ILLEGAL
    assert (Lifecycle.FINISHED, Lifecycle.CLOSED) in ILLEGAL


@pytest.fixture
def services(tmp_path: Path) -> Iterator[Services]:
    url = f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    config = Config(db_url=url, build_tables=False)
    bots = BotPool(config, list)
    yield Services(Store(url), config, bots, "test")
    bots.stop()


def _room(services: Services, status: Lifecycle) -> Room:
    seats = (SeatRow(0, "human", "", "", None, None), SeatRow(1, "bot", "random", "", None, None))
    row = RoomRow(
        id=1, code="c", game="dice-duel", options={}, room_options={}, public=False,
        status=status, seed=1, commitment="", entropy="server", host_token_hash="",
        seq=0, results=None, note="", created_at=0.0, updated_at=0.0, seats=seats,
    )  # fmt: skip
    return Room(row, services, status, "")


@pytest.mark.parametrize(("current", "to"), ILLEGAL, ids=lambda s: str(s))
def test_a_room_refuses_every_illegal_move_and_stays(
    services: Services, current: Lifecycle, to: Lifecycle
) -> None:
    room = _room(services, current)
    with pytest.raises(IllegalTransitionError):
        room.become(to)
    assert room.status is current


@pytest.mark.parametrize(("current", "to"), LEGAL, ids=lambda s: str(s))
def test_a_room_takes_every_legal_move(
    services: Services, current: Lifecycle, to: Lifecycle
) -> None:
    room = _room(services, current)
    room.become(to)
    assert room.status is to
