"""The server's human text in each connection's language (issue 26): error messages over
HTTP (``Accept-Language``, ``?lang=``) and the WebSocket (``?lang=``, else the handshake's
``Accept-Language``), and room notes per socket. Codes never change with the language."""

from __future__ import annotations

import asyncio
import json

import httpx
import websockets
from harness import ThreadServer, create_room, run

from gamenight.server import protocol as p
from gamenight.server.config import Config
from gamenight.server.conns import Conn, Conns


def test_http_refusals_speak_the_request_s_language(server: ThreadServer) -> None:
    english = httpx.get(server.url + "/api/rooms/nope")
    german = httpx.get(server.url + "/api/rooms/nope", headers={"Accept-Language": "de-AT,de"})
    polish = httpx.get(server.url + "/api/rooms/nope?lang=pl", headers={"Accept-Language": "de"})
    assert [r.status_code for r in (english, german, polish)] == [404, 404, 404]
    assert {r.json()["code"] for r in (english, german, polish)} == {"no_room"}
    assert english.json()["message"] == "there is no such room"
    assert german.json()["message"] == "diesen Raum gibt es nicht"
    assert polish.json()["message"] == "nie ma takiego pokoju"


async def _refusal(url: str, headers: dict[str, str] | None = None) -> dict[str, object]:
    """What a spectator's move gets: an error in the socket's language."""
    async with websockets.connect(url, additional_headers=headers) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": p.PROTOCOL_VERSION, "token": None}))
        while json.loads(await ws.recv())["type"] != "snapshot":
            pass
        await ws.send(
            json.dumps({"type": "act", "action": {"kind": "stop"}, "expected_seq": 0, "id": 5})
        )
        while True:
            frame: dict[str, object] = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if frame.get("id") == 5:
                return frame


def test_each_socket_reads_its_own_language(server: ThreadServer) -> None:
    code = create_room(server.url, "dice-duel", ["human", "bot:random"])["code"]
    base = server.url.replace("http://", "ws://") + f"/ws/{code}"
    german = run(_refusal(base + "?lang=de"))
    polish = run(_refusal(base, {"Accept-Language": "pl-PL,pl;q=0.9"}))
    english = run(_refusal(base))
    assert german["code"] == polish["code"] == english["code"] == "not_seated"
    assert german["message"] == "Zuschauer können nicht ziehen"
    assert polish["message"] == "widzowie nie mogą wykonywać ruchów"
    assert english["message"] == "spectators cannot act"


def test_room_notes_go_out_in_each_socket_s_language() -> None:
    """One broadcast: each socket gets the note in its language (encoded once per
    language); the room keeps it in English."""
    conns = Conns()
    readers = {}
    for lang in ("en", "de", "pl", "de"):
        conn = Conn(None, Config(db_url="sqlite+aiosqlite:///:memory:"))
        conn.lang = lang
        conns.add(conn)
        readers[conn] = lang
    info = p.RoomInfo(
        code="abc", game="dice-duel", rules_version="1", options={}, room_options={},
        public=False, status="closed", seats=(), commitment="x",
        notes=("closed after a long time without play",),
    )  # fmt: skip
    conns.broadcast(p.RoomUpdate(room=info))
    got: dict[str, set[str]] = {}
    for conn, lang in readers.items():
        frame = conn.queue.get_nowait()
        assert frame is not None
        got.setdefault(lang, set()).add(json.loads(frame)["room"]["notes"][0])
    assert got == {
        "en": {"closed after a long time without play"},
        "de": {"nach langer Zeit ohne Zug geschlossen"},
        "pl": {"zamknięty po długim czasie bez gry"},
    }
    assert info.notes == ("closed after a long time without play",)
