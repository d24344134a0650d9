"""Driving the pages like a player: create rooms in the lobby, act through the table."""

from __future__ import annotations

import json
import os
import random
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gamenight.games.decades import library
from gamenight.games.decades.deck import Deck
from gamenight.server.testing import ProcessServer

CHROMIUM = os.environ.get("GAMENIGHT_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "web"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}
# Every wait is on an event (a selector, a seq, a status), never a fixed pause; this
# bound only has to be long enough for a loaded 2-core machine (issue 20).
TIMEOUT_S = 120


class Server(ProcessServer):
    """``python -m gamenight.server`` on loopback with a throwaway SQLite database and
    its own data folder (so its deck library is the test's)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        super().__init__(
            f"sqlite:///{folder / 'web.sqlite3'}",
            env={**os.environ, "XDG_DATA_HOME": str(self.data_home)},
            args=("--log-level", "warning"),
        )

    @property
    def data_home(self) -> Path:
        """The server's XDG_DATA_HOME: its deck library is ``gamenight/decks`` in it."""
        return self.folder / "data"

    def add_deck(self, deck: Deck) -> str:
        """Store ``deck`` in the server's library (as `gamenight decks import` does); its id."""
        content, ident = library.canonical(deck)
        folder = self.data_home / "gamenight" / "decks"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{ident}.json").write_text(content, encoding="utf-8")
        return ident


Page = Any
Browser = Any


def new_context(
    browser: Browser,
    viewport: dict[str, int] = PHONE,
    *,
    reduced_motion: str = "reduce",
    **options: Any,
) -> Any:
    """A browser context whose every wait is bounded by :data:`TIMEOUT_S`; motion is
    reduced unless a test of the motion itself asks for ``"no-preference"``."""
    ctx = browser.new_context(viewport=viewport, reduced_motion=reduced_motion, **options)
    ctx.set_default_timeout(TIMEOUT_S * 1000)
    return ctx


def wait_until(page: Page, predicate: str, arg: Any = None) -> Any:
    """Poll the JavaScript function ``predicate`` (``"() => ..."`` or ``"(arg) => ..."``)
    until it returns something truthy; that value.

    Playwright's ``wait_for_function`` compiles its predicate with ``new Function``
    inside the page, which the app's CSP (no ``'unsafe-eval'``) rightly refuses;
    ``evaluate`` of a function calls it without eval.
    """
    deadline = time.monotonic() + TIMEOUT_S
    while True:
        value = page.evaluate(predicate, arg)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {TIMEOUT_S} s: {predicate}")
        page.wait_for_timeout(50)  # a polling interval, not a wait for something


def poll(page: Page, condition: Callable[[], object], what: str, every_ms: int = 20) -> None:
    """Until the Python ``condition()`` holds, letting the page's events (requests,
    sockets) reach their listeners meanwhile; fails naming ``what`` after TIMEOUT_S."""
    deadline = time.monotonic() + TIMEOUT_S
    while not condition():
        assert time.monotonic() < deadline, f"{what} within {TIMEOUT_S} s"
        page.wait_for_timeout(every_ms)  # a polling interval, not a wait for something


def page_module(path: str) -> str:
    """A JS expression that imports the page's own copy of ``static/<path>``: the pages
    load their modules from a versioned address (``/v/<version>/static/...``,
    gamenight.web.assets), and a module imported by another address is another instance,
    without the state the page gave it (a renderer's registered words, say)."""
    return f'import(new URL("../{path}", document.querySelector("script[type=module]").src).href)'


def next_frame(page: Page) -> None:
    """Wait until the page has laid out and painted (two animation frames)."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def shoot(page: Page, name: str) -> None:
    """A screenshot of the page at both viewport sizes (phone first, then desktop)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    before = page.viewport_size
    for label, size in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(size)
        next_frame(page)
        page.screenshot(path=str(ARTIFACTS / f"{name}-{label}.png"), full_page=True)
    page.set_viewport_size(before)


def check_axe(page: Page, where: str, *, strict: bool = False) -> None:
    """axe-core finds no serious or critical violation on the page; with ``strict``, no
    violation of any impact (issue 23 asks for 0 on every page type)."""
    from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]

    results = Axe().run(page)
    bad = [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
        for v in results.response["violations"]
        if strict or v["impact"] in ("serious", "critical")
    ]
    assert not bad, f"{where}: {bad}"


