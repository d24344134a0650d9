"""Ratings from rated results (issue 43): order-free, idempotent, and exact after a
restart mid-update, as properties; and through the storage on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import random
import time

import httpx
from harness import Client, ThreadServer, run
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.core import registry
from gamenight.server.accounts.rated import record, sweep
from gamenight.server.accounts.ratings import DELETED, Place, Rating, Result, fold, fresh
from gamenight.server.accounts.store import AccountStore, ladder
from gamenight.server.db import Store, migrate

PLAYERS = [f"account:{i}" for i in range(1, 6)] + ["bot:greedy"]
POOL = 'decathlon {"events":["100m"]}'
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


# ----- bots with fixed ratings (issue 43, part 2) ------------------------------------------
LADDER = ladder("decathlon")
ALL = [f"account:{i}" for i in range(1, 5)] + sorted(LADDER)


@st.composite
def mixed(draw: st.DrawFn) -> list[Result]:
    """Rated results of accounts and laddered bots (each room its own seats)."""
    rooms = draw(st.lists(st.integers(1, 80), min_size=1, max_size=25, unique=True))
    out = []
    for room in rooms:
        seats = draw(st.integers(2, 4))
        who = draw(st.permutations(ALL))[:seats]
        places = [draw(st.integers(1, seats)) for _ in who]
        out.append(Result(room, float(draw(st.integers(0, 9))), tuple(map(Place, who, places))))
    return out


def test_every_game_has_a_ladder_with_random_at_its_foot() -> None:
    for entry in registry.available():
        fixed = ladder(entry.id)
        assert set(fixed) == {f"bot:{b}" for b in entry.bot_infos}, entry.id
        assert min(fixed.values(), key=lambda r: r.mu) == fixed["bot:random"]


@settings(max_examples=60, deadline=None)
@given(mixed(), st.randoms(use_true_random=False))
def test_bot_rows_are_unchanged_by_any_fold(found: list[Result], rnd: random.Random) -> None:
    """Whatever the results and their order, no bot is rated by them: its row is the
    ladder's; the accounts' ratings are order-free as before."""
    before = dict(LADDER)
    standing = fold(found, LADDER)
    assert not set(standing.ratings) & set(LADDER)
    assert not set(standing.history) & set(LADDER)
    assert before == LADDER == ladder("decathlon")  # the fixed ratings are not touched
    shuffled = list(found)
    rnd.shuffle(shuffled)
    assert fold(shuffled + shuffled[:2], LADDER).ratings == standing.ratings


def test_a_bot_ranks_the_player_by_its_rung() -> None:
    """Beating a stronger bot gains more than beating a weaker one."""
    beat = {
        bot: fold([Result(1, 1.0, (Place("account:1", 1), Place(bot, 2)))], LADDER)
        .ratings["account:1"]
        .mu
        for bot in ("bot:random", "bot:optimal")
    }
    assert beat["bot:optimal"] > beat["bot:random"] > 25.0


def test_an_account_against_a_bot_is_rated_once(db_url: str) -> None:
    """A rated room, an account against a laddered bot, played to the end over the real
    server: the account's rating changes once; its result written again (the start's
    sweep, another process) or a restart changes nothing; the bot's row stays the ladder's."""

    def board(url: str) -> dict[tuple[str, bool], dict[str, float]]:
        with httpx.Client(base_url=url) as c:
            rows = c.get("/api/leaderboard", params={"pool": POOL}).json()["rows"]
        return {(r["name"], r["bot"]): r["rating"] for r in rows}

    with ThreadServer(db_url) as srv:
        with httpx.Client(base_url=srv.url, headers={"Origin": srv.url}, timeout=30) as c:
            body = {"name": "Ann", "password": "correct horse battery"}
            assert c.post("/api/account/signup", json=body).status_code == 201
            made = c.post(
                "/api/rooms",
                json={
                    "game": "decathlon",
                    "seats": ["human", "bot:greedy"],
                    "options": {"events": "100m"},
                    "room": {"rated": True, "bot_pace": 0},
                },
            ).json()
            code = made["code"]
            claim = {"name": "Ann", "contribution": "part"}
            token = c.post(f"/api/rooms/{code}/seats/0/claim", json=claim).json()["token"]

        async def play() -> None:
            me = Client(srv.url, code, token)
            await me.connect()
            await me.play_randomly(random.Random(1))
            await me.close()

        run(play())
        for _ in range(300):  # written in the background as the game ends
            if ("Ann", False) in board(srv.url):
                break
            time.sleep(0.05)
        first = board(srv.url)
        assert first[("Ann", False)]["games"] == 1
        assert first[("Ann", False)]["sigma"] < fresh().sigma  # moved (a tie keeps mu)
        fixed = ladder(POOL)["bot:greedy"]
        assert (first[("greedy", True)]["mu"], first[("greedy", True)]["sigma"]) == (
            fixed.mu,
            fixed.sigma,
        )
        hub = srv.hub

        async def again() -> tuple[int, bool]:
            store = AccountStore(hub.store.engine)
            room = await hub.room(code)
            assert room is not None and room.table is not None
            results = room.table.results()
            assert results is not None
            return await sweep(store, hub.room), await record(store, room.id, POOL, results)

        loop = hub._tasks[0].get_loop()  # the server's loop: its engine's connections
        done = asyncio.run_coroutine_threadsafe(again(), loop)
        assert done.result(60) == (0, False)  # already written: nothing more
        assert board(srv.url) == first
    with ThreadServer(db_url) as restarted:
        assert board(restarted.url) == first
