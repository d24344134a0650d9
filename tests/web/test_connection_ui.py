"""An honest connection (issue 40), with real network cuts: a TCP proxy that blackholes the
guest's sockets (stops forwarding, closes nothing) and Chromium's own offline switch.

* a silent drop shows "reconnecting" as soon as a ping goes unanswered, the controls
  wait, and after the drop the guest sees what happened and that it is their turn;
* a move pressed while the drop is not yet noticed is applied once and acknowledged
  (sent again on the new socket; the late first copy changes nothing);
* the browser's ``offline`` event shows "reconnecting" at once.

Every wait is for a state (a selector, a seq, a count of bytes), never a pause."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from gamenight.server.testing import free_port
from web import webui as ui

pytestmark = pytest.mark.browser


class Blackhole:
    """A TCP proxy on 127.0.0.1 to ``upstream``. :meth:`cut` stops it forwarding (both ways,
    old and new connections) without closing anything: a silent drop, like a dead Wi-Fi.
    :meth:`mend` lets the held bytes through again (the late copy of whatever was sent)."""

    def __init__(self, upstream: int) -> None:
        self.upstream = upstream
        self.port = free_port()
        self.loop = asyncio.new_event_loop()
        self.flowing = asyncio.Event()
        self.held = 0  # bytes read while cut, not yet forwarded
        self.lock = threading.Lock()
        ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(ready,), daemon=True)
        self.thread.start()
        ready.wait()

    def _run(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self.loop)
        self.flowing.set()
        server = self.loop.run_until_complete(
            asyncio.start_server(self._serve, "127.0.0.1", self.port)
        )
        ready.set()
        self.loop.run_forever()
        server.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream)
        except OSError:
            writer.close()
            return
        await asyncio.gather(self._pump(reader, up_writer), self._pump(up_reader, writer))

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while data := await reader.read(65536):
                if not self.flowing.is_set():
                    with self.lock:
                        self.held += len(data)
                    await self.flowing.wait()
                    with self.lock:
                        self.held -= len(data)
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    def cut(self) -> None:
        self.loop.call_soon_threadsafe(self.flowing.clear)

    def mend(self) -> None:
        self.loop.call_soon_threadsafe(self.flowing.set)

    def holding(self) -> int:
        with self.lock:
            return self.held

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ui.Server, Blackhole]]:
    """A server of its own, reached directly (the host) and through the blackhole (the
    guest, whose page's origin is the proxy's: allowed with ``--origin``)."""
    srv = ui.Server(Path(tmp_path_factory.mktemp("conn-server")))
    hole = Blackhole(srv.port)
    srv.args = (*srv.args, "--origin", hole.url)
    srv.start()
    yield srv, hole
    srv.stop()
    hole.close()


@contextmanager
def _two_players(
    browser: Any, srv: ui.Server, hole: Blackhole
) -> Iterator[tuple[Any, Any, tuple[Any, Any], str]]:
    """A toy room: the host (Ann, seat 0) direct, the guest (Bo, seat 1) through the hole;
    afterwards the hole mended and both browser contexts closed."""
    body = {"game": "toy", "seats": ["human", "human"], "options": {"target": 50}}
    code = ui.post_json(srv.url, "/api/rooms", body)["code"]
    host_ctx, guest_ctx = ui.new_context(browser), ui.new_context(browser)
    try:
        host, guest = host_ctx.new_page(), guest_ctx.new_page()
        ui.sit(host, srv.url, code, 0, "Ann")
        ui.sit(guest, hole.url, code, 1, "Bo")
        for page in (host, guest):
            page.wait_for_selector("body[data-status=playing][data-conn=online]")
        yield host_ctx, guest_ctx, (host, guest), code
    finally:
        hole.mend()
        host_ctx.close()
        guest_ctx.close()


def _turn_of(pages: tuple[Any, Any], mover: int) -> None:
    """Play (holding once there is something to hold) until seat ``mover`` is to act."""

    def acting() -> list[Any]:
        return [p for p in pages if p.get_attribute("body", "data-my-turn") == "true"]

    while True:
        ui.poll(pages[0], lambda: bool(acting()), "someone to act")
        first = acting()[0]
        if first is pages[mover]:
            return
        seq = first.get_attribute("body", "data-seq")
        hold = ui.enabled(first, "button").filter(has_text="hold")
        (
            hold if hold.count() else ui.enabled(first, "button").filter(has_text="roll")
        ).first.click()
        for page in pages:
            page.wait_for_selector(f"body:not([data-seq='{seq}'])")


def test_a_silent_drop_shows_reconnecting_and_the_guest_then_sees_their_turn(
    browser: Any, proxied: tuple[ui.Server, Blackhole]
) -> None:
    srv, hole = proxied
    with _two_players(browser, srv, hole) as (_host_ctx, _guest_ctx, (host, guest), _code):
        _turn_of((host, guest), 0)
        hole.cut()
        # the ping goes unanswered: "reconnecting" (before the drop is over), controls wait
        guest.wait_for_selector("body[data-conn=reconnecting] .conn[data-status=reconnecting]")
        assert "reconnecting" in guest.locator(".conn").inner_text()
        ui.next_frame(guest)
        ui.shoot(guest, "room-reconnecting")
        # meanwhile Ann rolls and holds: it becomes Bo's turn, which Bo cannot see yet
        seq = int(host.get_attribute("body", "data-seq") or "0")
        ui.enabled(host, "button").filter(has_text="roll").first.click()
        host.wait_for_selector(f"body:not([data-seq='{seq}'])")
        if host.get_attribute("body", "data-my-turn") == "true":
            ui.enabled(host, "button").filter(has_text="hold").first.click()
        host.wait_for_selector("body[data-my-turn=false]")
        assert guest.get_attribute("body", "data-my-turn") != "true"
        hole.mend()
        guest.wait_for_selector("body[data-conn=online][data-my-turn=true]")
        # it says what happened meanwhile, and that it is Bo's turn
        away = guest.locator("#away")
        assert away.is_visible()
        text = away.inner_text()
        assert "While you were away" in text and "Your turn" in text
        assert guest.locator("#away .away-lines li").count() >= 1
        ui.check_layout(guest, "the note of what happened while away")
        ui.shoot(guest, "room-while-away")


def test_a_move_pressed_during_an_unnoticed_drop_is_applied_once_and_acknowledged(
    browser: Any, proxied: tuple[ui.Server, Blackhole]
) -> None:
    srv, hole = proxied
    with _two_players(browser, srv, hole) as (_host_ctx, _guest_ctx, (host, guest), code):
        _turn_of((host, guest), 1)
        seq = int(guest.get_attribute("body", "data-seq") or "0")
        assert ui.get_json(srv.url, f"/api/rooms/{code}")["seq"] == seq
        hole.cut()
        # pressed before any ping could go unanswered: the frame waits in the hole
        ui.enabled(guest, "button").filter(has_text="roll").first.click()
        guest.wait_for_selector("body[data-conn=reconnecting]")
        assert ui.get_json(srv.url, f"/api/rooms/{code}")["seq"] == seq  # nothing arrived
        hole.mend()
        # the move is answered once the socket is back: applied, acknowledged, no error
        guest.wait_for_selector(f"body[data-conn=online][data-seq='{seq + 1}']")
        ui.poll(guest, lambda: hole.holding() == 0, "the first copy delivered late")
        host.wait_for_selector(f"body[data-seq='{seq + 1}']")
        ui.wait_until(guest, "() => !document.body.querySelector('[aria-busy=true]')")
        assert (
            ui.get_json(srv.url, f"/api/rooms/{code}")["seq"] == seq + 1
        )  # applied once, not twice
        assert guest.locator("#error").is_hidden()


def test_the_offline_event_shows_reconnecting_at_once_and_nothing_is_sent(
    browser: Any, proxied: tuple[ui.Server, Blackhole]
) -> None:
    srv, hole = proxied
    with _two_players(browser, srv, hole) as (_host_ctx, guest_ctx, (host, guest), code):
        _turn_of((host, guest), 1)
        seq = int(guest.get_attribute("body", "data-seq") or "0")
        guest_ctx.set_offline(True)
        guest.wait_for_selector("body[data-conn=reconnecting][data-my-turn=false]")
        # the table's controls wait while the socket is down: no move can be lost
        assert ui.enabled(guest, "button").count() == 0
        guest_ctx.set_offline(False)
        guest.wait_for_selector("body[data-conn=online][data-my-turn=true]")
        assert ui.get_json(srv.url, f"/api/rooms/{code}")["seq"] == seq
        assert "nothing happened" in guest.locator("#away").inner_text()
