"""The JSON Schema of a game's wire types: its actions, its views and its events.

A client written from the docs alone needs them: the socket carries a game's actions
(``act``, ``legal``), views (``view``) and events (``events``) as the game's own
msgspec types (``docs/protocol.md``). They are generated from those types and kept in
``docs/schemas/<game id>.json`` (a test checks they are current). Regenerate with::

    python -m gamenight.core.schema docs/schemas

>>> from gamenight.core import registry
>>> schema = game_schema(registry.get("dice-duel").game)
>>> sorted(schema["properties"])
['action', 'event', 'view']
"""

from __future__ import annotations

import json
import sys
import typing
from pathlib import Path
from typing import Any

import msgspec

from gamenight.core.game import AnyGame


def view_type(game: AnyGame) -> Any:
    """The type ``game.view`` returns (its annotation)."""
    return typing.get_type_hints(type(game).view)["return"]


def game_schema(game: AnyGame) -> dict[str, Any]:
    """One document: ``properties`` ``action``, ``view`` and ``event`` (``$defs`` shared)."""
    info = game.info
    (action, view, event), components = msgspec.json.schema_components(
        [game.action_type, view_type(game), game.event_type], ref_template="#/$defs/{name}"
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"{info.name} ({info.id}), rules version {info.rules_version}",
        "description": (
            "The game's JSON on the gamenight socket (docs/protocol.md): `action` is what "
            "an `act` frame carries and `legal` lists; `view` is a seat's (or a "
            "spectator's) view in `snapshot` and `events` frames; `event` is one item of "
            "`events`, tagged by `kind`. An event with an `audience` is private: only the "
            "listed seats receive it (an empty list: nobody, the referee's record); one "
            "without is public."
        ),
        "$defs": components,
        "properties": {"action": action, "view": view, "event": event},
        "x-game": info.id,
        "x-rules-version": info.rules_version,
    }


def write_all(folder: Path) -> list[Path]:
    """Write ``<folder>/<id>.json`` for every registered game; the paths written."""
    from gamenight.core import registry

    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for entry in registry.available():
        path = folder / f"{entry.id}.json"
        path.write_text(render(entry.game), encoding="utf-8")
        written.append(path)
    return written


def render(game: AnyGame) -> str:
    return json.dumps(game_schema(game), indent=2, sort_keys=True) + "\n"


if __name__ == "__main__":  # pragma: no cover - a maintainer's command
    for written in write_all(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/schemas")):
        print(written)
