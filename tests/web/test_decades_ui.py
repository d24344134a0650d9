"""The Decades in the browser (issue 23): extension tokens placed on the board by touch
and by keyboard, with a preview and only legal spots; readable log lines and target
buttons; the reveal of both answers and, at a round's end, of the true years and points;
the layout at 320, 390 and 1366 px with 40-character names."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from gamenight.games.decades.tokens import legal_placements
from web import webui as ui
from web.webui import Server

# the years we answer with: every one leaves room for tokens in its decade
YEARS = (1981, 1984, 1991, 1995, 2002, 2011)
OTHER_YEARS = (1986, 1990, 1999, 2005, 2013, 2016)
RAW_IDS = ("births-deaths", "remove-token", "cancel-answer", "other-decade", '"kind"', "{", "}")
OTHER_NAME = "X" * 40


def seq(page: Any) -> str:
    return str(page.get_attribute("body", "data-seq"))


def wait_phase(page: Any, phase: str) -> None:
    page.wait_for_selector(f"#table .table.decades[data-phase={phase}]")


def wait_new_seq(page: Any, before: str) -> None:
    page.wait_for_selector(f"body:not([data-seq='{before}'])")


def continue_reveal(page: Any) -> None:
    """Press Continue on the round's reveal if it is up."""
    button = page.locator("#table button[data-key=reveal-continue]")
    if button.count():
        button.click()
        page.wait_for_selector("#table .dc-reveal", state="detached")


def settle(page: Any, move: Callable[[], None], gone: str) -> None:
    """Make a move until it took: ``gone`` (a selector of what the move removes) is gone.

    A move sent while another team's move was landing is refused as stale (the page says
    nothing, as a player would just try again); then the page has a new seq and the move's
    controls are still there, and we make it again."""
    for _ in range(5):
        before = seq(page)
        move()
        ui.wait_until(
            page,
            "([gone, before]) => !document.querySelector(gone) || "
            "(document.body.dataset.seq !== before && document.body.dataset.myTurn === 'true')",
            [gone, before],
        )
        if not page.locator(gone).count():
            return
    raise AssertionError(f"the move never took: {gone} is still there")


def keep(page: Any, prefer: tuple[str, ...] = ()) -> None:
    """Keep 4 of the dealt cards, the ``prefer``red kinds first."""
    page.wait_for_selector("#table button[data-key^=deal-]")
    button = "#table button[data-key=keep]"
    settle(page, lambda: ui.keep_cards(page, random.Random(3), prefer), button)


def answer(page: Any, year: int, *, tap: bool = False) -> None:
    continue_reveal(page)
    question = page.locator("#table .question-card").inner_text()

    def move() -> None:
        cell = page.locator(f"#table button.cell[data-key=year-{year}]")
        (cell.tap if tap else cell.click)()
        page.wait_for_selector(f"#table button.cell[data-key=year-{year}][aria-pressed=true]")
        button = page.locator("#table button[data-key=answer]")
        (button.tap if tap else button.click)()

    def answered() -> bool:
        # our year is waiting for the other team, or both are revealed and we moved on
        return bool(
            page.locator("#table .board.mine .mark.pending").count()
            or not page.locator("#table .question-card").count()
            or page.locator("#table .question-card").inner_text() != question
        )

    for _ in range(5):
        before = seq(page)
        move()
        wait_new_seq(page, before)
        page.wait_for_selector("body[data-my-turn]")
        if answered():
            return
    raise AssertionError(f"the answer {year} never took")


def my_answers(page: Any) -> list[int]:
    marks = page.locator("#table .board.mine .mark:not(.pending)")
    return sorted(int(m) for m in marks.evaluate_all("ms => ms.map(m => m.dataset.year)"))


def offered(page: Any) -> set[int]:
    spots = page.locator("#table .board.mine button.dc-spot:enabled")
    return {int(y) for y in spots.evaluate_all("bs => bs.map(b => b.dataset.year)")}


def legal_starts(answers: list[int], length: int, placed: dict[int, int]) -> set[int]:
    """Where the ``length`` token may go with ``placed`` (length -> start) already down,
    by the rules module: the starts of the legal placements that contain what is placed."""
    found = set()
    for combo in legal_placements(answers):
        spans = {(p.length, p.start) for p in combo}
        if all((n, s) in spans for n, s in placed.items()):
            found |= {s for n, s in spans if n == length and length not in placed}
    return found


