"""Translated text: gettext catalogues (managed with Babel) and the language a player reads.

Strings a player reads are marked in the code and looked up here::

    from gamenight.core.i18n import _, ngettext

    _("Roll the dice")
    ngettext("{n} rethrow left", "{n} rethrows left", n).format(n=n)

The catalogues are ``gamenight/locale/<lang>/LC_MESSAGES/gamenight.po`` (and the
compiled ``.mo`` beside each, committed); ``make messages`` extracts, updates and
compiles them (docs/i18n.md). English is the msgids themselves. Plural forms follow
each catalogue's ``Plural-Forms`` header (CLDR's rules, as Babel writes them: Polish
has three forms).

The language is a :class:`contextvars.ContextVar` over a process default: the CLI
sets the default (``--lang`` or the POSIX locale), the server sets the variable for
each connection's task, so every connection reads its own language. A catalogue is
loaded on first use, so importing this module costs nothing measurable.

>>> with use_language("de"):
...     pgettext("dec.event.100m", "100 Metres")
'100-m-Lauf'
>>> with use_language("pl"):
...     pgettext("dd.combo.four-of-a-kind", "Four of a kind")
'Cztery jednakowe'
>>> pgettext("dec.event.100m", "100 Metres")
'100 Metres'
"""

from __future__ import annotations

import gettext as _gettext
import os
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from gamenight.core.languages import DEFAULT, LANGUAGES, check_language

TYPE_CHECKING = False
if TYPE_CHECKING:
    from decimal import Decimal  # imported where numbers are written: not for `--help`

DOMAIN = "gamenight"
#: The pseudo-locale: English lengthened ~40% with accents, never shipped or offered to
#: players; tests use it to prove no English is left and nothing is cut off.
PSEUDO = "qps"

_default = DEFAULT  # the process's language (the CLI's --lang or the environment)
_current: ContextVar[str | None] = ContextVar("gamenight_language", default=None)
_catalogues: dict[str, _gettext.NullTranslations] = {}


def language() -> str:
    """The language being read now: this context's, else the process default."""
    return _current.get() or _default


def set_default_language(lang: str) -> str:
    """Make ``lang`` the process's language (checked: a bad one raises LanguageError)."""
    global _default
    _default = checked(lang)
    return _default


def checked(lang: str) -> str:
    """``lang`` if gamenight speaks it (or it is the tests' pseudo-locale), else a
    one-line LanguageError."""
    return PSEUDO if lang == PSEUDO else check_language(lang)


@contextmanager
def use_language(lang: str) -> Iterator[str]:
    """Read ``lang`` inside the block (this context only: other tasks and threads keep theirs)."""
    token = _current.set(checked(lang))
    try:
        yield _current.get() or _default
    finally:
        _current.reset(token)


def set_language(lang: str) -> None:
    """Read ``lang`` in this context from now on (a server connection's task)."""
    _current.set(checked(lang))


def translations(lang: str | None = None) -> _gettext.NullTranslations:
    """The catalogue of ``lang`` (default: the current language), loaded on first use."""
    lang = lang or language()
    found = _catalogues.get(lang)
    if found is None:
        found = _catalogues[lang] = _load(lang)
    return found


def _load(lang: str) -> _gettext.NullTranslations:
    if lang == PSEUDO:
        return _Pseudo()
    if lang == DEFAULT or lang not in LANGUAGES:
        return _gettext.NullTranslations()
    # The package's folder first: importlib.resources (pathlib, tempfile, zipfile, typing)
    # was half of `gamenight --help` in German (issue 46); it reads a zipped install.
    parts = ("locale", lang, "LC_MESSAGES", f"{DOMAIN}.mo")
    beside = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), *parts)
    try:
        with open(beside, "rb") as fp:
            return _gettext.GNUTranslations(fp)
    except OSError:
        pass
    from importlib import resources

    try:
        with resources.files("gamenight").joinpath(*parts).open("rb") as fp:
            return _gettext.GNUTranslations(fp)
    except OSError:  # a slimmed install without this catalogue: English, not a crash
        return _gettext.NullTranslations()


def gettext(message: str) -> str:
    """``message`` in the current language."""
    return translations().gettext(message)


