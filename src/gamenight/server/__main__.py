"""``python -m gamenight.server [--host H] [--port P] [--db URL]``: like ``gamenight serve``."""

from __future__ import annotations

import argparse

from gamenight.server.serve import serve


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m gamenight.server")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", default=None)
    parser.add_argument("--no-table-build", action="store_true")
    parser.add_argument("--log-level", default="warning")
    args = parser.parse_args()
    serve(
        args.host,
        args.port,
        args.db,
        build_tables=not args.no_table_build,
        log_level=args.log_level,
    )


if __name__ == "__main__":
    main()
