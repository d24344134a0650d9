"""The server's player-facing words in the connection's language (issue 26).

The protocol stays language-neutral in its codes; where the server sends human text
(an error's ``message``, a room's ``notes``) it is in the language of the socket that
reads it. Each socket has one (``Conn.lang``): the ``lang`` query parameter of the
WebSocket URL, else the handshake's ``Accept-Language`` (:func:`socket_language`); HTTP
requests use theirs (:func:`request_language`). The room keeps its notes in English
(they are stored); :func:`localized` says them again as each socket sends them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import msgspec

from gamenight.core.i18n import Rephrasing, _, rephrase, use_language
from gamenight.core.languages import negotiate, normalize
from gamenight.server import protocol as p

NOTES: list[Rephrasing] = [
    (
        re.compile(
            r"The (?P<bot>\S+) bot is unavailable; the (?P<playing>\S+) bot plays its seat\."
        ),
        lambda: _("The {bot} bot is unavailable; the {playing} bot plays its seat."),
    ),
    (
        re.compile(
            r"The (?P<bot>\S+) bot's solution is not built on this server; "
            r"the (?P<playing>\S+) bot plays instead\."
        ),
        lambda: _(
            "The {bot} bot's solution is not built on this server; the {playing} bot plays instead."
        ),
    ),
    (
        re.compile(
            r"The (?P<bot>\S+) bot cannot play: its solution could not be built \((?P<error>.*)\); "
            r"the (?P<playing>\S+) bot plays instead\."
        ),
        lambda: _(
            "The {bot} bot cannot play: its solution could not be built ({error}); "
            "the {playing} bot plays instead."
        ),
    ),
    (
        re.compile(
            r"The (?P<bot>\S+) bot's solution is being built in the background "
            r"\((?P<percent>\d+%) done\); the (?P<playing>\S+) bot plays until it is ready\."
        ),
        lambda: _(
            # {percent} is "40%" whole: a bare % sign would make pybabel call it python-format
            "The {bot} bot's solution is being built in the background ({percent} done); "
            "the {playing} bot plays until it is ready."
        ),
    ),
    (
        re.compile(
            r"The (?P<bot>\S+) bot's solution is being built in the background; "
            r"the (?P<playing>\S+) bot plays until it is ready\."
        ),
        lambda: _(
            "The {bot} bot's solution is being built in the background; "
            "the {playing} bot plays until it is ready."
        ),
    ),
    (
        re.compile(r"closed after a long time without play"),
        lambda: _("closed after a long time without play"),
    ),
    (
        re.compile(r"This room cannot continue: (?P<reason>.*)\."),
        lambda: _("This room cannot continue: {reason}."),
    ),
]


def language_of(query: Mapping[str, str], accept_language: str | None) -> str:
    """A ``lang`` query parameter naming a language gamenight speaks, else the best
    match of ``Accept-Language``, else English.

    >>> language_of({"lang": "pl"}, "de"), language_of({}, "de-AT,en;q=0.5")
    ('pl', 'de')
    >>> language_of({"lang": "xx"}, None)
    'en'
    """
    asked = normalize(str(query.get("lang", ""))[:35])
    return asked or negotiate(accept_language)


def localized(info: p.RoomInfo, lang: str) -> p.RoomInfo:
    """``info`` with its notes in ``lang``."""
    if not info.notes:
        return info
    with use_language(lang):
        return msgspec.structs.replace(info, notes=tuple(rephrase(n, NOTES) for n in info.notes))
