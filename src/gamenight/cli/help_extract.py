r"""``make messages``' extractor for the command modules: every marked string (as Babel's
Python extractor finds it), plus the help a person reads in ``gamenight ... --help``: each
click command's docstring and each literal ``help=`` / ``epilog=`` / ``short_help=``,
cleaned as click cleans them (``inspect.cleandoc``). ``gamenight.cli.helptext`` says them
in the reader's language. Named in ``babel.cfg``; used by tests/core/test_catalogues.py.

>>> source = b"@app.command()\n@click.option('--seed', help='dice seed')\ndef play(seed):\n 'Play.'"
>>> [text for _line, text in help_texts(source)]
['dice seed', 'Play.']
"""

from __future__ import annotations

import ast
import inspect
import io
from collections.abc import Collection, Iterator, Mapping
from typing import IO, Any

HELP_KEYWORDS = ("help", "epilog", "short_help")


def extract(
    fileobj: IO[bytes],
    keywords: Mapping[str, Any],
    comment_tags: Collection[str],
    options: Any,
) -> Iterator[tuple[Any, ...]]:
    """Babel's extraction method: ``(line, keyword, message, comments)`` tuples."""
    from babel.messages.extract import extract_python

    source = fileobj.read()
    yield from extract_python(io.BytesIO(source), keywords, comment_tags, options)
    for line, text in help_texts(source):
        yield line, "N_", text, []


def help_texts(source: bytes) -> list[tuple[int, str]]:
    """The help texts of ``source``'s click commands and options, as click shows them."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                value = keyword.value
                if keyword.arg not in HELP_KEYWORDS or not isinstance(value, ast.Constant):
                    continue
                if isinstance(value.value, str) and value.value.strip():
                    found.append((node.lineno, inspect.cleandoc(value.value)))
        elif isinstance(node, ast.FunctionDef) and any(map(_is_command, node.decorator_list)):
            doc = ast.get_docstring(node, clean=True)
            if doc:
                found.append((node.lineno, doc))
    return sorted(found)


def _is_command(decorator: ast.expr) -> bool:
    """``@click.command(...)``, ``@app.command()``, ``@click.group(...)``, ``@decks.command``."""
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    return isinstance(target, ast.Attribute) and target.attr in ("command", "group")
