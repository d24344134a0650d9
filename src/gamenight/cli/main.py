"""The ``gamenight`` command line: :func:`run`, the real command behind the console script.

The group's own ``--help`` (``gamenight --help``, ``-h``, after a ``--lang``) is printed
by :mod:`gamenight.cli.fast_help` without importing click (issue 46: click costs nearly
four bare interpreters; the help is a few lines); everything else runs the click app of
:mod:`gamenight.cli.app`, whose names (``app``, ``LAZY_COMMANDS``...) this module
still gives on first use.

Usage errors print one line and exit 2; verification failures exit 1. No command shows
a traceback for bad input.
"""

from __future__ import annotations

from gamenight.core.threads import one_blas_thread

one_blas_thread()  # before anything imports numpy (issue 29)

import sys  # noqa: E402

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def run(argv: list[str] | None = None) -> None:
    """Console-script entry point (after the replay cache, ``gamenight.cli.quick``)."""
    args = sys.argv[1:] if argv is None else argv
    if args and args[-1] in ("-h", "--help"):  # else not even fast_help is imported
        from gamenight.cli import fast_help

        if fast_help.wanted(args):
            fast_help.print_help(args)
            return  # as the click path returns after its --help (exit status 0)
    from gamenight.cli.app import run as run_app

    run_app(argv)


def __getattr__(name: str) -> Any:
    """``gamenight.cli.main.app`` and the app module's other names, imported on first use."""
    if name.startswith("__"):
        raise AttributeError(name)
    from gamenight.cli import app

    return getattr(app, name)
