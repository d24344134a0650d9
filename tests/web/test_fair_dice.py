"""Fair dice in the browser (issues 23 and 24): the commitment is on screen from the moment
the room exists, the browser notes it at first sight, sends its own contribution, and at
the end checks the record by itself against both."""

from __future__ import annotations

import json
import random
import time
from typing import Any

from web import webui as ui
from web.webui import Server


def _api(server: Server, path: str) -> Any:
    import urllib.request

    with urllib.request.urlopen(server.url + path, timeout=30) as answer:
        return json.loads(answer.read())


def _noted(page: Any, code: str) -> dict[str, Any]:
    rooms = json.loads(page.evaluate("() => localStorage.getItem('gamenight.rooms.v1')"))
    room: dict[str, Any] = rooms[code]
    return room


def _play_both(pages: list[Any], seed: int = 4) -> None:
    """Whoever's turn it is acts, until both pages show the finished game."""
    rng = random.Random(seed)
    deadline = time.monotonic() + ui.TIMEOUT_S * 3
    while time.monotonic() < deadline:
        if all(p.locator("body[data-status=finished]").count() for p in pages):
            return
        moved = False
        for p in pages:
            if p.locator("body[data-my-turn=true]").count():
                seq = p.get_attribute("body", "data-seq")
                assert ui.decathlon(p, rng), p.locator("#table").inner_text()
                p.wait_for_selector(f"body:not([data-seq='{seq}']), body[data-status=finished]")
                moved = True
        if not moved:
            pages[0].wait_for_timeout(50)  # a polling interval while the other page acts
    raise AssertionError("the game did not finish")


def test_each_players_page_checks_the_commitment_it_noted_and_its_own_contribution(
    browser: Any, server: Server
) -> None:
    ann_ctx, bo_ctx = ui.new_context(browser, ui.DESKTOP), ui.new_context(browser, ui.PHONE)
    try:
        ann, bo = ann_ctx.new_page(), bo_ctx.new_page()
        code = ui.create_room(ann, server.url, "decathlon", ["human", "human"], events=["100m"])
        info = _api(server, f"/api/rooms/{code}")
        # the waiting room shows the full commitment, copyable, before anyone else sits
        ann.wait_for_selector("#fair code.commitment")
        assert ann.locator("#fair code.commitment").inner_text() == info["commitment"]
        assert ann.locator("#fair [data-key=copy-commitment]").count() == 1
        assert _noted(ann, code)["commitment"] == info["commitment"]
        bo.goto(f"{server.url}/r/{code}")
        bo.wait_for_selector("#fair code.commitment")
        assert _noted(bo, code)["commitment"] == info["commitment"]
        ui.check_axe(bo, "waiting room with the fair-dice box", strict=True)
        ui.shoot(bo, "fair-dice-waiting")
        bo.fill("#fair-word", "Bo's lucky word")
        bo.fill("#claim-name", "Bo")
        bo.click("[data-key=claim-1]")
        for p in (ann, bo):
            p.wait_for_selector("body[data-status=playing]")
            # on the table too: the commitment stays in view while the game runs
            assert p.locator("#fair code.commitment").inner_text() == info["commitment"]
        ann_part = _noted(ann, code)["contribution"]
        bo_part = _noted(bo, code)["contribution"]
        assert len(ann_part) == 32 and bo_part.endswith(" Bo's lucky word")
        assert bo.locator("#fair .my-contribution").inner_text() == bo_part
        _play_both([ann, bo])
        for p, part in ((ann, ann_part), (bo, bo_part)):
            p.wait_for_selector("#end .fair-check[data-checked]")
            check = p.locator("#end .fair-check")
            assert check.get_attribute("data-checked") == "ok", check.inner_text()
            text = check.inner_text()
            assert "matches the commitment" in text
            assert "Your own contribution is in the record" in text
            assert info["commitment"][:12] in text and _noted(p, code)["contribution"] == part
        final = _api(server, f"/api/rooms/{code}")
        assert [c["value"] for c in final["contributions"]] == [ann_part, bo_part]
        ui.shoot(bo, "fair-dice-end")
    finally:
        ann_ctx.close()
        bo_ctx.close()


def test_a_changed_commitment_is_said_plainly(page: Any, server: Server) -> None:
    """The browser compares with the value it stored at first sight, not with what the
    server says at the end: a stored value that differs is a plain failure."""
    code = ui.create_room(page, server.url, "decathlon", ["human", "bot:greedy"], events=["100m"])
    page.wait_for_selector("#fair code.commitment")
    noted = _noted(page, code)["commitment"]
    forged = ("0" if noted[0] != "0" else "1") + noted[1:]
    page.evaluate(
        """([code, forged]) => {
          const rooms = JSON.parse(localStorage.getItem("gamenight.rooms.v1"));
          rooms[code].commitment = forged;
          localStorage.setItem("gamenight.rooms.v1", JSON.stringify(rooms));
        }""",
        [code, forged],
    )
    page.reload()
    page.wait_for_selector("#fair .fair-bad")
    assert forged[:12] in page.locator("#fair .fair-bad").inner_text()
    ui.start_if_host(page)
    ui.play(page, ui.decathlon)
    page.wait_for_selector("#end .fair-check[data-checked]")
    check = page.locator("#end .fair-check")
    assert check.get_attribute("data-checked") == "bad"
    assert "does NOT match the commitment this browser noted" in check.inner_text()
    assert forged[:12] in check.inner_text()


def test_the_browsers_own_hashes_agree_with_the_server(page: Any, server: Server) -> None:
    """fairness.js computes the commitment and the dice seed as core.seeds does, with
    crypto.subtle and with its plain fallback (pages served over http to another host)."""
    from gamenight.core.seeds import PLAYERS, commitment, dice_seed

    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    got = page.evaluate(
        """async () => {
          const f = await import("/static/js/fairness.js");
          const parts = ["3f9a0c17e2b4d5a6978812ab34cd56ef Zoë", null, "x"];
          const text = new TextEncoder().encode("abc".repeat(50));
          const subtle = new Uint8Array(await crypto.subtle.digest("SHA-256", text));
          return {
            commitment: await f.commitment("340282366920938463463374607431768211455", "decathlon",
              "1", { events: ["100m"], variant: "points" }, 2, f.PLAYERS),
            dice: await f.diceSeed("340282366920938463463374607431768211455", parts),
            fallbackAgrees: subtle.join() === f._fallback.sha256(text).join(),
            contribution: f.newContribution("  my word "),
          };
        }"""
    )
    seed = 2**128 - 1
    options = {"events": ["100m"], "variant": "points"}
    assert got["commitment"] == commitment(seed, "decathlon", "1", options, entropy=PLAYERS)
    parts = ["3f9a0c17e2b4d5a6978812ab34cd56ef Zoë", None, "x"]
    assert got["dice"] == str(dice_seed(seed, parts))
    assert got["fallbackAgrees"]
    hex_part, word = got["contribution"].split(" ", 1)
    assert len(hex_part) == 32 and int(hex_part, 16) >= 0 and word == "my word"
