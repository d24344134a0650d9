"""Issue 10 items 2-8 and 16: terminal play never crashes on saving and never loses a game."""

from __future__ import annotations

import errno
import io
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from gamenight.cli.players import parse_players
from gamenight.cli.session import Session
from gamenight.core import registry
from gamenight.core.errors import RecordError
from gamenight.core.record import disk, read_record, replay, resume_record
from gamenight.terminal.ui import Prompter

CliRunner = Callable[[list[str]], tuple[int, str, str]]  # the `cli` fixture

# Wurfeltod for one human: book one box per turn straight after the first roll (20 actions).
KEYS = ["p", "pp", "1", "2", "3", "4", "5", "6", "s", "4k", "3p", "tt", "4p", "5k", "5s"]
BOOKINGS = [f"b {k}" for k in [*KEYS, "sp", "6k", "6s", "f", "f"]]


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr("platformdirs.user_data_dir", lambda *_a: str(tmp_path / "data"))
    return tmp_path / "data" / "saves"


def _stdin(monkeypatch: pytest.MonkeyPatch, lines: list[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))


def _flat(text: str) -> str:
    return " ".join(text.split())


def _scripted(answers: list[str], prompts: list[str] | None = None) -> Prompter:
    """A keyboard that types ``answers``; "^C" is Ctrl-C; the end of them is Ctrl-D."""
    console = Console(file=io.StringIO(), width=100)
    keys: Iterator[str] = iter(answers)

    def read(prompt: str) -> str:
        if prompts is not None:
            prompts.append(prompt)
        key = next(keys, None)
        if key is None:
            raise EOFError
        if key == "^C":
            raise KeyboardInterrupt
        return key

    return Prompter(console=console, reader=read)


def _session(prompter: Prompter, path: Path | None = None, **kw: Any) -> Session:
    entry = registry.get("wurfeltod")
    seats = parse_players("Ann", list(entry.bots))
    return Session(entry, seats, {}, 5, prompter.console, prompter, path, **kw)


def _shown(prompter: Prompter) -> str:
    return _flat(prompter.console.file.getvalue())  # type: ignore[attr-defined]


# ----- item 7: --record never overwrites what it should not -----------------------------
def test_record_refuses_an_existing_file_unless_forced(tmp_path: Path, cli: CliRunner) -> None:
    path = tmp_path / "g.jsonl"
    play = ["play", "wurfeltod", "--players", "bot:greedy", "--record", str(path)]
    assert cli(play)[0] == 0
    before = path.read_bytes()
    code, _, err = cli(play)
    assert code == 2 and "already exists" in err and "--force" in err
    assert path.read_bytes() == before
    code, _, err = cli([*play, "--force"])
    assert code == 0, err
    assert replay(read_record(path)).finished

    readme = tmp_path / "README.md"
    readme.write_text("# my notes\n")
    for extra in ([], ["--force"]):
        code, _, err = cli(["play", "wurfeltod", "--players", "bot:greedy", "--record",
                            str(readme), *extra])  # fmt: skip
        assert code == 2 and "Traceback" not in err
    assert readme.read_text() == "# my notes\n"
    assert "not a gamenight record" in err


