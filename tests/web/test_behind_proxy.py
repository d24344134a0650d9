"""Behind a reverse proxy, for real (issue 39): Debian's caddy serving TLS from its own
CA (``tls internal``) in front of ``gamenight serve --trusted-proxy``, with the Caddyfile
taken from docs/deploy.md. Chromium plays a whole game through it (pages, API and
WebSocket over TLS); two clients behind the proxy are throttled separately; a forged
``X-Forwarded-For`` is ignored, whether sent through the proxy or by a peer outside the
trusted range; without ``--trusted-proxy`` the headers count for nothing."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets

from gamenight.server.testing import free_port
from web import webui as ui

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "deploy.md"
sys.path.insert(0, str(ROOT / "tests" / "server"))
from served import Served  # noqa: E402

PUBLIC = "games.example.org"


def caddyfile_from_docs() -> str:
    """The Caddy site of docs/deploy.md (its one ``caddyfile`` block)."""
    blocks = re.findall(r"```caddyfile\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1, "docs/deploy.md should hold one caddyfile block"
    return str(blocks[0])


class Caddy:
    """caddy run with the doc's site on 127.0.0.1 high ports: its own CA, no admin API,
    its files in a temp dir."""

    def __init__(self, upstream: int, port: int) -> None:
        if shutil.which("caddy") is None:
            pytest.fail("caddy is missing: install Debian's caddy (make system-deps)")
        self.dir = Path(tempfile.mkdtemp(prefix="gamenight-caddy-"))
        self.port = port
        site = caddyfile_from_docs()
        assert PUBLIC in site and "127.0.0.1:8000" in site
        site = site.replace(PUBLIC, f"localhost:{self.port}")
        site = site.replace("127.0.0.1:8000", f"127.0.0.1:{upstream}")
        site = site.replace("{\n", "{\n\tbind 127.0.0.1\n\ttls internal\n", 1)
        config = (
            "{\n\tadmin off\n\tskip_install_trust\n\tlocal_certs\n"
            f"\thttp_port {free_port()}\n\thttps_port {self.port}\n"
            f"\tstorage file_system {self.dir / 'data'}\n"
            "\tauto_https disable_redirects\n}\n\n" + site
        )
        (self.dir / "Caddyfile").write_text(config)
        self.log = (self.dir / "caddy.log").open("wb")
        env = {
            "HOME": str(self.dir),
            "XDG_DATA_HOME": str(self.dir / "xdg-data"),
            "XDG_CONFIG_HOME": str(self.dir / "xdg-config"),
            "PATH": "/usr/bin:/bin",
        }
        self.proc = subprocess.Popen(
            ["caddy", "run", "--config", str(self.dir / "Caddyfile"), "--adapter", "caddyfile"],
            stdout=self.log,
            stderr=self.log,
            env=env,
        )
        self.url = f"https://localhost:{self.port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{self.url}/healthz", verify=False, timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"caddy did not start: {(self.dir / 'caddy.log').read_text()}")
            time.sleep(0.1)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[tuple[Served, Caddy]]:
    port, public = free_port(), free_port()
    server = Served(
        [
            "--port",
            str(port),
            "--db",
            f"sqlite:///{tmp_path / 'db.sqlite3'}",
            "--trusted-proxy",
            "127.0.0.1/32",
            "--log-format",
            "json",
            "--access-log",  # the tests read the client addresses it logs
            "--address-burst",
            "3",
            "--address-rate",
            "0.001",
            "--public-url",
            f"https://localhost:{public}",
        ]
    ).start()
    caddy = Caddy(port, public)
    try:
        yield server, caddy
    finally:
        caddy.stop()
        server.stop()


def _tls() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # caddy's own CA (tls internal)
    return context


def _access(server: Served, mark: str) -> list[dict[str, Any]]:
    """The access records of requests whose path holds ``mark``."""
    found = []
    for line in server.stderr().splitlines():
        record = json.loads(line)
        if mark in record["message"]:
            found.append(record)
    return found


def _get(url: str, source: str, mark: str, **headers: str) -> None:
    transport = httpx.HTTPTransport(local_address=source, verify=False)
    with httpx.Client(transport=transport, verify=False) as client:
        assert client.get(f"{url}/healthz?{mark}", headers=headers).status_code == 200


async def _hello(url: str, code: str, source: str, **headers: str) -> dict[str, Any]:
    """One socket's hello from ``source``; the server's first answer."""
    secure = url.startswith("https")
    ws_url = url.replace("https://", "wss://").replace("http://", "ws://") + f"/ws/{code}"
    async with websockets.connect(
        ws_url,
        ssl=_tls() if secure else None,
        local_addr=(source, 0),
        additional_headers={"Origin": url, **headers},
    ) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": None}))
        answer: dict[str, Any] = json.loads(await ws.recv())
        return answer


def _in_thread(coro: Any) -> None:
    """asyncio.run in a thread of its own: this module's browser (Playwright's sync API)
    keeps an event loop running in the test's thread."""
    failed: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(coro)
        except BaseException as exc:  # handed to the test's thread
            failed.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join(120)
    if failed:
        raise failed[0]


