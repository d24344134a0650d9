"""``gamenight serve`` (the online game server) and ``gamenight backup`` (``docs/deploy.md``).

Every option of ``serve`` is a setting of :mod:`gamenight.server.settings` (a flag and a
``GAMENIGHT_*`` variable, checked before the start)."""

from __future__ import annotations

import sys
from typing import Any

import click


class _SettingsCommand(click.Command):
    """A command whose options are the server's settings (``server/settings.py``: each a
    flag and a ``GAMENIGHT_*`` variable), made when the command is used: ``gamenight
    --help`` imports nothing of the server (issue 29)."""

    def _ensure(self) -> None:
        if not self.params:
            from gamenight.server.settings import click_params

            self.params = click_params()

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        self._ensure()
        return super().make_context(*args, **kwargs)

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        self._ensure()
        return super().get_params(ctx)


@click.command("serve", cls=_SettingsCommand)
def serve_command(**given: Any) -> None:
    """Run the online game server: rooms, seats, bots and the browser protocol."""
    from gamenight.server.serve import serve_command_line

    serve_command_line(given)


@click.command("backup")
@click.argument("dest", type=click.Path(dir_okay=False, writable=True))
@click.option(
    "--db",
    "db_url",
    default=None,
    envvar="GAMENIGHT_DB",
    help="the server's SQLite database (default: as gamenight serve)",
)
def backup_command(dest: str, db_url: str | None) -> None:
    """Copy the server's SQLite database to DEST while it runs (use pg_dump for PostgreSQL)."""
    from gamenight.server.backup import BackupError, backup

    try:
        pages = backup(db_url, dest)
    except BackupError as exc:
        print(f"gamenight backup: {exc}", file=sys.stderr)
        raise SystemExit(3) from None
    click.echo(f"backed up {pages} pages to {dest}")
