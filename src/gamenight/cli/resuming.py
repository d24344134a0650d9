"""Going on with a game in the terminal: resume an unfinished saved one
(``gamenight resume`` and the menu's "resume a saved game"), and play a match
to its end.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from gamenight.cli.args import CheckFailure, game_entry
from gamenight.cli.players import SeatSpec
from gamenight.cli.session import Session, restore
from gamenight.core import seeds
from gamenight.core.errors import RecordError
from gamenight.core.i18n import _, game_name, ngettext, said
from gamenight.core.record import resume_record
from gamenight.terminal.ui import Prompter


def resume_game(path: Path, console: Console, prompter: Prompter) -> tuple[Session, Any]:
    """The session and match of the unfinished game saved at ``path``, every recorded
    action replayed and checked, ready to :func:`play_on`. A record that fails the
    check (or names a bot this installation lacks) is a :class:`CheckFailure`."""
    try:
        resumed = resume_record(path)
    except RecordError as exc:
        raise CheckFailure(said(exc)) from None
    record = resumed.record
    entry = game_entry(record.game)
    name = game_name(entry.id, entry.name)
    seats = []
    for seat in record.seats:
        bot = seat.agent.removeprefix("bot:") if seat.agent.startswith("bot:") else None
        if bot is not None and bot not in entry.bots:
            resumed.writer.close()
            raise CheckFailure(
                _("{path}: unknown bot {bot} in the header").format(path=path, bot=repr(bot))
            )
        seats.append(SeatSpec(seat.name, bot=bot, members=(seat.name,)))
    assert record.seed is not None  # replay checked it
    if record.entropy != seeds.SERVER:  # only a server room makes such a game
        resumed.writer.close()
        raise CheckFailure(
            _("{path}: a game of an online room is played on in its room").format(path=path)
        )
    if record.rules_version != entry.game.info.rules_version:
        # it replays under its own rules (Game.older_rules), but play goes on only
        # under the current ones
        resumed.writer.close()
        raise CheckFailure(
            _(
                "{path}: begun under {game} rules version {old}; it replays (gamenight "
                "replay), but is played on only under version {new}: start a new game"
            ).format(
                path=path, game=name, old=record.rules_version, new=entry.game.info.rules_version
            )
        )
    options = entry.game.parse_options(record.options)
    session = Session(
        entry, seats, options, record.seed, console, prompter, path,
        writer=resumed.writer, dice_scheme=resumed.report.dice_scheme,
        seed_public=record.seed_chosen,  # a game begun with --seed is not secret
    )  # fmt: skip
    if resumed.backup is not None:
        console.print(
            Text(
                _(
                    "The last line of {path} was cut off (a crash while saving); it is "
                    "repaired and the original kept as {backup}."
                ).format(path=path, backup=resumed.backup)
            )
        )
    match = session.build()
    restore(match, [(seat, action) for seat, action, _ in record.actions])
    done = len(record.actions)
    console.print(
        Text(
            ngettext(
                "Resumed {game} after {n} action.", "Resumed {game} after {n} actions.", done
            ).format(game=name, n=done)
        )
    )
    return session, match


def play_on(session: Session, match: Any) -> bool:
    """Play ``match`` to its end and say where its record is. False when the game
    was left before the end (:meth:`Session.play` said where it is saved)."""
    if session.play(match) is None:
        return False
    if session.record_path is not None:
        session.console.print(Text(_("Record: {path}").format(path=session.record_path)))
    return True
