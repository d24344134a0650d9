"""The storage under its older name: everything here is :mod:`gamenight.server.storage`'s
(kept so that importers, the Alembic environment and the tests need no change).

>>> normalise_url("postgresql://u@127.0.0.1:5432/db")
'postgresql+psycopg://u@127.0.0.1:5432/db'
>>> normalise_url("sqlite:////tmp/x.sqlite3")
'sqlite+aiosqlite:////tmp/x.sqlite3'
>>> len(token_hash("abc"))
64
"""

from __future__ import annotations

from gamenight.server.dburl import SCHEMA_HEAD as SCHEMA_HEAD
from gamenight.server.dburl import default_url as default_url
from gamenight.server.dburl import normalise_url as normalise_url
from gamenight.server.dburl import schema_is_current as schema_is_current
from gamenight.server.dburl import sync_url as sync_url
from gamenight.server.headschema import migrate as migrate
from gamenight.server.storage.engine import CONNECT_TIMEOUT as CONNECT_TIMEOUT
from gamenight.server.storage.engine import NOTIFY_CHANNEL as NOTIFY_CHANNEL
from gamenight.server.storage.group import AppendRequest as AppendRequest
from gamenight.server.storage.outage import RETRY_AFTER as RETRY_AFTER
from gamenight.server.storage.outage import is_outage as is_outage
from gamenight.server.storage.outage import outage_reason as outage_reason
from gamenight.server.storage.presence import HOLDER as HOLDER
from gamenight.server.storage.rows import ActionRow as ActionRow
from gamenight.server.storage.rows import Behind as Behind
from gamenight.server.storage.rows import ChatRow as ChatRow
from gamenight.server.storage.rows import IdleRoom as IdleRoom
from gamenight.server.storage.rows import OpenRoom as OpenRoom
from gamenight.server.storage.rows import PublicRoom as PublicRoom
from gamenight.server.storage.rows import RoomRow as RoomRow
from gamenight.server.storage.rows import SeatRow as SeatRow
from gamenight.server.storage.schema import ACTIONS as ACTIONS
from gamenight.server.storage.schema import CHAT as CHAT
from gamenight.server.storage.schema import METADATA as METADATA
from gamenight.server.storage.schema import PRESENCE as PRESENCE
from gamenight.server.storage.schema import ROOMS as ROOMS
from gamenight.server.storage.schema import SEATS as SEATS
from gamenight.server.storage.store import Store as Store
from gamenight.server.tokens import new_token as new_token
from gamenight.server.tokens import token_hash as token_hash
