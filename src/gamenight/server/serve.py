"""Run the server under uvicorn (``gamenight serve`` and ``python -m gamenight.server``)."""

from __future__ import annotations

import contextlib
import logging
import sys
import time

from gamenight.server.config import Config
from gamenight.server.dburl import default_url, schema_is_current

WS_MAX_BYTES = 1 << 20  # frames beyond this drop the socket; the protocol caps at 16 KiB


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
) -> None:
    """Start the app and block until interrupted. The database is reached (and migrated)
    first, retried for up to ``wait_for_db`` seconds: if it cannot be, one line says so
    and the process exits with status 3 (``docs/deploy.md``)."""
    import uvicorn

    from gamenight.server.app import create_app

    config = Config(
        db_url=db_url or default_url(),
        build_tables=build_tables,
        extra_origins=origins,
        bind_host=host,
    )
    # Database drivers hand work to threads (aiosqlite) and back: a shorter GIL
    # switch interval than the default 5 ms keeps that hand-off from adding latency.
    sys.setswitchinterval(0.0005)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    reach_database(config.db_url, wait_for_db)
    if announce:
        shown = f"[{host}]" if ":" in host else host
        print(f"gamenight is serving at http://{shown}:{port}/  (database: {_safe(config.db_url)})")
        print("Press Ctrl+C to stop.", flush=True)
    app = create_app(config)
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host=host,
            port=port,
            log_level=log_level,
            ws_max_size=WS_MAX_BYTES,
            ws_ping_interval=20,
            ws_ping_timeout=20,
            # No permessage-deflate: frames are small, and compressing each one costs more
            # CPU (server and client) than the bytes it saves on a game table's socket.
            ws_per_message_deflate=False,
            lifespan="on",
            loop=loop,
            ws=ws,
        )
    )

    def stop() -> None:  # the storage did not come up after all (create_app): stop
        server.should_exit = True

    app.state.on_failure = stop
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C: stopped, as uvicorn.run does
        server.run()
    if not server.started:  # uvicorn said why (the port is taken...)
        raise SystemExit(3)
    if getattr(app.state, "failed", None) is not None:
        print(f"gamenight: the server could not start: {app.state.failed}", file=sys.stderr)
        raise SystemExit(3)


def reach_database(url: str, wait: float) -> None:
    """Migrate the database at ``url``, retrying once a second for up to ``wait``
    seconds while it cannot be reached; then exit with status 3 and one line."""
    if schema_is_current(url):  # an SQLite file at the head: nothing to import or do
        return
    from gamenight.server.db import is_outage, migrate, outage_reason

    deadline = time.monotonic() + max(wait, 0.0)
    said = False
    while True:
        try:
            migrate(url)
            return
        except Exception as exc:
            if not is_outage(exc):
                raise
            reason = outage_reason(exc)
        if time.monotonic() >= deadline:
            print(
                f"gamenight: cannot reach the database at {_safe(url)}: {reason}", file=sys.stderr
            )
            raise SystemExit(3)
        if not said:
            print(
                f"gamenight: waiting up to {wait:g} s for the database at {_safe(url)}",
                file=sys.stderr,
                flush=True,
            )
            said = True
        time.sleep(1.0)


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
