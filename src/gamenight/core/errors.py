"""Error classes shared by every game and front end.

Every error a user can provoke derives from :class:`GamenightError`, so front
ends can catch one class and print its message instead of a traceback.
"""

from __future__ import annotations


def first_line(exc: BaseException) -> str:
    """The first line of ``exc``'s message (its class name if it has none): how a
    failure is told in one line, in a log or to a player.

    >>> first_line(ValueError("no such table\\nSQL: ..."))
    'no such table'
    >>> first_line(KeyError())
    'KeyError'
    """
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


class GamenightError(Exception):
    """Base class of all errors caused by bad input rather than by bugs."""


class IllegalActionError(GamenightError, ValueError):
    """An action that is malformed or not legal in the current state.

    The state it was applied to is left unchanged (states are immutable).
    """


class OptionsError(GamenightError, ValueError):
    """Game options or a player list that the game does not accept."""


class RecordError(GamenightError, ValueError):
    """A game record that is malformed or does not replay as recorded."""


class UnknownGameError(GamenightError, KeyError):
    """A game id that is not in the registry."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown game"


class DiceExhaustedError(GamenightError, RuntimeError):
    """A scripted dice source ran out of values (a test scripted too few dice)."""


class StaleActionError(IllegalActionError):
    """An action sent for an older position (``expected_seq`` is not the table's seq).

    A client that re-sends after a reconnect gets this instead of a double move.
    """


class RecordWriteError(GamenightError):
    """A record line could not be written and synced (disk full, I/O error, read-only).

    The action it was for has not taken effect; everything written before is safe.
    """


class BuildNeededError(GamenightError):
    """A capability (a bot, an advisor) needs a one-time build first, which the game's
    preparation (``GameInfo.preparation``) makes: ``gamenight solve GAME``, or a
    server's background build (``python -m gamenight.server.build GAME``)."""


class RecordBusyError(RecordError):
    """A record that another gamenight has open (it holds the record's lock)."""


class StorageUnavailableError(GamenightError):
    """The server's database cannot be reached or written (down, restarting, disk full).

    Nothing changed; the request may be sent again after ``retry_after`` seconds.
    """

    def __init__(self, message: str, retry_after: int = 2) -> None:
        super().__init__(message)
        self.retry_after = retry_after
