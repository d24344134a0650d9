"""Issue 44 at the table, in Chromium: a turn-based room shows the clock of the seat to
act and every player's time bank; when that seat's clock runs out (the server's clock
faked through GAMENIGHT_TEST_CLOCK) it is late, and the other player gets the two
choices: keep waiting (everyone is told) or let a bot move (the late seat's move is
made for it)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from web import webui as ui
from web.webui import Server

pytestmark = pytest.mark.browser

DAY = 24 * 3600
HOUR = 3600


@pytest.fixture(scope="module")
def clocked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    folder = tmp_path_factory.mktemp("turn-based")
    shift = folder / "clock"
    shift.write_text("0")
    srv = Server(folder)
    assert srv.env is not None
    srv.env["GAMENIGHT_TEST_CLOCK"] = str(shift)
    srv.args += ("--turn-sweep", "0.1")
    srv.start()
    yield srv, shift
    srv.stop()


def _room(server: Server) -> str:
    body = {
        "game": "dice-duel",
        "seats": ["human", "human"],
        "room": {"pace": "turn-based", "move_time": DAY, "time_bank": HOUR, "bot_pace": 0},
    }
    return str(ui.post_json(server.url, "/api/rooms", body)["code"])


def test_the_clock_a_late_seat_and_the_two_choices(
    browser: Any, clocked: tuple[Server, Path]
) -> None:
    server, shift = clocked
    code = _room(server)
    ann_ctx, bob_ctx = ui.new_context(browser), ui.new_context(browser, ui.DESKTOP)
    ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
    try:
        ui.sit(ann, server.url, code, 0, "Ann")
        ui.sit(bob, server.url, code, 1, "Bob")
        for page in (ann, bob):
            page.wait_for_selector(".turn-based .turn-left[data-late=false]")
            page.wait_for_selector(".turn-banks .bank[data-seat='1']")
        # who acts first: their page says "Your move: 1 d 1 h left" (a day and the bank)
        first = ann if ann.locator(".turn-left.mine").count() else bob
        other = bob if first is ann else ann
        assert first.locator(".turn-left.mine").inner_text() == "Your move: 1 d 1 h left"
        assert "Ann 1 h 0 min" in first.locator(".turn-banks").inner_text()
        assert other.locator(".late-choice").count() == 0  # nobody is late yet
        ui.shoot(other, "turn-based-clock")

        shift.write_text(str(DAY + HOUR + 60))  # the clock runs out
        other.wait_for_selector(".turn-left.late[data-late=true]")
        other.wait_for_selector(".late-choice button.late-wait")
        first.wait_for_selector(".turn-left.late.mine")
        assert first.locator(".late-choice").count() == 0  # the late player does not choose
        ui.shoot(other, "turn-based-late")

        other.click(".late-choice button.late-wait")
        for page in (first, other):
            page.wait_for_selector(".turn-choice")
        assert "keeps waiting for you" in first.locator(".turn-choice").inner_text()
        seq = int(first.get_attribute("body", "data-seq") or "0")

        other.click(".late-choice button.late-bot")
        # the bot made the late seat's move: the table moved on, the other player is to act
        other.wait_for_selector(".turn-left.mine[data-late=false]")
        assert int(first.get_attribute("body", "data-seq") or "0") > seq
        assert "let a bot make" in first.locator(".log-list").inner_text()
        ui.shoot(first, "turn-based-after-bot")
    finally:
        ann_ctx.close()
        bob_ctx.close()
