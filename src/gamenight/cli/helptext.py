"""``--help`` in the reader's language: click's own words and our commands' help texts.

Click builds its help when it parses, before ``gamenight --lang`` has run, so
:func:`reading_argv` reads the language from the arguments (``--lang X`` /
``--lang=X``) or the POSIX locale first. Then :func:`speak` points click's
``gettext`` names (click calls GNU gettext's global domain, which knows nothing of
``--lang``) at ours, and says every command's help, short help, epilog and option
help again from its English msgid (``make messages`` extracts them with
``gamenight.cli.help_extract``). English needs none of it: ``--help`` stays as fast
as before (issue 29).

>>> reading_argv(["--lang", "pl", "play", "--help"], {}), reading_argv(["--lang=DE"], {})
('pl', 'de')
>>> reading_argv(["list"], {"LANG": "de_DE.UTF-8"}), reading_argv(["--lang", "fr"], {})
('de', 'en')
"""

from __future__ import annotations

import gettext as gnu
import inspect
import sys

import click

from gamenight.cli.fast_help import reading_argv
from gamenight.core import i18n
from gamenight.core.i18n import N_

__all__ = ["METAVARS", "reading_argv", "speak"]

# The English of each help text, kept the first time it is said in another language.
_ENGLISH: dict[click.Command | click.Parameter, tuple[str | None, ...]] = {}


def speak(command: click.Command) -> None:
    """Say click's words and ``command``'s help (and its subcommands') in the current
    language; English gives back the English (nothing to do if nothing was said)."""
    if i18n.language() == "en" and not _ENGLISH:
        return
    for name, module in list(sys.modules.items()):
        if name == "click" or name.startswith("click."):
            if getattr(module, "_", None) in (gnu.gettext, i18n.gettext):
                # click's modules bind the gettext we replace
                module._ = i18n.gettext  # type: ignore[attr-defined]
            if getattr(module, "ngettext", None) in (gnu.ngettext, i18n.ngettext):
                # click's modules bind the gettext we replace
                module.ngettext = i18n.ngettext  # type: ignore[attr-defined]
    _say(command)


# What click writes for a value of each type (its name in capitals) and for the rest of
# a usage line; marked here, said for options that name no metavar of their own.
METAVARS = {
    "text": N_("TEXT"),
    "integer": N_("INTEGER"),
    "float": N_("FLOAT"),
    "file": N_("FILE"),
    "directory": N_("DIRECTORY"),
    "path": N_("PATH"),
}
OPTIONS_METAVAR = N_("[OPTIONS]")
SUBCOMMAND_METAVARS = (N_("[COMMAND] [ARGS]..."), N_("COMMAND [ARGS]..."))


def _said(text: str | None) -> str | None:
    return i18n.gettext(inspect.cleandoc(text)) if text else text


def _say(command: click.Command) -> None:
    group = command if isinstance(command, click.Group) else None
    texts = (command.help, command.short_help, command.epilog, command.options_metavar)
    english = _ENGLISH.setdefault(command, (*texts, group.subcommand_metavar if group else None))
    said = [_said(t) for t in english]
    command.help, command.short_help, command.epilog = said[:3]
    command.options_metavar = said[3] or ""
    for param in command.params:
        if isinstance(param, click.Option):
            metavar = None
            if not (param.is_flag or param.count) and param.metavar is None:
                metavar = METAVARS.get(param.type.name)
            help_text, metavar = _ENGLISH.setdefault(param, (param.help, metavar))
            param.help = _said(help_text)
            if metavar is not None:
                param.metavar = _said(metavar)
    if group is not None:
        group.subcommand_metavar = said[4] or ""
        for sub in group.commands.values():
            _say(sub)
