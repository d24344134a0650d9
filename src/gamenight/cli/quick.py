"""The ``gamenight`` console script: a replay cache in front of :mod:`gamenight.cli.main`.

``gamenight --help``, ``-h``, ``--version``, ``-V`` and ``list`` print the same text
every time for the same code, language and terminal, yet the click app, msgspec and
the games' rules cost several times a bare interpreter to import (issue 29). So the
first run of such a command runs the real command (:func:`gamenight.cli.main.run`),
records what it printed, and stores it in ``<cache>/cli`` with

- a key: the command line, gamenight's version, the interpreter and ``sys.path``, the
  environment variables that can change the text (the locale's ``LANG``/``LC_*``/
  ``LANGUAGE``, the terminal's ``COLUMNS``/``TERM``/colour switches, ``GAMENIGHT_*``),
  the terminal's size and whether stdout and stderr are terminals;
- its dependencies: every file the real run imported (gamenight's, click's, rich's,
  a plug-in game's...), the translation catalogues, the ``sys.path`` folders (a
  distribution installed or removed changes them) and the entry-point files of the
  distributions that register games, each with its size and mtime.

A later run with the same key replays the text if every dependency is unchanged and
otherwise runs the real command again, so the output is always the real command's,
byte for byte (``tests/cli/test_cli_quick.py`` compares the two paths in every
language). Anything unexpected (no cache folder, a damaged entry, a stream that is not
UTF-8, output on stderr, a non-zero exit) means the real command, with nothing stored.
``GAMENIGHT_NO_QUICK=1`` turns the cache off.

This module imports only the standard library's cheapest parts: the point is what it
does not import.
"""

from __future__ import annotations

import marshal
import os
import sys
import zlib

TYPE_CHECKING = False  # `typing` alone costs twice a bare interpreter's start
if TYPE_CHECKING:
    from typing import Any, TextIO