LONG_NAME = "W" * 40  # the longest name the claim form allows, with no space to break at
SIZES = {"narrow": {"width": 320, "height": 640}, "phone": PHONE, "desktop": DESKTOP}
# the function itself, without the file's leading comment (evaluate must see a function)
LAYOUT_JS = (Path(__file__).parent / "layout.js").read_text(encoding="utf-8").split("\n", 1)[1]
MIN_TAP = 44  # px: the smallest control a phone offers (WCAG 2.5.5)


def layout_problems(page: Page, *, touch: bool) -> list[str]:
    """What is wrong with the page's layout at its current size: it scrolls sideways, an
    element sticks out past the right edge, or (``touch``) a visible enabled control is
    smaller than MIN_TAP x MIN_TAP. Empty when all is well."""
    return list(
        page.evaluate(
            LAYOUT_JS,
            [touch, MIN_TAP],
        )
    )


def check_layout(page: Page, where: str) -> None:
    """At 320, 390 and 1366 px wide, :func:`layout_problems` finds nothing (the phone
    sizes check the tap targets too). The viewport is restored afterwards."""
    before = page.viewport_size
    problems: list[str] = []
    try:
        for label, size in SIZES.items():
            page.set_viewport_size(size)
            next_frame(page)
            problems += [f"{label}: {p}" for p in layout_problems(page, touch=label != "desktop")]
    finally:
        page.set_viewport_size(before)
        next_frame(page)
    assert not problems, f"{where}: " + "; ".join(problems)


def create_room(
    page: Page,
    base: str,
    game: str,
    seats: list[str],
    *,
    name: str = "Ann",
    events: list[str] | None = None,
    choices: dict[str, str] | None = None,
    fills: dict[str, str] | None = None,
    public: bool = False,
    checks: tuple[str, ...] = (),
) -> str:
    """Fill the lobby form for ``game`` and create the room; returns its code.

    ``choices`` are select options, ``fills`` typed ones (numbers, text); ``checks`` are
    the ids of room checkboxes to tick (``"odds"``...)."""
    page.goto(f"{base}/?game={game}")
    page.wait_for_selector(f"button[data-game='{game}'][aria-checked='true']")
    for option, value in (choices or {}).items():
        page.select_option(f"#opt-{option}", value)
    for option, value in (fills or {}).items():
        page.fill(f"#opt-{option}", value)
    if events is not None:
        for box in page.locator("fieldset[data-name='events'] input").all():
            box.set_checked(box.get_attribute("value") in events)
    if page.locator("#seat-count").is_visible():  # a single possible count is shown as text
        page.select_option("#seat-count", str(len(seats)))
    for i, seat in enumerate(seats):
        page.select_option(f"#seat-{i}", seat)
    page.fill("#my-name", name)
    if public:
        page.check("#public")
    # bots move at a readable pace by default; a test's bots move at once unless it asks
    page.set_checked("#pace", "pace" in checks)
    for box in checks:
        page.check(f"#{box}")
    page.click("#create")
    page.wait_for_url("**/r/**")
    page.wait_for_selector("body[data-status]")
    return str(page.url.rsplit("/", 1)[-1])


