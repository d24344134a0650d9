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
and the other format characters: zero-width joiners and non-joiners (emoji
sequences, scripts that need them), soft hyphens, word joiners. Contributions to
the dice seed follow the same character policy (:func:`check_characters`), and
the browser removes exactly these characters from what it sends.

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
    check_characters(clean, what=what)
    return clean


def refused_kind(char: str) -> str | None:
    """What ``char`` is if the text policy refuses it ("control characters"...), else
    None. The other format characters (category Cf: zero-width joiner and non-joiner,
    soft hyphen, word joiner...) are kept: emoji sequences and scripts need them. The
    browser removes the same characters from the word it puts in a contribution
    (web/static/js/fairness.js ``REFUSED``).

    >>> refused_kind("\u200d"), refused_kind("\u00ad"), refused_kind("\u202e"), refused_kind("\x07")
    (None, None, 'bidirectional controls', 'control characters')
    """
    if char in BIDI_CONTROLS:
        return "bidirectional controls"
    return _REFUSED.get(unicodedata.category(char))


def check_characters(text: str, *, what: str) -> None:
    """:class:`TextError` if ``text`` holds a character the policy refuses
    (:func:`refused_kind`): names, chat lines and contributions alike."""
    if text.isprintable() and text.isascii():
        return  # the common case: nothing to look up
    for char in text:
        kind = refused_kind(char)
        if kind is not None:
            raise TextError(f"{what} may not contain {kind} (U+{ord(char):04X})")


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
