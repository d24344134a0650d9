"""The optional extras (``pip install 'gamenight[sim]'``): what a feature outside the core
needs, checked by one function, told in one line.

The core (``pip install gamenight``) plays, serves on SQLite and runs the exact solvers.
Each extra below adds the packages of a few features; a feature asked for without its
extra is refused with :class:`MissingExtraError` ("sim --out needs: pip install
'gamenight[sim]'"), which the command line prints as its one error line, never an
ImportError's traceback. ``pyproject.toml`` lists the same packages under the same names
(``tests/test_extras.py`` checks the two agree).

>>> require("sim --out", "sim", "json")  # found: nothing happens
>>> require("sim --out", "sim", "no_such_module_here")
Traceback (most recent call last):
gamenight.core.extras.MissingExtraError: sim --out needs: pip install 'gamenight[sim]'
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from gamenight.core.errors import GamenightError, Sentence
from gamenight.core.i18n import N_

# extra -> the top-level modules it provides (import names, not distribution names)
EXTRAS: dict[str, tuple[str, ...]] = {
    "postgres": ("psycopg",),
    "sim": ("pyarrow", "matplotlib", "choix", "scipy"),  # Parquet, plots, the batch fit
    "ray": ("ray",),
    "rl": ("gymnasium", "pettingzoo"),
}


class MissingExtraError(Sentence, GamenightError, ModuleNotFoundError):
    """A feature was asked for whose extra is not installed: a :class:`Sentence` (said in
    the player's language), and a ModuleNotFoundError, so code that probes for an
    optional package with ``except ImportError`` still does."""

    def __init__(self, what: str, extra: str) -> None:
        message = N_("{what} needs: pip install 'gamenight[{extra}]'")
        super().__init__(message, what=what, extra=extra)
        self.what, self.extra = what, extra

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.what, self.extra))


def _found(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package missing, or a blocked import
        return False


def require(what: str, extra: str, *modules: str) -> None:
    """Refuse ``what`` unless every one of ``modules`` (default: all of ``extra``'s) can
    be imported. Finds them without importing them: cheap enough to check up front,
    before a long run that would need them at its end."""
    for module in modules or EXTRAS[extra]:
        if not _found(module):
            raise MissingExtraError(what, extra)


def load(module: str, what: str, extra: str) -> ModuleType:
    """``import module``, or :class:`MissingExtraError` if it (or a package it needs)
    is not installed: the one way the code imports a package of an extra."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        raise MissingExtraError(what, extra) from exc
