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
def serve_command(
    host: str, port: int, db_url: str | None, origins: tuple[str, ...], no_table_build: bool
) -> None:
    """Run the online game server: rooms, seats, bots and the browser protocol."""
    from gamenight.server.serve import serve

    serve(host, port, db_url, build_tables=not no_table_build, origins=origins)
