"""``indented`` writes exactly what ``json.dumps(value, indent=n)`` writes (issue 29: the
fast JSON of ``gamenight solve --json``), for any JSON-like value: every float (its
``repr``, where msgspec alone would write ``1e-8``), any text (json escapes non-ASCII
and DEL), NaN and the infinities, non-string keys, tuples, huge integers."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from gamenight.core.jsontext import indented

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats()
    | st.floats(min_value=-1e-3, max_value=1e-3)
    | st.text()
    | st.text(alphabet=st.characters(max_codepoint=0x7F))
)
KEYS = st.text(alphabet=st.characters(max_codepoint=0x7F)) | st.text() | st.integers()
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.tuples(inner, inner)
        | st.dictionaries(KEYS, inner, max_size=5)
    ),
    max_leaves=30,
)


@given(VALUES, st.integers(min_value=0, max_value=4))
def test_indented_is_json_dumps_byte_for_byte(value: Any, indent: int) -> None:
    assert indented(value, indent) == json.dumps(value, indent=indent)


def test_the_floats_json_and_msgspec_spell_differently() -> None:
    value = {"small": [2.429707640740556e-08, 9.265066237858661e-05, 1e-05], "big": 1e16}
    assert indented(value) == json.dumps(value, indent=1)
    assert "2.429707640740556e-08" in indented(value) and "1e+16" in indented(value)
