"""The record writer never loses an acknowledged action (issue 10, items 3, 5, 6)."""

from __future__ import annotations

import errno
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gamenight.core import record as record_module
from gamenight.core import registry
from gamenight.core.errors import RecordBusyError, RecordError, RecordWriteError
from gamenight.core.record import RecordWriter, disk, read_record, replay, resume_record
from gamenight.core.runner import Match
from gamenight.core.seeds import derive

GAME_ID = "decathlon"
OPTIONS = {"events": "100m,long-jump"}  # a short game: every line is failed in turn


def _match(path: Path, seed: int = 11) -> Match:
    entry = registry.get(GAME_ID)
    agents = [entry.make_bot("random", derive(seed, "bot", 0))]
    seats = [record_module.RecordSeat("Ann", "bot:random")]
    writer = RecordWriter.create(path)
    options = entry.game.parse_options(OPTIONS)
    return Match(entry.game, options, seed, seats, agents, record=writer)


def _count_calls(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """How many writes and fsyncs one whole game makes."""
    counts = {"write": 0, "fsync": 0}
    real_write, real_fsync = disk.write, disk.fsync

    def write(fd: int, data: Any) -> int:
        counts["write"] += 1
        return real_write(fd, data)

    def fsync(fd: int) -> None:
        counts["fsync"] += 1
        real_fsync(fd)

    with monkeypatch.context() as patch:
        patch.setattr(disk, "write", write)
        patch.setattr(disk, "fsync", fsync)
        match = _match(path)
        match.run()
        assert match.record is not None
        match.record.close()
    path.unlink()
    return counts["write"], counts["fsync"]


def _failing(real: Callable[..., Any], fail_at: int, mode: str) -> Callable[..., Any]:
    calls = 0

    def call(fd: int, *args: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == fail_at:
            if mode == "partial":  # half the line reaches the disk, then the error
                data = args[0]
                real(fd, data[: len(data) // 2])
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd, *args)

    return call


def test_every_failed_write_and_fsync_keeps_every_acknowledged_action(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.jsonl"
    writes, fsyncs = _count_calls(path, monkeypatch)
    # Each line is one write and one fsync.
    cases = [("write", n, mode) for n in range(1, writes + 1) for mode in ("error", "partial")]
    cases += [("fsync", n, "error") for n in range(1, fsyncs + 1)]
    assert len(cases) > 30
    for name, fail_at, mode in cases:
        if path.exists():
            path.unlink()
        real = getattr(disk, name)
        with monkeypatch.context() as patch:
            patch.setattr(disk, name, _failing(real, fail_at, mode))
            match = _match(path)
            with pytest.raises(RecordWriteError, match="No space left"):
                match.run()
            assert match.record is not None
            match.record.close()
        acknowledged = [] if match.table is None else match.table.moves()
        where = f"{name} #{fail_at} ({mode})"
        if match.table is None or not read_record_lines(path):
            # The header or the start failed: no action was acknowledged, nothing to resume.
            assert acknowledged == [], where
            with pytest.raises(RecordError):
                resume_record(path)
            continue
        if match.finished():  # only the results line failed: resume writes it
            with pytest.raises(RecordError, match="already finished"):
                resume_record(path)
            assert len(replay(read_record(path)).results.scores) == 1
            continue
        resumed = resume_record(path)
        resumed.writer.close()
        game = registry.get(GAME_ID).game
        restored = [(seat, game.decode_action(raw)) for seat, raw, _ in resumed.record.actions]
        assert restored == acknowledged, where
        assert resumed.backup is None  # a failed line is taken back at once, not left torn


def read_record_lines(path: Path) -> list[str]:
    try:
        lines = path.read_text().splitlines()
    except FileNotFoundError:
        return []
    return lines if len(lines) >= 2 else []


def test_a_retried_write_finishes_the_game_and_the_record_replays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.jsonl"
    failures: list[str] = []
    monkeypatch.setattr(disk, "write", _failing(disk.write, 9, "partial"))
    match = _match(path)
    assert match.record is not None
    match.record.on_failure = lambda _writer, exc: failures.append(str(exc))  # retry at once
    results = match.run()
    match.record.close()
    assert len(failures) == 1
    report = replay(read_record(path))
    assert report.results == results


def test_a_game_can_move_to_another_file_after_a_failure(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, elsewhere = tmp_path / "game.jsonl", tmp_path / "other.jsonl"
    monkeypatch.setattr(disk, "fsync", _failing(disk.fsync, 6, "error"))
    match = _match(path)
    assert match.record is not None

    moved: list[Path | None] = []

    def move(writer: RecordWriter, _exc: RecordWriteError) -> None:
        writer.relocate(elsewhere)
        moved.append(writer.path)

    match.record.on_failure = move
    results = match.run()
    match.record.close()
    assert moved == [elsewhere]
    assert replay(read_record(elsewhere)).results == results


def test_a_record_is_locked_while_its_game_is_open(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    match = _match(path)
    match.begin()
    match.step()
    with pytest.raises(RecordBusyError, match="open in another gamenight"):
        resume_record(path)
    with pytest.raises(RecordBusyError):
        RecordWriter.create(path, force=True)
    assert match.record is not None
    match.record.close()
    first = resume_record(path)
    with pytest.raises(RecordBusyError):
        resume_record(path)
    first.writer.close()
    resume_record(path).writer.close()


def test_a_torn_record_is_repaired_on_disk_with_a_backup(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    match = _match(path)
    match.begin()
    for _ in range(4):
        match.step()
    assert match.record is not None
    match.record.close()
    whole = path.read_bytes()
    path.write_bytes(whole + b'{"type":"action","seat":0,"act')  # a crash mid-line
    resumed = resume_record(path)
    assert resumed.backup == tmp_path / "game.jsonl.bak"
    assert resumed.backup.read_bytes() == whole + b'{"type":"action","seat":0,"act'
    assert path.read_bytes() == whole  # repaired on disk, before anything is appended
    resumed.writer.close()
    # A whole last line that only lost its newline is kept.
    path.write_bytes(whole.rstrip(b"\n"))
    resumed = resume_record(path)
    assert len(resumed.record.actions) == 4 and path.read_bytes() == whole
    resumed.writer.close()


def test_create_refuses_to_overwrite(tmp_path: Path) -> None:
    readme = tmp_path / "README"
    readme.write_text("# not a record\n")
    with pytest.raises(RecordError, match="already exists"):
        RecordWriter.create(readme)
    with pytest.raises(RecordError, match="not a gamenight record"):
        RecordWriter.create(readme, force=True)
    assert readme.read_text() == "# not a record\n"
    with pytest.raises(RecordError, match="not a gamenight record"):
        RecordWriter.create(tmp_path, force=True)


@pytest.mark.parametrize("where", ["header", "action", "line"])
def test_deeply_nested_json_is_refused_like_any_damage(tmp_path: Path, where: str) -> None:
    path = tmp_path / "game.jsonl"
    match = _match(path)
    match.begin()
    match.step()
    assert match.record is not None
    match.record.close()
    lines = path.read_text().splitlines()
    deep: Any = 1
    for _ in range(200):
        deep = [deep]
    if where == "header":
        head = json.loads(lines[0])
        head["options"] = {"x": deep}
        lines[0] = json.dumps(head)
    elif where == "action":
        lines[-1] = lines[-1].replace(
            '"action":', '"action":' + "[" * 100_000 + "]" * 100_000 + ',"x":'
        )
    else:
        lines.append("[" * 100_000 + "]" * 100_000)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(RecordError):
        resume_record(path)
    with pytest.raises(RecordError):
        replay(read_record(path), require_finished=False)


def test_an_undo_can_cut_the_last_action_from_the_record(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    match = _match(path)
    match.begin()
    for _ in range(3):
        match.step()
    writer = match.record
    assert writer is not None
    assert not writer.forget_last_action(seat=1)  # not that seat's line: nothing changes
    assert writer.forget_last_action(seat=0)
    assert writer.actions_saved == 2
    assert len(read_record(path).actions) == 2
    # A cut made by someone else (another helper's undo opens the file itself) is followed.
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:-1]))
    match.table = None  # start again from the record: the writer must append after the cut
    writer.action(0, {"type": "x"}, [])
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["type"] for r in rows] == ["header", "start", "action", "action"]
    writer.close()
