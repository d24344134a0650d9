"""The pseudo-locale on the full-screen table (issue 26): a game played at 80x24 with
every message lengthened ~40% and accented (gamenight.core.i18n.PSEUDO). No English word of
the catalogue may be left on any screen (a string that skips the catalogue shows), and
nothing may be cut off (Rich's ellipsis, or a prompt or footer whose brackets « » do not
close on the screen)."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from full_table import Table, screen_text, table_app, type_line, until

from gamenight.core import i18n
from gamenight.games.decades.deck import default_deck

LOCALE = Path(__file__).resolve().parents[3] / "src" / "gamenight" / "locale"
WORD = re.compile(r"[A-Za-z]{4,}")
TITLE = re.compile(r"╭─ ([^─]*)")
NOT_WORDS = {"gamenight", "greedy", "Greedy"}  # the program's and the bot's names


def english_words() -> set[str]:
    """Every word of four letters or more in the catalogue's English."""
    with (LOCALE / "gamenight.pot").open("rb") as fp:
        catalogue = read_po(fp)
    words: set[str] = set()
    for message in catalogue:
        for text in message.id if isinstance(message.id, tuple | list) else [message.id]:
            words.update(w for w in WORD.findall(re.sub(r"\{[^}]*\}", "", str(text))))
    return words - NOT_WORDS


def deck_words() -> set[str]:
    """The words of The Decades' English deck: its name and questions are the deck's
    language (data, shown as written), not messages that skipped the catalogue."""
    deck = default_deck()
    texts = [deck.name, *(q.text for card in deck.cards for q in card.questions)]
    return {w for text in texts for w in WORD.findall(text)}


@pytest.fixture
def pseudo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    i18n.set_default_language(i18n.PSEUDO)  # the session's worker thread reads the default
    yield
    i18n.set_default_language("en")


def typed(table: Table, rng: random.Random, english: set[str]) -> str:
    """A legal answer that is no English word (what is typed is echoed in the log)."""
    for _ in range(100):
        word = table.answer(rng)
        if not any(w in english for w in WORD.findall(word)):
            return word
    raise AssertionError("every answer found is an English word")


async def play_and_look(
    table: Table, rng: random.Random, english: set[str], size: tuple[int, int]
) -> list[str]:
    """Play the game out as :func:`full_table.play_out` does; every screen seen."""
    app = table.app
    screens: list[str] = []
    async with app.run_test(size=size) as pilot:
        for _ in range(2000):
            await until(pilot, lambda: app.waiting is not None or app.worker_done)
            await pilot.pause()
            screens.append(screen_text(app))
            if app.waiting == "close" or app.worker_done:
                break
            asked = app.questions
            if app.waiting == "curtain":
                await pilot.press("enter")
            else:
                if len(screens) == 3:  # once: the hint panel, in the pseudo-locale too
                    await type_line(pilot, "?")
                    await until(pilot, lambda: app.questions > asked)  # noqa: B023
                    screens.append(screen_text(app))
                    asked = app.questions
                await type_line(pilot, typed(table, rng, english))
            await until(pilot, lambda: app.questions > asked or app.worker_done)  # noqa: B023
        await pilot.press("enter")
        await until(pilot, lambda: not app.is_running)
    return screens


GAMES = [
    ("decathlon", "Ann,bot:greedy", {"events": "100m,long-jump,shot-put,high-jump,discus"}),
    ("dice-duel", "Ann,bot:random", {}),
    ("wurfeltod", "Ann,bot:greedy", {}),
    ("decades", "Red:Ann,Blue:bot:novice", {}),
]


# 80x24 only: the 40x12 screens (test_full_snapshots.py) would take minutes more to play
SIZES = {"80x24": (80, 24)}


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=[g for g, _, _ in GAMES])
def test_no_english_is_left_and_nothing_is_cut_off(
    game: str, players: str, options: dict[str, str], size: str, pseudo: None, tmp_path: Path
) -> None:
    table = table_app(game, players, tmp_path, options=options)
    english = english_words() - set(WORD.findall(str(tmp_path / "game.jsonl")))  # its path
    english -= deck_words() if game == "decades" else set()
    screens = asyncio.run(play_and_look(table, random.Random(5), english, SIZES[size]))
    assert len(screens) > 10
    assert {"Final", "standings", "freeze", "rethrow"} <= english  # the check can fail
    for screen in screens:
        assert "«" in screen  # the pseudo-locale is on
        left = sorted({w for w in WORD.findall(screen) if w in english})
        assert not left, f"English left on the screen: {left}\n{screen}"
        assert "…" not in screen, f"cut off:\n{screen}"
        lines = screen.splitlines()
        last_panel = max(i for i, line in enumerate(lines) if "╰" in line)
        bottom = "\n".join(lines[last_panel + 1 :])  # the error, prompt lines and the keys
        assert bottom.count("«") == bottom.count("»"), f"cut off:\n{bottom}"
        for title in TITLE.findall(screen):  # a panel's title is cropped, never wrapped
            assert title.count("«") == title.count("»"), f"title cut off: {title}\n{screen}"
