"""The game server: rooms, seats, bots and a documented WebSocket protocol.

``gamenight serve`` runs :func:`gamenight.server.app.create_app` under uvicorn.
Layout:

* :mod:`~gamenight.server.storage` — SQLAlchemy 2 (async) tables and the store,
  one module per purpose (``db`` is its older name); the schema is created by the
  Alembic migration in ``migrations/``.
* :mod:`~gamenight.server.protocol` — the versioned WebSocket messages
  (msgspec structs) and their JSON Schema (``docs/protocol.md``).
* :mod:`~gamenight.server.room` — one live room (an active object) composing its
  collaborators (:mod:`~gamenight.server.live` is how they see it): its seats
  (``seating``), its course and guarded lifecycle (``course``, ``lifecycle``), its
  table, the only place where actions are applied (``play``), its chat (``chat``)
  and its catching up with other processes (``roomsync``);
  :mod:`~gamenight.server.timers` its takeover, turn clock and idle close,
  :mod:`~gamenight.server.bots` its bots, :mod:`~gamenight.server.conns` its
  sockets, :mod:`~gamenight.server.odds` its live odds; these pieces see the room
  through :mod:`~gamenight.server.roomface` (a protocol), never ``room`` itself.
* :mod:`~gamenight.server.rooms` — the ``Hub``: every room of the process,
  loaded and rebuilt on first use, re-read from the database (resync, LISTEN).
* :mod:`~gamenight.server.app` — the Litestar app: HTTP API, pages, socket.
* :mod:`~gamenight.server.serve` — the start (``gamenight serve``): the settings
  (:mod:`~gamenight.server.settings`, each a flag and a ``GAMENIGHT_*`` variable), the
  database's checks, the log (:mod:`~gamenight.server.logs`), the client's address behind
  a trusted proxy (:mod:`~gamenight.server.proxy`), invite links
  (:mod:`~gamenight.server.invite`), ``/metrics`` (:mod:`~gamenight.server.metrics`);
  :mod:`~gamenight.server.backup` is ``gamenight backup`` (``docs/deploy.md``).
"""
