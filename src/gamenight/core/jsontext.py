"""Indented JSON text, byte for byte what ``json.dumps(value, indent=n)`` writes, made fast.

The standard library's encoder runs in pure Python whenever ``indent`` is given: for
``gamenight solve decathlon --json`` (about 2,000 numbers) that was a few milliseconds
of a command that should take a tenth of a second (issue 29). msgspec encodes in C,
but writes floats its own way (``1e-8`` where Python writes ``1e-08``, ``0.00001``
where Python writes ``1e-05``), so every float is handed to it as ``repr`` text
(``msgspec.Raw``), which is exactly what :mod:`json` writes. Whatever the fast path
cannot promise to write identically (a non-ASCII character or DEL, which :mod:`json`
escapes; NaN and the infinities; a key that is not a string; any type but the plain
JSON ones; an integer too wide for msgspec) goes to :mod:`json` itself.

>>> print(indented({"ev": 23.5, "pmf": {"-1": 2.4e-08, "0": 1e-05}, "tags": []}))
{
 "ev": 23.5,
 "pmf": {
  "-1": 2.4e-08,
  "0": 1e-05
 },
 "tags": []
}
"""

from __future__ import annotations

from typing import Any

import msgspec


class _Unplain(Exception):
    """The value holds something the fast path does not write as :mod:`json` does."""


def indented(value: Any, indent: int = 1) -> str:
    """``json.dumps(value, indent=indent)``, the same text, encoded in C where it can be."""
    if indent < 1:  # json still breaks lines at indent 0; msgspec does not
        return _slow(value, indent)
    try:
        raw = msgspec.json.encode(_plain(value))
    except (_Unplain, msgspec.EncodeError, OverflowError, TypeError, ValueError):
        return _slow(value, indent)
    text = msgspec.json.format(raw, indent=indent)
    if not text.isascii() or b"\x7f" in text:  # json escapes these (ensure_ascii)
        return _slow(value, indent)
    return text.decode("ascii")


def _slow(value: Any, indent: int) -> str:
    import json

    return json.dumps(value, indent=indent)


def _plain(value: Any) -> Any:
    """``value`` with every float as its ``repr`` text; raises :class:`_Unplain` for
    anything but dicts with string keys, lists, tuples, str, int, bool, None and float."""
    kind = type(value)
    if kind is float:
        if value - value != 0.0:  # NaN or an infinity: not JSON, json writes NaN, Infinity
            raise _Unplain(value)
        return msgspec.Raw(repr(value).encode("ascii"))
    if kind is dict:
        out = {}
        for key, item in value.items():
            if type(key) is not str:
                raise _Unplain(key)
            out[key] = _plain(item)
        return out
    if kind is list or kind is tuple:
        return [_plain(item) for item in value]
    if kind is str or kind is int or kind is bool or value is None:
        return value
    raise _Unplain(kind)
