"""What an account holds in every table (issue 43, "your data"): each table of the one
schema with an ``account_id`` column, found from the schema itself, so that a table
added later (the notifications' subscriptions, issue 44) is exported and deleted with the
rest, with no list here to forget it in.

>>> sorted(SECRET)
['password_hash', 'public_key', 'secret', 'token_hash', 'unsub_hash']
"""

from __future__ import annotations

from sqlalchemy import Table, delete, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from gamenight.server.storage.schema import METADATA

# Rows that stay when their account goes: a seat is part of a game's record; only the
# account's hold on it is dropped.
KEPT = frozenset({"seats"})
# Exported in a shape of their own by ``AccountStore.export``.
SHAPED = frozenset({"seats", "sessions", "passkeys"})
# Never in an export: hashes of tokens and keys, and a webhook's signing secret (shown once).
SECRET = frozenset({"token_hash", "password_hash", "public_key", "secret", "unsub_hash"})
# The export's name for a table, where it is not the table's own.
NAMES = {"notify_subs": "notifications"}


def account_tables() -> list[Table]:
    """The tables with an ``account_id`` column, parents before children."""
    return [t for t in METADATA.sorted_tables if "account_id" in t.c]


async def export_rest(conn: AsyncConnection, account_id: int) -> dict[str, list[dict[str, object]]]:
    """The account's rows of every table not exported in a shape of its own, secrets left
    out."""
    out: dict[str, list[dict[str, object]]] = {}
    for table in account_tables():
        if table.name in SHAPED:
            continue
        rows = await conn.execute(select(table).where(table.c.account_id == account_id))
        out[NAMES.get(table.name, table.name)] = [
            {k: v for k, v in r._mapping.items() if k not in SECRET and k != "account_id"}
            for r in rows
        ]
    return out


async def delete_all(conn: AsyncConnection, account_id: int) -> None:
    """Delete the account's rows from every table (children first), but for the rows
    that stay (:data:`KEPT`), which only lose their account."""
    for table in reversed(account_tables()):
        mine = table.c.account_id == account_id
        if table.name in KEPT:
            await conn.execute(update(table).where(mine).values(account_id=None))
        else:
            await conn.execute(delete(table).where(mine))