QUICK = {("--help",), ("-h",), ("--version",), ("-V",), ("list",)}
FORMAT = 1  # bumped when the entry's layout changes
ENV_PREFIXES = ("LC_", "LANG", "GAMENIGHT", "PYTHON", "TTY_", "JUPYTER_", "CLICOLOR", "XDG_")
ENV_NAMES = (
    *("COLUMNS", "LINES", "TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "HOME"),
    *("DATABRICKS_RUNTIME_VERSION", "WT_SESSION", "PYCHARM_HOSTED"),
)
GAMES_GROUP = "gamenight.games"
KEEP = 64  # entries kept (a key per terminal size...): the oldest go beyond that

Stamp = tuple[str, int, int]  # path, size, mtime_ns (-1, -1: did not exist)


def run(argv: list[str] | None = None) -> None:
    """Console-script entry point: replay a quick command's text, else the real command."""
    args = tuple(sys.argv[1:] if argv is None else argv)
    where = _entry_path(args)
    if where is not None:
        text = _replay(where[0], where[1])
        if text is not None:
            sys.stdout.write(text)
            sys.stdout.flush()
            return
    from gamenight.cli.main import run as real_run

    if where is None:
        real_run(list(args))
        return
    _run_and_store(real_run, list(args), *where)


def _utf8(stream: TextIO | None) -> bool:
    encoding = str(getattr(stream, "encoding", "") or "").lower().replace("_", "-")
    return encoding in ("utf-8", "utf8")


def _entry_path(args: tuple[str, ...]) -> tuple[str, tuple[Any, ...]] | None:
    """The cache file and key for ``args``, or None when the cache does not apply."""
    if args not in QUICK or os.environ.get("GAMENIGHT_NO_QUICK"):
        return None
    if not (_utf8(sys.stdout) and _utf8(sys.stderr)):  # else main degrades the streams
        return None
    try:
        from gamenight import __version__

        env = sorted(
            (k, v) for k, v in os.environ.items() if k.startswith(ENV_PREFIXES) or k in ENV_NAMES
        )
        key = (
            FORMAT,
            args,
            __version__,
            sys.executable,
            sys.version,
            tuple(sys.path),
            tuple(env),
            tuple(_size(fd) for fd in (0, 1, 2)),  # click and rich ask any of them
            _tty(sys.stdout),
            _tty(sys.stderr),
        )
        name = f"{zlib.crc32(repr(key).encode('utf-8')):08x}.bin"
        return os.path.join(_cache_dir(), "cli", name), key
    except (OSError, ValueError, AttributeError):
        return None


def _size(fd: int) -> tuple[int, int] | None:
    try:
        # a terminal_size is two ints
        return tuple(os.get_terminal_size(fd))  # type: ignore[return-value]
    except (OSError, ValueError):
        return None


def _tty(stream: TextIO | None) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (ValueError, OSError):
        return False


def _cache_dir() -> str:
    """gamenight's cache folder: ``$GAMENIGHT_CACHE_DIR``, else the user cache folder.
    On Linux that is worked out here as platformdirs does (importing platformdirs costs
    about twice a bare interpreter); :func:`_store` stores nothing unless platformdirs
    agrees, so a replay never reads from anywhere else."""
    found = os.environ.get("GAMENIGHT_CACHE_DIR")
    if found:
        return found
    if sys.platform.startswith("linux"):
        base = os.environ.get("XDG_CACHE_HOME", "").strip() or os.path.expanduser("~/.cache")
        return os.path.join(base, "gamenight")
    return _platform_cache_dir()


def _platform_cache_dir() -> str:
    import platformdirs

    return str(platformdirs.user_cache_dir("gamenight"))


def _stamp(path: str) -> Stamp:
    try:
        st = os.stat(path)
    except OSError:
        return (path, -1, -1)
    return (path, st.st_size, st.st_mtime_ns)


def _replay(path: str, key: tuple[Any, ...]) -> str | None:
    """The stored text if the entry at ``path`` has ``key`` and its files are unchanged."""
    try:
        with open(path, "rb") as f:
            stored_key, stamps, text = marshal.load(f)
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if stored_key != key or not isinstance(text, str):
        return None
    for stamp in stamps:
        if _stamp(stamp[0]) != tuple(stamp):
            return None
    return text


class _Tee:
    """A text stream that writes through to ``stream`` and keeps a copy of the text;
    everything else (isatty, fileno, encoding...) is the real stream's, so the command
    behaves exactly as without it."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.parts: list[str] = []

    def write(self, text: str) -> int:
        written = self._stream.write(text)  # first: click probes with bytes, which fail
        self.parts.append(text)
        return written

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        if name == "buffer":  # bytes written past the text layer could not be replayed
            raise AttributeError(name)
        return getattr(self._stream, name)


def _run_and_store(real_run: Any, args: list[str], path: str, key: tuple[Any, ...]) -> None:
    out, err = sys.stdout, sys.stderr
    tee_out, tee_err = _Tee(out), _Tee(err)
    sys.stdout, sys.stderr = tee_out, tee_err
    code: object = 0
    try:
        real_run(args)
    except SystemExit as exc:
        code = exc.code
        raise
    finally:
        sys.stdout, sys.stderr = out, err
        if code in (0, None) and not tee_err.parts:
            _store(path, key, "".join(tee_out.parts))


def _dependencies() -> list[Stamp]:
    """The files the run just made depended on (see the module's docstring)."""
    paths = {
        file
        for module in list(sys.modules.values())
        if isinstance(file := getattr(module, "__file__", None), str)
    }
    import gamenight

    locale = os.path.join(os.path.dirname(gamenight.__file__), "locale")
    for folder, _dirs, files in os.walk(locale):
        paths.update(os.path.join(folder, f) for f in files if f.endswith(".mo"))
    paths.update(p or os.curdir for p in sys.path)
    from gamenight.core.entrypoints import points  # the registry's reader of them

    for _name, _value, _dist, folder in points(GAMES_GROUP):
        if folder:  # the dist-info folder of a distribution that registers games
            paths.add(os.path.join(folder, "entry_points.txt"))
            paths.add(folder)
    return [_stamp(p) for p in sorted(paths)]


def _store(path: str, key: tuple[Any, ...], text: str) -> None:
    try:
        if not os.environ.get("GAMENIGHT_CACHE_DIR") and _cache_dir() != _platform_cache_dir():
            return  # see _cache_dir
        stamps = _dependencies()
        os.makedirs(os.path.dirname(path), exist_ok=True)
        partial = f"{path}.{os.getpid()}.tmp"
        with open(partial, "wb") as f:
            marshal.dump((key, stamps, text), f)
        os.replace(partial, path)
        _prune(os.path.dirname(path))
    except Exception:  # a cache that cannot be written is only slower
        return


def _prune(folder: str, keep: int = KEEP) -> None:
    """Remove all but the ``keep`` newest entries of ``folder``."""
    import contextlib  # here: the replay path imports nothing it does not use

    entries = [e for e in os.scandir(folder) if e.name.endswith(".bin")]
    if len(entries) <= keep:
        return
    entries.sort(key=lambda e: e.stat().st_mtime_ns, reverse=True)
    for old in entries[keep:]:
        with contextlib.suppress(OSError):  # another process pruned it first
            os.unlink(old.path)
