"""Run the server under uvicorn (``gamenight serve`` and ``python -m gamenight.server``).

The start, in order (``docs/deploy.md``): the settings are checked; the database URL's
kind, an SQLite file's lock (one process per file) and its contents; the database is
reached and migrated; the port is bound; then the URL is printed, with the real port.
Each refusal is one line on stderr and exit status 3 (a bad setting: status 2).
"""

from __future__ import annotations

import contextlib
import os
import socket
import sqlite3
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

from gamenight.server.config import Config
from gamenight.server.dburl import default_url, schema_is_current, sqlite_path, sync_url
from gamenight.server.invite import is_loopback, machine_address

WS_MAX_BYTES = 1 << 20  # frames beyond this drop the socket; the protocol caps at 16 KiB
SQLITE_MAGIC = b"SQLite format 3\x00"
OUR_TABLES = frozenset({"alembic_version", "rooms", "seats", "actions", "chat"})


class StartRefused(SystemExit):
    """The server cannot start: one line on stderr, exit status 3."""

    def __init__(self, line: str) -> None:
        one = " ".join(part.strip() for part in line.splitlines() if part.strip())
        print(f"gamenight: {one}", file=sys.stderr, flush=True)
        super().__init__(3)


def serve_command_line(given: Mapping[str, Any]) -> None:
    """The command's flags (``given``) and the environment: check every setting (one
    line and status 2 for a bad one), then :func:`serve`."""
    from gamenight.server.settings import SettingError, resolve

    try:
        values = resolve(given, os.environ)
    except SettingError as exc:
        print(f"gamenight serve: {exc}", file=sys.stderr, flush=True)
        raise SystemExit(2) from None
    serve(settings=values)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db_url: str | None = None,
    *,
    build_tables: bool = True,
    origins: tuple[str, ...] = (),
    log_level: str = "info",
    announce: bool = True,
    loop: str = "auto",
    ws: str = "auto",
    wait_for_db: float = 0.0,
    settings: Mapping[str, Any] | None = None,
) -> None:
    """Start the app and block until interrupted. ``settings`` (server.settings.resolve)
    holds every setting; the keyword arguments are the older way to give some."""
    from gamenight.server import logs
    from gamenight.server.settings import SETTINGS, config_values

    values: dict[str, Any] = {s.key: s.default for s in SETTINGS}
    values.update(
        host=host,
        port=port,
        db=db_url or "",
        table_build=build_tables,
        origin=origins,
        log_level=log_level,
        loop=loop,
        ws=ws,
        wait_for_db=wait_for_db,
    )
    if settings is not None:
        values.update(settings)
    logs.configure(values["log_level"], values["log_format"], values["access_log"])
    url = values["db"] or default_url()
    lock = check_database_file(url)  # held while the process runs
    # Database drivers hand work to threads (aiosqlite) and back: a shorter GIL
    # switch interval than the default 5 ms keeps that hand-off from adding latency.
    sys.setswitchinterval(0.0005)
    reach_database(url, values["wait_for_db"])
    listener = bind(values["host"], values["port"])
    metrics_apart = values["metrics"] == "on" and bool(values["metrics_listen"])
    if metrics_apart:
        serve_metrics_apart(values["metrics_listen"])
    config = Config(
        db_url=url,
        build_tables=values["table_build"],
        extra_origins=tuple(values["origin"]),
        public_url=values["public_url"],
        metrics_route=values["metrics"] == "on" and not metrics_apart,
        listen_host=values["host"],
        **config_values(values),
    )
    try:
        _run(config, listener, values, announce)
    finally:
        if lock is not None:
            lock.close()


