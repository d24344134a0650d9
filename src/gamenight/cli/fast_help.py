"""``gamenight --help`` printed without importing click (issue 46).

Click, with the ``typing``, ``inspect``, ``enum``, ``datetime`` and ``uuid`` it imports,
costs nearly four bare interpreters by itself; the group's help is a few lines of text.
So :func:`group_help` writes that text the way click's ``HelpFormatter`` does (the
usage line, the help paragraph, the options and the commands as definition lists,
each wrapped by the standard library's ``textwrap`` with click's rules), from the rows
of :mod:`gamenight.cli.command_index` and the same msgids in the reader's language.
It is the real path, not a cache: the text is made on every run. Only the group's own
help is made here (``--help`` or ``-h``, after at most one ``--lang``); anything else,
or a stream that is not UTF-8 (click's streams degrade then), goes to click.
``tests/cli/test_fast_help.py`` compares it with click's rendering of the same group
byte for byte, in en/de/pl and at many terminal widths.

>>> reading_argv(["--lang", "pl", "play", "--help"], {}), reading_argv(["--lang=DE"], {})
('pl', 'de')
>>> reading_argv(["list"], {"LANG": "de_DE.UTF-8"}), reading_argv(["--lang", "fr"], {})
('de', 'en')
>>> print(group_help("en", 60).splitlines()[0])
Usage: gamenight [OPTIONS] [COMMAND] [ARGS]...
"""

from __future__ import annotations

import os
import sys

from gamenight.cli.command_index import (
    COMMANDS,
    GROUP_HELP,
    LANG_HELP,
    PLAIN_HELP,
    THEME_HELP,
    THEMES,
)
from gamenight.core.languages import LanguageError, check_language, from_environment

TYPE_CHECKING = False
if TYPE_CHECKING:
    import textwrap
    from collections.abc import Mapping, Sequence

PROG = "gamenight"
HELP_NAMES = ("-h", "--help")  # gamenight.cli.main.run checks the last argument for these


