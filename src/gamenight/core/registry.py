"""The game registry: every installed game, found by entry point, and its capabilities.

A game registers in its distribution's metadata, group ``gamenight.games``: the entry
point's name is the game id, its value the package that holds ``game.py`` (``GAME``)
and the rules doc ``rules.md`` (translations beside it: ``rules.de.md``...).
gamenight's own games register the same way (its pyproject.toml); a plug-in is any
installed distribution that does::

    [project.entry-points."gamenight.games"]
    toy = "gamenight_toy"

A game package may also hold a ``web/`` folder: its browser board (``web/board.js``, an
ES module like the built-in renderers) and its message files (``web/messages/<lang>.js``),
found through the same entry point (:meth:`GameEntry.web_files`) and served by the web
front end; a game without one gets the browser's generic table.

The game's :class:`~gamenight.core.game.GameInfo` declares its capabilities by name
("module:attribute"): bots, an advisor, a solver, live win odds, a terminal UI, an RL
codec. They are imported on first use, so listing the games imports no bot, solver or
numpy. Front ends find their per-game modules through those capabilities only (a game
without one gets the front end's generic fallback), never by package name.

A plug-in that cannot be loaded (a bad entry point, an import error, an id that is not
its game's) is left out of the listing with one line in :func:`problems`; the others
are unaffected.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cached_property
from typing import TYPE_CHECKING, TypeVar, cast

import msgspec

from gamenight.core import entrypoints
from gamenight.core.advice import Advice
from gamenight.core.agents import Agent
from gamenight.core.errors import CapabilityError, UnknownGameError
from gamenight.core.game import AnyGame, BotInfo
from gamenight.core.i18n import N_
from gamenight.core.languages import LANGUAGES
from gamenight.core.odds import Odds
from gamenight.core.solver import Solver

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

# The capabilities' signatures (GameInfo names each by a string, which mypy cannot
# follow: these types make every caller checked; tests/games/test_game_contract.py
# checks that what each string names takes these arguments).
Advisor = Callable[[msgspec.Struct, int, list[msgspec.Struct]], Advice | None]
OddsFunction = Callable[[msgspec.Struct], Odds | None]  # (spectator view) -> live odds
BotFactory = Callable[[int], Agent]  # (seed) -> a bot

RANDOM_BOT = BotInfo(
    "random",
    N_("picks uniformly among the legal moves: a baseline, not an opponent"),
    "gamenight.core.agents:RandomAgent",
    rating=10.0,  # the ladder's foot: the baseline every game has
)


_T = TypeVar("_T")


def load(path: str) -> object:
    """The object at ``"package.module:attribute"``. Untyped by nature (a string names
    it): :func:`load_callable` and the typed accessors of :class:`GameEntry` check it.

    >>> load("gamenight.core.registry:WEB_FOLDER")
    'web'
    """
    module, _, attribute = path.partition(":")
    found: object = getattr(importlib.import_module(module), attribute)
    return found


def load_callable(path: str) -> Callable[..., object]:
    """The function or class at ``path``; :class:`CapabilityError` for anything else.

    >>> try:
    ...     load_callable("gamenight.core.registry:WEB_FOLDER")
    ... except CapabilityError as exc:
    ...     print(exc)
    gamenight.core.registry:WEB_FOLDER names a str, not a function or class
    """
    found = load(path)
    if not callable(found):
        raise CapabilityError(f"{path} names a {type(found).__name__}, not a function or class")
    return found


def listed(path: str, *args: object) -> list[object]:
    """What the function at ``path`` lists when called with ``args`` (every action of a
    game, its benchmarks); :class:`CapabilityError` if it lists nothing iterable."""
    found = load_callable(path)(*args)
    if not isinstance(found, Iterable) or isinstance(found, str | bytes):
        raise CapabilityError(f"{path} gave a {type(found).__name__}, not a list")
    return list(found)


def made(found: object, kind: type[_T], path: str) -> _T:
    """``found``, which the capability ``path`` made, checked to be a ``kind``.

    >>> made(3, str, "toy.codec:make")
    Traceback (most recent call last):
    ...
    gamenight.core.errors.CapabilityError: toy.codec:make gave a int, not a str
    """
    if not isinstance(found, kind):
        raise CapabilityError(f"{path} gave a {type(found).__name__}, not a {kind.__name__}")
    return found


def stage_function(path: str | None) -> Callable[[object], str | None] | None:
    """The ``stage`` capability at ``path`` (``stage(view) -> str | None``: the part of
    the game a view is in), its answers checked; None for a game without one."""
    if path is None:
        return None
    found = load_callable(path)

    def stage(view: object) -> str | None:
        part = found(view)
        return None if part is None else made(part, str, path)

    return stage


def load_mapping(path: str) -> Mapping[str, str]:
    """The mapping of strings to strings at ``path`` (a game's vocabulary)."""
    found = load(path)
    if not isinstance(found, Mapping) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in found.items()
    ):
        raise CapabilityError(f"{path} names a {type(found).__name__}, not a mapping of words")
    return cast("Mapping[str, str]", found)


