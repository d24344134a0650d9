"""Error classes shared by every game and front end.

Every error a user can provoke derives from :class:`GamenightError`, so front
ends can catch one class and print its message instead of a traceback.
"""

from __future__ import annotations

from collections.abc import Callable


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


class Term:
    """A game's own word inside an error message (an event, a box, a card): its vocabulary
    key (a gettext context, as ``GameInfo.vocabulary`` names it) and its English. The
    English is what ``str()`` and ``format()`` give; a front end says it in the player's
    language (``gamenight.core.i18n.said``). ``make messages`` extracts a literal one.

    >>> f"{Term('dec.event.javelin', 'Javelin')}!"
    'Javelin!'
    """

    __slots__ = ("english", "key")

    def __init__(self, key: str, english: str) -> None:
        self.key, self.english = key, english

    def __str__(self) -> str:
        return self.english

    def __format__(self, spec: str) -> str:
        return format(self.english, spec)

    def __repr__(self) -> str:
        return f"Term({self.key!r}, {self.english!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Term) and (self.key, self.english) == (other.key, other.english)

    def __hash__(self) -> int:
        return hash((self.key, self.english))


class Sentence(Exception):
    """An error whose message a player reads in the player's language (issue 26).

    ``message`` is a whole English sentence with named ``{fields}``, a string literal:
    it is the gettext msgid (``make messages`` extracts it; tests/core/test_reasons.py
    checks every raise). ``str(error)`` is the English, for logs and records; a front end
    shows ``gamenight.core.i18n.said(error)``, the same sentence in the player's language.
    A field may be a :class:`Term`, a tuple of Terms, or another such error (a reason
    quoted inside this one: said in the same language).
    """

    def __init__(self, message: str = "", /, **fields: object) -> None:
        self.message = message
        self.fields = fields
        super().__init__(render(self, lambda text: text, str))

    def __reduce__(self) -> tuple[object, ...]:  # a worker process's error keeps its fields
        return (_rebuild, (type(self), self.message, self.fields))


class IllegalActionError(Sentence, GamenightError, ValueError):
    """An action that is malformed or not legal in the current state.

    The state it was applied to is left unchanged (states are immutable). Its message is
    a :class:`Sentence`.

    >>> error = IllegalActionError("no {name} chip is left", name=Term("dd.x", "Full House"))
    >>> str(error), error.message, sorted(error.fields)
    ('no Full House chip is left', 'no {name} chip is left', ['name'])
    """


class Phrase(Sentence):
    """A piece of a sentence in the player's language, never raised: a place such as
    ``FILE line 3`` quoted as a field of an error (issue 41), so the place is said in
    the same language as the error around it.

    >>> str(RecordError("{where}: data after the results line",
    ...                 where=Phrase("{name} line {line}", name="g.jsonl", line=3)))
    'g.jsonl line 3: data after the results line'
    """


def render(error: Sentence, translate: Callable[[str], str], say: Callable[[Term], str]) -> str:
    """``error``'s sentence looked up by ``translate``, its fields put in (Terms said by
    ``say``, a quoted error rendered the same way)."""
    text = translate(error.message) if error.message else ""
    return text.format(**fields_said(error.fields, say, translate)) if error.fields else text


def fields_said(
    fields: dict[str, object],
    say: Callable[[Term], str],
    translate: Callable[[str], str] = lambda text: text,
) -> dict[str, object]:
    """``fields`` with each Term said by ``say`` (a tuple of Terms: said and joined by
    commas) and each quoted :class:`Sentence` error rendered by ``translate`` (a tuple
    of them, such as a place's parts: each rendered, joined by commas)."""
    out: dict[str, object] = {}
    for name, value in fields.items():
        if isinstance(value, Term):
            value = say(value)
        elif isinstance(value, tuple) and value and all(isinstance(v, Term) for v in value):
            value = ", ".join(say(v) for v in value)
        elif isinstance(value, Sentence):
            value = render(value, translate, say)
        elif isinstance(value, tuple) and value and all(isinstance(v, Sentence) for v in value):
            value = ", ".join(render(v, translate, say) for v in value)
        elif isinstance(value, BaseException):
            value = first_line(value)
        out[name] = value
    return out


def _rebuild(cls: type[Sentence], message: str, fields: dict[str, object]) -> Sentence:
    return cls(message, **fields)


class OptionsError(Sentence, GamenightError, ValueError):
    """Game options or a player list that the game does not accept. Its message is a
    :class:`Sentence`: the CLI's error line and the server's ``bad_options`` say it in
    the player's language.

    >>> str(OptionsError("option '{option}': expected yes or no, got {raw}", option="x",
    ...                  raw="'maybe'"))
    "option 'x': expected yes or no, got 'maybe'"
    """


class RecordError(Sentence, GamenightError, ValueError):
    """A game record that is malformed or does not replay as recorded. Its message is
    a :class:`Sentence` (issue 41): ``gamenight replay``/``review``/``resume`` say it
    in the player's language; ``str()`` stays English for logs.

    >>> error = RecordError("no such record file: {path}", path="/tmp/x.jsonl")
    >>> str(error), error.fields
    ('no such record file: /tmp/x.jsonl', {'path': '/tmp/x.jsonl'})
    """


class UnknownGameError(GamenightError, KeyError):
    """A game id that is not in the registry."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown game"


class CapabilityError(GamenightError, TypeError):
    """A game's capability string names something that is not what ``GameInfo`` says it
    must be (a value where a function was promised): the plug-in is broken, not the
    player's input. The message names the string and what it found."""


class DiceExhaustedError(GamenightError, RuntimeError):
    """A scripted dice source ran out of values (a test scripted too few dice)."""


class StaleActionError(IllegalActionError):
    """An action sent for an older position (``expected_seq`` is not the table's seq).

    A client that re-sends after a reconnect gets this instead of a double move.
    """


class RecordWriteError(Sentence, GamenightError):
    """A record line could not be written and synced (disk full, I/O error, read-only).

    The action it was for has not taken effect; everything written before is safe.
    Its message is a :class:`Sentence`.
    """


class BuildNeededError(Sentence, GamenightError):
    """A capability (a bot, an advisor) needs a one-time build first, which the game's
    preparation (``GameInfo.preparation``) makes: ``gamenight solve GAME``, or a
    server's background build (``python -m gamenight.server.build GAME``). Its message
    is a :class:`Sentence`."""


class RecordBusyError(RecordError):
    """A record that another gamenight has open (it holds the record's lock)."""


class StorageUnavailableError(GamenightError):
    """The server's database cannot be reached or written (down, restarting, disk full).

    Nothing changed; the request may be sent again after ``retry_after`` seconds. Its
    message never reaches a player (a client is told ``server.faults.UNAVAILABLE``, the
    one translated line), so it stays plain English for the log.
    """

    def __init__(self, message: str, retry_after: int = 2) -> None:
        super().__init__(message)
        self.retry_after = retry_after
