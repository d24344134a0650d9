"""Every page type, checked the same way (issue 23 "How to check it"): the lobby, the
rules of every game, a waiting room, each game being played (a human with a 40-character
name against a bot), a finished game's end screen and a replay. Each passes strict axe
(no violation of any impact) and the layout check at 320, 390 and 1366 px, and is
photographed at phone and desktop size (artifacts/web/sweep-*.png).

Phone-first (issue 40): in every game and the toy plug-in, at each of the player's turns
through many phases, every enabled control of the table is on a 390 x 844 screen without
scrolling (:func:`check_reach`); the room's rules drawer passes the same checks.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
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


# the function itself, without the file's leading comment (evaluate must see a function)
REACH_JS = (Path(__file__).parent / "reach.js").read_text(encoding="utf-8").split("\n", 3)[3]


def check_reach(page: Any, where: str) -> None:
    """At 390 x 844 and scrolled to the top, every enabled control of the table (the acting
    player's buttons, dice, boxes, cards, years) is wholly on the screen (tests/web/reach.js)."""
    before = page.viewport_size
    try:
        page.set_viewport_size(ui.PHONE)
        page.evaluate("() => window.scrollTo(0, 0)")
        ui.next_frame(page)
        problems = page.evaluate(REACH_JS)
    finally:
        page.set_viewport_size(before)
    assert not problems, f"{where}: out of reach without scrolling: " + "; ".join(problems)


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
    "toy",
]
BOTS["toy"] = "bot:random"
CHOOSERS = {
    "decathlon": ui.decathlon,
    "dice-duel": ui.dice_duel,
    "wurfeltod": ui.wurfeltod,
    "decades": ui.decades,
    "toy": ui.toy,
}
# the turns checked for reach in each game: enough for its phases (the Decades' keep,
# answers, tokens and cards; Wurfeltod's set-asides and bookings; the Decathlon's events)
REACH_STEPS = 30
# the Decathlon's events of every kind of table: sets (the 1500 m's eight single dice),
# the run-up and jump, one die at a time, the bar with its dice count
DECATHLON_KINDS = ["1500m", "long-jump", "shot-put", "pole-vault", "400m"]


@pytest.mark.parametrize("game", PLAYING)
def test_sweep_playing(page: Any, server: Server, game: str) -> None:
    ui.create_room(page, server.url, game, ["human", BOTS[game]], name=ui.LONG_NAME)
    ui.start_if_host(page)
    page.wait_for_selector("body[data-my-turn=true]")
    check(page, f"playing-{game}")
    _reach_every_turn(page, game, REACH_STEPS)


@pytest.mark.parametrize("lang", ["de", "pl"])
@pytest.mark.parametrize("game", GAMES)
def test_sweep_phone_reach_in_other_languages(
    page: Any, server: Server, game: str, lang: str
) -> None:
    """German's and Polish's longer words on the same turns: every enabled control and
    commit button still on the phone's screen (in English only, the Decades' token step
    ran 90 px past it in German, and Dice Duel's Take buttons sat in the plates' list)."""
    page.goto(f"{server.url}/?lang={lang}")
    ui.create_room(page, server.url, game, ["human", BOTS[game]], name=ui.LONG_NAME)
    ui.start_if_host(page)
    assert page.get_attribute("html", "lang") == lang
    _reach_every_turn(page, game, REACH_STEPS)


def test_sweep_phone_reach_decathlon_events(page: Any, server: Server) -> None:
    """The Decathlon's other kinds of events (the 10 events' first turns come first in the
    full game): every turn of these five in reach on the phone."""
    ui.create_room(
        page,
        server.url,
        "decathlon",
        ["human", BOTS["decathlon"]],
        name=ui.LONG_NAME,
        events=DECATHLON_KINDS,
    )
    ui.start_if_host(page)
    _reach_every_turn(page, "decathlon", 200)


def _longest_question(lang: str) -> str:
    import gamenight.games.decades as decades

    suffix = "" if lang == "en" else f".{lang}"
    data = Path(decades.__file__).parent / "data" / f"questions{suffix}.json"
    deck = json.loads(data.read_text(encoding="utf-8"))
    return str(max((q["text"] for c in deck["cards"] for q in c["questions"]), key=len))


@pytest.mark.parametrize("lang", ["en", "de", "pl"])
def test_sweep_phone_reach_decades_longest_question(page: Any, server: Server, lang: str) -> None:
    """The Decades' answer step with the longest question of the language's deck and a
    40-character name: the whole board and the answer bar on one phone screen. (A random
    game meets its longest question rarely; the layout must hold it every time.)"""
    page.goto(f"{server.url}/?lang={lang}")
    ui.create_room(page, server.url, "decades", ["human", BOTS["decades"]], name=ui.LONG_NAME)
    ui.start_if_host(page)
    page.wait_for_selector("body[data-my-turn=true]")
    assert ui.decades(page, random.Random(1))  # the keep
    page.wait_for_selector("#table .table[data-phase=answer] .question-card")
    page.wait_for_selector("body[data-my-turn=true]")
    page.set_viewport_size(ui.PHONE)
    page.evaluate("() => window.scrollTo(0, 0)")
    # in one evaluation, so that no re-render can come between the text and the check
    reach = REACH_JS.strip().rstrip(";")
    problems = page.evaluate(
        "async (text) => {"
        "  document.querySelector('#table .question-card .question').textContent = text;"
        "  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));"
        f"  return ({reach})();"
        "}",
        _longest_question(lang),
    )
    assert not problems, f"decades {lang}: out of reach without scrolling: " + "; ".join(problems)


def _place_every_token(page: Any) -> None:
    """The Decades' token step: each token laid on its first offered spot (the next one is
    picked up by itself), not yet confirmed."""
    for _ in range(4):
        spots = ui.enabled(page, "button.dc-spot")
        if not spots.count():
            return
        placed = page.locator("#table button[data-key^=undo-]").count()
        spots.first.click()
        ui.wait_until(
            page,
            "(n) => document.querySelectorAll('#table button[data-key^=undo-]').length > n",
            placed,
        )


def _reach_every_turn(page: Any, game: str, steps: int) -> None:
    """Play up to ``steps`` turns with the game's chooser, checking reach at each."""
    rng = random.Random(7)
    for step in range(steps):
        page.wait_for_selector("body[data-my-turn=true], body[data-status=finished]")
        if page.locator("body[data-status=finished]").count():
            return
        seq = page.get_attribute("body", "data-seq")
        phase = page.get_attribute("#table .table", "data-phase") or ""
        check_reach(page, f"{game} turn {step} (seq {seq} {phase})")
        if phase == "extend":
            _place_every_token(page)  # and in reach with every token down, mid-step
            check_reach(page, f"{game} turn {step} (seq {seq} {phase}, tokens placed)")
        assert CHOOSERS[game](page, rng), f"{game}: nothing to do at seq {seq}"
        page.wait_for_selector(f"body:not([data-seq='{seq}']), body[data-status=finished]")


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
