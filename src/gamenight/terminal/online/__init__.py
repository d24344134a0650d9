"""Online play from the terminal: ``gamenight join`` and ``gamenight host``.

A client of a gamenight server written from docs/protocol.md alone (no import of
``gamenight.server``; pyproject's import contracts forbid it): the HTTP API to create
rooms and claim seats (:mod:`.api`), the room's WebSocket with reconnection
(:mod:`.link`), the seats kept in the user's data folder (:mod:`.seats`), the fair-dice
check at the end (:mod:`.fair`), and the table that plays through each game's own
terminal UI, in the line mode or on the full screen (:mod:`.table`).
"""

from __future__ import annotations

from gamenight.core.errors import GamenightError


class OnlineError(GamenightError):
    """A refusal the player reads in one line (already in their language): a bad link,
    a server that cannot be reached, a seat refused. The command exits with 2."""
