"""Issue 40's delivery figures: bytes on the wire and time to the first enabled control,
under a 3G-like throttle, this checkout paired with an older one in the same run.

    git archive main src | tar -x -C /tmp/base
    .venv/bin/python bench/delivery.py --old /tmp/base [--rounds 3] [--game dice-duel]

Each side is ``python -m gamenight.server`` with its own ``src`` first on the path. Each
round, alternating sides, Debian's Chromium (Playwright, over CDP) opens three pages with
``Network.emulateNetworkConditions`` set to DevTools' "Fast 3G" (562.5 ms latency, 1.44
Mbit/s down, 675 kbit/s up), each first in a fresh context (an empty cache: a first visit)
and then again in the same context (a return visit):

* the lobby, ``/``: until ``#create`` is enabled;
* an invite link to a waiting room, ``/r/<code>``: until a seat's claim button is enabled;
* a table, ``/r/<code>`` of a started room whose seat 0 this browser holds (the token
  put into localStorage first): until a button of the table is enabled.

Bytes are CDP's ``encodedDataLength`` summed over every response of the load (headers
and bodies as they crossed the wire, so gzip counts); requests are the responses seen.
Time is ``performance.now()`` (from the navigation's start) when the control is first
found enabled, polled every animation frame. Medians over the rounds are printed as a
Markdown table; the load average is printed too.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

from gamenight.server.testing import ProcessServer

NEW = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
FAST_3G = {
    "offline": False,
    "latency": 562.5,
    "downloadThroughput": 1.44e6 / 8,
    "uploadThroughput": 675e3 / 8,
}
FIRST_ENABLED = """(sel) => {
  for (const el of document.querySelectorAll(sel))
    if (!el.disabled && el.offsetParent !== null) return performance.now();
  return false;
}"""


def server(src: Path, folder: Path) -> ProcessServer:
    env = {**os.environ, "PYTHONPATH": str(src / "src"), "XDG_DATA_HOME": str(folder)}
    db = f"sqlite:///{folder / 'bench.sqlite3'}"
    return ProcessServer(db, env=env, args=("--log-level", "warning")).start()


def room(base: str, game: str, *, started: bool) -> tuple[str, str | None]:
    """A room with a human seat and a bot: its code, and seat 0's token if ``started``."""
    body = {"game": game, "seats": ["human", "bot:random"], "room": {"bot_pace": 0}}
    created = httpx.post(f"{base}/api/rooms", json=body, timeout=30).json()
    code = created["code"]
    if not started:
        return code, None
    claim = {"name": "Ann", "contribution": "bench-0"}
    token = httpx.post(f"{base}/api/rooms/{code}/seats/0/claim", json=claim, timeout=30)
    auth = {"Authorization": f"Bearer {created['host_token']}"}
    httpx.post(f"{base}/api/rooms/{code}/start", headers=auth, timeout=30)
    return code, str(token.json()["token"])


def load(context: Any, url: str, selector: str) -> dict[str, float]:
    """One page load under the throttle: its bytes, requests and time to ``selector``."""
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", FAST_3G)
    seen = {"bytes": 0.0, "requests": 0.0}

    def finished(event: dict[str, Any]) -> None:
        seen["bytes"] += float(event.get("encodedDataLength", 0))
        seen["requests"] += 1

    cdp.on("Network.loadingFinished", finished)
    page.goto(url, wait_until="commit")
    handle = page.wait_for_function(FIRST_ENABLED, arg=selector, polling="raf", timeout=180_000)
    seen["ms"] = float(handle.json_value())
    page.wait_for_load_state("networkidle")  # the rest of the load counts in the bytes
    page.close()
    return seen


def measure(browser: Any, base: str, game: str) -> dict[str, dict[str, float]]:
    """Each page, a first visit and a return visit, on one side."""
    out: dict[str, dict[str, float]] = {}
    waiting, _ = room(base, game, started=False)
    table, token = room(base, game, started=True)
    pages = {
        "lobby": (f"{base}/?game={game}", "#create", None),
        "invite link": (f"{base}/r/{waiting}", ".claim-seat", None),
        "table": (f"{base}/r/{table}", "#table button", (table, token)),
    }
    for name, (url, selector, seat) in pages.items():
        context = browser.new_context(viewport={"width": 390, "height": 844})
        if seat is not None:
            stored = {seat[0]: {"token": seat[1], "seat": 0, "game": game}}
            context.add_init_script(
                f"localStorage.setItem('gamenight.rooms.v1', {json.dumps(json.dumps(stored))});"
            )
        out[f"{name}, first visit"] = load(context, url, selector)
        out[f"{name}, return visit"] = load(context, url, selector)
        context.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--old", type=Path, required=True, help="a copy of the old src/ tree's parent"
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--game", default="dice-duel")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    sides = {"before": args.old.resolve(), "after": NEW}
    results: dict[str, dict[str, list[dict[str, float]]]] = {s: {} for s in sides}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as p:
        servers = {s: server(src, Path(tmp) / s) for s, src in sides.items()}
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            for r in range(args.rounds):
                order = list(sides) if r % 2 == 0 else list(reversed(sides))
                for side in order:
                    for name, got in measure(browser, servers[side].url, args.game).items():
                        results[side].setdefault(name, []).append(got)
                print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
        finally:
            browser.close()
            for s in servers.values():
                s.stop()
    print(
        f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}; game {args.game}; "
        f"{args.rounds} rounds, medians\n"
    )
    print(
        "| page | bytes before | after | requests before | after | first control before | after |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in results["after"]:
        b, a = results["before"][name], results["after"][name]

        def med(xs: list[dict[str, float]], key: str) -> float:
            return statistics.median(x[key] for x in xs)

        print(
            f"| {name} | {med(b, 'bytes') / 1024:,.1f} KiB | {med(a, 'bytes') / 1024:,.1f} KiB "
            f"| {med(b, 'requests'):.0f} | {med(a, 'requests'):.0f} "
            f"| {med(b, 'ms') / 1000:.2f} s | {med(a, 'ms') / 1000:.2f} s |"
        )


if __name__ == "__main__":
    main()
