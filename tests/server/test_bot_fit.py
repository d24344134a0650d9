"""The bots' ratings fitted from their games (issue 43): ``gamenight fit-bots`` writes a
pool's ``bot_ratings`` rows (SQLite and PostgreSQL), the store and the leaderboard then
show them, the fit ranks by the games' results and is order-free, reruns give the same
rows, bad input is one line in en/de/pl, and the shipped ladders are what the command
makes."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from harness import ThreadServer
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from gamenight.cli.main import run
from gamenight.core import i18n, registry
from gamenight.server.accounts import ladder
from gamenight.server.accounts.rated import pool_of
from gamenight.server.accounts.ratings import Place, Rating, fit
from gamenight.server.accounts.store import AccountStore
from gamenight.server.accounts.tables import BOT_RATINGS
from gamenight.server.db import Store, migrate

FEW = ["--games", "6", "--seed", "5", "-j", "1"]


def gamenight(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """``gamenight ARGV`` in this process: (exit code, stdout, stderr)."""
    code = 0
    try:
        run(argv)
    except SystemExit as exit_info:
        code = exit_info.code if isinstance(exit_info.code, int) else 1
    finally:
        i18n.set_default_language("en")
    out, err = capsys.readouterr()
    return code, out, err


def rows_of(url: str) -> dict[str, dict[str, tuple[float, float]]]:
    """Every row of ``bot_ratings``: pool -> bot -> (mu, sigma)."""

    async def read() -> dict[str, dict[str, tuple[float, float]]]:
        store = Store(url)
        try:
            async with store.engine.connect() as conn:
                found = (await conn.execute(select(BOT_RATINGS))).all()
        finally:
            await store.close()
        out: dict[str, dict[str, tuple[float, float]]] = {}
        for r in found:
            out.setdefault(r.pool, {})[r.bot] = (r.mu, r.sigma)
        return out

    return asyncio.run(read())


def bot_ratings(url: str, pool: str) -> dict[str, Rating]:
    async def read() -> dict[str, Rating]:
        store = Store(url)
        try:
            return await AccountStore(store.engine).bot_ratings(pool)
        finally:
            await store.close()

    return asyncio.run(read())


# ----- the fit itself ------------------------------------------------------------------
def duels(wins: dict[tuple[str, str], int]) -> list[tuple[Place, ...]]:
    """Two-seat games: ``wins[a, b]`` games that a won against b."""
    return [(Place(a, 1), Place(b, 2)) for (a, b), n in sorted(wins.items()) for _ in range(n)]


def test_the_stronger_bot_gets_the_higher_mu() -> None:
    """A scripted tournament: a beats b 3 times in 4, b beats c as often, a beats c
    always: mu in that order, the mean at a new account's 25, a tie half a win."""
    games = duels({("a", "b"): 30, ("b", "a"): 10, ("b", "c"): 30, ("c", "b"): 10, ("a", "c"): 40})
    rated = fit(games)
    assert rated["a"].mu > rated["b"].mu > rated["c"].mu
    assert sum(r.mu for r in rated.values()) / 3 == pytest.approx(25.0, abs=1e-9)
    assert all(0 < r.sigma < 25 / 3 for r in rated.values())
    assert rated["a"].games == 80 and rated["b"].games == 80
    even = fit([(Place("x", 1), Place("y", 1))] * 10)  # ties only: equal strengths
    assert even["x"].mu == pytest.approx(even["y"].mu, abs=1e-9)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.lists(st.integers(1, 4), min_size=2, max_size=4).map(tuple), min_size=1, max_size=30
    ),
    st.randoms(use_true_random=False),
)
def test_the_fit_is_order_free(places: list[tuple[int, ...]], rnd: random.Random) -> None:
    """Whatever the games and their order (seat counts mixed, ties, one bot in two seats),
    the same ratings, the mean at 25."""
    bots = ["p", "q", "r", "s"]
    games = [
        tuple(Place(bots[(i + s) % (1 + i % 4)], p) for s, p in enumerate(row))
        for i, row in enumerate(places)
    ]
    once = fit(games)
    shuffled = list(games)
    rnd.shuffle(shuffled)
    again = fit(shuffled)
    assert set(again) == set(once)
    for who, r in once.items():
        assert again[who].mu == pytest.approx(r.mu, abs=1e-6)
        assert again[who].sigma == pytest.approx(r.sigma, abs=1e-6)
    assert sum(r.mu for r in once.values()) / len(once) == pytest.approx(25.0, abs=1e-6)


