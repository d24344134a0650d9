"""Wire audit: seeded full games of every game with two clients and a spectator,
recording every frame each socket receives. No frame carries a secret that its
seat may not know yet:

* every game: the seed (before the end) and the dice source (the only carrier
  of dice not yet rolled); every event in a frame is visible to its seat and
  every view is that seat's own;
* The Decades: the other team's secret choice (answer year, tokens, card)
  before the reveal, the years of questions not yet scored, the other team's
  action cards.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import msgspec
import pytest
from harness import Client, ThreadServer, claim, create_room, run

from gamenight.core import registry
from gamenight.core.dice import SeededDice
from gamenight.core.frames import public_form
from gamenight.core.game import to_json
from gamenight.core.record import parse_record
from gamenight.core.table import Table

# Every registered game (plug-ins too: tests/plugins/toy), two seats; a shorter Decathlon.
OPTIONS: dict[str, dict[str, Any]] = {"decathlon": {"events": "100m,long-jump,high-jump"}}
GAMES = [(entry.id, OPTIONS.get(entry.id, {})) for entry in registry.available()]


def _dicts(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from _dicts(v)
    elif isinstance(value, list):
        for v in value:
            yield from _dicts(v)


@pytest.mark.parametrize(("game_id", "options"), GAMES, ids=[g for g, _ in GAMES])
def test_no_frame_carries_a_secret(
    server: ThreadServer, game_id: str, options: dict[str, Any]
) -> None:
    code = create_room(server.url, game_id, ["human", "human"], options=options)["code"]
    tokens = [claim(server.url, code, s, f"Team {s}") for s in (0, 1)]
    clients: list[Client] = []

    async def main() -> None:
        spectator = Client(server.url, code)
        await spectator.connect()
        players = [Client(server.url, code, t) for t in tokens]
        for c in players:
            await c.connect()
        rng = random.Random(11)
        await asyncio.gather(*(c.play_randomly(rng) for c in players))
        await asyncio.sleep(0.2)
        clients.extend([*players, spectator])
        for c in clients:
            await c.close()

    run(main())
    info = httpx.get(f"{server.url}/api/rooms/{code}").json()
    record = parse_record(httpx.get(f"{server.url}/api/rooms/{code}/record").text.splitlines())
    seed = int(info["seed"])
    entry = registry.get(game_id)
    game = entry.game
    dice = record.dice_seed()  # derived from the seed and both players' contributions
    assert dice is not None and dice != seed
    table = Table.start(game, 2, game.parse_options(record.options), SeededDice(seed=dice))
    states = [table.state]
    for actor, action, _events in record.actions:
        table.submit(actor, game.decode_action(action))
        states.append(table.state)
    final = len(states) - 1
    assert final == info["seq"]

    for client in clients:
        seat = client.seat
        assert len(client.raw) > 3
        for raw, frame in zip(client.raw, client.frames, strict=True):
            kind = frame["type"]
            room = frame.get("room")
            finished_now = room is not None and room["status"] == "finished"
            if not finished_now:
                assert str(seed) not in raw and hex(seed)[2:] not in raw, "the seed leaked"
            for d in _dicts(frame):
                assert "counter" not in d and d.get("kind") != "seeded", "a dice source leaked"
                assert not ("seed" in d and d is not room and d is not frame), raw[:200]
            if kind not in ("snapshot", "events"):
                continue
            seq = frame["seq"]
            state = states[seq]
            assert frame["view"] is None or frame["view"] == to_json(game.view(state, seat))
            events = frame["events"]
            for item in events:
                event = item["event"] if kind == "snapshot" else item
                audience = event.get("audience")
                assert audience is None or (seat is not None and seat in audience), event
            if kind == "events" and frame["seat"] != seat:
                acted = record.actions[seq - 1]
                public = to_json(public_form(game, state, acted[0], game.decode_action(acted[1])))
                assert frame["action"] == public
            if game_id == "decades":
                _audit_decades(frame, raw, state, seat)


def _audit_decades(frame: dict[str, Any], raw: str, state: Any, seat: int | None) -> None:
    teams = (0, 1) if seat is None else (1 - seat,)
    # The seat's own legal actions list every year it may answer: leave them out.
    raw = json.dumps({k: v for k, v in frame.items() if k != "legal"}, separators=(",", ":"))
    # The other team's secret choice before the reveal (answer year, tokens, card).
    for other in teams:
        pending = state.pending[other]
        if pending is None:
            continue
        secret = msgspec.json.encode(pending).decode()
        own = None if seat is None else state.pending[seat]
        if own is None or msgspec.json.encode(own).decode() != secret:
            assert secret not in raw, f"team {other}'s choice leaked to {seat}: {secret}"
    # Years of questions not yet scored: only scored categories carry text and year.
    scored = {c.text for r in state.log for c in r.categories}
    for d in _dicts(frame):
        if "text" in d and "year" in d:
            assert d["text"] in scored, f"an unscored question's year leaked: {d}"
        for key in ("hand", "dealt", "hands"):
            if isinstance(d.get(key), list) and d[key] and d is not frame.get("view"):
                pytest.fail(f"cards outside the seat's own view: {key} in {json.dumps(d)[:200]}")
    view = frame.get("view")
    if view is not None:
        if seat is None:
            assert view["hand"] == [] and view["dealt"] == [] and view["pending"] is None
        else:
            assert view["hand"] == list(state.hands[seat])
            assert view["dealt"] == list(state.dealt[seat])
