"""The published JSON Schemas are current and linked: the protocol's and each game's."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from harness import ThreadServer

from gamenight.core import registry
from gamenight.core.schema import game_schema, render
from gamenight.server.guard import HTTP_CODES

DOCS = Path(__file__).parents[2] / "docs"


def test_every_game_schema_is_current_and_linked() -> None:
    protocol = (DOCS / "protocol.md").read_text(encoding="utf-8")
    # gamenight's own games publish theirs here; a plug-in (the toy) publishes its own
    for entry in [e for e in registry.available() if e.package.startswith("gamenight.games.")]:
        path = DOCS / "schemas" / f"{entry.id}.json"
        assert path.exists(), f"run: python -m gamenight.core.schema docs/schemas ({entry.id})"
        assert path.read_text(encoding="utf-8") == render(entry.game), f"{path} is stale"
        assert f"schemas/{entry.id}.json" in protocol
        schema = game_schema(entry.game)
        assert {"action", "view", "event"} == set(schema["properties"])


def test_the_decades_schema_names_its_event_kinds_and_private_ones() -> None:
    schema = json.loads((DOCS / "schemas" / "decades.json").read_text(encoding="utf-8"))
    kinds = {
        d["properties"]["kind"]["enum"][0]
        for d in schema["$defs"].values()
        if "kind" in d.get("properties", {})
    }
    assert {"hand", "chosen", "deal", "score", "end"} <= kinds
    protocol = (DOCS / "protocol.md").read_text(encoding="utf-8")
    for kind in kinds:
        assert f"`{kind}`" in protocol, kind


def test_the_server_serves_each_game_schema(server: ThreadServer) -> None:
    for entry in registry.available():
        served = httpx.get(f"{server.url}/api/games/{entry.id}/schema").json()
        assert served == json.loads(render(entry.game))
    missing = httpx.get(f"{server.url}/api/games/chess/schema")
    assert missing.status_code == 404 and missing.json()["code"] == "bad_game"


def test_protocol_md_lists_every_error_and_close_code() -> None:
    protocol = (DOCS / "protocol.md").read_text(encoding="utf-8")
    schema = json.loads((DOCS / "protocol-schema.json").read_text(encoding="utf-8"))
    socket_codes = schema["$defs"]["Error"]["properties"]["code"]["enum"]
    for code in [*socket_codes, *HTTP_CODES]:
        assert f"`{code}`" in protocol, code
    for close in ("1000", "1008", "1009", "1011", "4403", "4404"):
        assert f"| {close} |" in protocol, close
    for limit in ("16 KiB", "64 KiB", "4 MiB", "**32**", "2^53 − 1", "2^31 − 1"):
        assert limit in protocol, limit
