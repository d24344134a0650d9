"""``gamenight join`` and ``gamenight host``: online rooms from the terminal.

Everything that can be refused (a bad link, an unreachable server, a seat taken) is
refused here, before the table opens, in one line with exit status 2. The table itself
is :mod:`gamenight.terminal.online.table`, run by the caller on the full screen or in
the line mode.
"""

from __future__ import annotations

import getpass
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from gamenight.cli.args import UsageFailure
from gamenight.core.i18n import _, language

if TYPE_CHECKING:
    from rich.console import Console

    from gamenight.terminal.online.address import Where
    from gamenight.terminal.online.api import Api
    from gamenight.terminal.ui import Prompter

MAX_NAME = 40


def default_name() -> str:
    """The login name, as a display name (the server checks it again)."""
    try:
        name = getpass.getuser()
    except (KeyError, OSError):
        name = ""
    name = "".join(c for c in name if c.isprintable()).strip()[:MAX_NAME]
    return name or _("Player")


def _server(given: str | None) -> str | None:
    from gamenight.terminal.online.address import SERVER_VARIABLE

    return given or os.environ.get(SERVER_VARIABLE) or None


def _entry(game: str) -> Any:
    from gamenight.core import registry
    from gamenight.core.errors import GamenightError

    try:
        entry = registry.get(game)
        entry.game  # noqa: B018 - import now: a missing game is one line, not a traceback
    except (GamenightError, ModuleNotFoundError, KeyError):
        raise UsageFailure(
            _("this room plays '{game}', which this installation does not have").format(
                game=game[:60]
            )
        ) from None
    return entry


def _free_seat(room: dict[str, Any], wanted: int | None) -> tuple[int, bool]:
    """The seat to claim (from 0) and whether a contribution goes with it: before the
    game an unclaimed human seat, during play a seat the host freed (its dice are
    seeded already). ``wanted``: the seat the player named (from 1)."""
    status = room.get("status")
    seats = room.get("seats") or []
    if status not in ("waiting", "playing"):
        raise UsageFailure(
            _("room {code} is {status}: no seat can be taken").format(
                code=room.get("code", ""), status=status
            )
        )
    free = [
        i
        for i, s in enumerate(seats)
        if s.get("kind") == "human"
        and not s.get("claimed")
        and (status == "waiting" or s.get("takeover"))
    ]
    if wanted is not None:
        if wanted - 1 not in free:
            raise UsageFailure(
                _("seat {n} of room {code} cannot be taken; free seats: {free}").format(
                    n=wanted,
                    code=room.get("code", ""),
                    free=", ".join(str(i + 1) for i in free) or _("none"),
                )
            )
        return wanted - 1, status == "waiting"
    if not free:
        raise UsageFailure(_("room {code} has no free seat").format(code=room.get("code", "")))
    return free[0], status == "waiting"


def prepare_join(
    target: str,
    server: str | None,
    name: str | None,
    seat: int | None,
    word: str | None,
) -> tuple[Callable[[Console, Prompter], None], str]:
    """Find the room, take (or take back) a seat; the table to run, and its title."""
    from gamenight.terminal.online import OnlineError, seats
    from gamenight.terminal.online.address import where
    from gamenight.terminal.online.api import Api
    from gamenight.terminal.online.fair import new_contribution

    try:
        room_at = where(target, _server(server))
        api = Api(room_at.server, language())
        room = api.room(room_at.code)
        entry = _entry(str(room.get("game", "")))
        saved = seats.find(room_at.server, room_at.code)
        if saved is None or saved.token is None:
            index, contributes = _free_seat(room, seat)
            part = None
            if contributes:
                part = new_contribution()
                if word:
                    part = f"{part} {' '.join(word.split())}"[:200]
            seats.save(  # the commitment as first seen, before the seat is ours
                seats.SavedSeat(server=room_at.server, code=room_at.code, game=entry.id,
                                commitment=str(room.get("commitment") or "") or None)
            )  # fmt: skip
            claimed = api.claim(room_at.code, index, name or default_name(), part)
            saved = seats.SavedSeat(
                server=room_at.server, code=room_at.code, game=entry.id,
                seat=int(claimed["seat"]), token=str(claimed["token"]),
                name=name or default_name(), contribution=part,
            )  # fmt: skip
            seats.save(saved)
            saved = seats.find(room_at.server, room_at.code) or saved
    except OnlineError as exc:
        raise UsageFailure(str(exc)) from None
    except (KeyError, TypeError, ValueError):
        raise UsageFailure(
            _("{server} answered, but not as a gamenight server").format(server=room_at.server)
        ) from None
    return _runner(entry, api, room_at, saved), entry.name


