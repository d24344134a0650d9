"""The command modules' shared console, made on first use.

``gamenight --help`` and ``gamenight list`` must start fast (issue 29): every command
module defines its click command at import, but imports rich, the games' front ends,
numpy and the server only inside the command that needs them. A module-level
``console = Console()`` would import rich for ``--help`` too; :func:`lazy_console`
stands in for it and builds the real console when something is first printed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from rich.console import Console


class _LazyConsole:
    """Forwards every attribute to a rich ``Console`` built on first use."""

    def __init__(self, stderr: bool) -> None:
        self._stderr = stderr
        self._console: Console | None = None

    def real(self) -> Console:
        """The console itself (to hand to code that may check its type)."""
        if self._console is None:
            from rich.console import Console

            self._console = Console(stderr=self._stderr)
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real(), name)

    def __enter__(self) -> Console:
        return self.real().__enter__()

    def __exit__(self, *exc: Any) -> None:
        self.real().__exit__(*exc)


def lazy_console(*, stderr: bool = False) -> Console:
    """A stand-in for ``Console(stderr=stderr)`` that imports rich only when used."""
    return cast("Console", _LazyConsole(stderr))


def real_console(console: Console) -> Console:
    """``console`` itself, or the console behind a :func:`lazy_console`."""
    return console.real() if isinstance(console, _LazyConsole) else console
