"""The gettext catalogues (issue 26): complete, nothing unused, placeholders and plural
forms right, and the committed .mo files exactly what their .po files compile to."""

from __future__ import annotations

import ast
import io
import re
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_keywords
from babel.messages.mofile import write_mo
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po
from babel.plural import to_python

from gamenight.core import i18n
from gamenight.core.languages import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "src" / "gamenight" / "locale"
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]


def _makefile_keywords() -> dict[str, Any]:
    """The keywords `make messages` extracts: the Makefile's KEYWORDS, read from it (so a
    class added there, such as an error whose message is its msgid, is checked too)."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    block = re.search(r"^KEYWORDS :=((?:.*\\\n)*.*)$", text, re.MULTILINE)
    assert block, "the Makefile has no KEYWORDS"
    return dict(parse_keywords(re.findall(r"-k (\S+)", block.group(1))))


KEYWORDS = _makefile_keywords()
Key = tuple[str | None, str]


def _key(message: Message) -> Key:
    msgid = message.id[0] if isinstance(message.id, tuple | list) else message.id
    return (message.context, str(msgid))


@pytest.fixture(scope="module")
def used() -> dict[Key, tuple[str, ...]]:
    """Every message the code marks: key -> its msgid (and plural)."""
    found: dict[Key, tuple[str, ...]] = {}
    method_map = [  # as babel.cfg says: the command modules give their --help texts too
        ("src/gamenight/cli/**.py", "gamenight.cli.help_extract:extract"),
        ("src/gamenight/**.py", "python"),
    ]
    for _file, _line, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, keywords=KEYWORDS, strip_comment_tags=True
    ):
        ids = (message,) if isinstance(message, str) else tuple(m for m in message if m)
        found[(context, ids[0])] = ids
    return found


def _strings(message: Message) -> tuple[str, ...]:
    """A message's translation(s), one per plural form."""
    s = message.string
    return tuple(str(x) for x in s) if isinstance(s, tuple | list) else (str(s or ""),)


def _ids(message: Message) -> tuple[str, ...]:
    i = message.id
    return tuple(str(x) for x in i) if isinstance(i, tuple | list) else (str(i),)


def _catalogue(lang: str) -> Catalog:
    with (LOCALE / lang / "LC_MESSAGES" / "gamenight.po").open("rb") as fp:
        return read_po(fp, locale=lang)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_is_translated(lang: str, used: dict[Key, tuple[str, ...]]) -> None:
    catalogue = _catalogue(lang)
    entries = {_key(m): m for m in catalogue if m.id}
    missing = [key for key in used if key not in entries]
    assert not missing, f"{lang}: run `make messages`; not in the catalogue: {missing[:5]}"
    empty = [key for key, m in entries.items() if key in used and not all(_strings(m))]
    assert not empty, f"{lang}: untranslated: {empty[:5]}"
    fuzzy = [key for key, m in entries.items() if m.fuzzy]
    assert not fuzzy, f"{lang}: fuzzy entries: {fuzzy[:5]}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_entry_is_unused(lang: str, used: dict[Key, tuple[str, ...]]) -> None:
    catalogue = _catalogue(lang)
    unused = [_key(m) for m in catalogue if m.id and _key(m) not in used]
    assert not unused, f"{lang}: entries no code uses (run `make messages`): {unused[:5]}"
    assert not catalogue.obsolete


PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}|%\((\w+)\)[sd]")


def placeholders(text: str) -> set[str]:
    """The ``{name}`` and ``%(name)s`` placeholders of ``text``.

    >>> sorted(placeholders("{n} of {of} · %(x)s"))
    ['n', 'of', 'x']
    """
    return {a or b for a, b in PLACEHOLDER.findall(text)}


@pytest.mark.parametrize("lang", TRANSLATED)
def test_placeholders_match(lang: str) -> None:
    wrong = []
    for m in _catalogue(lang):
        if not m.id:
            continue
        ids, strings = _ids(m), _strings(m)
        if m.pluralizable and placeholders(ids[0]) != placeholders(ids[-1]):
            # the ids name different fields (click's "Did you mean {possibility}?" and
            # "(... one of: {possibilities}?)"): the singular form names the singular's,
            # every other form (the counts gettext maps there) the plural's
            for i, s in enumerate(strings):
                if placeholders(s) != placeholders(ids[0] if i == 0 else ids[-1]):
                    wrong.append((ids[0], s))
            continue
        wanted = placeholders(ids[-1]) | placeholders(ids[0])
        for s in strings:
            # a singular form may leave the count out ("one die"), never add a name
            if placeholders(s) != wanted and not (
                m.pluralizable and placeholders(s) <= wanted and wanted - placeholders(s) <= {"n"}
            ):
                wrong.append((ids[0], s))
    assert not wrong, f"{lang}: placeholders differ: {wrong[:3]}"


