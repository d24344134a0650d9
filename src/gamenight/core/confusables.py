"""Look-alike names are one name: Unicode's confusable skeleton (UTS #39, section 4).

``skeleton(x)`` is NFD of ``x``, without its invisible format characters, with every
character replaced by its prototype from UTS #39's ``confusables.txt``, then NFD again.
Two strings are confusable when their skeletons are equal. The data ships with
gamenight (``core/data/confusables.txt.gz``, the Unicode 13.0.0 table: the mapping
only, comments dropped); nothing is a hand-made list.

A skeleton is a key for comparing, never something to show: it mixes scripts.

>>> skeleton("Ann") == skeleton("\\u0410nn")  # Latin A, Cyrillic A
True
>>> skeleton("paypal") == skeleton("p\\u0430yp\\u0430l")
True
>>> skeleton("Ann") == skeleton("Anne")
False
>>> name_keys("Ann") == name_keys("ANN")  # case never tells two names apart
False
>>> name_keys("Ann")[0] == name_keys("ANN")[0]
True
"""

from __future__ import annotations

import gzip
import unicodedata
from functools import cache
from importlib import resources


@cache
def _prototypes() -> dict[str, str]:
    data = resources.files("gamenight.core").joinpath("data/confusables.txt.gz").read_bytes()
    table: dict[str, str] = {}
    for line in gzip.decompress(data).decode("utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        source, prototype = line.split(";")
        table[chr(int(source, 16))] = "".join(chr(int(c, 16)) for c in prototype.split())
    return table


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: equal skeletons mean confusable strings. The
    default-ignorable characters the standard drops are approximated by Unicode's format
    characters (category Cf: zero-width joiners, soft hyphens, bidi marks...)."""
    table = _prototypes()
    nfd = unicodedata.normalize("NFD", text)
    mapped = "".join(table.get(c, c) for c in nfd if unicodedata.category(c) != "Cf")
    return unicodedata.normalize("NFD", mapped)


def name_keys(name: str) -> tuple[str, str]:
    """The two keys an account name must not share with another's: the skeleton of its
    case-folded NFKC form ("ann" is "ANN" and Cyrillic "Аnn") and the skeleton of the name as
    typed (capital "I" and small "l" look alike, but case folding would part them)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return skeleton(folded), skeleton(name)
