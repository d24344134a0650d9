"""Output that degrades instead of crashing where the terminal cannot show a character.

Under a non-UTF-8 locale (``LC_ALL=en_US.ISO-8859-1``, ``PYTHONIOENCODING=ascii``)
printing an em dash or a tick raises ``UnicodeEncodeError``. :func:`degrade_streams`
gives standard output and error the ``gamenight-fallback`` error handler: a
character the encoding lacks becomes its ASCII stand-in (``—`` → ``-``, box
lines → ``-``/``|``/``+``, accents dropped), else ``?``. One handler for every
line printed, so no message needs its own ASCII variant. A stand-in takes exactly the
columns of the glyph it replaces (a wider one pushed a board's right border out).

>>> "Ann — ✓ Zoë ─┼─".encode("ascii", errors=FALLBACK)
b'Ann - v Zoe -+-'
>>> "Côte — ½".encode("latin-1", errors=FALLBACK).decode("latin-1")
'Côte - ½'
"""

from __future__ import annotations

import codecs
import contextlib
import sys
from typing import TextIO

FALLBACK = "gamenight-fallback"

STAND_INS = {
    "\u2014": "-",  # em dash
    "\u2013": "-",  # en dash
    "\u2212": "-",  # minus
    "\u00b7": "-",  # middle dot (latin-1 has it; ascii does not)
    "\u2022": "*",
    "\u2026": ".",
    "\u2713": "v",
    "\u2714": "v",
    "\u2717": "x",
    "\u2718": "x",
    "\u00d7": "x",
    "\u2192": ">",
    "\u2190": "<",
    "\u2191": "^",
    "\u2193": "v",
    "\u2018": "'",
    "\u2019": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u2264": "<",
    "\u2265": ">",
    "\u2248": "~",
    "\u00bd": "h",
    "\u25b6": ">",
    "\u25b8": ">",
    "\u2588": "#",
    "\u2591": ".",
    "\u2592": ":",
    "\u2593": "#",
    "\U0001f3c6": "*",  # the winner's trophy
    "\u00b1": "~",
    "\u25b2": "^",
    "\u25cf": "o",  # a chip held (Dice Duel)
    "\u2605": "*",  # the best option
    "\u2606": "+",  # the best for a column
    "\u2620": "W",  # a Wurfeltod penalty (Wurfeltod)
    "\u2680": "1",
    "\u2681": "2",
    "\u2682": "3",
    "\u2683": "4",
    "\u2684": "5",
    "\u2685": "6",
}
_HORIZONTAL = set("─━═┄┅┈┉╌╍")
_VERTICAL = set("│┃║┆┇┊┋╎╏")


def stand_in(char: str) -> str:
    """The ASCII stand-in of ``char`` (``?`` when it has none).

    >>> stand_in("—"), stand_in("é"), stand_in("┌"), stand_in("漢")
    ('-', 'e', '+', '?')
    """
    if char in STAND_INS:
        return STAND_INS[char]
    if 0x2500 <= ord(char) <= 0x257F:  # box drawing
        return "-" if char in _HORIZONTAL else "|" if char in _VERTICAL else "+"
    import unicodedata  # here: only a terminal that lacks a character needs it

    base = unicodedata.normalize("NFKD", char).encode("ascii", "ignore").decode()
    return base or "?"


def columns(char: str) -> int:
    """The terminal columns ``char`` takes: 2 wide (East Asian wide, emoji), 0 for a
    combining mark, else 1.

    >>> columns("a"), columns("漢"), columns("\u0301"), columns("🏆")
    (1, 2, 0, 2)
    """
    import unicodedata

    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def fitted(char: str, encoding: str) -> str:
    """The stand-in of ``char`` in ``encoding``, exactly as wide as ``char``.

    >>> fitted("…", "ascii"), fitted("🏆", "ascii"), fitted("⚃", "latin-1")
    ('.', '* ', '4')
    """
    text = stand_in(char)
    try:
        text.encode(encoding)
    except (UnicodeError, LookupError):
        text = "?"
    width = columns(char)
    return text[:width].ljust(width)


def _fallback(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    chars = error.object[error.start : error.end]
    return "".join(fitted(char, error.encoding) for char in chars), error.end


codecs.register_error(FALLBACK, _fallback)


def degrade_streams(*streams: TextIO | None) -> None:
    """Let ``streams`` (default: stdout and stderr) print any text, degraded to what
    their encoding can show; UTF-8 streams are left as they are. Standard input of such
    a locale reads a byte it cannot decode as U+FFFD, never as a crash."""
    stdin = sys.stdin
    reconfigure_input = getattr(stdin, "reconfigure", None)
    if not streams and stdin is not None and reconfigure_input is not None:
        with contextlib.suppress(LookupError, ValueError, OSError, TypeError):
            if codecs.lookup(stdin.encoding).name != "utf-8":
                reconfigure_input(errors="replace")
    for stream in streams or (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None)
        reconfigure = getattr(stream, "reconfigure", None)
        if stream is None or not encoding or reconfigure is None:
            continue
        try:
            if codecs.lookup(encoding).name == "utf-8":
                continue
            reconfigure(errors=FALLBACK)
        except (LookupError, ValueError, OSError):
            continue
