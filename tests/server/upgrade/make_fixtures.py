"""Make the upgrade fixtures (``tests/server/test_upgrade.py``) with the OLD code itself.

For every schema revision before the head, the last commit whose newest migration is that
revision is exported (``git archive``) and its own server is run from it
(``PYTHONPATH=<old>/src python -m gamenight.server``, with this venv's packages): through
its own HTTP API and socket it creates rooms, claims seats and plays part of the games,
then stops. The database is written out as SQL (``<revision>.sql``, ``sqlite3``'s
``iterdump``) with the seat tokens and the seq each room reached (``<revision>.json``).

    .venv/bin/python tests/server/upgrade/make_fixtures.py

Re-run it only to add a revision's fixture (a new migration makes the previous head an
"earlier revision"): add the revision and its last commit to ``REVISIONS``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
# revision -> the last commit whose schema head it was (its code made the fixture)
REVISIONS = {
    "0001": "fc39e8e^",
    "0002": "5c25129",
    "0003": "addb15a",
    "0004": "bb7ec19",
    "0005": "6b03063",
    "0006": "b2d82d5",
}


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def _play(url: str, code: str, tokens: list[str], actions: int, seed: int) -> int:
    """Act ``actions`` times in turn through the old protocol; the seq reached."""
    rng = random.Random(seed)
    ws_url = url.replace("http://", "ws://") + f"/ws/{code}"
    socks = [await websockets.connect(ws_url) for _ in tokens]
    state: list[dict[str, Any]] = []
    for ws, token in zip(socks, tokens, strict=True):
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": token}))
        while True:
            frame = json.loads(await ws.recv())
            if frame["type"] == "snapshot":
                state.append(frame)
                break
    seq = state[0]["seq"]
    done = 0
    ident = 0
    while done < actions:
        mover = next((i for i, s in enumerate(state) if s.get("legal")), None)
        if mover is None:  # nobody may act yet: read whichever socket has a frame
            for i, ws in enumerate(socks):
                with contextlib.suppress(TimeoutError):
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                    if frame["type"] in ("events", "snapshot"):  # the start: a new snapshot
                        state[i] = {**state[i], **frame}
            continue
        ident += 1
        seq = state[mover]["seq"]  # 0003: the waiting room's snapshot has no seq yet
        action = rng.choice(state[mover]["legal"])
        await socks[mover].send(
            json.dumps({"type": "act", "action": action, "expected_seq": seq, "id": ident})
        )
        acked = False
        while not acked or any(s["seq"] != seq for s in state):
            for i, ws in enumerate(socks):
                while state[i]["seq"] != seq or (i == mover and not acked):
                    frame = json.loads(await ws.recv())
                    if frame["type"] in ("events", "snapshot"):  # 0002: the start is a new snapshot
                        state[i] = {**state[i], **frame}
                    elif frame["type"] == "ack" and frame.get("id") == ident:
                        acked, seq = True, frame["seq"]
                    elif frame["type"] == "error" and frame.get("id") == ident:
                        raise RuntimeError(frame)
        done += 1
    for ws in socks:
        await ws.close()
    return int(seq)


def make(revision: str, commit: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "old"
        old.mkdir()
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", commit, "src"], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive.stdout, check=True)
        db = Path(tmp) / "fixture.sqlite3"
        port = _free_port()
        env = {**os.environ, "PYTHONPATH": str(old / "src")}
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gamenight.server",
                "--port",
                str(port),
                "--db",
                f"sqlite:///{db}",
                "--no-table-build",
            ],
            env=env,
            cwd=tmp,
        )
        url = f"http://127.0.0.1:{port}"
        try:
            for _ in range(600):
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"{url}/api/games").status_code == 200:
                        break
                time.sleep(0.1)
            rooms: list[dict[str, Any]] = []
            for game, options, actions in (
                ("dice-duel", {}, 9),
                ("decathlon", {"events": "100m,long-jump"}, 7),
                ("wurfeltod", {}, 5),
            ):
                made = httpx.post(
                    f"{url}/api/rooms",
                    json={"game": game, "seats": ["human", "human"], "options": options},
                )
                made.raise_for_status()
                code = made.json()["code"]
                tokens = []
                for seat in (0, 1):
                    claimed = httpx.post(
                        f"{url}/api/rooms/{code}/seats/{seat}/claim", json={"name": f"Old{seat}"}
                    )
                    claimed.raise_for_status()
                    tokens.append(claimed.json()["token"])
                seq = asyncio.run(_play(url, code, tokens, actions, seed=len(rooms)))
                rooms.append({"code": code, "game": game, "tokens": tokens, "seq": seq})
        finally:
            proc.send_signal(signal.SIGINT)
            proc.wait(30)
        with contextlib.closing(sqlite3.connect(db)) as conn:
            found = conn.execute("SELECT version_num FROM alembic_version").fetchall()
            assert found == [(revision,)], found
            dump = "\n".join(conn.iterdump()) + "\n"
        (HERE / f"{revision}.sql").write_text(dump, encoding="utf-8")
        made_by = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", commit],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        (HERE / f"{revision}.json").write_text(
            json.dumps({"revision": revision, "made_by": made_by, "rooms": rooms}, indent=1) + "\n"
        )
        print(f"{revision}: {len(rooms)} rooms from {commit}")


if __name__ == "__main__":
    # the revisions named, or every one
    for rev, commit in REVISIONS.items():
        if rev in sys.argv[1:] or len(sys.argv) == 1:
            make(rev, commit)
