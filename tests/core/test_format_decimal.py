"""``format_decimal`` writes English with Python's own formatting (no CLDR data to load:
issue 46, a third of a cached ``solve decathlon --two-player-win``); it must write
exactly what Babel writes, for every number, decimal count and grouping."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from babel.numbers import format_decimal as babel_format

from gamenight.core.i18n import format_decimal

EDGES = [0.0, -0.0, 1.0, -1e-9, -0.00004, 0.00005, 0.00015, 0.5, 2.5, 0.125, -0.125, 1e15]


def _numbers() -> list[float | int]:
    rng = random.Random(46)
    out: list[float | int] = [*EDGES, 0, 5, -6, 10**7, -(10**9)]
    for _ in range(3000):
        out.append(rng.random())
        out.append(rng.uniform(-1e7, 1e7))
        out.append(rng.randint(-(10**6), 10**6) / 10 ** rng.randint(0, 6))  # ties
        out.append(rng.randint(-(10**9), 10**9))
    return out


@pytest.mark.parametrize("places", [0, 1, 2, 4, 6])
@pytest.mark.parametrize("grouping", [True, False])
def test_english_is_written_as_babel_writes_it(places: int, grouping: bool) -> None:
    pattern = "#,##0" + ("." + "0" * places if places else "")
    for x in _numbers():
        want = babel_format(
            Decimal(x) if isinstance(x, float) else x,
            format=pattern,
            locale="en",
            decimal_quantization=True,
            group_separator=grouping,
        )
        assert format_decimal(x, "en", places=places, grouping=grouping) == want, x