def reading_argv(argv: Sequence[str], environ: Mapping[str, str]) -> str:
    """The language ``gamenight ARGV`` is read in: the first ``--lang`` before ``--``
    that gamenight speaks, else the POSIX locale's (a bad one is refused later, by the
    group, in one line)."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        value = arg.removeprefix("--lang=") if arg.startswith("--lang=") else None
        if arg == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        if value is not None:
            try:
                return check_language(value)
            except LanguageError:
                break
    return from_environment(environ)


def wanted(argv: Sequence[str]) -> bool:
    """Whether this module prints what ``gamenight ARGV`` asks: the group's help
    (:func:`asks_for_help`) on UTF-8 streams (else click's streams degrade)."""
    return asks_for_help(argv) and _utf8(sys.stdout) and _utf8(sys.stderr)


def asks_for_help(argv: Sequence[str]) -> bool:
    """Whether ``argv`` asks for the group's help and for nothing else this module
    cannot promise to print as click would: ``--help``/``-h``, after at most one
    ``--lang`` that gamenight speaks.

    >>> asks_for_help(["--help"]), asks_for_help(["--lang", "de", "-h"])
    (True, True)
    >>> asks_for_help(["--lang=xx", "-h"]), asks_for_help(["list", "--help"])
    (False, False)
    >>> asks_for_help(["--help", "--help"]), asks_for_help(["--plain", "-h"]), asks_for_help([])
    (False, False, False)
    """
    *before, last = argv or ("",)
    if last not in HELP_NAMES:
        return False
    if before and before[0].startswith("--lang="):
        before = ["--lang", before[0].removeprefix("--lang="), *before[1:]]
    if before and (len(before) != 2 or before[0] != "--lang"):
        return False
    try:
        if before:
            check_language(before[1])
    except LanguageError:  # click's path says it (after the help, which is eager)
        return False
    return True


def _utf8(stream: object) -> bool:
    encoding = str(getattr(stream, "encoding", "") or "").lower().replace("_", "-")
    return encoding in ("utf-8", "utf8")


def print_help(argv: Sequence[str]) -> None:
    """Print the group's help as ``gamenight ARGV`` asks (see :func:`wanted`)."""
    lang = reading_argv(argv, os.environ)
    sys.stdout.write(group_help(lang, _columns()) + "\n")
    sys.stdout.flush()


def _columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size().columns`` says (click asks
    it): ``COLUMNS`` if a positive number, else stdout's terminal, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            # sys.__stdout__ is None without a console: the AttributeError below takes it
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


def group_help(lang: str, columns: int) -> str:
    """The group's help in ``lang`` for a terminal ``columns`` wide, as click writes it
    (without the final newline, which ``click.echo`` adds)."""
    from gamenight.core.i18n import gettext as _
    from gamenight.core.i18n import use_language

    with use_language(lang):
        width = max(min(columns, 80) - 2, 50)  # click's HelpFormatter, max_width 80
        out: list[str] = []
        prefix = f"{_('Usage:')} {PROG} "
        args = f"{_('[OPTIONS]')} {_('[COMMAND] [ARGS]...')}"
        if width >= len(prefix) + 20:
            out.append(_wrap(args, width, prefix, " " * len(prefix)))
        else:  # click puts the arguments on a line of their own
            indent = " " * (len(_("Usage:")) + 1 + 4)
            out.append(prefix + "\n" + _wrap(args, width, indent, indent))
        out.append("\n\n")
        out.append(_wrap_paragraphs(_(GROUP_HELP), width, "  ") + "\n")
        options = [
            ("-V, --version", _("Show the version and exit.")),
            ("--plain", _(PLAIN_HELP)),
            ("--lang LANG", _(LANG_HELP)),
            (f"--theme [{'|'.join(THEMES)}]", _(THEME_HELP)),
            ("-h, --help", _("Show this message and exit.")),
        ]
        out.append(f"\n{_('Options')}:\n")
        out.extend(_definitions(options, width))
        limit = width - 6 - max(map(len, COMMANDS))
        commands = [(name, _short_help(_(COMMANDS[name]), limit)) for name in sorted(COMMANDS)]
        out.append(f"\n{_('Commands')}:\n")
        out.extend(_definitions(commands, width))
        return "".join(out).rstrip("\n")


def _definitions(rows: list[tuple[str, str]], width: int) -> list[str]:
    """click's ``HelpFormatter.write_dl`` inside a section (indented by 2)."""
    indent = 2
    first_col = min(max(len(first) for first, _ in rows), 30) + 2
    out: list[str] = []
    for first, second in rows:
        out.append(" " * indent + first)
        if not second:
            out.append("\n")
            continue
        if len(first) <= first_col - 2:
            out.append(" " * (first_col - len(first)))
        else:
            out.append("\n" + " " * (first_col + indent))
        lines = _wrap_paragraphs(second, max(width - first_col - 2, 10), "").splitlines()
        if not lines:
            out.append("\n")
            continue
        out.append(lines[0] + "\n")
        out.extend(" " * (first_col + indent) + line + "\n" for line in lines[1:])
    return out


def _short_help(text: str, limit: int) -> str:
    """click's short help of a command: its first sentence, shortened to ``limit``."""
    words = text.partition("\n\n")[0].split()
    if words and words[0] == "\b":
        words = words[1:]
    if not words:
        return ""
    for i, word in enumerate(words):
        if word.endswith(".") and (i == len(words) - 1 or not words[i + 1][0].islower()):
            words = words[: i + 1]
            break
    shown = " ".join(words)
    if len(shown) <= limit:
        return shown
    if limit < 3:
        return "..."
    import textwrap

    return textwrap.shorten(shown, limit, placeholder="...", break_on_hyphens=False).strip()


def _wrap(text: str, width: int, initial: str, subsequent: str) -> str:
    return _wrapper(width, initial, subsequent).fill(text.expandtabs())


def _wrap_paragraphs(text: str, width: int, indent: str) -> str:
    """click's ``wrap_text(..., preserve_paragraphs=True)``: paragraphs split at empty
    lines, each wrapped with its own first line's indent added; a paragraph opened by a
    ``\\b`` line is kept as written."""
    paragraphs: list[tuple[int, bool, str]] = []
    lines: list[str] = []
    extra: int | None = None

    def flush() -> None:
        if lines:
            if lines[0].strip() == "\b":
                paragraphs.append((extra or 0, True, "\n".join(lines[1:])))
            else:
                paragraphs.append((extra or 0, False, " ".join(lines)))
            lines.clear()

    for line in text.expandtabs().splitlines():
        if not line:
            flush()
            extra = None
        else:
            if extra is None:
                stripped = line.lstrip()
                extra = len(line) - len(stripped)
                line = stripped
            lines.append(line)
    flush()
    out = []
    for more, raw, paragraph in paragraphs:
        lead = indent + " " * more
        if raw:
            out.append("\n".join(lead + line for line in paragraph.splitlines()))
        else:
            out.append(_wrapper(width, lead, lead).fill(paragraph))
    return "\n\n".join(out)


def _wrapper(width: int, initial: str, subsequent: str) -> textwrap.TextWrapper:
    import textwrap  # here: only the help wraps text

    class Wrapper(textwrap.TextWrapper):
        def _handle_long_word(
            self, reversed_chunks: list[str], cur_line: list[str], cur_len: int, width: int
        ) -> None:
            # click's: a long word is cut at the space left, never at a hyphen
            space_left = max(width - cur_len, 1)
            if self.break_long_words:
                last = reversed_chunks[-1]
                cur_line.append(last[:space_left])
                reversed_chunks[-1] = last[space_left:]
            elif not cur_line:
                cur_line.append(reversed_chunks.pop())

    return Wrapper(
        width, initial_indent=initial, subsequent_indent=subsequent, replace_whitespace=False
    )