def reach_extend(
    page: Any,
    server: Server,
    name: str,
    *,
    tap: bool = False,
    look: Callable[[int], None] = lambda step: None,
) -> list[int]:
    """Against the novice bot: create the room, keep four cards and answer the first
    round with YEARS (tapping with ``tap``), until it is our turn to place tokens; our
    answers. ``look(step)`` runs at the keep step (-1) and before each answer (0, 1...)."""
    ui.create_room(page, server.url, "decades", ["human", "bot:novice"], name=name)
    ui.start_if_host(page)
    page.wait_for_selector("#table button[data-key^=deal-]")
    look(-1)
    keep(page)
    for step, year in enumerate(YEARS):
        wait_phase(page, "answer")
        page.wait_for_selector("body[data-my-turn=true]")
        look(step)
        answer(page, year, tap=tap)
    wait_phase(page, "extend")
    page.wait_for_selector("body[data-my-turn=true]")
    return my_answers(page)


def test_tokens_by_touch_with_preview_and_only_legal_spots(browser: Any, server: Server) -> None:
    ctx = ui.new_context(browser, ui.PHONE, has_touch=True)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:

        def look(step: int) -> None:
            if step in (-1, 1):
                ui.check_layout(page, "decades keep step" if step < 0 else "decades answer step")

        answers = reach_extend(page, server, ui.LONG_NAME, tap=True, look=look)
        assert page.locator("#table select").count() == 0  # no dropdown of combinations
        assert answers == sorted(YEARS)
        # the 2-year token is picked up by itself; its spots are exactly the legal starts
        page.wait_for_selector("#table button[data-key=token-2][aria-pressed=true]")
        assert offered(page) == legal_starts(answers, 2, {}) != set()
        # pick the 4-year token instead: other spots (1984 and 2011... have room for it)
        page.tap("#table button[data-key=token-4]")
        page.wait_for_selector("#table button[data-key=token-4][aria-pressed=true]")
        assert offered(page) == legal_starts(answers, 4, {})
        start = min(offered(page))
        # the preview: the years the token would cover light up before anything is placed
        page.focus(f"#table button[data-key=spot-{start}]")
        preview = page.locator("#table .board.mine .dc-cell.preview")
        covered = preview.evaluate_all("cs => cs.map(c => Number(c.dataset.year))")
        assert covered == list(range(start, start + 4))
        ui.check_layout(page, "decades extend step (phone, touch)")
        ui.check_axe(page, "decades extend step", strict=True)
        ui.shoot(page, "decades-extend")
        page.tap(f"#table button[data-key=spot-{start}]")
        # placed on the board, not yet sent: a dashed token over the four years
        page.wait_for_selector("#table .dc-token-chip.placed button[data-key=undo-4]")
        placed = page.locator("#table .board.mine .dc-cell.tok.placed")
        years = placed.evaluate_all("cs => cs.map(c => Number(c.dataset.year))")
        assert years == list(range(start, start + 4))
        assert page.locator("#table .board.mine .dc-cell.tok.pending").count() == 0
        assert not [x for x in _log(page) if x.startswith("You placed")]
        # the next token's spots take the placed one into account
        page.wait_for_selector("#table button[data-key=token-2][aria-pressed=true]")
        assert offered(page) == legal_starts(answers, 2, {4: start})
        assert not offered(page) & set(range(start, start + 4))
        # take it back: nothing placed, the 4-year token is in hand again
        page.tap("#table button[data-key=undo-4]")
        page.wait_for_selector("#table button[data-key=token-4][aria-pressed=true]")
        assert page.locator("#table .board.mine .dc-cell.tok.placed").count() == 0
        # place the 4 and a 2, then confirm: that combination is what the server got
        page.tap(f"#table button[data-key=spot-{start}]")
        page.wait_for_selector("#table button[data-key=token-2][aria-pressed=true]")
        two = min(offered(page))
        page.tap(f"#table button[data-key=spot-{two}]")
        page.wait_for_selector("#table button[data-key=undo-2]")
        ui.shoot(page, "decades-extend-placed")
        confirm = page.locator("#table button[data-key=extend]")
        # on a phone the button counts them; the placed chips (one button each: take back)
        # say where they lie, and their names say it whole
        assert confirm.inner_text() == "Confirm 2 tokens"
        names = page.locator("#table .dc-undo").evaluate_all(
            "bs => bs.map(b => b.querySelector('.visually-hidden').textContent)"
        )
        assert [n.split(" at ")[0] for n in names] == ["2-year token", "4-year token"], names
        settle(page, confirm.tap, "#table button[data-key=extend]")
        assert [x for x in _log(page) if x.startswith("You placed")]
        page.wait_for_selector("#table .table.decades:not([data-phase=extend])")
        tokens = page.locator("#table .board.mine .dc-token-list").inner_text()
        assert f"2 years {two}–{two + 1}" in tokens and f"4 years {start}–{start + 3}" in tokens
        assert not errors, errors
    finally:
        ctx.close()


