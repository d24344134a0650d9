"""Backup and restore (issue 39, docs/deploy.md "Backup and restore"): a copy made while
the server runs and plays (``gamenight backup`` with SQLite's online backup API;
``pg_dump`` for PostgreSQL) restores to a server whose rooms resume mid-game from the
moment of the copy, and finish."""

from __future__ import annotations

import asyncio
import random
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from harness import Client, PgCluster, claim, create_room, run
from served import Served

from gamenight.server.testing import pg_bin

GAMENIGHT = [sys.executable, "-c", "from gamenight.cli.main import run; run()"]


async def _act(clients: list[Client], n: int, rng: random.Random) -> None:
    """``n`` actions by whichever seat may act, each seen by every client."""
    done = 0
    while done < n and not clients[0].state.get("finished"):
        mover = next((c for c in clients if c.state.get("legal")), None)
        if mover is None:
            await asyncio.sleep(0.01)
            continue
        reply = await mover.act(rng.choice(mover.state["legal"]))
        assert reply["type"] == "ack", reply
        done += 1
        while any(c.state.get("seq") != reply["seq"] for c in clients):
            await asyncio.sleep(0.01)


async def _seq(url: str, code: str) -> int:
    """The room's seq, as a newcomer's snapshot says."""
    spectator = Client(url, code)
    seq = int((await spectator.connect())["seq"])
    await spectator.close()
    return seq


def _backup_sqlite(url: str, tmp_path: Path) -> str:
    copy = tmp_path / "backup.sqlite3"
    done = subprocess.run(
        [*GAMENIGHT, "backup", str(copy), "--db", url], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("backed up "), done.stdout
    restored = tmp_path / "restored" / "rooms.sqlite3"  # restore: copy the file back
    restored.parent.mkdir()
    shutil.copyfile(copy, restored)
    return f"sqlite:///{restored}"


def _backup_pg(url: str, tmp_path: Path, cluster: PgCluster) -> str:
    dump = tmp_path / "gamenight.dump"
    bin_dir = pg_bin()
    subprocess.run(
        [str(bin_dir / "pg_dump"), "--format=custom", "--file", str(dump), url],
        check=True,
        capture_output=True,
    )
    restored = cluster.new_database()  # an empty database (createdb)
    subprocess.run(
        [str(bin_dir / "pg_restore"), "--no-owner", "--dbname", restored, str(dump)],
        check=True,
        capture_output=True,
    )
    return restored


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_backup_made_while_playing_restores_and_its_rooms_resume(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    cluster: PgCluster | None = None
    if kind == "sqlite":
        url = f"sqlite:///{tmp_path / 'live.sqlite3'}"
    else:
        cluster = request.getfixturevalue("pg")
        url = cluster.new_database()
    rng = random.Random(11)
    with Served(["--port", "0", "--db", url]) as server:
        # bots that keep writing while the copy is made
        bots = create_room(
            server.url,
            "decathlon",
            ["bot:random", "bot:random"],
            options={"events": "100m,long-jump,shot-put,400m,110m-hurdles,discus"},
        )["code"]
        code = create_room(server.url, "dice-duel", ["human", "human"])["code"]
        tokens = [claim(server.url, code, seat, f"P{seat}") for seat in (0, 1)]

        async def play_and_copy() -> tuple[int, str]:
            clients = [Client(server.url, code, t) for t in tokens]
            for c in clients:
                await c.connect()
            await _act(clients, 6, rng)
            at_backup = await _seq(server.url, code)
            if kind == "sqlite":
                restored = await asyncio.to_thread(_backup_sqlite, url, tmp_path)
            else:
                assert cluster is not None
                restored = await asyncio.to_thread(_backup_pg, url, tmp_path, cluster)
            await _act(clients, 3, rng)  # play that the copy does not hold
            assert await _seq(server.url, code) > at_backup
            for c in clients:
                await c.close()
            return at_backup, restored

        at_backup, restored = run(play_and_copy())
        assert at_backup >= 6

    with Served(["--port", "0", "--db", restored]) as again:

        async def resume() -> None:
            resumed = [Client(again.url, code, t) for t in tokens]
            for c in resumed:
                snapshot = await c.connect()
                assert snapshot["seq"] == at_backup  # the room as the copy held it
            await asyncio.gather(*(c.play_randomly(random.Random(12)) for c in resumed))
            assert all(c.state["finished"] for c in resumed)
            for c in resumed:
                await c.close()

        run(resume())
        status = ""
        for _ in range(600):  # the bots' room goes on too
            status = httpx.get(f"{again.url}/api/rooms/{bots}").json()["status"]
            if status == "finished":
                break
            import time

            time.sleep(0.05)
        assert status == "finished"


def test_backup_refusals_are_one_line(tmp_path: Path) -> None:
    def backup(*args: str) -> tuple[int, list[str]]:
        done = subprocess.run([*GAMENIGHT, "backup", *args], capture_output=True, text=True)
        return done.returncode, done.stderr.strip().splitlines()

    missing = f"sqlite:///{tmp_path / 'none.sqlite3'}"
    status, lines = backup(str(tmp_path / "b.sqlite3"), "--db", missing)
    assert status == 3 and len(lines) == 1 and "no database" in lines[0], lines
    status, lines = backup(str(tmp_path / "b.sqlite3"), "--db", "postgresql://u@h/db")
    assert status == 3 and len(lines) == 1 and "pg_dump" in lines[0], lines
    (tmp_path / "exists").write_text("x")
    live = tmp_path / "live.sqlite3"
    import sqlite3

    sqlite3.connect(live).close()
    status, lines = backup(str(tmp_path / "exists"), "--db", f"sqlite:///{live}")
    assert status == 3 and len(lines) == 1 and "exists" in lines[0], lines