@pytest.mark.parametrize(("lang", "forms"), [("de", 2), ("pl", 3)])
def test_plural_forms_follow_cldr(lang: str, forms: int) -> None:
    """The header's rule is CLDR's (as Babel writes it); every plural entry has every
    form; gettext picks the form CLDR's rule names at 1, 2, 5, 22 and 25."""
    catalogue = _catalogue(lang)
    assert catalogue.num_plurals == forms == get_plural(lang).num_plurals
    for m in catalogue:
        if m.id and m.pluralizable:
            assert len(_strings(m)) == forms and all(_strings(m)), m.id
    cldr = to_python(__import__("babel").Locale.parse(lang).plural_form)
    order = {"de": ["one", "other"], "pl": ["one", "few", "many"]}[lang]
    singular, plural = "{span} team", "{span} teams"
    entry = catalogue.get((singular, plural))
    assert entry is not None
    for n in (1, 2, 5, 22, 25, 12, 104):
        form = order.index(cldr(n)) if cldr(n) in order else len(order) - 1
        assert i18n.translations(lang).ngettext(singular, plural, n) == _strings(entry)[form], n


def test_polish_counts_three_ways() -> None:
    with i18n.use_language("pl"):
        teams = [
            i18n.ngettext("{span} team", "{span} teams", n).format(span=n)
            for n in (1, 2, 5, 22, 25)
        ]
    assert teams == ["1 drużyna", "2 drużyny", "5 drużyn", "22 drużyny", "25 drużyn"]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_committed_mo_is_the_compiled_po(lang: str) -> None:
    """A fresh clone needs no build step: each .mo is what its .po compiles to."""
    compiled = io.BytesIO()
    write_mo(compiled, _catalogue(lang))
    mo = (LOCALE / lang / "LC_MESSAGES" / "gamenight.mo").read_bytes()
    assert mo == compiled.getvalue(), f"run `make messages`: {lang}'s .mo is stale"


def test_the_catalogues_are_package_data() -> None:
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"locale/*/LC_MESSAGES/*.mo"' in text


def test_the_pseudo_locale_keeps_placeholders_and_markup() -> None:
    text = i18n.pseudo("[bold]{name}[/] rolls %(n)s dice")
    assert "{name}" in text and "[bold]" in text and "[/]" in text and "%(n)s" in text
    assert "rolls" not in text and len(text) >= 1.3 * len("[bold]{name}[/] rolls %(n)s dice")


def test_a_language_is_per_context() -> None:
    with i18n.use_language("de"):
        assert i18n.language() == "de"
        with i18n.use_language("pl"):
            assert i18n.gettext("Final standings") == "Klasyfikacja końcowa"
        assert i18n.gettext("Final standings") == "Endstand"
    assert i18n.gettext("Final standings") == "Final standings"


def test_importing_i18n_loads_no_catalogue_and_no_babel() -> None:
    """Issue 29 wants a fast start: a catalogue is read on first use, Babel only to format."""
    import subprocess
    import sys

    code = (
        "import sys, gamenight.core.i18n as i; i.gettext('x');"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'babel'), i._catalogues.keys())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[] dict_keys(['en'])"


def _binds_underscore(function: ast.AST) -> bool:
    """Whether ``function``'s own body binds ``_`` (``for _ in``, ``a, _ = ...``): then
    every ``_("...")`` in it calls that value instead of gettext."""
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id == "_" and isinstance(node.ctx, ast.Store):
            return True
    return False


def test_no_function_that_translates_rebinds_underscore() -> None:
    """The class of bug where ``for _ in range(5)`` turns ``_("text")`` into a TypeError.
    (Comprehensions have their own scope, so ``[x for x, _ in pairs]`` is harmless.)"""
    bad = []
    for path in sorted((ROOT / "src" / "gamenight").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            calls = any(
                isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "_"
                for n in ast.walk(node)
            )
            own = [
                n
                for n in ast.walk(node)
                if not isinstance(n, ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp)
            ]
            stores = any(
                isinstance(n, ast.For | ast.Assign | ast.AsyncFor)
                and _binds_underscore(
                    n.target if isinstance(n, ast.For | ast.AsyncFor) else ast.Tuple(n.targets)
                )
                for n in own
            )
            if calls and stores:
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}")
    assert not bad, bad


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_registered_text_a_player_reads_is_marked(lang: str) -> None:
    """The player texts our games give the registry (bot descriptions, option help) are
    in the catalogue: one left unmarked shows in English on a German or Polish page
    (``winner-points``' did). Plug-ins from elsewhere bring their own words."""
    from gamenight.core import registry

    with i18n.use_language(lang):
        for entry in registry.available():
            if not type(entry.game).__module__.startswith("gamenight."):
                continue
            info = entry.game.info
            texts = [bot.summary for bot in info.bots]
            texts += [spec.help for spec in info.options]
            for text in texts:
                assert i18n.gettext(text) != text, f"{info.id}: {text!r} is not translated"
