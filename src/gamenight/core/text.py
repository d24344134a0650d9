"""The one policy for text a user types that others see (names, chat lines).

:func:`check_text` strips surrounding white space and then refuses:

* empty text, and text longer than the limit (counted in Unicode code points);
* control characters (Unicode category Cc: NUL, ESC, tab, newline...): they can
  rewrite a terminal or break a line of a log;
* the bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E,
  U+2066–U+2069): they reorder what is shown around them;
* surrogates, private-use and unassigned code points (categories Cs, Co, Cn),
  and the line and paragraph separators (Zl, Zp).

Everything else is kept as typed, including markup (front ends show it as text)
and zero-width joiners (emoji sequences, scripts that need them).

>>> check_text("  Ann  ", what="a name", limit=40)
'Ann'
>>> check_text("a\\x1b[31mb", what="a name", limit=40)
Traceback (most recent call last):
...
gamenight.core.text.TextError: a name may not contain control characters (U+001B)
>>> check_text("\\u202eevil", what="a chat line", limit=300)
Traceback (most recent call last):
...
gamenight.core.text.TextError: a chat line may not contain bidirectional controls (U+202E)
>>> check_text(" ", what="a name", limit=40)
Traceback (most recent call last):
...
gamenight.core.text.TextError: a name is 1 to 40 characters (after trimming spaces), not 0
"""

from __future__ import annotations

import unicodedata

from gamenight.core.errors import GamenightError

MAX_NAME_CHARS = 40
"""The longest name of a player, seat or team, in every front end."""

BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
_REFUSED = {
    "Cc": "control characters",
    "Cs": "surrogate code points",
    "Co": "private-use characters",
    "Cn": "unassigned code points",
    "Zl": "line separators",
    "Zp": "paragraph separators",
}


class TextError(GamenightError, ValueError):
    """User text refused by :func:`check_text`; the message says why, in one line."""


def check_text(text: str, *, what: str, limit: int) -> str:
    """``text`` without surrounding white space, or :class:`TextError` (see the module)."""
    clean = text.strip()
    if not 1 <= len(clean) <= limit:
        raise TextError(
            f"{what} is 1 to {limit} characters (after trimming spaces), not {len(clean)}"
        )
    if clean.isprintable() and clean.isascii():
        return clean  # the common case: nothing to look up
    for char in clean:
        if char in BIDI_CONTROLS:
            raise TextError(f"{what} may not contain bidirectional controls (U+{ord(char):04X})")
        kind = _REFUSED.get(unicodedata.category(char))
        if kind is not None:
            raise TextError(f"{what} may not contain {kind} (U+{ord(char):04X})")
    return clean


def clip(text: str, limit: int = 60) -> str:
    """``text`` quoted for a message, cut to ``limit`` characters: an error never echoes
    a huge input in full.

    >>> clip("Ann")
    "'Ann'"
    >>> clip("x" * 1000, 5)
    "'xxxxx…' (1000 characters)"
    """
    if len(text) <= limit:
        return repr(text)
    shown = repr(text[:limit])
    return f"{shown[:-1]}…{shown[-1]} ({len(text)} characters)"


def name_key(name: str) -> str:
    """What two names must differ in to be told apart on screen: case, Unicode
    normalisation (NFKC) and invisible format characters (U+200B, U+2060, soft
    hyphen...) do not count, so "Ann" and "Ann\\u200b" are one name.

    >>> name_key("Ann") == name_key("ANN\\u200b") == name_key("A\\u00adnn")
    True
    >>> name_key("Zoe") == name_key("Zoë")
    False
    """
    visible = "".join(c for c in name if unicodedata.category(c) != "Cf")
    return unicodedata.normalize("NFKC", visible).casefold()
