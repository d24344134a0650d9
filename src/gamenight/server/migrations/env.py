"""Alembic environment: runs the migrations on a synchronous engine.

The URL comes from the Alembic config that :func:`gamenight.server.storage.schema.migrate`
builds (a new database is created at the head without it: ``server/headschema.py``). On
PostgreSQL an advisory lock serialises concurrent starts, so two server processes
starting together do not both create the schema.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine, text

from gamenight.server.storage.schema import METADATA, MIGRATION_LOCK


def run() -> None:
    url = context.config.get_main_option("sqlalchemy.url")
    assert url is not None
    engine = create_engine(url)
    with engine.connect() as connection:
        postgres = connection.dialect.name == "postgresql"
        if postgres:
            connection.execute(text("SELECT pg_advisory_lock(:id)"), {"id": MIGRATION_LOCK})
            connection.commit()
        try:
            context.configure(connection=connection, target_metadata=METADATA)
            with context.begin_transaction():
                context.run_migrations()
            connection.commit()
        finally:
            if postgres:
                connection.execute(text("SELECT pg_advisory_unlock(:id)"), {"id": MIGRATION_LOCK})
                connection.commit()
    engine.dispose()


def _configured() -> bool:
    try:
        return context.config is not None
    except (NameError, AttributeError):  # imported outside Alembic (doctest collection)
        return False


if _configured():
    run()
