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


def test_the_browser_rederives_the_servers_parts(page: Any, server: Server) -> None:
    """Issue 38: fairness.js derives a silent seat's server part as core.seeds does, and
    its record check says so, or flags a part the server chose."""
    import json

    from gamenight.core import registry
    from gamenight.core.record import Contribution, RecordSeat, RecordWriter, write_moves
    from gamenight.core.seeds import server_part

    seed = 2**128 - 1
    game = registry.get("dice-duel").game

    def record(value: str) -> tuple[str, str]:
        import io

        out = io.StringIO()
        parts = [Contribution(0, "player", "mine"), Contribution(1, "server", value)]
        seats = [RecordSeat("Ann", "human"), RecordSeat("Bo", "human")]
        write_moves(RecordWriter(out), game, game.parse_options({}), seed, seats, [],
                    contributions=parts)  # fmt: skip
        text = out.getvalue()
        return text, json.loads(text.splitlines()[0])["commitment"]

    page.goto(f"{server.url}/")
    got = page.evaluate(
        """async ([seed, honest, forged]) => {
          const f = await import('/static/js/fairness.js');
          const mine = { seat: 0, value: "mine" };
          return {
            part: await f.serverPart(seed, 1),
            honest: (await f.checkRecord(honest[0], honest[1], mine)).servers,
            forged: (await f.checkRecord(forged[0], forged[1], mine)).servers,
          };
        }""",
        [str(seed), record(server_part(seed, 1)), record("c3d4")],
    )
    assert got == {"part": server_part(seed, 1), "honest": True, "forged": False}


def test_the_browser_keeps_the_servers_character_policy(page: Any, server: Server) -> None:
    """One policy (core.text.refused_kind): the word in a contribution keeps format
    characters (ZWJ, ZWNJ, soft hyphen) and loses what the server refuses."""
    from gamenight.core.seeds import check_contribution

    page.goto(f"{server.url}/")
    word = "Zo\u00ade\u200d\u200c \u202eevil\u2066 a\u0007b\u2028"
    made = page.evaluate(
        "async (w) => (await import('/static/js/fairness.js')).newContribution(w)", word
    )
    _hex, kept = made.split(" ", 1)
    assert kept == "Zo\u00ade\u200d\u200c evil ab"
    assert check_contribution(made) == made
