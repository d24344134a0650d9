"""Which language a player reads: the supported languages and how one is chosen.

gamenight speaks English, German and Polish. Records and the protocol stay
language-neutral; only what a player reads is translated. This module only
chooses a language (from ``--lang``, the environment, or an HTTP
``Accept-Language``); the catalogues themselves live elsewhere.

>>> negotiate("de-AT,de;q=0.9,en;q=0.5")
'de'
>>> negotiate("fr, pl;q=0.4, de;q=0.3")
'pl'
>>> negotiate("")
'en'
>>> from_environment({"LANG": "pl_PL.UTF-8"})
'pl'
>>> from_environment({"LC_ALL": "C", "LANG": "de_DE.UTF-8"})
'en'
>>> check_language("DE")
'de'
"""

from __future__ import annotations

from collections.abc import Mapping

from gamenight.core.errors import GamenightError, Sentence

#: The languages gamenight speaks, English first (the fallback for anything missing).
LANGUAGES: tuple[str, ...] = ("en", "de", "pl")
DEFAULT = "en"
#: Endonyms, for a language switcher: each language names itself.
NAMES: Mapping[str, str] = {"en": "English", "de": "Deutsch", "pl": "Polski"}


class LanguageError(Sentence, GamenightError, ValueError):
    """A language gamenight does not speak was asked for."""


def normalize(tag: str) -> str | None:
    """The supported language a tag such as ``de-AT``, ``pl_PL.UTF-8`` or ``en`` names, if any.

    >>> normalize("pl_PL.UTF-8"), normalize("de-CH"), normalize("fr"), normalize("C")
    ('pl', 'de', None, None)
    """
    base = tag.strip().split(".")[0].split("@")[0].replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else None


def check_language(value: str) -> str:
    """``value`` as a supported language, or a one-line :class:`LanguageError`."""
    found = normalize(value) if len(value) <= 35 else None
    if found is None:
        shown = value if len(value) <= 35 and value.isprintable() else "that"
        raise LanguageError(
            "unknown language {language}: choose one of {languages}",
            language=repr(shown),
            languages=", ".join(LANGUAGES),
        )
    return found


def negotiate(accept_language: str | None) -> str:
    """The best supported language for an HTTP ``Accept-Language`` header (RFC 9110 12.5.4).

    Malformed parts are ignored; ties keep the header's order; nothing usable gives English.
    """
    best, best_q = DEFAULT, 0.0
    for part in (accept_language or "")[:1000].split(",")[:50]:
        tag, _, params = part.partition(";")
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        found = normalize(tag) if tag.strip() != "*" else None
        if found is not None and 0 < q <= 1 and q > best_q:
            best, best_q = found, q
    return best


def from_environment(environ: Mapping[str, str]) -> str:
    """The language the POSIX locale variables ask for: LC_ALL, then LC_MESSAGES, then LANG
    (LANGUAGE's first supported entry wins over all of them, as in GNU gettext). Unknown or
    ``C``/``POSIX`` locales give English."""
    for entry in environ.get("LANGUAGE", "").split(":"):
        found = normalize(entry) if entry else None
        if found is not None and environ.get("LC_ALL", environ.get("LANG", "x")) not in (
            "C",
            "POSIX",
        ):
            return found
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            return normalize(value) or DEFAULT
    return DEFAULT
