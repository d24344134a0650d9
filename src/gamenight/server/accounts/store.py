"""Every read and write of accounts, sessions and rated results: short transactions on the
server's engine (``Store.engine``), database outages refused in one line as elsewhere."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import Row, delete, insert, select, update
from sqlalchemy import exc as sa_exc
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from gamenight.server.accounts.holdings import delete_all, export_rest
from gamenight.server.accounts.ladder import BOT_SIGMA as BOT_SIGMA
from gamenight.server.accounts.ladder import fitted_pool, game_of
from gamenight.server.accounts.ladder import ladder as ladder
from gamenight.server.accounts.ratings import DELETED, Place, Rating, Result
from gamenight.server.accounts.tables import (
    ACCOUNTS,
    BOT_RATINGS,
    CHALLENGES,
    PASSKEYS,
    RATED_RESULTS,
    SESSIONS,
)
from gamenight.server.storage.outage import guarded as _guarded
from gamenight.server.storage.schema import CHAT, ROOMS, SEATS

SEEN_EVERY = 60.0  # seconds: a session's seen_at is refreshed at most this often


class NameTakenError(Exception):
    """The name (or one that looks like it) belongs to another account."""


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    password_hash: str | None
    public: bool
    created_at: float


@dataclass(frozen=True)
class SeatOf:
    """A seat an account holds: its room, the seat, and the room's state."""

    code: str
    game: str
    seat: int
    status: str


async def _bot_rows(conn: AsyncConnection, pool: str) -> dict[str, Rating]:
    """The operator's rows of ``bot_ratings`` for ``pool`` (``bot:NAME``)."""
    rows = await conn.execute(select(BOT_RATINGS).where(BOT_RATINGS.c.pool == pool))
    return {f"bot:{r.bot}": Rating(r.mu, r.sigma) for r in rows}


def _account(row: Row[Any]) -> Account:
    m = row._mapping
    return Account(
        int(m["id"]), m["name"], m["password_hash"], bool(m["public"]), float(m["created_at"])
    )


