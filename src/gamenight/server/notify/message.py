"""What a notification says, in its subscriber's language (en/de/pl): one message for a
batch of outbox rows (several rooms, several moves), as plain text, HTML (every value
escaped), a Web Push payload and a webhook's JSON.

No secret is in any of them: the link opens the room (``/r/CODE``); the player's browser
holds the seat token. The unsubscribe link carries a token of its own, which only ends
this subscription.

>>> from gamenight.server.notify.store import Claimed
>>> row = Claimed(1, "turn", 1, 0, 5, {"room": "AB12", "game": "dice-duel", "seat": 0,
...     "name": "Ada", "since": 0.0, "deadline": 43200.0, "mine": True}, 0)
>>> m = compose([row], "en", "https://games.example", "https://games.example/u?t=x", now=3600.0)
>>> m.subject
'gamenight: your move in 1 room'
>>> print(m.lines[0])
Your move in Kniffel Dice Duel (room AB12), 11 h left.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from gamenight.core import registry
from gamenight.core.errors import GamenightError
from gamenight.core.i18n import _, game_name, ngettext, use_language
from gamenight.server.notify.store import Claimed


@dataclass(frozen=True)
class Message:
    """One notification: its subject, one line per event, the links, and the events as
    data (the webhook's JSON and the push payload carry them)."""

    subject: str
    lines: list[str]
    links: list[str]  # the room of each line
    unsubscribe: str
    lang: str
    events: list[dict[str, Any]]
    footer: str

    def text(self) -> str:
        body = [f"{line}\n  {link}" for line, link in zip(self.lines, self.links, strict=True)]
        return "\n\n".join([*body, f"-- \n{self.footer}\n{self.unsubscribe}"]) + "\n"

    def html(self) -> str:
        e = html.escape
        items = "".join(
            f'<li><a href="{e(link)}">{e(line)}</a></li>'
            for line, link in zip(self.lines, self.links, strict=True)
        )
        return (
            f'<!doctype html><html lang="{e(self.lang)}"><head><meta charset="utf-8">'
            f"<title>{e(self.subject)}</title></head>"
            '<body style="font-family:sans-serif;max-width:36em;margin:1em auto;padding:0 1em">'
            f'<h1 style="font-size:1.2em">{e(self.subject)}</h1><ul>{items}</ul>'
            f'<p style="color:#555;font-size:.9em">{e(self.footer)} '
            f'<a href="{e(self.unsubscribe)}">{e(_unsubscribe_word(self.lang))}</a></p>'
            "</body></html>\n"
        )

    def data(self) -> dict[str, Any]:
        """The webhook's body and the push payload."""
        return {
            "subject": self.subject,
            "lines": self.lines,
            "events": self.events,
            "lang": self.lang,
        }


def _unsubscribe_word(lang: str) -> str:
    with use_language(lang):
        return _("Unsubscribe")


def duration(seconds: float) -> str:
    """A time left or waited, rounded: days and hours, hours, or minutes.

    >>> duration(3 * 86400 + 7200), duration(5400), duration(59)
    ('3 d 2 h', '1 h', '1 min')
    """
    seconds = max(seconds, 0)
    days, rest = divmod(int(seconds), 86400)
    hours, rest = divmod(rest, 3600)
    if days:
        return _("{days} d {hours} h").format(days=days, hours=hours)
    if hours:
        return _("{hours} h").format(hours=hours)
    return _("{minutes} min").format(minutes=max(1, rest // 60))


def _game(game_id: str) -> str:
    try:
        english = registry.get(game_id).name
    except GamenightError:
        return game_id
    return game_name(game_id, english)


def _line(row: Claimed, now: float) -> str:
    p = row.payload
    game, room = _game(str(p.get("game", ""))), str(p.get("room", ""))
    deadline = p.get("deadline")
    left = None if deadline is None else duration(float(deadline) - now)
    if row.kind == "late":
        if p.get("mine"):
            return _("Your time ran out in {game} (room {room}).").format(game=game, room=room)
        return _(
            "{name}'s time ran out in {game} (room {room}): you may let the clock run or "
            "let a bot play the move."
        ).format(name=p.get("name") or "?", game=game, room=room)
    if row.kind == "remind":
        return _("Reminder: {left} left for your move in {game} (room {room}).").format(
            left=left, game=game, room=room
        )
    if left is None:
        return _("Your move in {game} (room {room}).").format(game=game, room=room)
    return _("Your move in {game} (room {room}), {left} left.").format(
        game=game, room=room, left=left
    )


def compose(
    rows: Sequence[Claimed], lang: str, base_url: str, unsubscribe: str, now: float
) -> Message:
    """One message for ``rows`` (one subscription's due rows) in ``lang``."""
    with use_language(lang):
        rooms = sorted({str(r.payload.get("room", "")) for r in rows})
        if all(r.kind == "late" for r in rows):
            subject = ngettext(
                "gamenight: a clock ran out in {n} room",
                "gamenight: a clock ran out in {n} rooms",
                len(rooms),
            ).format(n=len(rooms))
        else:
            subject = ngettext(
                "gamenight: your move in {n} room", "gamenight: your move in {n} rooms", len(rooms)
            ).format(n=len(rooms))
        lines = [_line(r, now) for r in rows]
        footer = _("You get this because you asked gamenight to tell you of your moves.")
    base = base_url.rstrip("/")
    links = [f"{base}/r/{r.payload.get('room', '')}" for r in rows]
    events = [
        {
            "id": f"{r.kind}:{r.room_id}:{r.seat}:{r.seq}",
            "kind": r.kind,
            "room": r.payload.get("room"),
            "game": r.payload.get("game"),
            "seat": r.seat,
            "mine": bool(r.payload.get("mine")),
            "deadline": r.payload.get("deadline"),
            "url": link,
        }
        for r, link in zip(rows, links, strict=True)
    ]
    return Message(subject, lines, links, unsubscribe, lang, events, footer)
