"""A command's arguments, checked: the game it names, that game's options, the seed.

A bad argument is a :class:`UsageFailure` (one line, exit 2); a record that fails
verification is a :class:`CheckFailure` (exit 1). Every command module uses these,
so they live below all of them (see the import contracts in ``pyproject.toml``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from gamenight.core.i18n import _, game_name, set_default_language
from gamenight.core.languages import LANGUAGES, check_language, from_environment

if TYPE_CHECKING:  # the registry reads every installed package's metadata: not for --help
    from gamenight.core import registry
    from gamenight.core.game import GameInfo


class UsageFailure(Exception):
    """A one-line usage error (exit 2)."""


class CheckFailure(Exception):
    """A failed verification (exit 1)."""


def game_entry(game: str) -> registry.GameEntry:
    """The registry entry of ``game``, its module imported now so a game missing
    from this installation is a usage error, not a traceback later."""
    from gamenight.core import registry

    entry = registry.get(game)
    try:
        entry.game  # noqa: B018 - import now so a missing game is a usage error
    except ModuleNotFoundError:
        raise UsageFailure(
            _("game '{game}' is not available in this installation").format(game=game)
        ) from None
    return entry


_chosen: str | None = None  # the group's --lang (gamenight --lang de ...), if given


def choose_language(lang: str | None) -> str:
    """Set the process's language from ``gamenight --lang`` (checked: a bad one is one
    line, exit 2), else from the POSIX locale; :func:`reading_language` follows it."""
    global _chosen
    _chosen = None if lang is None else set_default_language(lang)
    return _chosen or set_default_language(from_environment(os.environ))


def reading_language(lang: str | None) -> str:
    """The language a command's player-facing text is in: its own ``--lang`` if given
    (checked: a LanguageError is one line, exit 2), else the global ``gamenight --lang``,
    else the POSIX locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG). The one place the
    commands ask. The pseudo-locale has no rules or decks: the POSIX locale's are read.

    >>> reading_language("PL"), reading_language("de_AT.UTF-8")
    ('pl', 'de')
    >>> choose_language("de") and (reading_language(None), reading_language("pl"))
    ('de', 'pl')
    >>> choose_language(None) and reading_language(None) == from_environment(os.environ)
    True
    """
    if lang is not None:
        return check_language(lang)
    if _chosen in LANGUAGES:
        return _chosen
    return from_environment(os.environ)


def raw_options(info: GameInfo, args: Sequence[str], option: Sequence[str] = ()) -> dict[str, Any]:
    """Game options from ``--NAME VALUE`` / ``--NAME=VALUE`` arguments and ``-o NAME=VALUE``,
    checked against the game's own option list (no per-game code here).

    >>> from gamenight.core import registry
    >>> info = registry.get("decathlon").game.info
    >>> raw_options(info, ["--variant", "championship", "--events=100m"], ["variant=points"])
    {'variant': 'points', 'events': '100m'}
    >>> raw_options(info, ["--mode", "solo"])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gamenight.cli.args.UsageFailure: Reiner Knizia's Decathlon has no option --mode (its ...
    """
    specs = {spec.name: spec for spec in info.options}

    def known(name: str, shown: str) -> str:
        key = name.strip().lower()
        if key in specs:
            return key
        if key.replace("-", "_") in specs:
            return key.replace("-", "_")
        names = ", ".join(f"--{n}" for n in specs) or _("none")
        raise UsageFailure(
            _("{game} has no option {option} (its options: {options})").format(
                game=game_name(info.id, info.name), option=shown, options=names
            )
        )

    raw: dict[str, Any] = {}
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if not arg.startswith("--") or arg == "--":
            raise UsageFailure(
                _("unexpected argument {arg} (game options are --NAME VALUE)").format(arg=repr(arg))
            )
        name, sep, value = arg[2:].partition("=")
        key = known(name, f"--{name}")
        if not sep:
            if rest and not rest[0].startswith("--"):
                value = rest.pop(0)
            elif specs[key].kind == "bool":
                value = "yes"
            else:
                raise UsageFailure(_("option --{name} needs a value").format(name=name))
        raw[key] = value
    for item in option:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise UsageFailure(_("--option {item}: expected KEY=VALUE").format(item=repr(item)))
        raw[known(name, repr(name.strip()))] = value.strip()
    return raw


def game_seed(seed: int | None) -> int:
    """The player's ``--seed``, or a fresh secret 128-bit one."""
    from gamenight.core import seeds

    if seed is not None:
        try:
            return seeds.check_seed(seed)  # the limit a record can be read back with
        except ValueError as exc:
            raise UsageFailure(f"--seed: {exc}") from None
    return seeds.draw_seed()


class PathType(click.Path):
    """``click.Path`` whose values are :class:`pathlib.Path` objects (``path_type=Path``),
    with pathlib imported only when a path is given: most commands take none, and
    pathlib's import (urllib.parse, ipaddress, fnmatch) is ~1% of ``solve decathlon
    --json`` (issue 29).

    >>> PathType(dir_okay=False).convert("games.jsonl", None, None)
    PosixPath('games.jsonl')
    """

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if self.type is None:
            from pathlib import Path

            self.type = Path
        return super().convert(value, param, ctx)