class GameEntry(msgspec.Struct, frozen=True, dict=True):
    id: str
    title: str | None  # None: the game's own GameInfo.name, read on first use
    package: str
    source: str = "gamenight"  # the distribution that registered it

    @property
    def name(self) -> str:
        """The game's name for people (its ``GameInfo.name``)."""
        return self.title if self.title is not None else self.game.info.name

    @cached_property
    def game(self) -> AnyGame:
        """The game object (a :class:`gamenight.core.game.Game`)."""
        game: AnyGame = importlib.import_module(f"{self.package}.game").GAME
        return game

    def capability(self, path: str | None) -> Callable[..., object] | None:
        """The function or class a capability string names, or None for no capability.
        What it returns is ``object``: the front end that calls it checks what it got
        (or uses a typed accessor: :attr:`advisor`, :attr:`odds`, :attr:`solver`)."""
        return None if path is None else load_callable(path)

    @cached_property
    def bot_infos(self) -> Mapping[str, BotInfo]:
        """Every bot by name, ``random`` first; nothing is imported to list them."""
        return {b.name: b for b in (RANDOM_BOT, *self.game.info.bots)}

    @property
    def bots(self) -> Mapping[str, BotFactory]:
        """Bot factories by name; each takes a seed and returns an agent (imported lazily)."""
        return _LazyBots(self.bot_infos)

    def make_bot(self, name: str, seed: int) -> Agent:
        """A new bot ``name`` seeded with ``seed``; raises UnknownGameError for no such bot."""
        info = self.bot_infos.get(name)
        if info is None:
            raise UnknownGameError(
                f"{self.name} has no bot '{name}' (choose from {', '.join(self.bot_infos)})"
            )
        return _make_bot(info, seed)

    @property
    def advisor(self) -> Advisor | None:
        """``advise(view, seat, legal) -> Advice | None``, if the game can advise."""
        path = self.game.info.advisor
        if path is None:
            return None
        return cast(Advisor, load_callable(path))  # contract-tested signature

    @property
    def odds(self) -> OddsFunction | None:
        """``odds(view) -> Odds | None`` (the spectator view), if the game has live odds."""
        path = self.game.info.odds
        if path is None:
            return None
        return cast(OddsFunction, load_callable(path))  # contract-tested signature

    @property
    def solver(self) -> Solver | None:
        """The game's :class:`~gamenight.core.solver.Solver`, if it has one. Typed, so
        mypy checks every call (a capability is named by a string: nothing else can);
        the contract tests check that what the string names has the signature."""
        path = self.game.info.solver
        if path is None:
            return None
        return cast(Solver, load(path))  # contract-tested: it has Solver's methods

    def rules_text(self, lang: str = "en") -> str:
        """The game's rules doc in ``lang`` (``docs/rules/<id>.<lang>.md``, shipped as
        ``rules.<lang>.md``; English is ``rules.md``), or the English one when the game
        has none in that language. ``lang`` is a code of :data:`~gamenight.core.languages.LANGUAGES`
        (front ends check it with ``check_language`` first)."""
        return self.rules_in(lang)[1]

    def rules_in(self, lang: str = "en") -> tuple[str, str]:
        """(the language the rules are in, their text): ``lang`` or the English fallback."""
        from importlib import resources  # here: listing or solving reads no rules (issue 29)

        candidates = [(lang, f"rules.{lang}.md")] if lang != "en" else []
        for language, name in (*candidates, ("en", "rules.md")):
            try:
                text = resources.files(self.package).joinpath(name).read_text(encoding="utf-8")
            except OSError:
                continue
            return language, text
        raise UnknownGameError(f"the rules of {self.name} are not installed")

    def rules_languages(self) -> tuple[str, ...]:
        """The languages the game's rules are written in, English first."""
        from importlib import resources

        found = []
        for lang in LANGUAGES:
            name = "rules.md" if lang == "en" else f"rules.{lang}.md"
            if resources.files(self.package).joinpath(name).is_file():
                found.append(lang)
        return tuple(found)

    def web_files(self) -> dict[str, bytes]:
        """The game's own browser files: everything in its package's ``web/`` folder with a
        suffix of :data:`WEB_SUFFIXES` and a plain name (:data:`WEB_NAME`), by path below
        the folder (``board.js``, ``messages/de.js``); {} for a game without one. Read
        here, not imported: the front end serves them as they are."""
        from importlib import resources

        found: dict[str, bytes] = {}
        try:
            root = resources.files(self.package).joinpath(WEB_FOLDER)
            if not root.is_dir():
                return found
        except (ModuleNotFoundError, OSError):
            return found
        stack: list[tuple[str, Traversable]] = [("", root)]
        while stack:  # a walk, not recursion: a plug-in's folders are not trusted to be shallow
            prefix, folder = stack.pop()
            for child in folder.iterdir():
                if not WEB_NAME.fullmatch(child.name):
                    continue
                path = f"{prefix}{child.name}"
                if child.is_dir() and path.count("/") < WEB_DEPTH:
                    stack.append((f"{path}/", child))
                elif child.is_file() and child.name.endswith(WEB_SUFFIXES):
                    found[path] = child.read_bytes()
        return dict(sorted(found.items()))


