"""The browser honours the server's ``retry_after`` when it reconnects (issue 38, item 1):
a hello refused by the reconnect throttle (or an outage) says how long to wait, and the
next socket is not opened sooner. Real Chromium, the page's own net.js."""

from __future__ import annotations

from typing import Any

from web.webui import Server

_REFUSED_THEN_CLOSED = """
async (frame) => {
  const net = await import('/static/js/net.js');
  const delays = [];
  const real = window.setTimeout;
  window.setTimeout = (fn, ms) => { delays.push(ms); return 0; };
  try {
    const conn = new net.Connection('ABCD', null);
    if (frame) conn.receive(JSON.stringify(frame));
    conn.closed({ code: 1008 });
    conn.attempt = 4;  // a later attempt: the own back-off is longer than the wait told
    if (frame) conn.receive(JSON.stringify(frame));
    conn.closed({ code: 1008 });
  } finally {
    window.setTimeout = real;
  }
  return delays;
}
"""


def test_a_refused_hello_waits_retry_after_before_the_next(page: Any, server: Server) -> None:
    page.goto(f"{server.url}/")
    refused = {"type": "error", "code": "rate_limited", "message": "wait", "retry_after": 3}
    assert page.evaluate(_REFUSED_THEN_CLOSED, refused) == [3000, 8000]
    outage = {"type": "error", "code": "unavailable", "message": "down", "retry_after": 20}
    assert page.evaluate(_REFUSED_THEN_CLOSED, outage) == [20000, 20000]
    # without a wait told: the own back-off (0.5 s doubling up to 8 s)
    assert page.evaluate(_REFUSED_THEN_CLOSED, None) == [500, 8000]
