"""Sign-in throttles hold across processes (issue 43): two real server processes on one
PostgreSQL share one budget per account name, so alternating between them gains an
attacker nothing; and the shared bucket itself, concurrent attempts each taking one
token, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from harness import ProcessServer

from gamenight.server.accounts.throttle import SharedThrottle
from gamenight.server.dburl import normalise_url
from gamenight.server.storage.engine import make_engine
from gamenight.server.storage.schema import migrate

PASSWORD = "correct horse battery"


def test_two_processes_share_one_budget_per_name(
    pg_pair: tuple[ProcessServer, ProcessServer],
) -> None:
    """5 attempts per name at once (the sign-up is one), then one every 30 s: eight wrong
    passwords spread over both processes get at most 4 answers before the 429s, as on one
    process (each process had its own 5 before)."""
    a, b = pg_pair
    with httpx.Client(base_url=a.url, headers={"Origin": a.url}) as c:
        made = c.post("/api/account/signup", json={"name": "Ann", "password": PASSWORD})
        assert made.status_code == 201, made.text
    codes = []
    for i in range(8):
        server = (a, b)[i % 2]
        with httpx.Client(base_url=server.url, headers={"Origin": server.url}) as c:
            codes.append(
                c.post(
                    "/api/account/signin", json={"name": "ann", "password": "wrong password"}
                ).status_code
            )
    assert codes.count(401) <= 5 and codes[-1] == 429, codes  # 4, or 5 after a refill


def _throttle_of(url: str) -> SharedThrottle:
    async_url = normalise_url(url)
    engine = make_engine(async_url, postgres=async_url.startswith("postgresql"))
    return SharedThrottle(engine, {"account": (1 / 3600, 5.0)})


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_concurrent_attempts_each_take_a_token(
    backend: str, tmp_path: object, request: pytest.FixtureRequest
) -> None:
    if backend == "sqlite":
        url = f"sqlite:///{tmp_path}/throttle.sqlite3"
    else:
        url = request.getfixturevalue("pg").new_database()
    migrate(url)

    async def attempts() -> list[int]:
        throttles = [_throttle_of(url), _throttle_of(url)]  # two engines: two "processes"
        try:
            waits = await asyncio.gather(
                *(throttles[i % 2].admit("account", "ann") for i in range(12))
            )
        finally:
            for t in throttles:
                await t.engine.dispose()
        return list(waits)

    waits = asyncio.run(attempts())
    assert waits.count(0) == 5, waits  # the burst, exactly, however the attempts interleave
    assert all(w > 0 for w in waits if w) and max(waits) <= 3600