# ----- the command, on SQLite and PostgreSQL ----------------------------------------------
def test_fit_bots_writes_the_pools_rows(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The command replaces the pool's rows (one transaction), keeps other pools', and a
    second run with the same seed writes the same rows; the store and the leaderboard show
    them; a variant with no rows and no fit of its own stands on the game's."""
    migrate(db_url)

    async def seed_rows() -> None:
        store = Store(db_url)
        try:
            accounts = AccountStore(store.engine)
            await accounts.set_bot_ratings("dice-duel", {"gone": Rating(1.0, 1.0)})
            await accounts.set_bot_ratings("wurfeltod", {"greedy": Rating(2.0, 1.0)})
        finally:
            await store.close()

    asyncio.run(seed_rows())
    code, out, err = gamenight(["fit-bots", "dice-duel", *FEW, "--db", db_url], capsys)
    assert code == 0, err
    assert "dice-duel" in out
    first = rows_of(db_url)
    assert set(first) == {"dice-duel", "wurfeltod"}  # the other pool untouched
    assert set(first["dice-duel"]) == {"random", "turn-optimal"}  # the stray row replaced
    assert first["wurfeltod"] == {"greedy": (2.0, 1.0)}
    assert first["dice-duel"]["turn-optimal"][0] > first["dice-duel"]["random"][0]
    code, _out, err = gamenight(["fit-bots", "dice-duel", *FEW, "--db", db_url], capsys)
    assert code == 0, err
    assert rows_of(db_url) == first  # idempotent

    fitted = bot_ratings(db_url, "dice-duel")
    assert {k: (r.mu, r.sigma) for k, r in fitted.items()} == {
        f"bot:{b}": v for b, v in first["dice-duel"].items()
    }
    multi = 'dice-duel {"mode":"solo"}'  # a pool with no rows and no shipped fit
    assert bot_ratings(db_url, multi) == fitted

    def shown(board: dict[str, list[dict[str, Any]]]) -> dict[str, tuple[float, float]]:
        return {r["name"]: (r["rating"]["mu"], r["rating"]["sigma"]) for r in board["rows"]}

    champ = 'decathlon {"variant":"championship"}'  # a shipped variant's fit, unplayed
    with ThreadServer(db_url) as srv, httpx.Client(base_url=srv.url) as c:
        board = c.get("/api/leaderboard", params={"pool": "dice-duel"}).json()
        assert shown(board) == first["dice-duel"]
        assert champ in c.get("/api/leaderboards").json()
        variant = c.get("/api/leaderboard", params={"pool": champ}).json()
        # fitted again while the server runs (another seed, more games): no restart
        argv = ["fit-bots", "dice-duel", "--games", "12", "--seed", "6", "-j", "1"]
        code, _out, err = gamenight([*argv, "--db", db_url], capsys)
        assert code == 0, err
        second = rows_of(db_url)["dice-duel"]
        assert second != first["dice-duel"]
        board = c.get("/api/leaderboard", params={"pool": "dice-duel"}).json()
        assert shown(board) == second
    fitted_champ = ladder.shipped("gamenight.games.decathlon")[champ].bots
    assert {r["name"]: r["rating"]["mu"] for r in variant["rows"]} == {
        b: r.mu for b, r in fitted_champ.items()
    }


def test_a_variants_rows_go_under_its_pool(
    sqlite_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The pool is ``pool_of``'s for a room with those options, given either way."""
    migrate(sqlite_url)
    argv = ["fit-bots", "decathlon", "--events", "100m", "--bots", "random,greedy", *FEW]
    code, _out, err = gamenight([*argv, "--db", sqlite_url], capsys)
    assert code == 0, err
    pool = pool_of(registry.get("decathlon").game, {"events": "100m"})
    assert pool == 'decathlon {"events":["100m"]}'
    assert set(rows_of(sqlite_url)) == {pool}
    code, _out, err = gamenight(
        ["fit-bots", "decathlon", "-o", "events=100m", "--bots", "greedy,random", *FEW,
         "--db", sqlite_url],
        capsys,
    )  # fmt: skip
    assert code == 0, err
    assert set(rows_of(sqlite_url)) == {pool}


def test_a_dry_run_writes_nothing(sqlite_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    migrate(sqlite_url)
    code, out, err = gamenight(
        ["fit-bots", "dice-duel", *FEW, "--dry-run", "--db", sqlite_url], capsys
    )
    assert code == 0, err
    assert "turn-optimal" in out and rows_of(sqlite_url) == {}


BAD = [
    (["fit-bots", "no-such-game"], 2),
    (["fit-bots", "dice-duel", "--mode", "duel"], 2),
    (["fit-bots", "dice-duel", "--colour", "red"], 2),
    (["fit-bots", "dice-duel", "--games", "0"], 2),
    (["fit-bots", "dice-duel", "--games", "-3"], 2),
    (["fit-bots", "dice-duel", "--bots", "random"], 2),
    (["fit-bots", "dice-duel", "--bots", "random,nobody"], 2),
    (["fit-bots", "dice-duel", "--db", "mysql://u@h/db"], 2),
    (["fit-bots", "dice-duel", "--db", "sqlite:////no/such/folder/x.sqlite3"], 2),
    (["fit-bots", "dice-duel", "--db", "postgresql://u@127.0.0.1:1/db"], 3),
]


@pytest.mark.parametrize(("argv", "status"), BAD, ids=[" ".join(a[1:]) for a, _ in BAD])
def test_bad_input_is_one_line_in_every_language(
    argv: list[str], status: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """Refused before any game is played: one line, no traceback, in en/de/pl (the
    German and Polish lines are not the English one)."""
    said = {}
    for lang in ("en", "de", "pl"):
        code, out, err = gamenight(["--lang", lang, *argv, "-j", "1"], capsys)
        assert code == status, (lang, err)
        assert out == "" and err.count("\n") == 1 and "Traceback" not in err, err
        said[lang] = err.split(": ", 2)[2]  # after "gamenight: error: ", in its language
    assert said["de"] != said["en"] and said["pl"] != said["en"], said
    assert said["de"] != said["pl"]


# ----- the shipped ladders -----------------------------------------------------------------
def test_every_shipped_pool_is_a_fit_of_the_games_rated_bots() -> None:
    """Each game ships a fit of its default pool (Decathlon of its Championship too);
    every pool key is ``pool_of``'s, every bot a rated one, the mean at 25, ``random``
    at the foot."""
    ours = [e for e in registry.available() if e.source == "gamenight"]  # not the toy plug-in
    assert len(ours) == 4
    for entry in ours:
        pools = ladder.shipped(entry.package)
        assert entry.id in pools, entry.id
        rated = {n for n, info in entry.bot_infos.items() if info.rating is not None}
        for pool, fitted in pools.items():
            raw = {} if pool == entry.id else msgspec.json.decode(pool.partition(" ")[2])
            assert pool_of(entry.game, raw) == pool
            assert set(fitted.bots) <= rated, pool
            mean = sum(b.mu for b in fitted.bots.values()) / len(fitted.bots)
            assert mean == pytest.approx(25.0, abs=0.01), pool
            assert min(fitted.bots, key=lambda b: fitted.bots[b].mu) == "random", pool
    assert 'decathlon {"variant":"championship"}' in ladder.shipped("gamenight.games.decathlon")


def test_the_shipped_dice_duel_ladder_is_what_the_command_makes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rerun with the recorded seed and game count, the command writes the same ladder
    (the one game whose recorded fit takes seconds; the others' are checked above)."""
    shipped = ladder.shipped("gamenight.games.dice_duel")["dice-duel"]
    out = tmp_path / "ladder.json"
    recorded = ["--games", str(shipped.games), "--seed", str(shipped.seed)]
    argv = ["fit-bots", "dice-duel", *recorded, "--seats", str(shipped.seats), "--dry-run"]
    argv += ["--ladder", str(out), "-j", "1"]
    code, _out, err = gamenight(argv, capsys)
    assert code == 0, err
    assert ladder.read(out).pools["dice-duel"] == shipped


def test_the_ladder_falls_back_to_the_declared_rating(monkeypatch: pytest.MonkeyPatch) -> None:
    """A game that ships no fit (a plug-in) stands on its bots' declared ratings."""
    monkeypatch.setattr(ladder, "shipped", lambda package: {})
    fixed = ladder.ladder("wurfeltod")
    assert fixed["bot:greedy"] == Rating(25.0, ladder.BOT_SIGMA)
    assert re.fullmatch(r"bot:\S+", next(iter(fixed)))
