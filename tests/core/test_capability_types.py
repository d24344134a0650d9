"""Capability loading is typed (issue 45): ``registry.load`` gives ``object``, and each
capability is checked where it is loaded, so a plug-in that names the wrong thing is one
line (CapabilityError) and never an ``Any`` flowing into a front end."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from gamenight.core import registry
from gamenight.core.errors import CapabilityError

REGISTRY = Path(registry.__file__)


def test_the_registry_hands_out_no_any() -> None:
    tree = ast.parse(REGISTRY.read_text(encoding="utf-8"))
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    assert "Any" not in names


def test_a_value_named_as_a_function_is_one_line() -> None:
    with pytest.raises(CapabilityError, match=r"^gamenight.core.registry:WEB_SUFFIXES names a"):
        registry.load_callable("gamenight.core.registry:WEB_SUFFIXES")


def test_a_stage_that_answers_a_number_is_refused() -> None:
    stage = registry.stage_function("builtins:len")  # len(view) is an int, not a stage name
    assert stage is not None
    with pytest.raises(CapabilityError, match="builtins:len gave a int, not a str"):
        stage("abc")


def test_a_listing_that_is_not_a_list_is_refused() -> None:
    with pytest.raises(CapabilityError, match="not a list"):
        registry.listed("builtins:abs", -3)
    assert registry.listed("builtins:range", 3) == [0, 1, 2]


def test_a_vocabulary_must_map_words_to_words() -> None:
    with pytest.raises(CapabilityError, match="not a mapping of words"):
        registry.load_mapping("gamenight.core.registry:WEB_SUFFIXES")