def test_tokens_by_keyboard_only(browser: Any, server: Server) -> None:
    ctx = ui.new_context(browser, ui.DESKTOP)
    page = ctx.new_page()
    try:
        answers = reach_extend(page, server, "Keys")
        focused = "() => document.activeElement && document.activeElement.dataset.key || ''"
        page.evaluate("() => document.activeElement && document.activeElement.blur()")
        for _ in range(60):  # Tab through the page until the 3-year token has the focus
            page.keyboard.press("Tab")
            if page.evaluate(focused) == "token-3":
                break
        assert page.evaluate(focused) == "token-3"
        page.keyboard.press("Enter")
        # the focus moves to the first spot of that token, and its years are previewed
        key = ui.wait_until(page, f"() => ({focused})().startsWith('spot-') && ({focused})()")
        first = int(key.split("-")[1])
        assert offered(page) == legal_starts(answers, 3, {})
        assert first == min(offered(page))
        preview = page.locator("#table .board.mine .dc-cell.preview")
        assert preview.evaluate_all("cs => cs.map(c => Number(c.dataset.year))") == list(
            range(first, first + 3)
        )
        # arrow keys step between the offered spots, the preview follows
        page.keyboard.press("ArrowRight")
        second = int(page.evaluate(focused).split("-")[1])
        assert second == sorted(offered(page))[1]
        assert preview.evaluate_all("cs => cs.map(c => Number(c.dataset.year))") == list(
            range(second, second + 3)
        )
        page.keyboard.press("Enter")
        page.wait_for_selector("#table button[data-key=undo-3]")
        # the focus goes on to the next token's first spot; Escape-free: Tab to Confirm
        ui.wait_until(page, f"() => ({focused})().startsWith('spot-')")
        for _ in range(40):
            if page.evaluate(focused) == "extend":
                break
            page.keyboard.press("Shift+Tab")
        assert page.evaluate(focused) == "extend"
        settle(page, lambda: page.keyboard.press("Enter"), "#table button[data-key=extend]")
        page.wait_for_selector("#table .table.decades:not([data-phase=extend])")
        tokens = page.locator("#table .board.mine .dc-token-list").inner_text()
        assert f"3 years {second}–{second + 2}" in tokens
        # a mouse shows the same preview on hover
        ui.shoot(page, "decades-after-extend")
    finally:
        ctx.close()


def test_tokens_by_mouse_drag(browser: Any, server: Server) -> None:
    """Dragging a token onto the board (optional, next to tapping): the spot under the
    pointer previews the years, letting go lays the token there, unsent until Confirm."""
    ctx = ui.new_context(browser, {"width": 1366, "height": 1200})  # token and board in view
    page = ctx.new_page()
    try:
        answers = reach_extend(page, server, "Drag")
        box = page.locator("#table button[data-key=token-3]").bounding_box()
        assert box
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        page.mouse.move(box["x"] + box["width"] / 2 + 30, box["y"] + box["height"] / 2 + 30)
        # picked up: its spots (only the legal ones) are drawn, a ghost follows the pointer
        page.wait_for_selector("#table button[data-key=token-3][aria-pressed=true]")
        page.wait_for_selector(".dc-ghost")
        assert offered(page) == legal_starts(answers, 3, {})
        start = max(offered(page))
        spot = page.locator(f"#table button[data-key=spot-{start}]").bounding_box()
        assert spot
        page.mouse.move(spot["x"] + spot["width"] / 2, spot["y"] + spot["height"] / 2, steps=8)
        preview = page.locator("#table .board.mine .dc-cell.preview")
        assert preview.evaluate_all("cs => cs.map(c => Number(c.dataset.year))") == list(
            range(start, start + 3)
        )
        page.mouse.up()
        page.wait_for_selector("#table button[data-key=undo-3]")
        assert page.locator(".dc-ghost").count() == 0
        placed = page.locator("#table .board.mine .dc-cell.tok.placed")
        assert placed.evaluate_all("cs => cs.map(c => Number(c.dataset.year))") == list(
            range(start, start + 3)
        )
        assert not [x for x in _log(page) if x.startswith("You placed")]
    finally:
        ctx.close()


