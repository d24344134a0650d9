"""The menu in the player's language (issue 26): the rules it shows and the decks it
offers follow --lang's stand-in, the POSIX locale (LANG...)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from gamenight.cli import menu
from gamenight.cli.menu import _catalogue_offers, main_menu
from gamenight.core import registry
from gamenight.terminal.ui import Prompter

GAMES = {entry.id: str(n) for n, entry in enumerate(registry.available(), start=1)}


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr("platformdirs.user_data_dir", lambda *_args, **_kw: str(tmp_path))
    return tmp_path


def _locale(monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", lang)


def run_menu(monkeypatch: pytest.MonkeyPatch, *keys: str) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(k + "\n" for k in keys)))
    out = io.StringIO()
    console = Console(file=out, width=160, color_system=None)
    with contextlib.suppress(EOFError):
        main_menu(console, Prompter(console))
    return out.getvalue()


def test_the_deck_offered_first_is_the_shipped_deck_in_the_players_language() -> None:
    info = registry.get("decades").game.info
    first, hint = _catalogue_offers(info, "pl")["deck"]
    assert first == "shipped-pl" and hint.index("shipped-pl") < hint.index("shipped-de")
    first, hint = _catalogue_offers(info, "en")["deck"]
    assert first is None and "shipped-de" in hint  # English: the game's own default
    assert _catalogue_offers(registry.get("decathlon").game.info, "pl") == {}


def _watch_options(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """The options of every game the menu starts (what its record will carry)."""
    started: list[dict[str, Any]] = []
    from gamenight.cli.session import Session as real

    def session(entry: Any, seats: Any, options: dict[str, Any], *args: Any, **kw: Any) -> Any:
        started.append(dict(options))
        return real(entry, seats, options, *args, **kw)

    monkeypatch.setattr(menu, "Session", session)
    return started


def test_a_polish_player_gets_the_polish_deck_and_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    _locale(monkeypatch, "pl_PL.UTF-8")
    started = _watch_options(monkeypatch)
    keys = [GAMES["decades"], "", "", "", "bot:novice,bot:novice", "7", "q"]
    shown = run_menu(monkeypatch, *keys)
    assert "[shipped-pl]:" in shown  # Enter takes the Polish deck
    assert [o["deck"] for o in started] == ["shipped-pl"]  # an id: no deck text in a record
    shown = run_menu(monkeypatch, "r", GAMES["decathlon"], "q")
    assert "Skok w dal" in shown and "Long Jump" not in shown


def test_an_english_player_keeps_the_english_deck(monkeypatch: pytest.MonkeyPatch) -> None:
    _locale(monkeypatch, "C")
    started = _watch_options(monkeypatch)
    keys = [GAMES["decades"], "", "", "", "bot:novice,bot:novice", "7", "q"]
    assert "[default]:" in run_menu(monkeypatch, *keys)
    assert [o["deck"] for o in started] == [""]