# ----- item 2: an unwritable data folder ----------------------------------------------------
def test_an_unwritable_data_folder_offers_to_play_without_saving(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: CliRunner
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")  # even root cannot make a folder inside a file
    monkeypatch.setattr("platformdirs.user_data_dir", lambda *_a: str(blocker / "gamenight"))
    _stdin(monkeypatch, [""])
    code, out, err = cli(["play", "wurfeltod", "--players", "Ann"])
    assert code == 2 and "Traceback" not in err
    assert "Cannot save games in" in _flat(out) and "--record FILE" in err
    _stdin(monkeypatch, ["y", *BOOKINGS])
    code, out, err = cli(["play", "wurfeltod", "--players", "Ann"])
    assert code == 0, err
    assert "Final standings" in out and "Record:" not in out


# ----- item 8: Ctrl-C asks before abandoning ----------------------------------------------
def test_ctrl_c_asks_before_abandoning_a_game_without_a_record() -> None:
    prompts: list[str] = []
    keys = [*BOOKINGS[:2], "^C", "n", *BOOKINGS[2:4], "^C", "y"]
    prompter = _scripted(keys, prompts)
    session = _session(prompter, autosave=False)
    match = session.build()
    assert session.play(match) is None
    assert prompts.count("Abandon this game? [y/N] ") == 2
    assert match.table is not None and match.table.seq == 4  # play went on after "n"
    assert "Game abandoned" in _shown(prompter)


def test_ctrl_c_with_a_record_says_where_it_is_saved(data_dir: Path) -> None:
    prompter = _scripted([*BOOKINGS[:3], "^C"])
    session = _session(prompter)
    match = session.build()
    assert session.play(match) is None
    path = session.record_path
    assert path is not None and path.parent == data_dir
    shown = _shown(prompter)
    assert f"Game saved after 3 actions in {path}" in shown
    assert f"Resume it with: gamenight resume {path}" in shown
    resumed = resume_record(path)  # not locked any more, and every action is there
    assert len(resumed.record.actions) == 3
    resumed.writer.close()


# ----- item 3: a failed write mid-game ------------------------------------------------------
def _fail_writes(monkeypatch: pytest.MonkeyPatch, at: set[int], name: str = "g.jsonl") -> None:
    """Fail the write calls numbered ``at`` (counting from 1) to the file ``name``."""
    real = disk.write
    calls = 0

    def write(fd: int, data: Any) -> int:
        nonlocal calls
        if Path(os.readlink(f"/proc/self/fd/{fd}")).name != name:
            return real(fd, data)
        calls += 1
        if calls in at:
            raise OSError(errno.EIO, "Input/output error")
        return real(fd, data)

    monkeypatch.setattr(disk, "write", write)


def test_a_failed_write_can_be_retried(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.jsonl"
    _fail_writes(monkeypatch, {6, 7})  # the 4th action's line, twice
    prompter = _scripted([*BOOKINGS[:4], "r", "r", *BOOKINGS[4:]])
    session = _session(prompter, path)
    results = session.play(session.build())
    shown = _shown(prompter)
    assert "cannot save to" in shown and "Input/output error" in shown
    assert f"Saved so far: 3 actions in {path}" in shown
    assert results is not None and replay(read_record(path)).results == results


def test_a_failed_write_can_save_the_game_elsewhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, other = tmp_path / "g.jsonl", tmp_path / "elsewhere.jsonl"
    _fail_writes(monkeypatch, set(range(6, 1000)))  # the first file dies for good
    prompter = _scripted([*BOOKINGS[:4], "s", str(other), *BOOKINGS[4:]])
    session = _session(prompter, path)
    results = session.play(session.build())
    assert f"The whole game so far is saved in {other}" in _shown(prompter)
    assert results is not None and replay(read_record(other)).results == results
    assert session.record_path == other


def test_a_failed_write_can_stop_the_game_and_resume_restores_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: CliRunner
) -> None:
    path = tmp_path / "g.jsonl"
    with monkeypatch.context() as patch:
        _fail_writes(patch, {6})
        prompter = _scripted([*BOOKINGS[:4], "q"])
        session = _session(prompter, path)
        assert session.play(session.build()) is None
    shown = _shown(prompter)
    assert f"Game saved after 3 actions in {path}" in shown
    assert f"gamenight resume {path}" in shown
    _stdin(monkeypatch, BOOKINGS[3:])
    code, out, err = cli(["resume", str(path)])
    assert code == 0, err
    assert "Resumed Wurfeltod after 3 actions" in out
    assert replay(read_record(path)).actions == 20


def test_a_session_that_cannot_write_at_all_raises_one_error(tmp_path: Path) -> None:
    prompter = _scripted(["n"])
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(RecordError, match=r"cannot open record .*Not a directory"):
        # An explicit record path in a missing folder is the user's to fix: one line.
        _session(prompter, blocker / "g.jsonl").build()


# ----- items 5, 6, 16: torn records, locks, damaged and listed saves ----------------------
def _interrupted_game(data_dir: Path, monkeypatch: pytest.MonkeyPatch, cli: CliRunner) -> Path:
    _stdin(monkeypatch, BOOKINGS[:3])
    code, out, err = cli(["play", "wurfeltod", "--players", "Ann"])
    assert code == 130, err
    (path,) = data_dir.glob("*.jsonl")
    assert f"gamenight resume {path}" in _flat(out)
    return path


def test_a_torn_record_resumes_twice(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, cli: CliRunner
) -> None:
    path = _interrupted_game(data_dir, monkeypatch, cli)
    with path.open("ab") as stream:
        stream.write(b'{"type":"action","seat":0,"acti')  # the crash
    _stdin(monkeypatch, BOOKINGS[3:5])
    code, out, err = cli(["resume", str(path)])
    assert code == 130, err
    assert "repaired" in _flat(out) and path.with_name(path.name + ".bak").exists()
    assert "Game saved after 5 actions" in _flat(out)
    _stdin(monkeypatch, BOOKINGS[5:7])
    code, out, err = cli(["resume", str(path)])  # the second resume used to fail
    assert code == 130, err
    assert "Game saved after 7 actions" in _flat(out)
    code, out, err = cli(["replay", str(path)])
    assert code == 0, err
    assert "unfinished: 7 actions verified" in _flat(out)


def test_a_second_resume_says_the_game_is_open_elsewhere(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, cli: CliRunner
) -> None:
    path = _interrupted_game(data_dir, monkeypatch, cli)
    first = resume_record(path)
    try:
        code, _, err = cli(["resume", str(path)])
        assert code == 1 and "open in another gamenight" in err
    finally:
        first.writer.close()
    assert read_record(path).actions == first.record.actions


def test_saves_lists_unfinished_games_and_resume_last_takes_the_newest(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, cli: CliRunner
) -> None:
    code, out, _ = cli(["saves"])
    assert code == 0 and "No saved unfinished games" in out
    path = _interrupted_game(data_dir, monkeypatch, cli)
    code, out, _ = cli(["saves"])
    assert code == 0
    assert "wurfeltod" in out and "Ann" in out and " 3 " in out
    assert str(path) in out.splitlines()[1]  # piped: the path on one line, never folded
    _stdin(monkeypatch, BOOKINGS[3:])
    code, out, err = cli(["resume", "--last"])
    assert code == 0, err
    assert "Final standings" in out
    code, out, _ = cli(["saves"])
    assert "No saved unfinished games" in out  # finished games are not listed
    code, _, err = cli(["resume", "--last"])
    assert code == 2 and "no saved unfinished game" in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("[1,2,3]\n", "not a gamenight record"),
        ("", "empty file"),
        ("[" * 100_000 + "]" * 100_000 + "\n", "nested too deeply"),
    ],
)
def test_damaged_saves_are_refused_in_one_line(
    tmp_path: Path, content: str, message: str, cli: CliRunner
) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    for command in (["resume", str(path)], ["replay", str(path)]):
        code, _, err = cli(command)
        assert code == 1 and message in err, err
        assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert path.read_text() == content  # nothing repaired or appended


