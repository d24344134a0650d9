"""Issue 45: every ``type: ignore`` in src/ names its error codes and says why.

The reason is a comment after the pragma on its line (``# type: ignore[code]  # why``)
or a comment line right above it (``# why``; in a doctest ``>>> # why``), where the
line would be too long. A bare ``type: ignore``, or one without a reason, fails.
"""

from __future__ import annotations

import re
from pathlib import Path

import gamenight

SRC = Path(gamenight.__file__).parent
PRAGMA = re.compile(r"#\s*type:\s*ignore(?P<codes>\[[^\]]*\])?(?P<rest>.*)$")
REASON = re.compile(r"^\s*#\s*\S")  # a comment with words in it
COMMENT_LINE = re.compile(r"^\s*(>>>\s*)?#\s*\S")


def unreasoned(text: str) -> list[tuple[int, str]]:
    """The lines of ``text`` whose ``type: ignore`` lacks codes or a reason.

    >>> unreasoned("x = f()  # type: ignore[misc]  # f is untyped\\n")
    []
    >>> unreasoned("# f is untyped\\nx = f()  # type: ignore[misc]\\n")
    []
    >>> unreasoned("x = f()  # type: ignore[misc]\\ny = 1  # type: ignore  # why\\n")
    [(1, 'x = f()  # type: ignore[misc]'), (2, 'y = 1  # type: ignore  # why')]
    """
    lines = text.splitlines()
    found = []
    for number, line in enumerate(lines, start=1):
        pragma = PRAGMA.search(line)
        if pragma is None:
            continue
        above = lines[number - 2] if number > 1 else ""
        reasoned = REASON.match(pragma["rest"]) or (
            COMMENT_LINE.match(above) and not PRAGMA.search(above)
        )
        if not pragma["codes"] or not reasoned:
            found.append((number, line.strip()))
    return found


def test_every_type_ignore_in_src_says_why() -> None:
    problems = [
        f"{path.relative_to(SRC)}:{number}: {line}"
        for path in sorted(SRC.rglob("*.py"))
        for number, line in unreasoned(path.read_text())
    ]
    assert not problems, "\n".join(problems)
