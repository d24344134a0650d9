"""Every page type, checked the same way (issue 23 "How to check it"): the lobby, the
rules of every game, a waiting room, each game being played (a human with a 40-character
name against a bot), a finished game's end screen and a replay. Each passes strict axe
(no violation of any impact) and the layout check at 320, 390 and 1366 px, and is
photographed at phone and desktop size (artifacts/web/sweep-*.png).

"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from web import webui as ui
from web.webui import Server

pytestmark = pytest.mark.browser

GAMES = ("decathlon", "dice-duel", "wurfeltod", "decades")
BOTS = {"decathlon": "bot:greedy", "dice-duel": "bot:random", "wurfeltod": "bot:greedy"}
BOTS["decades"] = "bot:novice"


def check(page: Any, where: str) -> None:
    ui.shoot(page, f"sweep-{where}")
    ui.check_axe(page, where, strict=True)
    ui.check_layout(page, where)


@pytest.fixture(scope="module")
def finished(browser: Any, server: Server) -> Iterator[tuple[str, Any]]:
    """A Dice Duel that ui.LONG_NAME played to the end against a bot: its code and the
    browser storage (the seat token) of the player."""
    ctx = ui.new_context(browser, ui.PHONE)
    page = ctx.new_page()
    code = ui.create_room(page, server.url, "dice-duel", ["human", "bot:random"], name=ui.LONG_NAME)
    ui.start_if_host(page)
    ui.play(page, ui.dice_duel)
    state = ctx.storage_state()
    ctx.close()
    yield code, state


# ----- this helper's pages ------------------------------------------------------------------
def test_sweep_lobby(page: Any, server: Server, finished: tuple[str, Any]) -> None:
    """The lobby with a long name typed, a finished game under "Your games", every game's
    options shown once (the longest labels)."""
    ctx = ui.new_context(page.context.browser, ui.PHONE, storage_state=finished[1])
    try:
        lobby = ctx.new_page()
        lobby.goto(f"{server.url}/?game=decathlon")
        lobby.wait_for_selector("body[data-mine=ready]")
        lobby.wait_for_selector(f"#done li[data-code='{finished[0]}']")
        lobby.fill("#my-name", ui.LONG_NAME)
        check(lobby, "lobby")
        for game in GAMES:
            lobby.click(f"button[data-game='{game}']")
            lobby.wait_for_selector(f"#game-detail a[href^='/rules?game={game}&lang=']")
            ui.check_axe(lobby, f"lobby {game}", strict=True)
            ui.check_layout(lobby, f"lobby {game}")
    finally:
        ctx.close()


@pytest.mark.parametrize("game", GAMES)
def test_sweep_rules(page: Any, server: Server, game: str) -> None:
    page.goto(f"{server.url}/rules?game={game}")
    page.wait_for_selector("main h1")
    check(page, f"rules-{game}")


# ----- pages drawn by other helpers' code ---------------------------------------------------
def test_sweep_waiting_room(page: Any, server: Server) -> None:
    ui.create_room(page, server.url, "wurfeltod", ["human", "human"], name=ui.LONG_NAME)
    page.wait_for_selector("#waiting:not([hidden]) #start")
    check(page, "waiting")


PLAYING: list[Any] = [
    "decathlon",
    "dice-duel",
    "wurfeltod",
    "decades",
]


@pytest.mark.parametrize("game", PLAYING)
def test_sweep_playing(page: Any, server: Server, game: str) -> None:
    ui.create_room(page, server.url, game, ["human", BOTS[game]], name=ui.LONG_NAME)
    ui.start_if_host(page)
    page.wait_for_selector("body[data-my-turn=true]")
    check(page, f"playing-{game}")


def _open_as_player(page: Any, state: Any) -> Any:
    ctx = ui.new_context(page.context.browser, ui.PHONE, storage_state=state)
    other = ctx.new_page()
    return ctx, other


def test_sweep_finished(page: Any, server: Server, finished: tuple[str, Any]) -> None:
    ctx, player = _open_as_player(page, finished[1])
    try:
        player.goto(f"{server.url}/r/{finished[0]}")
        player.wait_for_selector("body[data-status=finished][data-seat='0']")
        player.wait_for_selector("#end:not([hidden]) .fair-check[data-checked=ok]")
        check(player, "finished")
    finally:
        ctx.close()


def test_sweep_replay(page: Any, server: Server, finished: tuple[str, Any]) -> None:
    page.goto(f"{server.url}/replay?room={finished[0]}&step=3")
    page.wait_for_selector("body[data-step='3'][data-loaded=verified]")
    check(page, "replay")


def test_sweep_replay_page_without_a_table(page: Any, server: Server) -> None:
    """The replay page itself (open a record): this helper's, no xfail."""
    page.goto(f"{server.url}/replay")
    page.wait_for_selector("#record-file")
    check(page, "replay-open")
