"""``gamenight serve`` (the online game server) and ``gamenight backup`` (``docs/deploy.md``).

Every option of ``serve`` is a setting of :mod:`gamenight.server.settings` (a flag and a
``GAMENIGHT_*`` variable, checked before the start)."""

from __future__ import annotations

import sys
from typing import Any

import click

from gamenight.server.settings import click_options


@click.command("serve")
@click_options
def serve_command(**given: Any) -> None:
    """Run the online game server: rooms, seats, bots and the browser protocol.

    Each option may also be set by its GAMENIGHT_* environment variable (the flag wins).
    """
    from gamenight.server.serve import serve_command_line

    serve_command_line(given)


@click.command("backup")
@click.argument("dest", type=click.Path(dir_okay=False, writable=True))
@click.option(
    "--db",
    "db_url",
    default=None,
    envvar="GAMENIGHT_DB",
    help="the server's SQLite database URL [env GAMENIGHT_DB; default: the user data one]",
)
def backup_command(dest: str, db_url: str | None) -> None:
    """Copy the server's SQLite database to DEST while it runs (SQLite's online backup).

    For PostgreSQL use pg_dump (docs/deploy.md, "Backup and restore")."""
    from gamenight.server.backup import BackupError, backup

    try:
        pages = backup(db_url, dest)
    except BackupError as exc:
        print(f"gamenight backup: {exc}", file=sys.stderr)
        raise SystemExit(3) from None
    click.echo(f"backed up {pages} pages to {dest}")
