"""A click group whose commands are imported only when they run (issue 46).

``gamenight --help`` and ``gamenight list`` must start within a few bare interpreters:
importing every command module (the simulator's, the solver's...) to print one line of
help each costs more than click itself. A :class:`LazyGroup` knows each lazy command by
a :class:`Lazy` row: where it lives and its English help. ``--help`` lists the rows'
help through a stand-in command (so click words and wraps it exactly as the real one);
running, or asking a command's own ``--help``, imports its module.
``tests/cli/test_cli_lazy.py`` checks every row against the real command.

>>> Lazy("gamenight.cli.decks:decks").load().name
'decks'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import click

from gamenight.cli.command_index import Lazy

__all__ = ["Lazy", "LazyGroup"]


class LazyGroup(click.Group):
    """A group with commands of its own and ``lazy`` ones, imported on first use."""

    def __init__(self, *args: Any, lazy: Mapping[str, Lazy], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy)
        self._listing = False

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        from gamenight.cli.helptext import speak

        if cmd_name in self.commands or cmd_name not in self.lazy:
            return self.commands.get(cmd_name)
        row = self.lazy[cmd_name]
        if self._listing and row.help is not None:  # the group's --help: nothing imported
            stand_in = click.Command(cmd_name, help=row.help)
            speak(stand_in)
            return stand_in
        command = row.load()
        self.add_command(command, cmd_name)
        speak(command)  # in the reader's language, as speak(app) said the others
        return command

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand as exc:  # "did you mean" knows the lazy ones too
            known = self.list_commands(ctx)
            name = exc.command_name
            raise click.exceptions.NoSuchCommand(name, possibilities=known, ctx=ctx) from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self._listing = True
        try:
            super().format_commands(ctx, formatter)
        finally:
            self._listing = False