def _run(config: Config, listener: socket.socket, values: dict[str, Any], announce: bool) -> None:
    import uvicorn

    from gamenight.server.app import create_app
    from gamenight.server.proxy import ForwardedMiddleware

    app = create_app(config)
    asgi: Any = (
        ForwardedMiddleware(app, values["trusted_proxy"]) if values["trusted_proxy"] else app
    )
    bound = listener.getsockname()

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if announce and self.started:
                for line in announcement(values["host"], bound[1], config):
                    print(line, flush=True)

    server = Server(
        uvicorn.Config(
            asgi,
            log_config=None,  # server.logs set up one format for every logger
            log_level=values["log_level"],
            access_log=values["access_log"],
            proxy_headers=False,  # only --trusted-proxy believes forwarding headers (proxy.py)
            ws_max_size=WS_MAX_BYTES,
            ws_ping_interval=20,
            ws_ping_timeout=20,
            # No permessage-deflate: frames are small, and compressing each one costs more
            # CPU (server and client) than the bytes it saves on a game table's socket.
            ws_per_message_deflate=False,
            lifespan="on",
            loop=values["loop"],
            ws=values["ws"],
        )
    )

    def stop() -> None:  # the storage did not come up after all (create_app): stop
        server.should_exit = True

    app.state.on_failure = stop
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C: stopped, as uvicorn.run does
        server.run(sockets=[listener])
    if getattr(app.state, "failed", None) is not None:
        raise StartRefused(f"the server could not start: {app.state.failed}")
    if not server.started:
        raise StartRefused("the server could not start (see the log above)")


# ----- the start's checks ---------------------------------------------------------------
def check_database_file(url: str) -> IO[bytes] | None:
    """For an SQLite file: take its lock (``<file>.lock``, held until the process ends)
    and refuse a file that is not an SQLite database, or one of another program. Returns
    the open lock file (None for PostgreSQL and in-memory databases)."""
    target = sync_url(url)
    scheme = target.partition("://")[0]
    if scheme.partition("+")[0] not in ("sqlite", "postgresql", "postgres"):
        shown = f"'{scheme}://'" if "://" in target else "no scheme"
        raise StartRefused(
            f"--db (GAMENIGHT_DB): unknown database kind ({shown}): "
            "use sqlite:///path or postgresql://user@host/db"
        )
    path_text = sqlite_path(url)
    if path_text is None:
        return None
    if not path_text or path_text == ":memory:":
        return None
    path = Path(path_text)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = open(f"{path}.lock", "ab")  # noqa: SIM115 - held as long as the process
    except OSError as exc:
        raise StartRefused(f"cannot use the database file {path}: {exc.strerror}") from None
    import fcntl

    try:
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        lock.close()
        raise StartRefused(
            f"another gamenight server is using {path} (one process per SQLite file; "
            "use PostgreSQL for several)"
        ) from None
    try:
        _check_sqlite_file(path)
    except BaseException:
        lock.close()
        raise
    return lock