WEB_FOLDER = "web"  # a game package's browser files (GameEntry.web_files)
WEB_SUFFIXES = (".js", ".css", ".svg", ".png", ".webp", ".json")
WEB_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")  # no dot files, no "..", no odd bytes
WEB_DEPTH = 4  # folders below web/ at most


def _make_bot(info: BotInfo, seed: int) -> Agent:
    """A new bot of ``info`` seeded with ``seed`` (its module imported on first use)."""
    make = cast(BotFactory, load_callable(info.factory))  # contract-tested: (seed) -> Agent
    return make(seed)


class _LazyBots(Mapping[str, BotFactory]):
    """Bot names map to factories that import their module only when called."""

    def __init__(self, infos: Mapping[str, BotInfo]) -> None:
        self._infos = infos

    def __getitem__(self, name: str) -> BotFactory:
        info = self._infos[name]

        return lambda seed: _make_bot(info, seed)

    def __iter__(self) -> Iterator[str]:
        return iter(self._infos)

    def __len__(self) -> int:
        return len(self._infos)


GROUP = "gamenight.games"  # the entry-point group games register in
# gamenight's own games, in the order `gamenight list` shows them; plug-ins follow by id.
# Only a sort key: each still registers by its entry point (pyproject.toml).
SHELF = ("decathlon", "dice-duel", "wurfeltod", "decades")

_problems: dict[str, str] = {}  # game id -> one line on why its plug-in is left out


