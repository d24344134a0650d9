"""Operating ``gamenight serve`` (issue 39): one log format (text or JSON) for every
logger, its level and the access log; client-caused errors without tracebacks;
/healthz, /readyz and /metrics (on, off, apart) scraped from real server processes
playing real games; invite links (--public-url, else the browser's address)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import socket
import time
from pathlib import Path

import httpx
import pytest
from harness import Client, PgCluster, claim, create_room, run
from served import Served

from gamenight.server.invite import machine_address
from gamenight.server.testing import free_port

TEXT_LINE = re.compile(
    r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ (DEBUG|INFO|WARNING|ERROR|CRITICAL) \S+: "
)


def _db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'db.sqlite3'}"


def _client_faults(url: str) -> None:
    """What clients get wrong: bad bytes, a bad handshake, a body cut short, bad JSON,
    a socket that says nonsense and one that vanishes."""
    host, port = url.removeprefix("http://").rsplit(":", 1)
    for raw in (
        b"GARBAGE \x00\x01\r\n\r\n",
        b"GET /ws/ABCD HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
        b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 500\r\n\r\n{",
    ):
        with socket.create_connection((host, int(port))) as s:
            s.sendall(raw)
            s.settimeout(2)
            with contextlib.suppress(TimeoutError):
                s.recv(100)
    httpx.post(f"{url}/api/rooms", content=b"{nope", headers={"content-type": "application/json"})
    httpx.post(f"{url}/api/rooms", json={"game": "x" * 100, "seats": []})
    code = create_room(url, "dice-duel", ["human", "human"])["code"]

    async def sockets() -> None:
        import websockets

        ws_url = url.replace("http://", "ws://")
        async with websockets.connect(f"{ws_url}/ws/{code}") as ws:
            await ws.send("{not json")
            await ws.recv()
            await ws.send(json.dumps({"type": "hello", "protocol": 999}))
            await ws.recv()
        ws = await websockets.connect(f"{ws_url}/ws/{code}")
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": "nope"}))
        ws.transport.abort()  # vanishes without a close frame

    run(sockets())
    time.sleep(0.5)


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_one_log_format_and_no_traceback_for_what_clients_get_wrong(
    fmt: str, tmp_path: Path
) -> None:
    args = ["--port", "0", "--db", _db(tmp_path), "--log-format", fmt, "--access-log"]
    with Served(args) as server:
        _client_faults(server.url)
        httpx.get(f"{server.url}/healthz")
    log = server.stderr()
    lines = log.strip().splitlines()
    assert any("uvicorn.access" in line for line in lines), log  # the access log is on
    assert any("gamenight.server" in line or "uvicorn.error" in line for line in lines), log
    assert "Traceback" not in log, log
    for line in lines:  # every logger, the same format
        if fmt == "json":
            record = json.loads(line)
            assert {"time", "level", "logger", "message"} <= set(record), line
            assert "traceback" not in record, line
        else:
            assert TEXT_LINE.match(line), line


def test_log_level_and_access_log_switches(tmp_path: Path) -> None:
    args = ["--port", "0", "--db", _db(tmp_path)]
    with Served(args) as quiet:  # the access log is off by default (issue 38)
        httpx.get(f"{quiet.url}/healthz")
        code = create_room(quiet.url, "dice-duel", ["human", "human"])["code"]
        run(Client(quiet.url, code).connect())
    assert "uvicorn.access" not in quiet.stderr() and "/healthz" not in quiet.stderr()
    assert '"WebSocket' not in quiet.stderr()
    with Served([*args, "--log-level", "warning"]) as warned:
        httpx.get(f"{warned.url}/healthz")
    assert " INFO " not in warned.stderr() and "/healthz" not in warned.stderr()
    with Served([*args, "--log-level", "debug", "--access-log"]) as chatty:
        httpx.get(f"{chatty.url}/healthz")
    assert " DEBUG " in chatty.stderr() and "/healthz" in chatty.stderr()


# ----- health and metrics ---------------------------------------------------------------------
def _metrics(text: str) -> dict[str, float]:
    out = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            out[name] = float(value)
    return out


def test_metrics_count_a_real_game(tmp_path: Path) -> None:
    args = ["--port", "0", "--db", _db(tmp_path), "--reconnect-burst", "1"]
    with Served([*args, "--reconnect-rate", "0.001"]) as server:
        code = create_room(server.url, "dice-duel", ["human", "human"])["code"]
        tokens = [claim(server.url, code, s, f"P{s}") for s in (0, 1)]
        acks = 0
        during: dict[str, float] = {}

        async def play() -> None:
            nonlocal acks
            clients = [Client(server.url, code, t) for t in tokens]
            for c in clients:
                await c.connect()
            during.update(_metrics(httpx.get(f"{server.url}/metrics").text))
            acks = sum(await asyncio.gather(*(c.play_randomly(random.Random(3)) for c in clients)))
            again = Client(server.url, code, tokens[0])  # a second hello of token 0: refused
            assert (await again.connect())["type"] == "error"
            await again.close()
            for c in clients:
                await c.close()

        run(play())
        time.sleep(0.3)  # the sockets' leave
        after = _metrics(httpx.get(f"{server.url}/metrics").text)
    assert during["gamenight_sockets"] == 2
    assert during['gamenight_rooms{state="playing"}'] == 1
    assert acks > 0
    assert after["gamenight_actions_acknowledged_total"] == acks
    assert after["gamenight_ack_seconds_count"] == acks
    assert after['gamenight_ack_seconds_bucket{le="+Inf"}'] == acks
    assert after['gamenight_rooms{state="finished"}'] == 1
    assert after["gamenight_sockets"] == 0
    assert after['gamenight_throttled_total{what="hello"}'] == 1
    assert after["gamenight_bots_thinking"] == 0
    assert after["gamenight_background_builds"] == 0
    assert after['gamenight_database_errors_total{kind="outage"}'] == 0
    assert after["gamenight_database_up"] == 1


def test_bots_thinking_is_counted(tmp_path: Path) -> None:
    with Served(["--port", "0", "--db", _db(tmp_path)]) as server:
        code = create_room(
            server.url, "decathlon", ["bot:random", "bot:random"], options={"events": "100m"}
        )["code"]
        httpx.post(f"{server.url}/api/rooms/{code}/start")  # no host token: stays unstarted?
        seen = 0.0
        for _ in range(400):
            status = httpx.get(f"{server.url}/api/rooms/{code}").json()["status"]
            found = _metrics(httpx.get(f"{server.url}/metrics").text)
            seen = max(seen, found["gamenight_bots_thinking"])
            if status == "finished":
                break
            time.sleep(0.02)
        assert status == "finished"
        assert _metrics(httpx.get(f"{server.url}/metrics").text)["gamenight_bots_thinking"] == 0


def test_metrics_off_or_apart(tmp_path: Path) -> None:
    with Served(["--port", "0", "--db", _db(tmp_path), "--metrics", "off"]) as off:
        assert httpx.get(f"{off.url}/metrics").status_code == 404
        assert httpx.get(f"{off.url}/healthz").status_code == 200
    port = free_port()
    args = ["--port", "0", "--db", _db(tmp_path), "--metrics-listen", f"127.0.0.1:{port}"]
    with Served(args) as apart:
        assert httpx.get(f"{apart.url}/metrics").status_code == 404
        scraped = httpx.get(f"http://127.0.0.1:{port}/metrics")
        assert scraped.status_code == 200
        assert "gamenight_rooms" in scraped.text and "process_cpu_seconds_total" in scraped.text


def test_readyz_follows_the_database(tmp_path: Path) -> None:
    cluster = PgCluster().start()
    try:
        with Served(["--port", "0", "--db", cluster.new_database()]) as server:
            assert httpx.get(f"{server.url}/readyz").json() == {"status": "ready"}
            cluster.pause()
            down = httpx.get(f"{server.url}/readyz", timeout=30)
            assert down.status_code == 503 and down.json()["code"] == "unavailable"
            assert httpx.get(f"{server.url}/healthz").status_code == 200  # alive all the same
            found = _metrics(httpx.get(f"{server.url}/metrics").text)
            assert found["gamenight_database_outages_total"] == 1
            assert found['gamenight_database_errors_total{kind="outage"}'] >= 1
            assert found["gamenight_database_up"] == 0
            cluster.resume()
            for _ in range(100):
                if httpx.get(f"{server.url}/readyz", timeout=30).status_code == 200:
                    break
                time.sleep(0.1)
            assert httpx.get(f"{server.url}/readyz").status_code == 200
            assert _metrics(httpx.get(f"{server.url}/metrics").text)["gamenight_database_up"] == 1
    finally:
        cluster.stop()


# ----- invite links -------------------------------------------------------------------------
def _invite_base(url: str, code: str, host: str | None = None) -> str:
    headers = {"host": host} if host else {}
    page = httpx.get(f"{url}/r/{code}", headers=headers).text
    found = re.search(r'<meta name="gamenight-invite" content="([^"]*)">', page)
    assert found, page[:500]
    return found.group(1)


def test_invite_links_use_the_public_url(tmp_path: Path) -> None:
    args = ["--port", "0", "--db", _db(tmp_path), "--public-url", "https://games.example.org"]
    with Served(args) as server:
        code = create_room(server.url, "dice-duel", ["human", "human"])["code"]
        assert _invite_base(server.url, code) == "https://games.example.org"
        assert "Players open https://games.example.org/" in server.stdout()


def test_invite_links_use_the_address_the_browser_used(tmp_path: Path) -> None:
    # a name the server is reached by is one it was told (the Host check, issue 38)
    args = ["--host", "0.0.0.0", "--port", "0", "--db", _db(tmp_path)]
    with Served([*args, "--origin", "http://games.lan"]) as server:
        code = create_room(server.url, "dice-duel", ["human", "human"])["code"]
        port = server.port
        assert _invite_base(server.url, code, f"games.lan:{port}") == f"http://games.lan:{port}"
        bad = httpx.get(f"{server.url}/r/{code}", headers={"host": "games.lan:123456"})
        assert bad.status_code == 400 and bad.json()["code"] == "bad_host"  # no such port
        # opened on the server's own machine by loopback: this machine's address instead
        mine = machine_address()
        expected = f"http://{mine}:{port}" if mine else f"http://127.0.0.1:{port}"
        assert _invite_base(server.url, code, f"127.0.0.1:{port}") == expected
        assert _invite_base(server.url, code, f"localhost:{port}") == (
            expected if mine else f"http://localhost:{port}"
        )
