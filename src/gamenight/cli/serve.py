"""``gamenight serve``: the online game server (``docs/deploy.md``)."""

from __future__ import annotations

import click


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option(
    "--db",
    "db_url",
    default=None,
    help="database URL: sqlite:///path or postgresql://user@host/db "
    "(default: SQLite in the user data directory)",
)
@click.option(
    "--origin",
    "origins",
    multiple=True,
    help="another allowed browser Origin for sockets, e.g. https://games.example.org",
)
@click.option(
    "--no-table-build",
    is_flag=True,
    help="never build the Wurfeltod value table in the background",
)
@click.option(
    "--wait-for-db",
    "wait_for_db",
    default=0.0,
    show_default=True,
    type=click.FloatRange(0, 24 * 3600),
    metavar="SECONDS",
    help="retry an unreachable database this long at start, then exit with status 3",
)
def serve_command(
    host: str,
    port: int,
    db_url: str | None,
    origins: tuple[str, ...],
    no_table_build: bool,
    wait_for_db: float,
) -> None:
    """Run the online game server: rooms, seats, bots and the browser protocol."""
    from gamenight.server.serve import serve

    serve(
        host,
        port,
        db_url,
        build_tables=not no_table_build,
        origins=origins,
        wait_for_db=wait_for_db,
    )