def post_json(base: str, path: str, body: Any = None, token: str | None = None) -> Any:
    """POST ``body`` as JSON to the server (a bearer ``token`` if given); the answer's JSON."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, headers=headers, method="POST")
    with urllib.request.urlopen(request, timeout=TIMEOUT_S) as r:
        return json.loads(r.read())


def get_json(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=TIMEOUT_S) as r:
        return json.loads(r.read())


def claim_here(page: Page, seat: int, name: str) -> None:
    """Take ``seat`` as ``name`` on the room page ``page`` shows."""
    page.wait_for_selector(f"button[data-key=claim-{seat}]")
    page.fill("#claim-name", name)
    page.click(f"button[data-key=claim-{seat}]")
    page.wait_for_selector(f"body[data-seat='{seat}']")


def sit(page: Page, base: str, code: str, seat: int, name: str) -> None:
    """Open room ``code`` and take ``seat`` as ``name``."""
    page.goto(f"{base}/r/{code}")
    claim_here(page, seat, name)


def start_if_host(page: Page) -> None:
    page.wait_for_selector("body[data-status=playing], #start")
    if page.locator("body[data-status=waiting] #start").count():
        page.click("#start")
    page.wait_for_selector("body[data-status=playing], body[data-status=finished]")


Chooser = Callable[[Page, random.Random], bool]


def play(
    page: Page,
    choose: Chooser,
    *,
    max_steps: int = 600,
    seed: int = 1,
    moments: dict[int, str] | None = None,
    stop_after: int | None = None,
) -> int:
    """Act through the UI whenever it is our turn until the game is finished.

    ``choose`` clicks something that sends one action (returns False if it found nothing).
    ``moments`` maps a step number to a screenshot name. Returns the steps taken.
    """
    rng = random.Random(seed)
    steps = 0
    while steps < max_steps:
        page.wait_for_selector("body[data-my-turn=true], body[data-status=finished]")
        if page.locator("body[data-status=finished]").count() or steps == stop_after:
            return steps
        seq = page.get_attribute("body", "data-seq")
        if moments and steps in moments:
            shoot(page, moments[steps])
        if not choose(page, rng):
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / "stuck.png"), full_page=True)
            raise AssertionError(
                f"nothing to do at seq {seq}: {page.locator('#table').inner_text()}"
            )
        steps += 1
        page.wait_for_selector(f"body:not([data-seq='{seq}']), body[data-status=finished]")
    raise AssertionError(f"the game did not finish in {max_steps} steps")


def enabled(page: Page, selector: str) -> Any:
    return page.locator(f"#table {selector}:enabled")


def click_some_dice(page: Page, rng: random.Random, p: float = 0.4) -> None:
    dice = enabled(page, "button.die")
    for i in range(dice.count()):
        if rng.random() < p:
            dice.nth(i).click()


# ----- one chooser per game ---------------------------------------------------------------
def dice_duel(page: Page, rng: random.Random) -> bool:
    takes = enabled(page, "button[data-key^=take-]")
    if takes.count() and rng.random() < 0.7:
        takes.nth(rng.randrange(takes.count())).click()
        return True
    click_some_dice(page, rng)
    for sel in ("button[data-key=roll]", "button[data-key^=take-]", "button[data-key=stop]"):
        loc = enabled(page, sel)
        if loc.count():
            loc.first.click()
            return True
    return False


def wurfeltod(page: Page, rng: random.Random) -> bool:
    books = enabled(page, "button[data-key^=book-]")
    aside = enabled(page, "button[data-key=set-aside]")
    dice = enabled(page, "button.die")
    if dice.count() > 1 and rng.random() < 0.5:
        dice.nth(rng.randrange(dice.count())).click()
        if enabled(page, "button[data-key=set-aside]").count():
            enabled(page, "button[data-key=set-aside]").click()
            return True
    if books.count():
        good = enabled(page, "button[data-key^=book-].good")
        (good if good.count() else books).first.click()
        return True
    if aside.count():
        aside.click()
        return True
    scratch = enabled(page, "button[data-key^=scratch-]")
    if scratch.count():
        scratch.first.click()
        return True
    return False


def decathlon(page: Page, rng: random.Random) -> bool:
    counts = enabled(page, "button[data-key^=vault-n-]")
    if counts.count():  # the Pole Vault: pick the dice and jump in one step, or skip
        if rng.random() < 0.2 and enabled(page, "button[data-key=skip]").count():
            enabled(page, "button[data-key=skip]").click()
            return True
        counts.nth(rng.randrange(2, min(7, counts.count()))).click()
        enabled(page, "button[data-key=vault-go]").click()
        return True
    dice = enabled(page, "button.die")
    if dice.count():
        n = dice.count()
        chosen = {rng.randrange(n)} | {i for i in range(n) if rng.random() < 0.3}
        for i in sorted(chosen):
            dice.nth(i).click()
        freeze = enabled(page, "button[data-key=freeze]")
        if freeze.count():
            freeze.click()
            return True
    order = ["freeze-set", "jump", "throw", "stop", "rethrow", "skip", "retire"]
    if rng.random() < 0.5:
        order = ["rethrow", "throw", "jump", "freeze-set", "stop", "skip", "retire"]
    for key in order:
        loc = enabled(page, f"button[data-key={key}]")
        if loc.count():
            loc.click()
            return True
    vaults = enabled(page, "button[data-key^=vault-]")
    if vaults.count():
        vaults.nth(rng.randrange(min(4, vaults.count()))).click()
        return True
    return False


def keep_cards(page: Page, rng: random.Random, prefer: tuple[str, ...] = ()) -> None:
    """The Decades' keep: tap the deal's kinds (the ``prefer``red kinds first, the rest at
    random) until the Keep button takes them, now and then taking one back; then keep.

    Each round reads the tiles in one snapshot and taps by key, so a re-render (the other
    team's move landing, the page busy a moment) never leaves a click waiting on a tile
    that went away or was disabled meanwhile."""
    read = """() => [...document.querySelectorAll('#table .keep-kind')].map((li) => [
        li.dataset.card,
        !li.querySelector('button.card').disabled,
        !li.querySelector('button.keep-less').disabled])"""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    keep = page.locator("#table button[data-key=keep]")
    for _ in range(80):
        if keep.count() and keep.is_enabled():
            keep.click()
            return
        tiles = page.evaluate(read)
        more = [kind for kind, can_add, _ in tiles if can_add]
        less = [kind for kind, _, can_less in tiles if can_less]
        if less and (not more or rng.random() < 0.15):
            key = f"less-{rng.choice(less)}"
        elif more:
            liked = [kind for kind in more if kind in prefer]
            key = f"deal-{liked[0] if liked else rng.choice(more)}"
        else:  # busy for a moment, or the step just ended: look again
            page.wait_for_timeout(50)
            continue
        try:
            page.locator(f"#table button[data-key='{key}']").click(timeout=2000)
        except PlaywrightTimeout:  # it went away or stayed disabled: read the tiles again
            continue
    raise AssertionError("the Keep button never took the picks")


def decades(page: Page, rng: random.Random) -> bool:
    # the round's reveal stays until we continue (the next question waits behind it)
    reveal = enabled(page, "button[data-key=reveal-continue]")
    if reveal.count():
        reveal.click()
        page.wait_for_selector("#table .dc-reveal", state="detached")
    if enabled(page, "button.card[data-key^=deal-]").count():
        keep_cards(page, rng)
        return True
    years = enabled(page, "button.cell")
    if years.count():
        years.nth(rng.randrange(years.count())).click()
        enabled(page, "button[data-key=answer]").click()
        return True
    extend = enabled(page, "button[data-key=extend]")
    if extend.count():
        # tokens on the board: pick a token, tap one of the spots offered for it (only
        # legal ones are), now and then take one back; then confirm the combination
        for _ in range(rng.randrange(5)):
            tokens = enabled(page, "button[data-key^=token-]")
            undo = enabled(page, "button[data-key^=undo-]")
            if undo.count() and rng.random() < 0.2:
                undo.nth(rng.randrange(undo.count())).click()
                continue
            if not tokens.count():
                break
            tokens.nth(rng.randrange(tokens.count())).click()
            spots = enabled(page, "button.dc-spot")
            if spots.count():
                spots.nth(rng.randrange(spots.count())).click()
        enabled(page, "button[data-key=extend]").click()
        return True
    for sel in ("button[data-key^=play-]", ".panel button:not(.die)"):
        loc = enabled(page, sel)
        if loc.count():
            loc.nth(rng.randrange(loc.count())).click()
            return True
    return False


def toy(page: Page, rng: random.Random) -> bool:
    """Toy Pig (the test plug-in, on its own board): hold sometimes, else roll."""
    hold = enabled(page, "button").filter(has_text="hold")
    if hold.count() and rng.random() < 0.4:
        hold.first.click()
        return True
    roll = enabled(page, "button").filter(has_text="roll")
    if roll.count():
        roll.first.click()
        return True
    return False