def _log(page: Any) -> list[str]:
    return [line.strip() for line in page.locator(".log-list li").all_inner_texts()]


def test_two_teams_log_reveal_and_layout(browser: Any, server: Server) -> None:
    """Round 1 played by both teams through the UI: the reveal of each question's answers,
    the round's reveal (both answers, the true year, then the points), readable log lines
    and target buttons, and the layout with two 40-character names."""
    ctx_a = ui.new_context(browser, ui.PHONE, has_touch=True)
    ctx_b = ui.new_context(browser, ui.DESKTOP)
    a, b = ctx_a.new_page(), ctx_b.new_page()
    errors: list[str] = []
    for p in (a, b):
        p.on("pageerror", lambda e: errors.append(str(e)))
    try:
        code = ui.create_room(a, server.url, "decades", ["human", "human"], name=ui.LONG_NAME)
        b.goto(f"{server.url}/r/{code}")
        b.fill("#claim-name", OTHER_NAME)
        b.click("button[data-key=claim-1]")
        # the room starts by itself once both seats are taken (no Start: a bot would sit
        # down in a seat whose claim is still on its way)
        a.wait_for_selector("body[data-status=playing][data-seat='0']")
        b.wait_for_selector("body[data-status=playing][data-seat='1']")
        keep(a, prefer=("cancel-answer", "remove-token"))
        b.wait_for_selector(f"body[data-seq='{seq(a)}']")
        keep(b, prefer=("cancel-answer", "remove-token"))
        for i, (ya, yb) in enumerate(zip(YEARS, OTHER_YEARS, strict=True)):
            wait_phase(a, "answer")
            a.wait_for_selector("body[data-my-turn=true]")
            if i == 1:
                # a year picked but not locked in survives the other team's answer
                a.tap(f"#table button.cell[data-key=year-{ya}]")
                before = seq(a)
                b.wait_for_selector(f"body[data-seq='{before}']")
                answer(b, yb)
                wait_new_seq(a, before)
                a.wait_for_selector(f"#table button.cell[data-key=year-{ya}][aria-pressed=true]")
                a.tap("#table button[data-key=answer]")  # nothing else can land meanwhile
            else:
                answer(a, ya, tap=True)
                b.wait_for_selector(f"body[data-seq='{seq(a)}']")
                if i == 0:  # nothing of our answer reaches the other team before it answers
                    assert b.locator(f".board.team-0 .mark[data-year='{ya}']").count() == 0
                answer(b, yb)
            # both answers shown together, on both pages
            for p in (a, b):
                reveal = p.locator(f"#table .dc-answers-reveal[data-q='{i}']")
                reveal.wait_for()
                text = reveal.inner_text()
                assert str(ya) in text and str(yb) in text, text
                assert ui.LONG_NAME in text and OTHER_NAME in text
        wait_phase(a, "extend")
        wait_phase(b, "extend")
        a.wait_for_selector("body[data-my-turn=true]")
        # the score track names both teams in full, nothing clipped, on the narrowest phone
        a.set_viewport_size(ui.SIZES["narrow"])
        ui.next_frame(a)
        names = a.locator("#table .dc-score .dc-legend .dc-name").evaluate_all(
            "ns => ns.map(n => [n.textContent, n.scrollWidth <= n.clientWidth + 1,"
            " n.getBoundingClientRect().right <= document.documentElement.clientWidth])"
        )
        assert names == [[ui.LONG_NAME, True, True], [OTHER_NAME, True, True]], names
        a.set_viewport_size(ui.PHONE)
        ui.check_layout(a, "decades mid-game (extend step)")
        ui.check_axe(a, "decades mid-game (extend step)", strict=True)
        ui.check_axe(b, "decades mid-game, desktop", strict=True)
        # A places no token, B places its 2-year token (a target for Remove a token)
        settle(a, lambda: a.tap("#table button[data-key=extend]"), "#table [data-key=extend]")
        b.wait_for_selector(f"body[data-seq='{seq(a)}']")
        b.wait_for_selector("#table button[data-key=token-2][aria-pressed=true]")
        b.click("#table .board.mine button.dc-spot >> nth=0")
        b.wait_for_selector("#table button[data-key=undo-2]")
        settle(b, lambda: b.click("#table button[data-key=extend]"), "#table [data-key=extend]")
        # cards: A plays one that needs a target, B anything but Blocked
        for p in (a, b):
            wait_phase(p, "card")
        b.wait_for_selector(f"body[data-seq='{seq(a)}']")
        plays = a.locator("#table button[data-key^=play-]:enabled")
        keys = plays.evaluate_all("bs => bs.map(b => b.dataset.key)")
        mine = next(k for k in ("play-cancel-answer", "play-remove-token") if k in keys)
        settle(a, lambda: a.click(f"#table button[data-key={mine}]"), "#table [data-key^=play-]")
        b.wait_for_selector(f"body[data-seq='{seq(a)}']")
        theirs = b.locator("#table button[data-key^=play-]:enabled:not([data-key=play-blocked])")
        settle(b, theirs.first.click, "#table [data-key^=play-]")
        # the target, in words (category names and the years, no ids)
        wait_phase(a, "target")
        a.wait_for_selector("body[data-my-turn=true]")
        ui.check_layout(a, "decades target step")
        targets = a.locator("#table .dc-targets button:enabled")
        labels = targets.all_inner_texts()
        assert labels and all(not any(r in label for r in RAW_IDS) for label in labels), labels
        if mine == "play-cancel-answer":
            assert "Cancel their Births and Deaths answer (1986)" in labels, labels
        else:
            assert any(
                re.fullmatch(r"Remove their 2-year token \(\d{4}–\d{4}\)", x) for x in labels
            )
        settle(a, targets.first.click, "#table .dc-targets button")
        # the round's reveal: every question with both answers, the true year, the points
        for p in (a, b):
            p.wait_for_selector("#table .dc-reveal[data-round='1'][data-done=true]")
            items = p.locator("#table .dc-reveal .dc-result")
            assert items.count() == 6
            for i in range(6):
                text = items.nth(i).inner_text()
                assert re.search(r"True year\s*(19[89]\d|20[01]\d)", text), text
                assert ui.LONG_NAME in text and OTHER_NAME in text
                assert items.nth(i).locator(".dc-pts").count() == 2
            # the boards show that round: its answers and the true years
            assert p.locator("#table .board .dc-cell.truth").count() >= 1
            assert p.locator("#table .board.team-0 .mark").count() == 6
            # and nothing is asked of the player until they continue
            assert p.locator("#table .question-card").count() == 0
        # the reveal takes the focus from the target button that is gone
        assert b.evaluate("() => document.activeElement.dataset.key") == "reveal-continue"
        ui.check_layout(a, "decades round reveal")
        ui.check_axe(a, "decades round reveal", strict=True)
        ui.shoot(a, "decades-reveal")
        ui.shoot(b, "decades-reveal-b")
        # Continue: the next question, and the round's answers stay below as a table
        continue_reveal(a)
        a.wait_for_selector("#table .question-card")
        assert a.evaluate("() => document.activeElement.dataset.key") == "question"
        a.wait_for_selector("#table .dc-results")
        ui.check_layout(a, "decades end-of-round answers")
        ui.check_axe(a, "decades end-of-round answers", strict=True)
        ui.shoot(a, "decades-round-1")
        # the log reads as sentences with the teams' names
        for p, me in ((a, ui.LONG_NAME), (b, OTHER_NAME)):
            lines = _log(p)
            bad = [x for x in lines if any(r in x for r in RAW_IDS) or x.startswith((":", " "))]
            assert not bad, bad
            ready = [x for x in lines if "has chosen" in x]
            assert len(ready) >= 16, lines
            assert all(x.startswith((ui.LONG_NAME, OTHER_NAME)) for x in ready), ready
            assert any(x.startswith(ui.LONG_NAME + " has chosen a year") for x in ready)
            assert any(x.startswith(OTHER_NAME + " has chosen its tokens") for x in ready)
            target = [x for x in lines if " plays " in x]
            assert len(target) == 1 and target[0].startswith(ui.LONG_NAME + " plays "), target
            assert any(x.startswith("Answers revealed (Births and Deaths)") for x in lines)
            assert any(re.match(r"Births and Deaths, true year \d{4}: ", x) for x in lines), lines
            assert any(x.startswith("Cards played: ") for x in lines)
            assert any(x.startswith("Tokens revealed: ") for x in lines)
            assert me
        assert not errors, errors
    finally:
        ctx_a.close()
        ctx_b.close()


