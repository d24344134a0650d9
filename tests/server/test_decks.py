"""Decks in rooms: a Decades room plays a deck of the server's own library, named by id."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from harness import ThreadServer, create_room

from gamenight.games.decades import library
from gamenight.games.decades.deck import Deck, deck_to_json, default_deck


def test_a_room_plays_a_library_deck_named_by_id_never_a_path(
    sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("platformdirs.user_data_dir", lambda *_a, **_kw: str(tmp_path / "data"))
    library.forget()
    try:
        source = tmp_path / "party.json"
        source.write_text(deck_to_json(Deck("party", default_deck().cards[:6])), "utf-8")
        info = library.import_deck(source)
        stored = str(tmp_path / "data" / "decks" / f"{info.id}.json")
        with ThreadServer(sqlite_url) as server:
            # issue 45: the Decades-named alias is gone (docs/protocol.md, "Changes")
            assert httpx.get(f"{server.url}/api/decks").status_code == 404
            games = httpx.get(f"{server.url}/api/games").json()
            decades = next(g for g in games if g["id"] == "decades")
            deck = next(o for o in decades["options"] if o["name"] == "deck")
            assert deck["catalogue"] == {
                "url": "/api/games/decades/catalogues/deck",
                "noun": "deck",
                "defaults": ["", "default"],
                "default_label": "the shipped deck",
                "default_language": "en",
            }
            assert all(
                o.get("catalogue") is None for g in games for o in g["options"] if o is not deck
            )
            entries = httpx.get(server.url + deck["catalogue"]["url"]).json()
            assert entries == [
                {"id": "shipped-de", "name": "Gamenight-Standardstapel", "detail": "48 cards",
                 "count": 48, "language": "de"},
                {"id": "shipped-pl", "name": "Standardowa talia gamenight", "detail": "48 cards",
                 "count": 48, "language": "pl"},
                {"id": info.id, "name": "party", "detail": "6 cards", "count": 6, "language": "en"},
            ]  # fmt: skip
            for missing in ("/api/games/decades/catalogues/track", "/api/games/chess/catalogues/x"):
                assert httpx.get(server.url + missing).status_code == 404, missing
            created = create_room(
                server.url, "decades", ["human", "human"], options={"deck": info.id}
            )
            room = httpx.get(f"{server.url}/api/rooms/{created['code']}").json()
            assert room["options"]["deck"] == info.id
            polish = create_room(
                server.url, "decades", ["human", "human"], options={"deck": "shipped-pl"}
            )
            room = httpx.get(f"{server.url}/api/rooms/{polish['code']}").json()
            assert room["options"]["deck"] == "shipped-pl"  # an id: no text of the deck
            for bad in (stored, info.id[:12], info.id.upper(), "0" * 64, 7):
                reply = httpx.post(
                    f"{server.url}/api/rooms",
                    json={"game": "decades", "seats": ["human", "human"], "options": {"deck": bad}},
                )
                assert reply.status_code == 400, bad
                assert reply.json()["code"] == "bad_option_value", bad
                assert reply.json()["message"] == (
                    "option 'deck' names no deck of this server's catalogue (see GET "
                    "/api/games/decades/catalogues/deck; empty for the shipped deck)"
                ), bad
    finally:
        library.forget()