_ = gettext


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` of a message with plural forms (the language's plural rule)."""
    return translations().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, told apart from the same words by ``context``."""
    return translations().pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` with a context."""
    return translations().npgettext(context, singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for extraction only; translate it where it is shown (``_(x)``)."""
    return message


def N_p(context: str, message: str) -> tuple[str, str]:
    """Mark a vocabulary entry (``context`` is its stable key) for extraction only."""
    return context, message


Rephrasing = tuple["re.Pattern[str]", Callable[[], str]]
"""A known English sentence (its fields as named groups) and its message, marked ``_()``."""


def rephrase(text: str, known: Sequence[Rephrasing]) -> str:
    """``text``, English made elsewhere (a game's reason, a stored room note), said again in
    the current language when it has one of the ``known`` forms; otherwise as it is.
    Records and stored rows stay English; only what a player reads is translated.

    >>> known = [(re.compile(r"(?P<n>\\d+) left"), lambda: gettext("{n} left"))]
    >>> rephrase("3 left", known), rephrase("odd", known)
    ('3 left', 'odd')
    """
    for pattern, message in known:
        found = pattern.fullmatch(text)
        if found is not None:
            return message().format(**found.groupdict())
    return text


def said(error: BaseException) -> str:
    """What ``error`` tells a player, in the current language. A rule's refusal or a
    refused option (a :class:`~gamenight.core.errors.Sentence`: an
    :class:`~gamenight.core.errors.IllegalActionError` or
    :class:`~gamenight.core.errors.OptionsError`) is its English sentence looked up
    as the msgid, its fields put in, a game's word (a :class:`~gamenight.core.errors.Term`)
    in the language too; any other error is the first line of ``str(error)``. The one
    function every front end (the CLI, the terminal, the server's error bodies) shows an
    error to a player through, as one line; records and logs keep ``str()``.

    >>> from gamenight.core.errors import IllegalActionError, Term
    >>> error = IllegalActionError("no {combination} chip is left on the plate",
    ...                            combination=Term("dd.combo.full-house", "Full house"))
    >>> with use_language("de"):
    ...     said(error)
    'auf dem Teller ist kein Chip Full House mehr'
    >>> said(error), said(ValueError("odd"))
    ('no Full house chip is left on the plate', 'odd')
    """
    from gamenight.core.errors import Sentence, first_line, render

    if not isinstance(error, Sentence):
        return first_line(error)
    return render(error, gettext, lambda t: term(t.key, t.english))


def term(key: str, english: str) -> str:
    """A vocabulary term (``key`` as in ``GameInfo.vocabulary``) in the current language.

    >>> with use_language("pl"):
    ...     term("dec.event.javelin", "Javelin")
    'Rzut oszczepem'
    """
    return translations().pgettext(key, english)


def game_name(game_id: str, english: str) -> str:
    """A game's name in the current language (its vocabulary's ``game.<id>.name``; a
    plug-in without one keeps its own).

    >>> with use_language("de"):
    ...     game_name("decathlon", "Reiner Knizia's Decathlon")
    'Reiner Knizias Zehnkampf'
    """
    return term(f"game.{game_id}.name", english)


def format_decimal(
    number: float, lang: str | None = None, *, places: int | None = None, grouping: bool = True
) -> str:
    """``number`` written as ``lang`` (default: the current language) writes numbers, with
    exactly ``places`` decimals if given, and thousands grouped unless ``grouping`` is off
    (a table's column of values, e.g. the hints').

    >>> format_decimal(1234.5, "en"), format_decimal(1234.5, "de"), format_decimal(-6, "pl")
    ('1,234.5', '1.234,5', '-6')
    >>> format_decimal(30, "de", places=2), format_decimal(12345.678, "pl", places=1)
    ('30,00', '12\xa0345,7')
    >>> format_decimal(9067.576, "de", places=2, grouping=False)
    '9067,58'
    """
    from decimal import Decimal

    # the float's exact value, so it rounds as Python's own f"{x:.2f}" does
    exact = Decimal(number) if isinstance(number, float) else number
    if places is not None and _number_locale(lang) == "en":
        # English's symbols are Python's own: no CLDR data to load, which was a third of
        # a cached ``solve decathlon --two-player-win`` (issue 46; tests/core checks
        # this against Babel)
        return format(exact, f"{',' if grouping else ''}.{places}f")
    from babel.numbers import format_decimal as babel_format  # deferred: Babel loads CLDR data

    pattern = None if places is None else "#,##0" + ("." + "0" * places if places else "")
    return str(
        babel_format(
            exact,
            format=pattern,
            locale=_number_locale(lang),
            decimal_quantization=True,
            group_separator=grouping,
        )
    )


