"""OptionSpec is a frozen value, as the frozen dataclass it replaced (issue 29): its
fields by name and position, defaults, equality, repr, match, copies and pickles."""

from __future__ import annotations

import copy
import pickle

import pytest

from gamenight.core.options import OptionSpec


def test_a_frozen_value() -> None:
    spec = OptionSpec("target", "int", "points to win", 50, minimum=5, maximum=200)
    assert (spec.name, spec.kind, spec.default, spec.minimum, spec.maximum) == (
        "target", "int", 50, 5, 200,
    )  # fmt: skip
    assert spec.choices == () and spec.aliases == {} and spec.seats == {}
    assert OptionSpec("a", "str", "h").aliases is not OptionSpec("a", "str", "h").aliases
    assert spec == OptionSpec("target", "int", "points to win", 50, (), 5, 200, {}, {})
    assert spec != OptionSpec("target", "int", "points to win", 51, minimum=5, maximum=200)
    fields: object = ("target", "int", "points to win", 50, (), 5, 200, {}, {})
    assert spec != fields
    assert repr(spec).startswith("OptionSpec(name='target', kind='int', help='points to win'")
    with pytest.raises(AttributeError):
        spec.default = 60
    with pytest.raises(AttributeError):
        del spec.name
    with pytest.raises(AttributeError):
        spec.other = 1
    match spec:
        case OptionSpec(name, "int", _, default):
            assert (name, default) == ("target", 50)
        case _:
            pytest.fail("no match")


def test_copies_and_pickles_are_equal() -> None:
    spec = OptionSpec(
        "mode", "choice", "m", "a", ("a", "b"), aliases={"x": "a"}, seats={"a": (1, 1)}
    )
    for twin in (copy.copy(spec), copy.deepcopy(spec), pickle.loads(pickle.dumps(spec))):
        assert twin == spec and twin is not spec and twin.seats == {"a": (1, 1)}