def test_chromium_plays_a_whole_game_through_caddy_over_tls(
    browser: Any, proxied: tuple[Served, Caddy]
) -> None:
    server, caddy = proxied
    context = ui.new_context(browser, ui.DESKTOP, ignore_https_errors=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        code = ui.create_room(
            page, caddy.url, "decathlon", ["human", "bot:greedy"], events=["100m"]
        )
        assert page.url.startswith(f"https://localhost:{caddy.port}/r/")
        base = page.evaluate("() => document.querySelector('meta[name=gamenight-invite]').content")
        assert base == f"https://localhost:{caddy.port}"  # --public-url, for the invite link
        ui.start_if_host(page)
        ui.play(page, ui.decathlon)
        page.wait_for_selector("body[data-status=finished]")
        assert httpx.get(f"{server.url}/api/rooms/{code}").json()["status"] == "finished"
    finally:
        context.close()
    assert not errors, errors
    # the state-changing requests came as https through the trusted proxy and passed the
    # Origin check (https://localhost:PORT): without the proxy's scheme they would not
    created = [r for r in _access(server, "POST /api/rooms") if r.get("status") == 201]
    assert created, server.stderr()[-3000:]


def test_two_clients_behind_the_proxy_are_throttled_apart_and_forged_addresses_ignored(
    proxied: tuple[Served, Caddy],
) -> None:
    server, caddy = proxied
    code = httpx.post(
        f"{server.url}/api/rooms", json={"game": "dice-duel", "seats": ["human", "human"]}
    ).json()["code"]

    async def run() -> None:
        # A, behind the proxy, from 127.0.0.2 (forging another address each time: the
        # proxy replaces it): its 3 hellos, then refused
        for n in range(3):
            answer = await _hello(
                caddy.url, code, "127.0.0.2", **{"X-Forwarded-For": f"10.9.9.{n}"}
            )
            assert answer["type"] == "snapshot", answer
        refused = await _hello(caddy.url, code, "127.0.0.2", **{"X-Forwarded-For": "10.9.9.9"})
        assert refused["type"] == "error" and refused["code"] == "rate_limited", refused
        # B, behind the same proxy from 127.0.0.3: its own budget
        assert (await _hello(caddy.url, code, "127.0.0.3"))["type"] == "snapshot"
        # C, straight to the server from outside the trusted range, forging its address:
        # the forgery is ignored, so C is throttled as itself
        for n in range(3):
            answer = await _hello(
                server.url, code, "127.0.0.4", **{"X-Forwarded-For": f"10.8.8.{n}"}
            )
            assert answer["type"] == "snapshot", answer
        again = await _hello(server.url, code, "127.0.0.4", **{"X-Forwarded-For": "10.8.8.9"})
        assert again["code"] == "rate_limited", again

    _in_thread(run())
    # the logs: the proxied client's own address; a forged one never
    _get(caddy.url, "127.0.0.2", "mark-proxied", **{"X-Forwarded-For": "203.0.113.66"})
    _get(server.url, "127.0.0.4", "mark-direct", **{"X-Forwarded-For": "203.0.113.77"})
    _get(server.url, "127.0.0.1", "mark-trusted", **{"X-Forwarded-For": "203.0.113.88"})
    assert _access(server, "mark-proxied")[0]["client"].startswith("127.0.0.2:")
    assert _access(server, "mark-direct")[0]["client"].startswith("127.0.0.4:")
    # from the trusted range the header is believed (that is the proxy's way to say it)
    assert _access(server, "mark-trusted")[0]["client"].startswith("203.0.113.88:")
    assert "203.0.113.66" not in server.stderr() and "203.0.113.77" not in server.stderr()


def test_without_trusted_proxy_the_forwarding_headers_count_for_nothing(tmp_path: Path) -> None:
    args = ["--port", "0", "--db", f"sqlite:///{tmp_path / 'db.sqlite3'}", "--log-format", "json"]
    with Served([*args, "--access-log"]) as server:
        _get(server.url, "127.0.0.1", "mark-plain", **{"X-Forwarded-For": "203.0.113.99"})
        assert _access(server, "mark-plain")[0]["client"].startswith("127.0.0.1:")
        # a page served as https by a proxy the server does not trust: not its origin
        answer = httpx.post(
            f"{server.url}/api/rooms",
            json={"game": "dice-duel", "seats": ["human", "human"]},
            headers={
                "Origin": f"https://{server.url.removeprefix('http://')}",
                "X-Forwarded-Proto": "https",
            },
        )
        assert answer.status_code == 403 and answer.json()["code"] == "bad_origin"


def test_the_room_page_shows_the_invite_link_and_says_when_it_is_local(
    browser: Any, tmp_path: Path
) -> None:
    """A loopback-only server: the link is the browser's address, and the page says it
    opens on this computer only. With --public-url: that address, and no such note."""
    context = ui.new_context(browser, ui.DESKTOP)
    page = context.new_page()
    try:
        for public in ("", "https://games.example.org"):
            args = ["--port", "0", "--db", f"sqlite:///{tmp_path / f'db{len(public)}.sqlite3'}"]
            with Served([*args, *(["--public-url", public] if public else [])]) as server:
                code = httpx.post(
                    f"{server.url}/api/rooms",
                    json={"game": "dice-duel", "seats": ["human", "human"]},
                ).json()["code"]
                page.goto(f"{server.url}/r/{code}")
                shown = page.locator("#waiting .invite-url").inner_text()
                assert shown == f"{public or server.url}/r/{code}"
                assert page.locator("#waiting .invite-local").count() == (0 if public else 1)
    finally:
        context.close()
