"""The game server: rooms, seats, bots and a documented WebSocket protocol.

``gamenight serve`` runs :func:`gamenight.server.app.create_app` under uvicorn.
Layout:

* :mod:`~gamenight.server.db` — SQLAlchemy 2 (async) models and the store;
  the schema is created by the Alembic migration in ``migrations/``.
* :mod:`~gamenight.server.protocol` — the versioned WebSocket messages
  (msgspec structs) and their JSON Schema (``docs/protocol.md``).
* :mod:`~gamenight.server.rooms` — live rooms: tables, connections, bots,
  takeover, turn clock; the only place where actions are applied.
* :mod:`~gamenight.server.app` — the Litestar app: HTTP API, pages, socket.
"""
