"""A package's names imported on first use (PEP 562): the package lists where each
name lives, and its ``__getattr__`` imports that module only when the name is asked for
(issue 29: ``gamenight --help`` and ``solve decathlon`` load only what they use).

>>> import gamenight.core as core
>>> from gamenight.core.options import OptionSpec
>>> core.__getattr__("OptionSpec") is OptionSpec, "OptionSpec" in vars(core)
(True, True)
>>> core.__getattr__("nothing")
Traceback (most recent call last):
AttributeError: module 'gamenight.core' has no attribute 'nothing'
"""

from __future__ import annotations

import importlib
import sys

TYPE_CHECKING = False  # typing is imported only by the type checker (issue 46)
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any


def on_first_use(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """The module ``__getattr__`` of ``package``: ``name`` is imported from its module
    ``package.homes[name]`` when it is first asked for, and kept in the package's
    namespace."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{home}"), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
