"""A room refused for its options or line-up, told in the request's language (issue 26):
`POST /api/rooms` with bad options answers `bad_options` (or `bad_seats`) with the
OptionsError's sentence said by `i18n.said` in the language of `?lang=`, else of
`Accept-Language` (server/guard.py), as the browser lobby sends it; the code stays the
stable part, and nothing is created."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from harness import ThreadServer

# (body, code, the English, what German and Polish say)
CASES: list[tuple[dict[str, Any], str, str, dict[str, str]]] = [
    (
        {"game": "decathlon", "seats": ["human", "bot:greedy"], "options": {"variant": "bogus"}},
        "bad_options",
        "option 'variant': 'bogus' is not one of points, championship",
        {
            "de": "Option „variant“: 'bogus' ist keiner der Werte points, championship",
            "pl": "opcja „variant”: 'bogus' nie jest żadną z wartości points, championship",
        },
    ),
    (
        {"game": "decathlon", "seats": ["human", "bot:greedy"], "options": {"nope": 1}},
        "bad_options",
        "decathlon has no option 'nope'",
        {"de": "decathlon hat keine Option „nope“", "pl": "decathlon nie ma opcji „nope”"},
    ),
    (
        {"game": "dice-duel", "seats": ["human"], "options": {"mode": "multi"}},
        "bad_seats",
        "Kniffel Dice Duel takes 2 to 6 players, not 1",
        {
            "de": "Kniffel Würfelduell: 2 bis 6 Spieler, nicht 1",
            "pl": "liczba graczy od 2 do 6, nie 1",
        },
    ),
    (
        {"game": "decathlon", "seats": ["human", "bot:nobody"]},
        "bad_seats",
        "a seat is 'human' or one of",
        {"de": "ein Platz ist „human“ oder einer von", "pl": "miejsce to „human” albo jedno z"},
    ),
    (
        {"game": "decathlon", "seats": ["human", "human"], "room": {"takeover_bot": "nobody"}},
        "bad_options",
        "has no bot 'nobody'",
        {"de": "hat keinen Bot „nobody“", "pl": "nie ma bota „nobody”"},
    ),
]


def _create(server: ThreadServer, body: dict[str, Any], **how: Any) -> dict[str, Any]:
    answer = httpx.post(f"{server.url}/api/rooms", json=body, **how)
    assert answer.status_code == 400, answer.text
    reply: dict[str, Any] = answer.json()
    return reply


@pytest.mark.parametrize("lang", ["de", "pl"])
def test_bad_options_are_told_in_the_request_s_language(server: ThreadServer, lang: str) -> None:
    for body, code, english, says in CASES:
        by_header = _create(server, body, headers={"Accept-Language": f"{lang},en;q=0.5"})
        by_query = _create(server, body, params={"lang": lang}, headers={"Accept-Language": "en"})
        for reply in (by_header, by_query):
            assert reply["code"] == code
            assert says[lang] in reply["message"], reply
            assert english not in reply["message"] and "\n" not in reply["message"]
    assert server.hub.rooms == {}  # nothing was created


def test_english_keeps_the_sentence(server: ThreadServer) -> None:
    for body, code, english, _says in CASES:
        reply = _create(server, body, headers={"Accept-Language": "en"})
        assert reply["code"] == code and english in reply["message"], reply
