"""Counts in every catalogue use plural forms (issue 40: "1 points", "1 Punkte"). A
message whose English text puts a number placeholder before a counted noun ("{n}
points", "{count} dice") is an object of CLDR plural forms in English, and in every
other shipped language too, with each form that language's numbers need (German: one,
other; Polish: one, few, many, other), so t(key, {count}) always has the right one. A
range ("{min} to {max} players") is no count of one number and is left alone."""

from __future__ import annotations

import re

import pytest

from web import catalogues as cat

NOUNS = (
    "points?|cards?|dice|die|rounds?|turns?|rolls?|chips?|seats?|players?|teams?|jumps?|"
    "rethrows?|tokens?|questions?|honours?|years?|steps?|spectators?|moves?|games?|"
    "attempts?|sets?|boxes|box|decisions?|characters?|rooms?|wins?|medals?"
)
# a placeholder that holds a number (not a name: "{who} rolls" is a verb), before a noun
NAMED = "who|name|names|combo|cat|card|cards|event|box|boxes|dice|list|what|a|b|time"
COUNT = re.compile(rf"\{{(?!(?:{NAMED})\}})\w+\}} (?:[a-z-]+ )?(?:{NOUNS})\b")
RANGE = re.compile(r"\{min\} to \{max\}")
FORMS = {"en": {"one", "other"}, "de": {"one", "other"}, "pl": {"one", "few", "many", "other"}}


def _catalogues(lang: str) -> dict[str, cat.Message]:
    merged = dict(cat.shared(lang))
    for game in cat.GAMES:
        merged.update(cat.read(cat.MESSAGES / lang / f"{game}.js"))
    return merged


def counting_keys() -> list[str]:
    """The English messages that count something with a number placeholder."""
    found = []
    for key, text in _catalogues("en").items():
        texts = text.values() if isinstance(text, dict) else [text]
        if any(COUNT.search(RANGE.sub("", t)) for t in texts):
            found.append(key)
    return sorted(found)


def test_the_rule_finds_counts() -> None:
    assert COUNT.search("{n} points") and COUNT.search("Roll {count} dice")
    assert COUNT.search("{n} open seats")
    assert not COUNT.search("Round {n} of {of}")
    assert not COUNT.search(RANGE.sub("", "{min} to {max} players"))
    assert "dc.points" in counting_keys()


@pytest.mark.parametrize("lang", sorted(FORMS))
def test_every_count_has_plural_forms(lang: str) -> None:
    messages = _catalogues(lang)
    flat = [k for k in counting_keys() if k in messages and not isinstance(messages[k], dict)]
    assert not flat, f"{lang}: counts without plural forms: {flat}"
    missing = {
        key: sorted(FORMS[lang] - set(messages[key]))
        for key in counting_keys()
        if isinstance(messages.get(key), dict) and FORMS[lang] - set(messages[key])
    }
    assert not missing, f"{lang}: plural forms missing: {missing}"
