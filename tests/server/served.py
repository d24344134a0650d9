"""``python -m gamenight.server`` as a real process with any flags and environment: its
stdout (the start's announcement) and stderr (the log) kept in files."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from typing import Self

import httpx

DEADLINE = 90.0
URL = re.compile(r"serving at (http://\S+?)/ ")


def _env(extra: Mapping[str, str] | None) -> dict[str, str]:
    keep = ("GAMENIGHT_CACHE_DIR", "GAMENIGHT_TEST_CACHE")  # the test run's caches
    env = {k: v for k, v in os.environ.items() if not k.startswith("GAMENIGHT_") or k in keep}
    env.update(extra or {})
    return env


class Served:
    """A server process: ``start()`` waits for its announcement and for /readyz."""

    def __init__(self, args: Sequence[str], env: Mapping[str, str] | None = None) -> None:
        self.args = ["--no-table-build", *args]
        self.env = _env(env)
        self.out = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the server
        self.err = tempfile.TemporaryFile()  # noqa: SIM115
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = ""

    def start(self, ready: bool = True) -> Self:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gamenight.server", *self.args],
            stdout=self.out,
            stderr=self.err,
            env=self.env,
        )
        deadline = time.monotonic() + DEADLINE
        while not self.url:
            found = URL.search(self.stdout())
            if found:
                self.url = found.group(1)
                break
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {self.stderr()[-2000:]}")
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not announce itself")
            time.sleep(0.05)
        while ready:
            try:
                if httpx.get(f"{self.url}/readyz", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError(f"the server was not ready: {self.stderr()[-2000:]}")
            time.sleep(0.05)
        return self

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])

    def _read(self, f: object) -> str:
        fileno = f.fileno()  # type: ignore[attr-defined]
        with open(fileno, "rb", closefd=False) as h:
            h.seek(0)
            return h.read().decode(errors="replace")

    def stdout(self) -> str:
        return self._read(self.out)

    def stderr(self) -> str:
        return self._read(self.err)

    def stop(self) -> int:
        if self.proc is None:
            return 0
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
        return self.proc.returncode

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def refused(
    args: Sequence[str], env: Mapping[str, str] | None = None
) -> tuple[int, list[str], str]:
    """Run a server that must not start: (exit status, stderr lines, stdout)."""
    done = subprocess.run(
        [sys.executable, "-m", "gamenight.server", "--no-table-build", *args],
        capture_output=True,
        text=True,
        timeout=DEADLINE,
        env=_env(env),
        check=False,
    )
    return done.returncode, done.stderr.strip().splitlines(), done.stdout