def _entries(points: Iterable[entrypoints.Point], problems: dict[str, str]) -> dict[str, GameEntry]:
    r"""The entries of ``points`` (name, value, distribution, folder) in listing order
    (gamenight's own in :data:`SHELF` order, then the rest by id); each bad one gets a
    line in ``problems`` instead.

    >>> seen: dict[str, str] = {}
    >>> points = [(n, v, "toy-games", "") for n, v in
    ...           [("toy", "toy_pkg"), ("Bad Id", "x"), ("decades", "a.b"), ("odd", "m:GAME")]]
    >>> list(_entries(points, seen))
    ['decades', 'toy']
    >>> print(*seen.values(), sep="\n")
    game plug-in 'Bad Id' (x) is broken: its id must be lower-case letters, digits and '-'
    game plug-in 'odd' (m:GAME) is broken: its value must be a package name (one holding game.py)
    """
    found: dict[str, GameEntry] = {}
    for name, value, source, _folder in points:
        why = _check_point(name, value)
        if why is not None:
            problems[name] = f"game plug-in '{name}' ({value}) is broken: {why}"
        elif name in found:
            problems[name] = (
                f"game plug-in '{name}' ({value}, from {source}) is left out: "
                f"{found[name].source} registers that id too"
            )
        else:
            found[name] = GameEntry(name, None, value, source)
    rank = {game_id: i for i, game_id in enumerate(SHELF)}
    ordered = sorted(found, key=lambda g: (rank.get(g, len(rank)), g))
    return {g: found[g] for g in ordered}


def _check_point(name: str, value: str) -> str | None:
    if not name or not all(c.islower() or c.isdigit() or c == "-" for c in name):
        return "its id must be lower-case letters, digits and '-'"
    if ":" in value or not all(part.isidentifier() for part in value.split(".")):
        return "its value must be a package name (one holding game.py)"
    return None


def _discover() -> dict[str, GameEntry]:
    # read without importlib.metadata, which costs a tenth of `solve decathlon` (issue 29)
    points = entrypoints.points(GROUP)
    if not any(source == "gamenight" for _, _, source, _ in points):
        # gamenight's own metadata predates the entry points (an editable install made
        # before pyproject.toml declared them): its games are still its games.
        points += [(g, f"gamenight.games.{g.replace('-', '_')}", "gamenight", "") for g in SHELF]
    return _entries(points, _problems)


GAMES: dict[str, GameEntry] = _discover()


def problems() -> dict[str, str]:
    """Game id -> one line on each plug-in left out (bad entry point, failed import)."""
    return dict(_problems)


def available() -> list[GameEntry]:
    """Registered games whose package imports and whose game is the one registered; a
    plug-in that fails is left out (one line in :func:`problems`), never the others."""
    return [entry for entry in GAMES.values() if _loads(entry)]


_checked: dict[str, bool] = {}  # game id -> whether its game loaded


def _loads(entry: GameEntry) -> bool:
    """Whether ``entry``'s game loads (once per id); why not goes to :func:`problems`."""
    ok = _checked.get(entry.id)
    if ok is None:
        why = _problems.get(entry.id) or _load_problem(entry)
        if why is not None and why != NOT_INSTALLED:
            _problems[entry.id] = why
        ok = _checked[entry.id] = why is None
    return ok


NOT_INSTALLED = "not installed"  # a built-in game left out of a slimmed install: no problem


def _load_problem(entry: GameEntry) -> str | None:
    """None if ``entry``'s game loads; else one line saying why not."""
    where = f"game plug-in '{entry.id}' ({entry.package})"
    try:
        game = entry.game
    except ModuleNotFoundError as exc:
        if entry.source == "gamenight" and (exc.name or "").startswith(entry.package):
            return NOT_INSTALLED
        return f"{where} is broken: {type(exc).__name__}: {exc}"
    except Exception as exc:  # a plug-in's own bug must not take the others down
        return f"{where} is broken: {type(exc).__name__}: {exc}"
    info = getattr(game, "info", None)
    if getattr(info, "id", None) != entry.id:
        return f"{where} is broken: its GAME's info.id is {getattr(info, 'id', None)!r}"
    return None


def get(game_id: str) -> GameEntry:
    """The entry for ``game_id``; raises :class:`UnknownGameError` naming the choices
    (or, for a plug-in that does not load, saying why in one line)."""
    key = game_id.strip().lower()
    entry = GAMES.get(key)
    if entry is not None and entry.source != "gamenight" and not _loads(entry):
        raise UnknownGameError(_problems[key])
    if entry is None:
        if key in _problems:
            raise UnknownGameError(_problems[key])
        raise UnknownGameError(
            f"unknown game '{game_id}' (choose from {', '.join(e.id for e in available())})"
        )
    return entry
