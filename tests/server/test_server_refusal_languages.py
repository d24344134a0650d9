"""The rules' refusals over the WebSocket in each socket's language (issue 26): the same
wrong move gets the same code and the rules' reason in German, Polish or English,
said by `i18n.said` from the rules' own sentence; the room and its record stay English."""

from __future__ import annotations

from typing import Any

from harness import Client, ThreadServer, claim, create_room, run

WRONG_KEEP = {"type": "roll", "keep": [0, 0]}  # a position twice: refused by the rules
SAID = {
    "en": "keep [0, 0]: list each position once, in order",
    "de": "behalten [0, 0]: nenne jede Position einmal, der Reihe nach",
    "pl": "zatrzymaj [0, 0]: podaj każdą pozycję raz, po kolei",
}
NOT_YOURS = {
    "en": "it is not seat {seat}'s turn to act",
    "de": "Platz {seat} ist nicht am Zug",
    "pl": "miejsce {seat} nie ma teraz ruchu",
}
STALE = {"de": "dieser Zug war für Stellung 7", "pl": "ten ruch był dla pozycji 7"}


def test_a_refused_move_is_told_in_each_socket_s_language(server: ThreadServer) -> None:
    code = create_room(server.url, "dice-duel", ["human", "human"])["code"]
    tokens = [claim(server.url, code, seat, f"P{seat}") for seat in (0, 1)]

    async def main() -> dict[str, Any]:
        got: dict[str, Any] = {}
        for lang in ("de", "pl", "en"):
            clients = []
            for seat in (0, 1):
                client = Client(server.url, code, tokens[seat])
                client.ws_url += f"?lang={lang}"
                await client.connect()
                clients.append(client)
            mover = next(c for c in clients if c.state.get("legal"))
            waiting = next(c for c in clients if c is not mover)
            got[lang] = {
                "wrong": await mover.act(WRONG_KEEP),
                "not yours": await waiting.act(WRONG_KEEP),
                "stale": await mover.act(WRONG_KEEP, expected_seq=7),
                "waiting seat": waiting.seat,
            }
            for client in clients:
                await client.close()
        return got

    got = run(main())
    for lang, replies in got.items():
        assert {replies[k]["code"] for k in ("wrong", "not yours")} == {"illegal"}
        assert replies["stale"]["code"] == "stale"
        assert replies["wrong"]["message"] == SAID[lang]
        seat = replies["waiting seat"]
        assert replies["not yours"]["message"] == NOT_YOURS[lang].format(seat=seat)
        if lang != "en":
            assert replies["stale"]["message"].startswith(STALE[lang])
    assert server.hub.rooms[code].seq == 0  # nothing changed
