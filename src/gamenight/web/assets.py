"""The browser's files as the server sends them: read once, gzipped once, and named by
their content.

:func:`bundle` gathers every file of ``static/``, each game plug-in's own browser files
(a package's ``web/`` folder, :meth:`gamenight.core.registry.GameEntry.web_files`,
served at ``static/games/<id>/...``) and ``static/js/games/installed.js``, a module made
here from the game registry that tells the pages where each game's board and message
files are (so no page names a game, and a plug-in room asks for no file it lacks).

The bundle's :attr:`Bundle.version` is a hash of every path and byte in it. The pages
load their files from ``/v/<version>/static/...``, answered ``Cache-Control: public,
max-age=31536000, immutable``: any change of any file makes a new version, so a cached
file is never stale. The ES modules import each other by relative paths, which resolve
inside the same version, so no file needs rewriting. (One version for the whole bundle
rather than a hash per file: a per-file name would have to be written into every module
that imports it, which needs a build step; an upgrade costs returning players one fresh
download.) ``/static/...`` serves the same files under their plain names, revalidated
(``no-cache`` and an ``ETag``), for links and tools that know only those.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from gamenight.core import registry

STATIC = Path(__file__).parent / "static"
VERSIONED = "/v/{version}/static/"  # the pages' prefix for their files
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
INSTALLED = "js/games/installed.js"  # made from the registry, not a file
GZIP_AT_LEAST = 256  # bytes: a smaller file is sent as it is (gzip would not pay)
TYPES = {  # what each suffix is sent as; a file of another suffix is not served
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".png": "image/png",
    ".webp": "image/webp",
    ".ico": "image/vnd.microsoft.icon",
}
SQUEEZE = (".js", ".css", ".html", ".svg", ".json")  # the kinds gzip makes smaller
PAGE_LINK = re.compile(r'(\b(?:href|src)=")/static/')
PAGE_SCRIPT = re.compile(r'<script type="module" src="/static/([^"]+)"></script>')
# a module's static imports (`import x from "./a.js"`, `export {y} from "../b.js"`,
# `import "./c.js"`); a dynamic import( is not one. Text in a comment that looks like
# one only adds a preload.
STATIC_IMPORT = re.compile(
    r'\b(?:import|export)\s*(?:[\w*{}\s,$]+?\s*from\s*)?"(\.{1,2}/[^"]+\.js)"'
)


@dataclass(frozen=True)
class Asset:
    """One file: its bytes, their gzip (None where it would not pay), type and ETag."""

    body: bytes
    gzipped: bytes | None
    media_type: str
    etag: str


@dataclass(frozen=True)
class Bundle:
    """Every file the browser may load, by path below ``static/`` (``js/room.js``)."""

    files: Mapping[str, Asset]
    version: str
    problems: tuple[str, ...] = field(default=())
    games: Mapping[str, Mapping[str, object]] = field(default_factory=dict)  # installed.js's

    def prefix(self) -> str:
        """Where the pages load the files from: ``/v/<version>/static/``."""
        return VERSIONED.format(version=self.version)

    def page(self, text: str) -> str:
        """A page's HTML with its ``href``/``src`` links to ``/static/`` made versioned.

        >>> Bundle({}, "abc").page('<script src="/static/js/room.js"></script> /static/x')
        '<script src="/v/abc/static/js/room.js"></script> /static/x'
        """
        return PAGE_LINK.sub(lambda m: m.group(1) + self.prefix(), text)

    def page_text(self, name: str, game: str | None = None) -> str:
        """Page ``name`` (``room.html``) as the bundle read it, its links versioned, and
        a ``modulepreload`` link for every module its script imports, however deep (and
        for game ``game``'s board and English words, which the room page imports once it
        knows the game): the browser asks for them all at once instead of one level of
        imports per round trip."""
        text = self.page(self.files[name].body.decode("utf-8"))
        script = PAGE_SCRIPT.search(self.files[name].body.decode("utf-8"))
        roots = [script.group(1)] if script else []
        parts = self.games.get(game or "", {})
        board, messages = parts.get("board"), parts.get("messages")
        roots += [board] if isinstance(board, str) else []
        roots += [messages["en"]] if isinstance(messages, dict) and "en" in messages else []
        links = "".join(
            f'<link rel="modulepreload" href="{self.prefix()}{path}">\n'
            for path in self.imported(roots)
            if not (script and path == script.group(1))  # the script tag asks for it already
        )
        return text.replace("</head>", links + "</head>", 1)

    def imported(self, roots: list[str]) -> list[str]:
        """Every module ``roots`` import statically, however deep, roots first.

        >>> b = Bundle({p: asset(p, t) for p, t in {"js/a.js": b'import {x} from "./b/c.js";',
        ...     "js/b/c.js": b'export * from "../d.js"; import("./no.js")',
        ...     "js/d.js": b"import './a.js';"}.items()}, "v")
        >>> b.imported(["js/a.js"])
        ['js/a.js', 'js/b/c.js', 'js/d.js']
        """
        seen: list[str] = []
        todo = [r for r in roots if r in self.files]
        while todo:
            path = todo.pop(0)
            if path in seen:
                continue
            seen.append(path)
            folder = path.rpartition("/")[0]
            for found in STATIC_IMPORT.finditer(self.files[path].body.decode("utf-8")):
                target = _join(folder, found.group(1))
                if target in self.files and target not in seen:
                    todo.append(target)
        return seen


def _join(folder: str, relative: str) -> str:
    """``relative`` (``../x.js``) resolved against ``folder`` (``js/games``).

    >>> _join("js/games", "../parts/dice.js"), _join("js", "./i18n.js"), _join("", "../x.js")
    ('js/parts/dice.js', 'js/i18n.js', '../x.js')
    """
    parts = folder.split("/") if folder else []
    for step in relative.split("/"):
        if step == "..":
            if not parts:
                return relative  # above static/: no file of the bundle
            parts.pop()
        elif step != ".":
            parts.append(step)
    return "/".join(parts)


def asset(path: str, body: bytes) -> Asset | None:
    """``body`` as the file ``path`` is sent, or None for a suffix that is not served.

    >>> a = asset("js/x.js", b"export default 1;\\n" * 40)
    >>> a.media_type, len(a.gzipped) < len(a.body), a.etag[:1], asset("x.py", b"")
    ('text/javascript; charset=utf-8', True, '"', None)
    """
    suffix = Path(path).suffix.lower()
    media = TYPES.get(suffix)
    if media is None:
        return None
    squeezed = None
    if suffix in SQUEEZE and len(body) >= GZIP_AT_LEAST:
        # mtime 0: the same bytes every start, so a proxy's copy stays valid
        squeezed = gzip.compress(body, compresslevel=9, mtime=0)
        if len(squeezed) >= len(body):
            squeezed = None
    return Asset(body, squeezed, media, f'"{hashlib.sha256(body).hexdigest()[:20]}"')


def version_of(files: Mapping[str, bytes]) -> str:
    """The hash of every path and byte of a bundle: 16 hex digits.

    >>> one = version_of({"a.js": b"1"})
    >>> one == version_of({"a.js": b"1"}), one == version_of({"a.js": b"2"}), len(one)
    (True, False, 16)
    """
    digest = hashlib.sha256()
    for path in sorted(files):
        data = files[path]
        digest.update(f"{path}\0{len(data)}\0".encode())
        digest.update(data)
    return digest.hexdigest()[:16]


def static_files(root: Path | None = None) -> dict[str, bytes]:
    """Every servable file below ``root`` (:data:`STATIC`) by its path (``js/room.js``)."""
    root = STATIC if root is None else root
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.suffix.lower() in TYPES and not p.name.startswith(".")
    }


def installed_module(games: Mapping[str, Mapping[str, object]]) -> bytes:
    """The ``installed.js`` module: each game's board and message files, as paths below
    ``static/`` (the loader resolves them against its own address).

    >>> print(installed_module({"toy": {"board": "games/toy/board.js", "messages": {}}}).decode())
    // Made by the server from the installed games (gamenight.web.assets): where each game's
    // board (null: the generic table) and message files are, below static/.
    export default {"toy":{"board":"games/toy/board.js","messages":{}}};
    <BLANKLINE>
    """
    text = json.dumps(games, separators=(",", ":"), sort_keys=False, ensure_ascii=True)
    return (
        "// Made by the server from the installed games (gamenight.web.assets): where each game's\n"
        "// board (null: the generic table) and message files are, below static/.\n"
        f"export default {text};\n"
    ).encode()


def game_parts(
    entries: Iterable[registry.GameEntry], files: dict[str, bytes]
) -> tuple[dict[str, dict[str, object]], list[str]]:
    """Each game's board and message files (for ``installed.js``); a plug-in's own files
    are added to ``files`` under ``games/<id>/``. A plug-in's board wins over a file of
    the front end's own by its id (``js/games/<id>.js``, where gamenight's games keep
    theirs, beside the modules they share), and so do its message files."""
    games: dict[str, dict[str, object]] = {}
    problems: list[str] = []
    message_file = re.compile(r"messages/([a-z]{2,3})\.js")
    for entry in entries:
        try:
            own = entry.web_files()
        except (OSError, ValueError) as exc:  # a plug-in's broken folder: the generic table
            problems.append(f"game plug-in '{entry.id}': its web files are unreadable: {exc}")
            own = {}
        for path, data in own.items():
            files[f"games/{entry.id}/{path}"] = data
        board = (
            f"games/{entry.id}/board.js"
            if "board.js" in own
            else (f"js/games/{entry.id}.js" if f"js/games/{entry.id}.js" in files else None)
        )
        messages: dict[str, str] = {}
        for path in files:  # the front end's own: js/messages/<lang>/<id>.js
            parts = path.split("/")
            if len(parts) == 4 and parts[:2] == ["js", "messages"] and parts[3] == f"{entry.id}.js":
                messages[parts[2]] = path
        for path in own:
            found = message_file.fullmatch(path)
            if found:
                messages[found.group(1)] = f"games/{entry.id}/{path}"
        games[entry.id] = {"board": board, "messages": dict(sorted(messages.items()))}
    return games, problems


def bundle(root: Path | None = None, entries: Iterable[registry.GameEntry] | None = None) -> Bundle:
    """Every file the browser may load (``root``'s, the installed games' own, and
    ``installed.js``), each ready to send, and the bundle's version."""
    files = static_files(root)
    games, problems = game_parts(registry.available() if entries is None else entries, files)
    files[INSTALLED] = installed_module(games)
    made = {path: asset(path, data) for path, data in files.items()}
    ready = {path: a for path, a in made.items() if a is not None}
    return Bundle(ready, version_of(files), tuple(problems), games)
