"""The Alembic migration environment of the server's schema (see ``db.migrate``)."""