# what the round's reveal looked like at each redraw (a MutationObserver in the page, so
# no state is missed however slow the test runs): [stage, results shown, points shown, done]
WATCH_REVEAL = """() => {
  window.revealSeen = [];
  new MutationObserver(() => {
    const r = document.querySelector('#table .dc-reveal');
    if (!r) return;
    const now = [Number(r.dataset.stage), r.querySelectorAll('.dc-result').length,
      r.querySelectorAll('.dc-pts').length, r.dataset.done === 'true'];
    const last = window.revealSeen[window.revealSeen.length - 1];
    if (!last || String(last) !== String(now)) window.revealSeen.push(now);
  }).observe(document.querySelector('#table'), { childList: true, subtree: true });
}"""


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_round_reveal_steps_unless_reduced_motion(
    browser: Any, server: Server, motion: str
) -> None:
    """The round's reveal shows a question's answers and true year, then its points, one
    question after the other; with reduced motion all at once. It stays until Continue."""
    ctx = ui.new_context(browser, ui.PHONE)
    page = ctx.new_page()
    page.emulate_media(reduced_motion=motion)
    try:
        ui.create_room(page, server.url, "decades", ["human", "bot:novice"], name="Owls")
        ui.start_if_host(page)
        keep(page)
        page.evaluate(WATCH_REVEAL)
        for year in YEARS:
            wait_phase(page, "answer")
            page.wait_for_selector("body[data-my-turn=true]")
            answer(page, year)
        rng = random.Random(3)
        while not page.locator("#table .dc-reveal").count():
            page.wait_for_selector("body[data-my-turn=true], #table .dc-reveal")
            if page.locator("#table .dc-reveal").count():
                break
            before = seq(page)
            assert ui.decades(page, rng)
            wait_new_seq(page, before)
        page.wait_for_selector("#table .dc-reveal[data-done=true]")
        seen = page.evaluate("() => window.revealSeen")
        assert seen[-1] == [12, 6, 12, True]
        if motion == "reduce":
            assert seen == [[12, 6, 12, True]]
        else:
            # first the first question's answers and true year, no points; then its points...
            assert seen[0] == [1, 1, 0, False], seen
            assert [s[0] for s in seen] == list(range(1, 13)), seen
            assert [1, 2, 0, False] not in seen and [2, 1, 2, False] in seen, seen
        # it waits for the player: nothing to answer behind it
        assert page.locator("#table .question-card").count() == 0
        page.click("#table button[data-key=reveal-continue]")
        page.wait_for_selector("#table .question-card")
    finally:
        ctx.close()


def test_generic_log_line_names_the_team_or_player(page: Any, server: Server) -> None:
    """parts/log.js, for a game whose renderer has no words for an event: a seat field
    (``player``, or ``team`` in a team game) is shown as that seat's name, not a number."""
    page.goto(server.url + "/")
    page.wait_for_selector("#create")
    lines = page.evaluate(
        """async () => {
          const { describe } = await import('/static/js/parts/log.js');
          const ctx = { names: ['Owls', 'Larks'] };
          return [
            describe(null, { kind: 'ready', team: 1, step: 'answer' }, ctx),
            describe({ describe: () => undefined }, { kind: 'rolled', player: 0, total: 7 }, ctx),
            describe(null, { kind: 'target', team: 0, card: 'x', target: { length: 2 } }, ctx),
          ];
        }"""
    )
    assert lines == ["Larks: ready: step answer", "Owls: rolled: total 7", "Owls: target: card x"]