def _check_sqlite_file(path: Path) -> None:
    if not path.exists():
        return
    try:
        with path.open("rb") as f:
            head = f.read(len(SQLITE_MAGIC))
    except OSError as exc:
        raise StartRefused(f"cannot read the database file {path}: {exc.strerror}") from None
    if head and head != SQLITE_MAGIC:
        raise StartRefused(f"{path} is not an SQLite database (damaged, or another kind of file)")
    if not head:
        return  # empty: a new database
    try:
        uri = path.resolve().as_uri() + "?mode=ro"
        with contextlib.closing(sqlite3.connect(uri, uri=True)) as conn:
            tables = {
                r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
            check = conn.execute("PRAGMA quick_check(1)").fetchone()
    except sqlite3.Error as exc:
        raise StartRefused(f"the database file {path} is damaged: {exc}") from None
    if check is None or check[0] != "ok":
        shown = check[0] if check else "no answer"
        raise StartRefused(f"the database file {path} is damaged: {shown}")
    if tables and "alembic_version" not in tables:
        others = ", ".join(sorted(tables - OUR_TABLES)[:3]) or ", ".join(sorted(tables)[:3])
        raise StartRefused(
            f"{path} is another program's database (tables {others}), not gamenight's"
        )


def reach_database(url: str, wait: float) -> None:
    """Migrate the database at ``url``, retrying once a second for up to ``wait``
    seconds while it cannot be reached; then exit with status 3 and one line. Any other
    failure (a database of a newer gamenight, a damaged one, a PostgreSQL URL without the
    [postgres] extra installed) is one line and status 3."""
    from gamenight.core.extras import MissingExtraError
    from gamenight.server.dburl import require_driver

    try:
        require_driver(url)
    except MissingExtraError as exc:
        print(f"gamenight: {exc}", file=sys.stderr)
        raise SystemExit(3) from None
    if schema_is_current(url):  # an SQLite file at the head: nothing to import or do
        return
    from gamenight.server.headschema import migrate  # a new SQLite file: no SQLAlchemy

    deadline = time.monotonic() + max(wait, 0.0)
    said = False
    while True:
        try:
            migrate(url)
            return
        except Exception as exc:
            from gamenight.server.storage.outage import is_outage, outage_reason

            if not is_outage(exc):
                raise StartRefused(
                    f"the database at {_safe(url)} cannot be used: {_one_line(exc)}"
                ) from None
            reason = outage_reason(exc)
        if time.monotonic() >= deadline:
            raise StartRefused(f"cannot reach the database at {_safe(url)}: {reason}")
        if not said:
            print(
                f"gamenight: waiting up to {wait:g} s for the database at {_safe(url)}",
                file=sys.stderr,
                flush=True,
            )
            said = True
        time.sleep(1.0)


def _one_line(exc: BaseException) -> str:
    inner = getattr(exc, "orig", None) or exc
    lines = str(inner).strip().splitlines()
    text = lines[0] if lines else type(inner).__name__
    return text[:300]


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (0: any free port), or one line and
    status 3 (the port is taken, the address is not this machine's...)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise StartRefused(f"cannot listen on {host}: {exc.strerror}") from None
    family, kind, proto, _name, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            with contextlib.suppress(OSError):  # "::" takes IPv4 too where it can
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        shown = f"[{host}]" if ":" in host else host
        raise StartRefused(f"cannot listen on {shown}:{port}: {exc.strerror}") from None
    sock.set_inheritable(True)
    return sock


def serve_metrics_apart(listen: str) -> None:
    """``--metrics-listen HOST:PORT``: /metrics on its own small HTTP server (a thread)."""
    from prometheus_client import start_http_server

    host, _, port = listen.rpartition(":")
    host = host.strip("[]")
    try:
        start_http_server(int(port), addr=host)
    except OSError as exc:
        raise StartRefused(f"cannot listen on {listen} for metrics: {exc.strerror}") from None


def announcement(host: str, port: int, config: Config) -> list[str]:
    """What ``serve`` prints once it listens: the URL with the real port, and who can
    reach it."""
    shown = f"[{host}]" if ":" in host else host
    everywhere = host in ("0.0.0.0", "::", "")
    if everywhere:
        shown = "127.0.0.1" if host != "::" else "[::1]"
    lines = [f"gamenight is serving at http://{shown}:{port}/  (database: {_safe(config.db_url)})"]
    if config.public_url:
        lines.append(f"Players open {config.public_url}/ (invite links use it).")
    elif is_loopback(host):
        lines.append(
            "Only this computer can open it: to let other machines in, start it with "
            "--host 0.0.0.0 (or put a reverse proxy in front and give --public-url)."
        )
    elif everywhere:
        mine = machine_address()
        if mine is not None:
            lines.append(f"Other machines open http://{mine}:{port}/ (invite links use it).")
    lines.append("Press Ctrl+C to stop.")
    return lines


def _safe(url: str) -> str:
    """The URL without a password.

    >>> _safe("postgresql://me:secret@db:5432/g")
    'postgresql://me:***@db:5432/g'
    """
    scheme, sep, rest = url.partition("://")
    if "@" not in rest:
        return url
    creds, _, where = rest.rpartition("@")
    user, colon, _password = creds.partition(":")
    return f"{scheme}{sep}{user}{':***' if colon else ''}@{where}"
