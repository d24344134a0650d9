"""The server's storage: SQLAlchemy 2 (async Core) on SQLite (the embedded default, one
server process) or PostgreSQL (several), one module per purpose:

* :mod:`~.schema` — the tables and :func:`~.schema.migrate` (Alembic; a new database:
  ``server/headschema.py``);
* :mod:`~.engine` — the engine and what every part of the store shares (NOTIFY);
* :mod:`~.outage` — telling a database outage from a bug, the guard of every call;
* :mod:`~.rows` — what the store reads, as frozen rows;
* :mod:`~.rooms`, :mod:`~.seats`, :mod:`~.log` (with :mod:`~.group` and
  :mod:`~.writers`: the group-committed action log), :mod:`~.presence`,
  :mod:`~.chat` — the parts of the :class:`~.store.Store`.

Tokens are never stored: only their sha256 (``server/tokens.py``).
"""