def _runner(
    entry: Any, api: Api, room_at: Where, saved: Any
) -> Callable[[Console, Prompter], None]:
    def run(console: Console, prompter: Prompter) -> None:
        from gamenight.terminal.online import OnlineError, seats
        from gamenight.terminal.online.address import socket_url
        from gamenight.terminal.online.link import Link, SeatRefused
        from gamenight.terminal.online.table import Left, OnlineTable

        def say(line: str) -> None:
            prompter.error(line)

        link = Link(socket_url(room_at, language()), saved.token, say)
        surface = getattr(prompter, "surface", None)
        try:
            link.open()
            table = OnlineTable(entry, api, link, saved, console, prompter)
            table.play(leaving=lambda: bool(getattr(surface, "leaving", False)))
        except SeatRefused as exc:  # the host freed the seat: a later join claims anew
            seats.forget(room_at.server, room_at.code)
            raise UsageFailure(str(exc)) from None
        except OnlineError as exc:
            raise UsageFailure(str(exc)) from None
        except (Left, KeyboardInterrupt, EOFError):
            console.print()
            console.print(
                _(
                    "You left the table; your seat is kept. "
                    "Take it back with: gamenight join {link}"
                ).format(link=f"{room_at.server}/r/{room_at.code}"),
                soft_wrap=True,
                markup=False,
            )
            return
        finally:
            link.close()
        seats.forget(room_at.server, room_at.code)
        if table.checked is False:
            raise SystemExit(1)

    return run


def parse_seats(text: str | None, count: int) -> list[str]:
    """The seats to create: ``human``, ``bot:NAME`` or a bot's name, comma-separated;
    by default ``count`` humans.

    >>> parse_seats("human, greedy ,bot:optimal", 2)
    ['human', 'bot:greedy', 'bot:optimal']
    >>> parse_seats(None, 2)
    ['human', 'human']
    """
    if not text:
        return ["human"] * count
    out = []
    for part in text.split(","):
        word = part.strip()
        if not word:
            raise UsageFailure(_("--seats lists seats as human or bot:NAME, comma-separated"))
        out.append(word if word == "human" or word.startswith("bot:") else f"bot:{word}")
    return out


def host_room(
    game: str,
    server: str | None,
    seats_text: str | None,
    options: dict[str, Any],
    room_options: dict[str, Any],
    public: bool,
) -> tuple[Where, dict[str, Any]]:
    """Create the room; where it is and the server's answer (code, invite, commitment)."""
    from gamenight.terminal.online import OnlineError, seats
    from gamenight.terminal.online.address import Where, server_url
    from gamenight.terminal.online.api import Api

    given = _server(server)
    if not given:
        raise UsageFailure(_("which server? give --server URL (or set GAMENIGHT_SERVER)"))
    try:
        base = server_url(given.strip())
        api = Api(base, language())
        games = {str(g.get("id")): g for g in api.games()}
        info = games.get(game)
        if info is None:
            raise UsageFailure(
                _("the server at {server} has no game '{game}' (it has: {games})").format(
                    server=base, game=game[:60], games=", ".join(sorted(games))
                )
            )
        count = max(2, int(info.get("min_players") or 1))
        count = min(count, int(info.get("max_players") or count))
        body = {
            "game": game,
            "seats": parse_seats(seats_text, count),
            "options": options,
            "public": public,
            "room": room_options,
        }
        created = api.create(body)
        code = str(created["code"])
        seats.save(
            seats.SavedSeat(
                server=base, code=code, game=game, host_token=str(created["host_token"]),
                commitment=str(created.get("commitment") or "") or None,
            )
        )  # fmt: skip
    except OnlineError as exc:
        raise UsageFailure(str(exc)) from None
    except (KeyError, TypeError, ValueError):
        raise UsageFailure(
            _("{server} answered, but not as a gamenight server").format(server=given[:80])
        ) from None
    return Where(base, code), created


def options_of(pairs: Sequence[str]) -> dict[str, Any]:
    """``KEY=VALUE`` pairs as game options (the server checks them).

    >>> options_of(["events=100m,long-jump", "variant=points"])
    {'events': '100m,long-jump', 'variant': 'points'}
    """
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageFailure(_("-o takes KEY=VALUE, not {text!r}").format(text=pair[:60]))
        out[key.strip()] = value.strip()
    return out
