"""Ratings from rated results (issue 43): order-free, idempotent, and exact after a
restart mid-update, as properties; and through the storage on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.server.accounts.ratings import DELETED, Place, Rating, Result, fold
from gamenight.server.accounts.store import AccountStore
from gamenight.server.db import Store, migrate

PLAYERS = [f"account:{i}" for i in range(1, 6)] + ["bot:greedy"]
BOTS = {"bot:greedy": Rating(24.0, 2.0)}


@st.composite
def results(draw: st.DrawFn) -> list[Result]:
    rooms = draw(st.lists(st.integers(1, 60), min_size=1, max_size=25, unique=True))
    out = []
    for room in rooms:
        seats = draw(st.integers(2, 4))
        who = draw(st.permutations(PLAYERS))[:seats]
        places = [draw(st.integers(1, seats)) for _ in who]
        finished = draw(st.sampled_from([1.0, 2.0, 3.0, float(room)]))  # ties in time too
        out.append(
            Result(room, finished, tuple(Place(w, p) for w, p in zip(who, places, strict=True)))
        )
    return out


@settings(max_examples=60, deadline=None)
@given(results(), st.randoms(use_true_random=False))
def test_order_free_and_idempotent(found: list[Result], rnd: random.Random) -> None:
    once = fold(found, BOTS)
    shuffled = list(found)
    rnd.shuffle(shuffled)
    again = shuffled + rnd.sample(found, k=min(3, len(found)))  # some written twice
    twice = fold(again, BOTS)
    assert twice.ratings == once.ratings  # exactly: the same arithmetic in the same order
    assert twice.history == once.history
    assert "bot:greedy" not in once.ratings  # a bot keeps its fixed rating


@settings(max_examples=40, deadline=None)
@given(results(), st.integers(0, 25))
def test_a_restart_mid_way_is_exact(found: list[Result], cut: int) -> None:
    """A process that stops after writing some rows and a new one that writes them all
    again (each row once: the room's key) end at the same ratings as one pass."""
    written: dict[int, Result] = {}
    for result in found[:cut]:
        written.setdefault(result.room_id, result)
    for result in found:  # the restarted process writes everything again
        written.setdefault(result.room_id, result)
    assert fold(written.values(), BOTS).ratings == fold(found, BOTS).ratings


def test_a_deleted_player_is_not_kept() -> None:
    game = Result(1, 1.0, (Place("account:1", 1), Place(DELETED, 2)))
    assert set(fold([game]).ratings) == {"account:1"}


def test_the_winner_gains() -> None:
    game = Result(1, 1.0, (Place("account:1", 2), Place("account:2", 1)))
    after = fold([game]).ratings
    assert after["account:2"].mu > 25 > after["account:1"].mu
    assert after["account:1"].games == after["account:2"].games == 1


def test_results_through_the_storage_are_written_once(db_url: str) -> None:
    """Two "processes" (two stores on one database) record the same results in
    different orders, one of them twice: one row per room, the same ratings."""
    migrate(db_url)
    rnd = random.Random(7)
    found = [
        Result(
            room,
            float(room % 4),
            tuple(Place(w, p) for w, p in zip(rnd.sample(PLAYERS[:5], 3), (1, 2, 2), strict=True)),
        )
        for room in range(1, 30)
    ]

    async def run() -> tuple[list[Result], list[Result]]:
        stores = [Store(db_url), Store(db_url)]
        try:
            accounts = [AccountStore(s.engine) for s in stores]
            orders = [list(found), list(reversed(found)) + found[:5]]
            for store, order in zip(accounts, orders, strict=True):
                for r in order:
                    await store.record_result(r.room_id, "dice-duel", r.finished_at, r.places)
            return await accounts[0].results("dice-duel"), await accounts[1].results("dice-duel")
        finally:
            for s in stores:
                await s.close()

    a, b = asyncio.run(run())
    assert len(a) == len(found) and sorted(x.room_id for x in a) == sorted(x.room_id for x in b)
    assert fold(a).ratings == fold(b).ratings == fold(found).ratings
