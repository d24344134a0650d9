"""``gamenight turns`` against a real server process (issue 44): the user's saved online
seats are sent to their server's POST /api/turns and the rooms waiting for a move are
printed with the waiting time, the clock left and the command to join; a server that
cannot be reached is one line, never a traceback; en/de/pl. The ``turns`` row of the
seat to act is written into the server's SQLite database directly (the contract the
turn-based rooms' clock writes)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from online_helpers import GAMENIGHT, TIMEOUT_S, api, env, make_room, server

from gamenight.server.testing import ProcessServer, free_port

HOUR = 3600


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ProcessServer, Path]]:
    folder = tmp_path_factory.mktemp("turns-server")
    srv = server(folder).start()
    yield srv, folder / "online.sqlite3"
    srv.stop()


def _turn_based_room(base: str) -> tuple[str, list[str]]:
    room = make_room(base, "decathlon", ["human", "human"], pace="turn-based", move_time=24 * HOUR)
    code = room["code"]
    tokens = [
        api(
            base,
            "POST",
            f"/api/rooms/{code}/seats/{seat}/claim",
            {"name": name, "contribution": name},
        )["token"]
        for seat, name in enumerate(("Ann", "Bob"))
    ]
    deadline = time.monotonic() + TIMEOUT_S
    while api(base, "GET", f"/api/rooms/{code}")["status"] != "playing":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    return code, tokens


def _to_act(db: Path, code: str, seat: int, waited: float, left: float) -> None:
    now = time.time()
    with sqlite3.connect(db) as conn:
        (room_id,) = conn.execute("SELECT id FROM rooms WHERE code = ?", (code,)).fetchone()
        # the room's start wrote its own row for the seat to act: this one takes its place
        conn.execute("DELETE FROM turns WHERE room_id = ?", (room_id,))
        conn.execute(
            "INSERT INTO turns (room_id, seat, seq, since, deadline) VALUES (?, ?, 1, ?, ?)",
            (room_id, seat, now - waited, now + left),
        )


def _save(home: Path, entries: list[dict[str, object]]) -> None:
    folder = home / "data" / "gamenight"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "online-seats.json").write_text(json.dumps(entries))
    (folder / "online-seats.json").chmod(0o600)


def _turns(home: Path, lang: str = "en") -> subprocess.CompletedProcess[str]:
    environ = {**env(home, lang), "COLUMNS": "220"}
    return subprocess.run(
        [*GAMENIGHT, "turns"], capture_output=True, text=True, env=environ, timeout=TIMEOUT_S
    )


def test_turns_lists_the_saved_seats_to_act_and_names_an_unreachable_server(
    live: tuple[ProcessServer, Path], tmp_path: Path
) -> None:
    srv, db = live
    code, (ann, bob) = _turn_based_room(srv.url)
    later, (carl, _dora) = _turn_based_room(srv.url)
    _to_act(db, code, 0, waited=3 * HOUR + 60, left=21 * HOUR - 60)
    _to_act(db, later, 1, waited=HOUR, left=23 * HOUR)  # Dora's move: not this user's
    gone = f"http://127.0.0.1:{free_port()}"
    _save(tmp_path, [
        {"server": srv.url, "code": code, "game": "decathlon", "seat": 0, "token": ann},
        {"server": srv.url, "code": later, "game": "decathlon", "seat": 0, "token": carl},
        {"server": srv.url, "code": later, "game": "decathlon", "seat": 1, "token": bob},
        {"server": gone, "code": "AAAA", "game": "decathlon", "seat": 0, "token": ann},
    ])  # fmt: skip
    done = _turns(tmp_path)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Traceback" not in out + done.stderr
    lines = [line for line in out.splitlines() if code in line]
    assert len(lines) == 1, out  # one row: the room, and the join command in it
    row = lines[0]
    assert f"gamenight join {srv.url}/r/{code}" in row
    assert "Decathlon" in row and "3 h" in row and "21 h" in row
    assert later not in out  # Dora's move; Bob's token names another seat of that room
    assert out.count(f"cannot reach the server at {gone}") == 1

    german = _turns(tmp_path, "de").stdout
    assert "Zehnkampf" in german and "3 Std." in german and "21 Std." in german
    assert f"Server unter {gone}" in german or gone in german
    polish = _turns(tmp_path, "pl").stdout
    assert "3 godz." in polish and "21 godz." in polish


def test_turns_without_saved_seats_or_moves_says_so(
    live: tuple[ProcessServer, Path], tmp_path: Path
) -> None:
    srv, db = live
    none = _turns(tmp_path)
    assert none.returncode == 0 and "No online seats are saved" in none.stdout
    code, (_ann, bob) = _turn_based_room(srv.url)
    # the room's start wrote the rows of the seats to act: take them away, nobody waits
    with sqlite3.connect(db) as conn:
        conn.execute(
            "DELETE FROM turns WHERE room_id = (SELECT id FROM rooms WHERE code = ?)", (code,)
        )
    _save(
        tmp_path, [{"server": srv.url, "code": code, "game": "decathlon", "seat": 1, "token": bob}]
    )
    quiet = _turns(tmp_path)
    assert quiet.returncode == 0 and "None of your saved rooms waits for your move" in quiet.stdout
