"""``python -m gamenight.server [--host H] [--port P] [--db URL]``: like ``gamenight serve``."""

from __future__ import annotations

from gamenight.core.threads import one_blas_thread

one_blas_thread()  # before anything imports numpy (issue 29)

import argparse  # noqa: E402
import os  # noqa: E402

from gamenight.server.serve import serve  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m gamenight.server")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", default=None)
    parser.add_argument("--no-table-build", action="store_true")
    parser.add_argument("--log-level", default="warning")
    parser.add_argument(
        "--loop", default="auto", help="uvicorn's event loop (auto, asyncio, uvloop)"
    )
    parser.add_argument("--ws", default="auto", help="uvicorn's WebSocket implementation")
    parser.add_argument(
        "--wait-for-db",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="retry an unreachable database this long before exiting (default 0)",
    )
    args = parser.parse_args()
    profile = os.environ.get("GAMENIGHT_PROFILE")  # bench/server_load.py --profile
    if profile:
        _profile_on_signals(profile)
    serve(
        args.host,
        args.port,
        args.db,
        build_tables=not args.no_table_build,
        log_level=args.log_level,
        loop=args.loop,
        ws=args.ws,
        wait_for_db=args.wait_for_db,
    )


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
