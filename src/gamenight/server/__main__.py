"""``python -m gamenight.server [OPTIONS]``: the same command as ``gamenight serve``
(the same settings, flags and ``GAMENIGHT_*`` variables: server/settings.py)."""

from __future__ import annotations

from gamenight.core.threads import one_blas_thread

one_blas_thread()  # before anything imports numpy (issue 29)

import os  # noqa: E402
from typing import Any  # noqa: E402

import click  # noqa: E402

from gamenight.server.settings import click_options  # noqa: E402


@click.command("python -m gamenight.server")
@click_options
def main(**given: Any) -> None:
    """Run the online game server (as ``gamenight serve``)."""
    profile = os.environ.get("GAMENIGHT_PROFILE")  # bench/server_load.py --profile
    if profile:
        _profile_on_signals(profile)
    from gamenight.server.serve import serve_command_line

    serve_command_line(given)


def _profile_on_signals(path: str) -> None:
    """SIGUSR1 starts cProfile, SIGUSR2 stops it and writes the stats to ``path`` (the
    load benchmark profiles only its measured seconds this way)."""
    import cProfile
    import signal

    profiler = cProfile.Profile()
    signal.signal(signal.SIGUSR1, lambda *_: profiler.enable())

    def stop(*_: object) -> None:
        profiler.disable()
        profiler.dump_stats(path)

    signal.signal(signal.SIGUSR2, stop)


if __name__ == "__main__":
    main()
