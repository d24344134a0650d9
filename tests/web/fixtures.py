"""The browser fixtures: the real server in a subprocess, Debian's chromium driven by
Playwright. Defined once (tests/conftest.py imports them), so no two are open at once: a second
``sync_playwright`` would find the first one's loop running.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from web.webui import CHROMIUM, PHONE, Server, new_context


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = Server(tmp_path_factory.mktemp("web-server")).start()
    yield srv
    srv.stop()


# Per module, not per session: while Playwright's sync API is open its event loop runs
# in this thread, and a later test's asyncio.run (the server tests) would be refused.
@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (make system-deps)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def context(browser: object) -> Iterator[object]:
    ctx = new_context(browser, PHONE)
    yield ctx
    ctx.close()


@pytest.fixture
def page(context: object) -> Iterator[object]:
    pg = context.new_page()  # type: ignore[attr-defined]
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    assert not errors, f"JavaScript errors: {errors}"