class AccountStore:
    """The accounts' storage on ``engine`` (the server's one database)."""

    NameTaken = NameTakenError

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine

    # ----- accounts ------------------------------------------------------------------
    @_guarded
    async def create(self, name: str, keys: tuple[str, str], password_hash: str | None) -> int:
        try:
            async with self.engine.begin() as conn:
                result = await conn.execute(
                    insert(ACCOUNTS).returning(ACCOUNTS.c.id),
                    {
                        "name": name,
                        "name_fold": keys[0],
                        "name_skeleton": keys[1],
                        "password_hash": password_hash,
                        "public": True,
                        "created_at": time.time(),
                    },
                )
                return int(result.scalar_one())
        except sa_exc.IntegrityError as exc:
            raise NameTakenError(name) from exc

    @_guarded
    async def by_keys(self, keys: tuple[str, str]) -> Account | None:
        """The account whose name looks like the one with ``keys`` (either key)."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(ACCOUNTS).where(
                        (ACCOUNTS.c.name_fold == keys[0]) | (ACCOUNTS.c.name_skeleton == keys[1])
                    )
                )
            ).first()
        return None if row is None else _account(row)

    @_guarded
    async def by_id(self, account_id: int) -> Account | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(ACCOUNTS).where(ACCOUNTS.c.id == account_id))).first()
        return None if row is None else _account(row)

    @_guarded
    async def set_public(self, account_id: int, public: bool) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                update(ACCOUNTS).where(ACCOUNTS.c.id == account_id).values(public=public)
            )

    @_guarded
    async def delete(self, account_id: int) -> None:
        """The account and everything of it: its rows in every table (sessions, passkeys,
        notifications...) and its hold on seats; in the rated results it becomes "deleted
        player" (its games stay, its ratings go)."""
        who = f"account:{account_id}"
        async with self.engine.begin() as conn:
            rows = (
                await conn.execute(
                    select(RATED_RESULTS.c.room_id, RATED_RESULTS.c.places).where(
                        RATED_RESULTS.c.places.contains(f'"{who}"')
                    )
                )
            ).all()
            for room_id, places in rows:
                kept = [{**p, "who": DELETED} if p["who"] == who else p for p in json.loads(places)]
                await conn.execute(
                    update(RATED_RESULTS)
                    .where(RATED_RESULTS.c.room_id == room_id)
                    .values(places=json.dumps(kept))
                )
            await delete_all(conn, account_id)  # every table's rows of it (seats: kept)
            await conn.execute(delete(ACCOUNTS).where(ACCOUNTS.c.id == account_id))

    # ----- sessions ------------------------------------------------------------------
    @_guarded
    async def add_session(self, account_id: int, token_hash: str, label: str) -> None:
        now = time.time()
        async with self.engine.begin() as conn:
            await conn.execute(
                insert(SESSIONS),
                {
                    "token_hash": token_hash,
                    "account_id": account_id,
                    "label": label[:120],
                    "created_at": now,
                    "seen_at": now,
                },
            )

    @_guarded
    async def session(self, token_hash: str) -> Account | None:
        """The account signed in with the session ``token_hash``, or None."""
        now = time.time()
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(ACCOUNTS, SESSIONS.c.seen_at)
                    .join(SESSIONS, SESSIONS.c.account_id == ACCOUNTS.c.id)
                    .where(SESSIONS.c.token_hash == token_hash)
                )
            ).first()
            if row is not None and now - row.seen_at > SEEN_EVERY:
                await conn.execute(
                    update(SESSIONS).where(SESSIONS.c.token_hash == token_hash).values(seen_at=now)
                )
                await conn.commit()
        return None if row is None else _account(row)

    @_guarded
    async def sessions(self, account_id: int) -> list[tuple[str, str, float, float]]:
        """(token hash, label, created, last seen) of every session of the account."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(
                    SESSIONS.c.token_hash,
                    SESSIONS.c.label,
                    SESSIONS.c.created_at,
                    SESSIONS.c.seen_at,
                )
                .where(SESSIONS.c.account_id == account_id)
                .order_by(SESSIONS.c.created_at)
            )
            return [(r[0], r[1], r[2], r[3]) for r in rows]

    @_guarded
    async def end_sessions(
        self, account_id: int, which: Literal["this", "others", "all"], token_hash: str
    ) -> int:
        """End the session ``token_hash`` (this), every other one, or all; how many ended."""
        query = delete(SESSIONS).where(SESSIONS.c.account_id == account_id)
        if which == "this":
            query = query.where(SESSIONS.c.token_hash == token_hash)
        elif which == "others":
            query = query.where(SESSIONS.c.token_hash != token_hash)
        async with self.engine.begin() as conn:
            return int((await conn.execute(query)).rowcount)

    # ----- seats and games -----------------------------------------------------------
    @_guarded
    async def seats(self, account_id: int) -> list[SeatOf]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(ROOMS.c.code, ROOMS.c.game, SEATS.c.seat, ROOMS.c.status)
                .join(ROOMS, ROOMS.c.id == SEATS.c.room_id)
                .where(SEATS.c.account_id == account_id)
                .order_by(ROOMS.c.id.desc())
            )
            return [SeatOf(r[0], r[1], r[2], r[3]) for r in rows]

    @_guarded
    async def holds_seat(self, room_id: int, account_id: int) -> bool:
        """Whether the account holds a claimed seat of the room."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(SEATS.c.seat).where(
                        (SEATS.c.room_id == room_id)
                        & (SEATS.c.account_id == account_id)
                        & SEATS.c.token_hash.is_not(None)
                    )
                )
            ).first()
        return row is not None

    # ----- rated results -------------------------------------------------------------
    @_guarded
    async def record_result(
        self, room_id: int, pool: str, finished_at: float, places: Sequence[Place]
    ) -> bool:
        """Write a rated room's result once: False if it was already written."""
        row = {
            "room_id": room_id,
            "pool": pool,
            "finished_at": finished_at,
            "places": json.dumps([{"who": p.who, "place": p.place} for p in places]),
        }
        try:
            async with self.engine.begin() as conn:
                await conn.execute(insert(RATED_RESULTS), row)
        except sa_exc.IntegrityError:
            return False
        return True

    @_guarded
    async def results(self, pool: str) -> list[Result]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(RATED_RESULTS).where(RATED_RESULTS.c.pool == pool))
            return [
                Result(
                    r.room_id,
                    r.finished_at,
                    tuple(Place(p["who"], int(p["place"])) for p in json.loads(r.places)),
                )
                for r in rows
            ]

    @_guarded
    async def pools(self) -> list[str]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(RATED_RESULTS.c.pool).distinct())
            return sorted(r[0] for r in rows)

    @_guarded
    async def bot_ratings(self, pool: str) -> dict[str, Rating]:
        """The bots' fixed ratings in ``pool``: its game's ladder (:func:`ladder`), each
        overridden by a row of ``bot_ratings`` for the pool (``gamenight fit-bots``). A
        variant with neither rows nor a shipped fit of its own stands on its game's
        default pool, the operator's rows for it included."""
        game = game_of(pool)
        async with self.engine.connect() as conn:
            own = await _bot_rows(conn, pool)
            if not own and pool != game and fitted_pool(pool) is None:
                own = await _bot_rows(conn, game)
        return {**ladder(pool), **own}

    @_guarded
    async def set_bot_ratings(self, pool: str, ratings: Mapping[str, Rating]) -> None:
        """Replace ``pool``'s rows of ``bot_ratings`` with ``ratings`` (by bot name), in
        one transaction: a reader sees the old fit or the new one, never a mix."""
        async with self.engine.begin() as conn:
            await conn.execute(delete(BOT_RATINGS).where(BOT_RATINGS.c.pool == pool))
            if ratings:
                await conn.execute(
                    insert(BOT_RATINGS),
                    [
                        {"pool": pool, "bot": bot, "mu": r.mu, "sigma": r.sigma}
                        for bot, r in sorted(ratings.items())
                    ],
                )

    @_guarded
    async def export(self, account_id: int) -> dict[str, object]:
        """Everything stored of the account, as JSON-ready data (secrets as hashes only)."""
        account = await self.by_id(account_id)
        if account is None:
            return {}
        async with self.engine.connect() as conn:
            chats = await conn.execute(
                select(ROOMS.c.code, CHAT.c.text, CHAT.c.at)
                .join(SEATS, (SEATS.c.room_id == CHAT.c.room_id) & (SEATS.c.seat == CHAT.c.seat))
                .join(ROOMS, ROOMS.c.id == CHAT.c.room_id)
                .where(SEATS.c.account_id == account_id)
            )
            chat = [{"room": r[0], "text": r[1], "at": r[2]} for r in chats]
            keys = await conn.execute(
                select(PASSKEYS.c.credential_id, PASSKEYS.c.created_at).where(
                    PASSKEYS.c.account_id == account_id
                )
            )
            passkeys = [{"credential_id": r[0], "created_at": r[1]} for r in keys]
            results = await conn.execute(
                select(RATED_RESULTS).where(
                    RATED_RESULTS.c.places.contains(f'"account:{account_id}"')
                )
            )
            rated = [
                {"room_id": r.room_id, "pool": r.pool, "places": json.loads(r.places)}
                for r in results
            ]
            rest = await export_rest(conn, account_id)  # notifications, any later table
        sessions = await self.sessions(account_id)
        return {
            "account": {
                "name": account.name,
                "public": account.public,
                "created_at": account.created_at,
                "password": account.password_hash is not None,
            },
            "sessions": [{"label": s[1], "created_at": s[2], "seen_at": s[3]} for s in sessions],
            "passkeys": passkeys,
            "seats": [s.__dict__ for s in await self.seats(account_id)],
            "chat": chat,
            "rated_results": rated,
            **rest,
        }

    @_guarded
    async def purge_challenges(self) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(delete(CHALLENGES).where(CHALLENGES.c.expires_at < time.time()))
