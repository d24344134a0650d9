"""One entry-point group of the installed distributions, read without importlib.metadata.

``importlib.metadata.entry_points(group=...)`` imports ``email``, ``zipfile``, ``csv``
and ``pathlib`` and builds an object per entry point of every distribution: about a
tenth of ``gamenight solve decathlon``'s instructions (issue 29) for the four lines
gamenight reads. :func:`points` finds the same entry points in the same order by the
same rules, reading the files itself: every ``*.dist-info`` / ``*.egg-info`` folder of
each ``sys.path`` entry (in ``os.listdir`` order, grouped by normalized name as
importlib's ``Lookup`` does), the first distribution of each normalized name only, and
the distribution's name from its ``METADATA`` headers. Whatever it cannot promise to
read as importlib would (another finder that lists distributions, a zip or ``.egg`` on
the path, an odd file name, a folded header, a line that is not ``name = value``...)
goes to importlib.metadata, so the answer is always importlib's.

This module imports only ``os``, ``re`` and ``sys`` (``gamenight.cli.quick`` uses it
too, when it stamps the files a command depended on).
"""

from __future__ import annotations

import os
import re
import sys

TYPE_CHECKING = False  # `typing` is not imported at run time (see the module's docstring)
if TYPE_CHECKING:
    from typing import Any

# (name, value, distribution's name, its metadata folder), one per entry point
Point = tuple[str, str, str, str]

_SUFFIXES = (".dist-info", ".egg-info")
_RUNS = re.compile(r"[-_.]+")


class _Odd(Exception):
    """Something the fast reader does not promise to read as importlib.metadata does."""


def points(group: str) -> list[Point]:
    """Every entry point of ``group``, as ``importlib.metadata.entry_points(group=group)``
    lists them (each with its distribution's name and metadata folder).

    >>> fast = points("console_scripts")
    >>> fast == _from_importlib("console_scripts") and any(p[0] == "gamenight" for p in fast)
    True
    """
    try:
        return _read(group)
    except (_Odd, OSError, UnicodeError, ValueError):
        return _from_importlib(group)


def _from_importlib(group: str) -> list[Point]:
    from importlib import metadata

    found = []
    for ep in metadata.entry_points(group=group):
        dist: Any = ep.dist
        found.append((ep.name, ep.value, dist.name, str(getattr(dist, "_path", ""))))
    return found


def normalize(name: str) -> str:
    """A distribution's name as importlib.metadata compares them (PEP 503, ``_`` for ``-``).

    >>> normalize("Gamenight.Toy--Games"), normalize("_x"), normalize("a__b"), normalize("Ab_c")
    ('gamenight_toy_games', '_x', 'a_b', 'ab_c')
    """
    low = name.lower()
    if "-" not in low and "." not in low and "__" not in low:
        return low  # nothing to rewrite (most names): no regex
    return _RUNS.sub("-", low).replace("-", "_")


def _folders() -> list[str]:
    """Every distribution's metadata folder in importlib.metadata's discovery order,
    the first of each normalized name only (the later ones are shadowed)."""
    from importlib.machinery import PathFinder

    for finder in sys.meta_path:
        if finder is not PathFinder and hasattr(finder, "find_distributions"):
            raise _Odd("another finder lists distributions")
    seen: set[str] = set()
    found = []
    for root in sys.path:
        if not isinstance(root, str):
            raise _Odd("a sys.path entry that is not a string")
        for folder, key in _lookup(root):
            if key not in seen:
                seen.add(key)
                found.append(folder)
    return found


def _lookup(root: str) -> list[tuple[str, str]]:
    """``root``'s metadata folders as importlib's ``Lookup`` lists them (by normalized
    name, in the order each name is first met), each with that name: the one its
    ``PathDistribution`` has too, which reads it from the folder's name (the same but
    for the case, which normalizing drops) unless the suffix is not spelt in lower case."""
    try:
        children = os.listdir(root or ".")
    except Exception:
        if os.path.exists(root or "."):  # a zip (importlib reads its names) or stranger
            raise _Odd(f"sys.path entry {root}") from None
        return []
    if os.path.basename(root).lower().endswith(".egg"):
        raise _Odd(f"sys.path entry {root}")  # an egg's EGG-INFO is found otherwise
    prefix = os.path.join(root, "")  # "" for the current folder, as importlib joins
    by_name: dict[str, list[tuple[str, str]]] = {}
    for child in [c for c in children if c.lower().endswith(_SUFFIXES)]:
        if not child.endswith(_SUFFIXES):  # importlib would read the name from the metadata
            raise _Odd(f"metadata folder {child} in {root}")
        name = normalize(child.lower().rpartition(".")[0].partition("-")[0])
        by_name.setdefault(name, []).append((prefix + child, name))
    return [found for folders in by_name.values() for found in folders]


def _read(group: str) -> list[Point]:
    found = []
    for folder in _folders():
        text = _text(folder, "entry_points.txt")
        if not text:
            continue
        pairs = _pairs(text)
        if any(section == group for section, _, _ in pairs):
            dist = _name(folder)
            found += [(n, v, dist, folder) for section, n, v in pairs if section == group]
    return found


def _text(folder: str, name: str) -> str | None:
    """The file's text as ``PathDistribution.read_text`` reads it: None if it is not there."""
    path = f"{folder}/{name}"
    if not os.access(path, os.F_OK):  # most distributions have no entry points: no raise
        return None
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError, PermissionError):
        return None


def _pairs(text: str) -> list[tuple[str, str, str]]:
    """(section, name, value) of every entry of an ``entry_points.txt``, read as
    importlib's ``Sectioned`` reads it (a line that is not ``name = value`` makes it
    raise; it is left to it).

    >>> _pairs("x = 1\\n[a.b]\\n# note\\n  toy = toy_pkg  \\n\\n[c]\\nk=v=w\\n")
    [('a.b', 'toy', 'toy_pkg'), ('c', 'k', 'v=w')]
    """
    found = []
    section = None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line.strip("[]")
        elif section is not None:
            name, equals, value = line.partition("=")
            if not equals:
                raise _Odd(f"entry point line {line!r}")
            found.append((section, name.strip(), value.strip()))
    return found


def _name(folder: str) -> str:
    """The distribution's ``Name`` from its ``METADATA`` (else ``PKG-INFO``) headers,
    as ``email`` parses it: the first ``Name:`` header, its value unfolded.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = open(os.path.join(d, "METADATA"), "w").write("Metadata-Version: 2.1\\n"
    ...         "name:  gamenight-toy \\nName: other\\n\\nName: body\\n")
    ...     _name(d)
    'gamenight-toy '
    """
    text = _text(folder, "METADATA") or _text(folder, "PKG-INFO")
    if not text:
        raise _Odd(f"no METADATA in {folder}")
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if not line or "\r" in line:
            break
        key, colon, value = line.partition(":")
        if not colon or not all("!" <= c <= "~" for c in key):
            break  # not a plain header (a body, a folded line, "From "): email decides
        if key.lower() == "name":
            if i + 1 < len(lines) and lines[i + 1][:1] in (" ", "\t"):
                break  # folded
            return value.lstrip(" \t")
    raise _Odd(f"no plain Name header in {folder}")