def _number_locale(lang: str | None) -> str:
    """The locale Babel writes ``lang``'s numbers in (the current language by default;
    the pseudo-locale writes them as English does)."""
    lang = lang or language()
    return "en" if lang == PSEUDO else lang


def format_chance(p: float, lang: str | None = None, *, places: int = 0) -> str:
    """The probability ``p`` as ``lang`` writes a percentage, with ``places`` decimals. A
    chance that is neither 0 nor 1 but would round to either reads "<1%" or ">99%" (the
    browser's ``formatChance`` says the same, web/static/js/i18n.js), so "0%" and "100%"
    mean impossible and certain.

    >>> format_chance(0.625, "en", places=1), format_chance(0.625, "de", places=1)
    ('62.5%', '62,5\xa0%')
    >>> [format_chance(p, "en") for p in (0.0, 0.004, 0.005, 0.994, 0.9951, 1.0)]
    ['0%', '<1%', '1%', '99%', '>99%', '100%']
    >>> format_chance(0.99996, "pl", places=1), format_chance(1e-9, "en", places=1)
    ('>99,9%', '<0.1%')
    """
    from decimal import ROUND_HALF_UP, Decimal

    from babel import Locale
    from babel.numbers import format_percent  # deferred: Babel loads CLDR data

    locale = Locale.parse(_number_locale(lang))
    pattern = locale.percent_formats[None].pattern
    if places:  # the locale's own pattern, its last integer digit followed by the decimals
        pattern = re.sub(r"0(?=[^0#]*%)", "0." + "0" * places, pattern, count=1)

    def written(q: Decimal) -> str:
        return str(format_percent(q, format=pattern, locale=locale, decimal_quantization=True))

    # p scaled in floating point, then rounded half up exactly: the browser's
    # Math.round(p * 100) / 100 for whole percentages, so both write 0.015 as 2%
    step = Decimal(1).scaleb(-places - 2)  # the smallest chance written, as a fraction
    shown = Decimal(p * 10 ** (places + 2)).quantize(Decimal(1), ROUND_HALF_UP) * step
    if shown == 0 < p:
        return f"<{written(step)}"
    if shown == 1 > p:
        return f">{written(1 - step)}"
    return written(shown)


# The pseudo-locale. Placeholders ({name}, %(name)s, %d), Rich markup ([bold], [/]) and
# escapes stay as they are; letters get accents and each message grows by ~40%. Its
# brackets are « » (a [ would start Rich markup).
_KEEP = re.compile(r"\{[^{}]*\}|%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[sdifr%]|\[/?[a-z#][^\]]*\]")
_ACCENTS = str.maketrans(
    "abcdeghiklnorstuwyzACEGHINORSTUWYZ",
    "àƀçďéĝĥîķĺñöŕšŧûŵýžÀÇÉĜĤÎÑÖŔŠŦÛŴÝŽ",
)


def pseudo(message: str) -> str:
    """``message`` in the pseudo-locale: accented, lengthened, bracketed.

    >>> pseudo("Roll {n} dice")
    '«Ŕöĺĺ {n} ďîçé ·····»'
    """
    if not message.strip():
        return message
    parts: list[str] = []
    pos = 0
    for match in _KEEP.finditer(message):
        parts.append(message[pos : match.start()].translate(_ACCENTS))
        parts.append(match.group())
        pos = match.end()
    parts.append(message[pos:].translate(_ACCENTS))
    padding = "·" * max(1, round(len(message) * 0.4))
    return f"«{''.join(parts)} {padding}»"


class _Pseudo(_gettext.NullTranslations):
    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)
