"""``gamenight turns``: the "your turn" list of the user's saved online seats (issue 44).

Every seat ``gamenight join`` kept (terminal/online/seats.py: server, room, token) is
sent to its server's ``POST /api/turns`` (docs/protocol.md, "Your turn"); the answer
names the turn-based rooms where one of them is to act. One table: the game, the room,
how long the move has waited, the clock left and the command that takes the seat. A
server that cannot be reached, or refuses, gets one line of its own; the others are
still listed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from gamenight.cli.lazy import lazy_console
from gamenight.core.i18n import _

if TYPE_CHECKING:
    from gamenight.terminal.online.seats import SavedSeat

console = lazy_console()
PER_REQUEST = 200  # seats one request may name (the server's bound)


def span(seconds: float) -> str:
    """A time span as a player reads it on the list: minutes, hours, then days.

    >>> span(59), span(3 * 3600 + 1200), span(36 * 3600), span(5 * 86400)
    ('1 min', '3 h', '1 d 12 h', '5 d')
    """
    minutes = max(1, round(seconds / 60))
    if minutes < 60:
        return _("{n} min").format(n=minutes)
    hours = round(seconds / 3600)
    if hours < 24:
        return _("{n} h").format(n=hours)
    days, rest = divmod(hours, 24)
    if rest == 0 or days >= 3:
        return _("{n} d").format(n=days)
    return _("{days} d {hours} h").format(days=days, hours=rest)


def clock_left(turn: dict[str, Any]) -> str:
    """The clock of a waiting move: the time left, "late", or "no clock".

    >>> clock_left({"left": 7200.0, "late": False}), clock_left({"left": None, "late": False})
    ('2 h', 'no clock')
    >>> clock_left({"left": -60.0, "late": True})
    'late'
    """
    if turn.get("late"):
        return _("late")
    left = turn.get("left")
    if left is None:
        return _("no clock")
    return span(float(left))


def _ask(server: str, held: list[SavedSeat], lang: str) -> list[dict[str, Any]]:
    """The server's waiting moves among ``held`` (OnlineError if it cannot answer)."""
    from gamenight.terminal.online import OnlineError
    from gamenight.terminal.online.api import Api

    api = Api(server, lang)
    found: list[dict[str, Any]] = []
    for start in range(0, len(held), PER_REQUEST):
        body = {
            "seats": [
                {"code": s.code, "seat": s.seat, "token": s.token}
                for s in held[start : start + PER_REQUEST]
            ]
        }
        answer = api.request("POST", "/api/turns", body)
        try:
            found += [dict(t) for t in answer["turns"]]
        except (KeyError, TypeError, ValueError):
            raise OnlineError(
                _("{server} answered, but not as a gamenight server").format(server=server)
            ) from None
    return found


def _game(game_id: str) -> str:
    from gamenight.core import registry
    from gamenight.core.errors import GamenightError
    from gamenight.core.i18n import game_name

    try:
        return game_name(game_id, registry.get(game_id).name)
    except (GamenightError, KeyError):
        return game_id


@click.command()
@click.option("--lang", "lang", default=None, help="the language of the list (en, de, pl)")
def turns(lang: str | None) -> None:
    """List the online rooms where it is your move: for every seat saved by `gamenight
    join`, its server is asked; the command to take the seat is shown."""
    from rich.table import Table as RichTable
    from rich.text import Text

    from gamenight.cli.args import reading_language
    from gamenight.terminal.online import OnlineError
    from gamenight.terminal.online.seats import load_all

    language = reading_language(lang)
    by_server: dict[str, list[SavedSeat]] = {}
    for saved in load_all().values():
        if saved.token and saved.seat is not None:
            by_server.setdefault(saved.server, []).append(saved)
    if not by_server:
        console.print(Text(_("No online seats are saved: join a room with gamenight join.")))
        return
    rows: list[tuple[str, dict[str, Any]]] = []
    problems: list[str] = []
    for server, held in sorted(by_server.items()):
        try:
            rows += [(server, t) for t in _ask(server, held, language)]
        except OnlineError as exc:
            problems.append(str(exc))
    if rows:
        table = RichTable(title=_("Your move"), title_justify="left")
        # a narrow terminal folds the room code and the command, never cuts them short:
        # they are what the player copies
        table.add_column(_("Game"))
        table.add_column(_("Room"), overflow="fold")
        table.add_column(_("Waiting"))
        table.add_column(_("Clock left"))
        table.add_column(_("Join with"), overflow="fold")
        for server, t in rows:
            late = bool(t.get("late"))
            table.add_row(  # Text: a server's words are never markup nor control codes
                Text(_game(str(t.get("game", "")))),
                Text(str(t.get("room", ""))),
                Text(span(float(t.get("waiting") or 0))),
                Text(clock_left(t), style="bold red" if late else ""),
                Text(f"gamenight join {server}/r/{t.get('room', '')}"),
            )
        console.print(table)
    elif not problems:
        console.print(Text(_("None of your saved rooms waits for your move.")))
    for problem in problems:  # one line each, after the list
        console.print(Text(problem, style="yellow"))