def test_a_deeply_nested_line_in_a_real_save_is_refused(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, cli: CliRunner
) -> None:
    path = _interrupted_game(data_dir, monkeypatch, cli)
    rows = path.read_text().splitlines()
    row = json.loads(rows[-1])
    row["action"] = "@"
    rows[-1] = json.dumps(row).replace('"@"', "[" * 50_000 + "]" * 50_000)
    path.write_text("\n".join(rows) + "\n")
    code, _, err = cli(["resume", str(path)])
    assert code == 1 and "nested too deeply" in err and "Traceback" not in err


# ----- issue 25 item 7: a game saved elsewhere leaves no resumable copy behind -----------
def _full_disk(monkeypatch: pytest.MonkeyPatch, name: str, after: int, room: bool) -> None:
    """The file ``name`` takes ``after`` more lines, then the disk is full (ENOSPC). The
    ``moved`` line still fits when ``room``, else only once the file is cut to nothing
    (which frees its space, as on a real disk)."""
    real = disk.write
    calls = 0

    def write(fd: int, data: Any) -> int:
        nonlocal calls
        if Path(os.readlink(f"/proc/self/fd/{fd}")).name == name:
            calls += 1
            moved = bytes(data).startswith(b'{"type": "moved"')
            fits = calls <= after or (moved and (room or os.fstat(fd).st_size == 0))
            if not fits:
                raise OSError(errno.ENOSPC, "No space left on device")
        return real(fd, data)

    monkeypatch.setattr(disk, "write", write)


@pytest.mark.parametrize("room", [True, False], ids=["the moved line fits", "the disk is full"])
def test_a_game_saved_elsewhere_is_refused_at_its_old_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli: CliRunner, room: bool
) -> None:
    data = tmp_path / "data"
    monkeypatch.setattr("platformdirs.user_data_dir", lambda *_a: str(data))
    path = data / "saves" / "g.jsonl"
    path.parent.mkdir(parents=True)
    other, existing = tmp_path / "elsewhere.jsonl", tmp_path / "taken.jsonl"
    existing.write_text("x\n")
    with monkeypatch.context() as patch:
        _full_disk(patch, "g.jsonl", after=5, room=room)  # header, start, 3 actions
        prompter = _scripted([*BOOKINGS[:4], "s", str(existing), "s", str(other), "q"])
        session = _session(prompter, path)
        assert session.play(session.build()) is None
    shown = _shown(prompter)
    assert f"{existing} already exists; give the name of a new file" in shown
    assert "--force" not in shown  # it cannot be given at this prompt
    assert f"The whole game so far is saved in {other}" in shown
    assert len(read_record(other).actions) == 4  # the failed 4th line went there too
    last = json.loads(path.read_text().splitlines()[-1])
    assert last == {"type": "moved", "to": str(other.resolve())}
    code, out, err = cli(["resume", str(path)])
    assert code == 1 and f"moved to {other.resolve()}" in _flat(err)
    assert f"gamenight resume {other.resolve()}" in _flat(err)
    code, out, _ = cli(["saves"])
    assert f"g.jsonl was moved to {other.resolve()}" in out
    assert "No saved unfinished games" in out
    code, _, err = cli(["resume", "--last"])
    assert code == 2 and "no saved unfinished game" in err
