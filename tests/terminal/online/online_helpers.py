"""Helpers of the online terminal tests: a real server process, rooms made over its
HTTP API, and ``gamenight`` run as a player would run it (its own data folder)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from gamenight.server.testing import ProcessServer

# A bound for waits on events on a loaded 2-core machine; never a measured duration.
TIMEOUT_S = 180
GAMENIGHT = [
    sys.executable,
    "-c",
    "import sys; from gamenight.cli.main import run; run(sys.argv[1:])",
]


def server(folder: Path, port: int | None = None) -> ProcessServer:
    """A server on loopback with a throwaway SQLite database in ``folder``."""
    return ProcessServer(
        f"sqlite:///{folder / 'online.sqlite3'}", port, args=("--log-level", "warning")
    )


def api(base: str, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data, {"Content-Type": "application/json"}, method=method
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def make_room(base: str, game: str, seats: Sequence[str], **room: Any) -> dict[str, Any]:
    """A room made over the HTTP API (bots at full speed unless ``room`` says)."""
    body = {"game": game, "seats": list(seats), "options": {}, "room": {"bot_pace": 0, **room}}
    created: dict[str, Any] = api(base, "POST", "/api/rooms", body)
    return created


def env(home: Path, lang: str = "en") -> dict[str, str]:
    """A player's environment: their own data folder, the line mode, a language."""
    out = {k: v for k, v in os.environ.items() if not k.startswith(("GAMENIGHT_", "LC_"))}
    out.update(
        XDG_DATA_HOME=str(home / "data"),
        GAMENIGHT_PLAIN="1",
        GAMENIGHT_NO_QUICK="1",
        LANG=f"{lang}_{'US' if lang == 'en' else lang.upper()}.UTF-8",
        COLUMNS="100",
    )
    return out


class Player:
    """``gamenight ARGS`` in a subprocess: its output read as it comes, its input fed."""

    def __init__(self, args: Sequence[str], environ: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            [*GAMENIGHT, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=environ,
        )
        self.chunks: list[bytes] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in iter(self.proc.stdout.readline, b""):
            self.chunks.append(line)

    @property
    def text(self) -> str:
        return b"".join(self.chunks).decode("utf-8", errors="replace")

    def wait_for(self, condition: Callable[[str], bool], what: str) -> None:
        deadline = time.monotonic() + TIMEOUT_S
        while not condition(self.text):
            assert self.proc.poll() is None or condition(self.text), (
                f"exited before {what}:\n{self.text[-3000:]}"
            )
            assert time.monotonic() < deadline, (
                f"no {what} within {TIMEOUT_S} s:\n{self.text[-3000:]}"
            )
            time.sleep(0.05)  # a polling interval, not a wait for something

    def feed(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text.encode())
        self.proc.stdin.flush()

    def finish(self) -> int:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        code = self.proc.wait(TIMEOUT_S)
        self.reader.join(10)
        return code


# Dice Duel at the line prompt: take the only chip or end the turn (``s``); when the dice
# earn several chips ``s`` is refused and ``n`` declines them; so "s n" always moves on.
DUEL_KEYS = "s\nn\n" * 400
