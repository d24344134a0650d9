"""Real components for tests and benchmarks: a server process on loopback and a
throwaway PostgreSQL cluster (like :mod:`gamenight.core.testing`, shipped so that
``bench/`` and the tests share them).

PostgreSQL refuses to run as root: as root, the cluster runs under
``runuser -u postgres``. If the binaries are missing and this runs as root on
Debian, ``postgresql`` is installed with apt-get; otherwise :func:`pg_bin` says
what to install.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Self


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class ProcessServer:
    """``python -m gamenight.server`` as a subprocess (kill -9, several processes)."""

    def __init__(
        self,
        db_url: str,
        port: int | None = None,
        *,
        env: Mapping[str, str] | None = None,
        args: Sequence[str] = (),
    ) -> None:
        self.db_url = db_url
        self.port = port or free_port()
        self.env = dict(env) if env is not None else None  # None: this process's
        self.args = tuple(args)  # more command-line flags
        self.proc: subprocess.Popen[bytes] | None = None
        # The server's stderr goes to a file: an unread pipe could fill up and stall it.
        self.log = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the server

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Self:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gamenight.server",
                "--port",
                str(self.port),
                "--db",
                self.db_url,
                "--no-table-build",
                *self.args,
            ],
            stdout=subprocess.DEVNULL,
            stderr=self.log,
            env=self.env,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(self.url + "/api/games", timeout=1) as answer:
                    if answer.status == 200:
                        return self
            except (urllib.error.URLError, OSError):
                pass
            if self.proc.poll() is not None:
                self.log.seek(0)
                err = self.log.read().decode(errors="replace")
                raise RuntimeError(f"server exited: {err[-2000:]}")
            if time.monotonic() > deadline:
                raise RuntimeError("the server process did not start")
            time.sleep(0.1)

    def log_text(self) -> str:
        """Everything the server wrote to stderr so far."""
        self.log.flush()
        with open(self.log.fileno(), "rb", closefd=False) as f:
            f.seek(0)
            return f.read().decode(errors="replace")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


# ----- PostgreSQL ---------------------------------------------------------------------------
INSTALL_HINT = (
    "PostgreSQL is needed by the server tests: install the Debian package 'postgresql' "
    "(apt-get install postgresql) so that initdb and pg_ctl exist"
)


def pg_bin() -> Path:
    """The directory of initdb/pg_ctl; installs Debian's postgresql as root if missing."""
    for _ in range(2):
        found = shutil.which("initdb")
        if found:
            return Path(found).resolve().parent
        versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if versions:
            return Path(versions[-1]).parent
        if os.geteuid() == 0 and Path("/etc/debian_version").exists():
            subprocess.run(["apt-get", "install", "-y", "-q", "postgresql"], check=False)
            continue
        break
    raise RuntimeError(INSTALL_HINT)


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists (a zombie counts as gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


class PgCluster:
    """A throwaway cluster in a temp dir on a free loopback port (runuser -u postgres
    when running as root: PostgreSQL refuses root)."""

    PREFIX = "gamenight-pg-"

    def __init__(self) -> None:
        self.bin = pg_bin()
        self.as_root = os.geteuid() == 0
        self.sweep()
        self.dir = Path(tempfile.mkdtemp(prefix=self.PREFIX))
        (self.dir / "owner").write_text(str(os.getpid()))  # for the sweep of a later run
        self.data = self.dir / "data"
        self.port = free_port()
        self._n = 0

    def sweep(self) -> list[Path]:
        """Stop and remove the clusters of earlier runs whose process is gone (a run
        killed before its clean-up leaves its postmaster running and its files behind);
        the directories removed. A cluster whose owner lives is left alone."""
        removed = []
        for old in Path(tempfile.gettempdir()).glob(f"{self.PREFIX}*"):
            try:
                owner = int((old / "owner").read_text())
            except (OSError, ValueError):
                continue  # not ours to judge (being made, or made before owners)
            if _alive(owner):
                continue
            if (old / "data" / "postmaster.pid").exists():
                with contextlib.suppress(Exception):
                    self._run("pg_ctl", "-D", str(old / "data"), "-m", "immediate", "-w", "stop")
            shutil.rmtree(old, ignore_errors=True)
            removed.append(old)
        return removed

    def _run(self, *args: str) -> None:
        cmd = [str(self.bin / args[0]), *args[1:]]
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True, cwd="/")

    def start(self) -> PgCluster:
        if self.as_root:
            shutil.chown(self.dir, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")
        self.resume()
        return self

    def resume(self) -> None:
        """Start the (initialised) cluster; returns when it accepts connections."""
        opts = (
            f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        self._run(
            "pg_ctl", "-D", str(self.data), "-o", opts, "-w", "-l", str(self.dir / "log"), "start"
        )

    def pause(self, mode: str = "fast") -> None:
        """``pg_ctl stop -m mode``: returns once the postmaster is gone (fast: sessions
        are killed, committed work is kept)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)

    def postmaster_pid(self) -> int:
        """The cluster's main process (its backends are its children)."""
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def new_database(self) -> str:
        """A fresh empty database; its URL."""
        import psycopg

        self._n += 1
        name = f"t{os.getpid()}_{self._n}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def url(self, database: str) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"


# ----- a small disk ------------------------------------------------------------------------
class Tmpfs:
    """A small tmpfs mounted in a temp dir (root only), to fill up for real: ``fill()``
    takes every free byte with a filler file, ``free()`` gives the space back. If the
    mount is impossible the constructor raises (a test that needs it fails, never skips).
    """

    def __init__(self, size: str = "8m") -> None:
        self.path = Path(tempfile.mkdtemp(prefix="gamenight-tmpfs-"))
        result = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(self.path)],
            capture_output=True,
            text=True,
            check=False,
        )
        if result.returncode != 0:
            self.path.rmdir()
            raise RuntimeError(
                "cannot mount a tmpfs for the full-disk tests (they need root and "
                f"mount -t tmpfs): {result.stderr.strip() or result.returncode}"
            )
        self.filler = self.path / "filler"

    def fill(self) -> int:
        """Write the filler until the disk is full; the bytes written."""
        written = 0
        with open(self.filler, "ab", buffering=0) as f:
            for chunk in (1 << 16, 1 << 12, 1 << 9, 1):
                block = b"\0" * chunk
                while True:
                    try:
                        n = f.write(block)
                    except OSError:
                        break
                    written += n or 0
                    if not n:
                        break
        return written

    def free(self) -> None:
        self.filler.unlink(missing_ok=True)

    def close(self) -> None:
        subprocess.run(["umount", "-l", str(self.path)], capture_output=True, check=False)
        with contextlib.suppress(OSError):
            self.path.rmdir()
